/* rules.c - the Python analyzer's rules read from a call's tokens
 * SPDX-License-Identifier: MIT
 *
 * Methods (kind "method" entries, and usage patterns "(?:\.|->)name\("):
 * ".name(" after any receiver, ".name()" where the pattern says so; the
 * receiver's type is not known, so x.storage() on a non-tensor counts.
 * Parameters (kind "parameter", id FUNC.PARAM): a call resolved to FUNC
 * (or to another function its pattern names before "\s*\(", such as
 * CUDAExtension) passing PARAM=; FUNC under a class (torch.nn.Module.
 * load_state_dict) is a method on any receiver, and where two such
 * entries have one method and keyword (LRScheduler.step.epoch and
 * ReduceLROnPlateau.step.epoch) a call is a use of the first in the
 * table's order only, the receiver's class being unknown; FUNC a module
 * named "functional" means any function in it (size_average=). The
 * keywords are PARAM and those the entry's patterns "\bNAME\s*=" name
 * (reduce=); the argument's value is not read, but where the pattern
 * goes on "(?!\s*None\b)" KW=None alone is no use; a positional use
 * of a parameter is not seen. Behaviours (kind
 * "behavior"): the ones in tg_audit_py_behaviours[] below are judged
 * from the call's arguments (torch.load without weights_only=, checkpoint
 * without use_reentrant=, onnx.export without dynamo=, softmax with
 * neither dim= nor a second positional argument); a call with *args or
 * **kwargs is not judged; other behaviour entries are not reported by
 * this analyzer.
 *
 * Worst case: a call's arguments are read once per rule that names it.
 */
#include <stdint.h>
#include <string.h>

#include "lib/audit/py/internal.h"

const struct behav_rule tg_audit_py_behaviours[NBEHAV] = {
    {"torch.load.weights_only_default_true",
     {"torch.load"},
     "weights_only",
     -1},
    {"torch.load.weights_only_futurewarning",
     {"torch.load"},
     "weights_only",
     -1},
    {"torch.nn.functional.softmax.implicit_dim",
     {"torch.nn.functional.softmax", "torch.nn.functional.log_softmax",
      "torch.nn.functional.softmin"},
     "dim",
     1},
    {"torch.onnx.export.dynamo_default", {"torch.onnx.export"}, "dynamo", -1},
    {"torch.utils.checkpoint.checkpoint.use_reentrant_implicit",
     {"torch.utils.checkpoint.checkpoint"},
     "use_reentrant",
     -1},
};

/* The index of the closer of the bracket opened at token p, or n. */
size_t
tg_audit_py_closer(const struct state *st, size_t p)
{
	size_t d = st->t[p].depth, k;

	for (k = p + 1; k < st->n; k++)
		if (st->t[k].kind == TG_PYLEX_OP && st->t[k].depth == d &&
		    st->t[k].len == 1 && strchr(")]}", st->s[st->t[k].off]))
			return k;
	return st->n;
}

/* The arguments of the call whose '(' is token p: whether keyword kw is
 * passed (*kwat its token), how many positional ones, whether ** or *
 * is there. 0 when the call does not end in the buffer. */
static int
call_args(const struct state *st, size_t p, const char *kw, size_t *kwat,
	  size_t *npos, int *star, int *empty)
{
	size_t c = tg_audit_py_closer(st, p), d = st->t[p].depth + 1, k,
	       kl = strlen(kw);
	int start = 1;

	*kwat = SIZE_MAX;
	*npos = 0;
	*star = 0;
	*empty = c == p + 1;
	if (c >= st->n)
		return 0;
	for (k = p + 1; k < c; k++) {
		if (st->t[k].depth != d)
			continue;
		if (tok_op(st, k, ",")) {
			start = 1;
			continue;
		}
		if (!start)
			continue;
		start = 0;
		if (tok_name(st, k) && tok_op(st, k + 1, "=")) {
			if (st->t[k].len == kl &&
			    memcmp(st->s + st->t[k].off, kw, kl) == 0)
				*kwat = k;
		} else if (tok_op(st, k, "**") || tok_op(st, k, "*")) {
			*star = 1;
		} else {
			(*npos)++;
		}
	}
	return 1;
}

/* Whether rule pr's keyword at token kwat is a use: its value is not
 * None alone where the rule says None is none. */
static int
param_use(const struct state *st, const struct param_rule *pr, size_t kwat)
{
	return !(pr->not_none && tok_kw(st, kwat + 2, "None") &&
		 (tok_op(st, kwat + 3, ",") || tok_op(st, kwat + 3, ")")));
}

/* A call of full (resolved) at '(' token p: parameters and behaviours. */
void
tg_audit_py_check_call(struct state *st, const char *full, size_t fl, size_t p,
		       size_t head)
{
	const struct tg_audit_py_index *ix = st->ix;
	size_t k, b, kwat, npos;
	int star, empty;
	/* whether a rule may name full itself: only one whose function
	 * ends with full's last component does; else only a module full
	 * is under may match */
	int exact = last_get(ix->call_leaf, full, fl);
	const size_t *rules = exact ? ix->call_rules : ix->under_rules;
	size_t nrules = exact ? ix->ncall : ix->nunder;

	for (k = 0; k < nrules; k++) {
		const struct param_rule *pr = &ix->params[rules[k]];
		size_t pl = pr->flen;

		if (!(pl == fl && memcmp(pr->func, full, fl) == 0) &&
		    !(pr->under && fl > pl && full[pl] == '.' &&
		      memcmp(pr->func, full, pl) == 0))
			continue;
		if (call_args(st, p, pr->kw, &kwat, &npos, &star, &empty) &&
		    kwat != SIZE_MAX && param_use(st, pr, kwat))
			tg_audit_py_emit(
			    st, pr->api, st->t[kwat].line, st->t[kwat].col,
			    TG_AUDIT_IN_CODE, "argument", kwat,
			    st->s + st->t[kwat].off, st->t[kwat].len,
			    st->t[kwat].off, st->t[kwat].off + st->t[kwat].len);
	}
	for (b = 0; exact && b < NBEHAV; b++) {
		const struct behav_rule *br = &tg_audit_py_behaviours[b];
		int hit = 0;

		if (!ix->behav[b])
			continue;
		for (k = 0; k < 4 && br->funcs[k]; k++)
			if (strlen(br->funcs[k]) == fl &&
			    memcmp(br->funcs[k], full, fl) == 0)
				hit = 1;
		if (!hit ||
		    !call_args(st, p, br->kw, &kwat, &npos, &star, &empty))
			continue;
		if (kwat != SIZE_MAX || star ||
		    (br->pos >= 0 && npos > (size_t)br->pos))
			continue;
		tg_audit_py_emit(
		    st, ix->behav[b], st->t[head].line, st->t[head].col,
		    TG_AUDIT_IN_CODE, "call", head, st->s + st->t[head].off,
		    st->t[p].off - st->t[head].off, st->t[head].off,
		    st->t[p - 1].off + st->t[p - 1].len);
	}
}

/* ".name(" at token i (a name after a '.'): methods and method
 * parameters. */
void
tg_audit_py_check_method(struct state *st, size_t i)
{
	const struct tg_audit_py_index *ix = st->ix;
	const char *nm = st->s + st->t[i].off;
	size_t nl = st->t[i].len, k, kwat, npos;
	int star, empty;

	if (!hot_get(ix->meth, hot_key(nm, nl)))
		return;
	for (k = 0; k < ix->nmethods; k++) {
		const struct method_rule *m = &ix->methods[k];

		if (m->nlen != nl || memcmp(m->name, nm, nl) != 0)
			continue;
		if (m->zeroarg && !tok_op(st, i + 2, ")"))
			continue;
		tg_audit_py_emit(st, m->api, st->t[i].line, st->t[i].col,
				 TG_AUDIT_IN_CODE, "method", i, nm - 1, nl + 1,
				 st->t[i].off, st->t[i].off + nl);
	}
	for (k = 0; k < ix->nparams; k++) {
		const struct param_rule *pr = &ix->params[k];

		if (!pr->method || pr->twin || pr->flen != nl ||
		    memcmp(pr->func, nm, nl) != 0)
			continue;
		if (call_args(st, i + 1, pr->kw, &kwat, &npos, &star, &empty) &&
		    kwat != SIZE_MAX && param_use(st, pr, kwat))
			tg_audit_py_emit(
			    st, pr->api, st->t[kwat].line, st->t[kwat].col,
			    TG_AUDIT_IN_CODE, "argument", kwat,
			    st->s + st->t[kwat].off, st->t[kwat].len,
			    st->t[kwat].off, st->t[kwat].off + st->t[kwat].len);
	}
}
