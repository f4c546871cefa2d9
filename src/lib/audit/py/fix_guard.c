/* fix_guard.c - audit --fix for Python: the guarded form of a fix whose
 * replacement is newer than the floor
 * SPDX-License-Identifier: MIT
 *
 * Where the floor's torch lacks the replacement (torch.amp.custom_fwd is
 * 2.4, the package admits 1.13), a use is written as a compat name that
 * one block, after the file's leading imports, binds to the replacement
 * where torch has it and to the old API where not:
 *
 *     try:  # torchgate: compat for torch < 2.4
 *         from torch.amp import custom_fwd as _torchgate_new_custom_fwd
 *     except ImportError:
 *         from torch.cuda.amp import custom_fwd as _torchgate_custom_fwd
 *     else:
 *         def _torchgate_custom_fwd(*args, **kwargs):
 *             return _torchgate_new_custom_fwd(*args, device_type="cuda",
 *                                              **kwargs)
 *
 * Feature detection, not a version test: the import of the replacement
 * is tried (a from-import finds an attribute or a submodule, so every
 * dotted name of the table can be written so), and nothing parses or
 * compares torch's version. audit reads the old name in the except
 * branch as guarded by 'try/except ImportError'. What the block writes
 * comes from the entry's fix only: the replacement (to), and the
 * argument it inserts (insert: a keyword, or the at-th positional one),
 * which the def in the else branch passes, so that the uses keep their
 * own arguments; without an insert, the try binds the replacement
 * itself (a class stays a class). A use is renamed only where the fix's
 * shape holds (the checks of fix.c's use hook); with an insert, only a
 * call or a decorator (the compat name is a function there). A use
 * through a name an import binds (`@cfwd` after `from torch.cuda.amp
 * import custom_fwd as cfwd`, `amp.GradScaler(...)`) and the import are
 * refused here: the file-level step (fix_import.c) writes them as the
 * compat name with the whole file in view.
 *
 * Names start with _torchgate_ and the old API's last name; a file that
 * holds one of them without the very block is left with the reason.
 * The block goes after the last import of the module's leading imports
 * (after its docstring), so that it runs before any statement that
 * uses its name; a file whose first statement is no import takes none.
 * A file that holds the block already (an earlier --fix) reuses it.
 * Worst case: one pass of the tokenizer over the file per entry (and
 * two more where its compat names occur in the file's bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/audit/lang.h"
#include "lib/lex/pylex.h"
#include "lib/util/buf.h"

/* Where the block goes: the end of the last leading import's logical
 * line (*at), and the file's newline ("\r\n" when that line ends so).
 * 0 when the file's first statement (after a docstring) is no import
 * at the module level. */
static int
insert_point(const char *src, size_t len, size_t *at, const char **nl)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;
	int found = 0, first = 1, line_start = 1, import = 0, bad = 0;
	int is_doc = 0;

	*nl = "\n";
	tg_pylex_init(&lx, src, len);
	while (tg_pylex_next(&lx, &t) && t.kind != TG_PYLEX_END) {
		if (t.kind == TG_PYLEX_NL || t.kind == TG_PYLEX_COMMENT)
			continue;
		if (t.kind == TG_PYLEX_NEWLINE) {
			if (!import && !is_doc)
				break;
			if (import && !bad) {
				*at = t.off + t.len;
				*nl = t.len == 2 ? "\r\n" : "\n";
				found = 1;
			}
			if (bad)
				break;
			first = 0;
			line_start = 1;
			import = is_doc = bad = 0;
			continue;
		}
		if (line_start) {
			line_start = 0;
			if (t.col == 0 && t.kind == TG_PYLEX_NAME &&
			    ((t.len == 6 &&
			      memcmp(src + t.off, "import", 6) == 0) ||
			     (t.len == 4 &&
			      memcmp(src + t.off, "from", 4) == 0)))
				import = 1;
			else if (first && t.kind == TG_PYLEX_STRING)
				is_doc = 1;
			else
				break;
			continue;
		}
		/* a second statement on the line, or a docstring that goes
		 * on (an expression) */
		if ((t.kind == TG_PYLEX_OP && t.depth == 0 && t.len == 1 &&
		     src[t.off] == ';') ||
		    (is_doc && t.kind != TG_PYLEX_STRING))
			bad = 1;
	}
	return found;
}

/* Whether a NAME token of src is name: the tokenizer runs only where
 * the bytes occur at all (seldom: the names are _torchgate_'s). */
static int
has_name(const char *src, size_t len, const char *name)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;
	size_t n = strlen(name);

	if (!memmem(src, len, name, n))
		return 0;
	tg_pylex_init(&lx, src, len);
	while (tg_pylex_next(&lx, &t) && t.kind != TG_PYLEX_END)
		if (t.kind == TG_PYLEX_NAME && t.len == n &&
		    memcmp(src + t.off, name, n) == 0)
			return 1;
	return 0;
}

/* "from PARENT import LAST as NAME" of a dotted id. */
static void
add_from(struct tg_buf *b, const char *id, const char *name, const char *nl)
{
	const char *dot = strrchr(id, '.');

	tg_buf_addf(b, "    from %.*s import %s as %s%s", (int)(dot - id), id,
		    dot + 1, name, nl);
}

int
tg_audit_py_fix_guard(const char *src, size_t len, const struct tg_api *a,
		      const struct tg_api *repl, struct tg_lang_guard *g,
		      const char **why)
{
	const struct tg_api_fix *x = &a->fix;
	const char *last = strrchr(a->id, '.'), *nl;
	struct tg_buf b = TG_BUF_INIT;
	char fresh[160];
	size_t at = 0;
	int n;

	*why = NULL;
	if (!last || !strrchr(repl->id, '.')) {
		*why = "a name the compat block cannot import";
		return 0;
	}
	last++;
	n = snprintf(g->name, sizeof(g->name), "_torchgate_%s", last);
	if (n < 0 || (size_t)n >= sizeof(g->name) ||
	    snprintf(fresh, sizeof(fresh), "_torchgate_new_%s", last) >=
		(int)sizeof(fresh)) {
		*why = "a name too long for the compat block";
		return 0;
	}
	if (!insert_point(src, len, &at, &nl)) {
		*why = "the file does not start with imports, after which "
		       "the compat block would go";
		return 0;
	}
	/* the block, in the file's newlines */
	tg_buf_addf(&b, "%stry:  # torchgate: compat for torch < %s%s",
		    at == len && len && src[len - 1] != '\n' ? nl : "",
		    repl->introduced.version ? repl->introduced.version : "?",
		    nl);
	add_from(&b, repl->id, x->insert ? fresh : g->name, nl);
	tg_buf_addf(&b, "except ImportError:%s", nl);
	add_from(&b, a->id, g->name, nl);
	if (x->insert) {
		tg_buf_addf(&b, "else:%s    def %s(*args, **kwargs):%s", nl,
			    g->name, nl);
		if (x->insert_kw)
			tg_buf_addf(&b,
				    "        return %s(*args, %s, **kwargs)",
				    fresh, x->insert);
		else if (x->at <= 0)
			tg_buf_addf(&b,
				    "        return %s(%s, *args, **kwargs)",
				    fresh, x->insert);
		else
			tg_buf_addf(&b,
				    "        return %s(*args[:%ld], %s, "
				    "*args[%ld:], **kwargs)",
				    fresh, x->at, x->insert, x->at);
		tg_buf_addf(&b, "%s", nl);
	}
	if (tg_buf_error(&b) || !b.data) {
		tg_buf_release(&b);
		return TG_ENOMEM;
	}
	/* the block as an earlier --fix wrote it (its leading newline, if
	 * any, aside) */
	n = b.data[0] == '\r' || b.data[0] == '\n' ? (int)strlen(nl) : 0;
	if (len >= b.len && memmem(src, len, b.data + n, b.len - (size_t)n)) {
		g->present = 1;
		tg_buf_release(&b);
		return 0;
	}
	if (has_name(src, len, g->name) || has_name(src, len, fresh)) {
		tg_buf_release(&b);
		*why = "the compat block's name is taken in this file";
		return 0;
	}
	/* a blank line before it */
	g->at = at;
	g->len = b.len + strlen(nl);
	if (!(g->block = malloc(g->len + 1))) {
		tg_buf_release(&b);
		return TG_ENOMEM;
	}
	memcpy(g->block, nl, strlen(nl));
	memcpy(g->block + strlen(nl), b.data, b.len + 1);
	tg_buf_release(&b);
	return 0;
}

static int
add_none(void *ctx, size_t start, size_t end, const char *text, size_t len)
{
	(void)ctx;
	(void)start;
	(void)end;
	(void)text;
	(void)len;
	return 0;
}

int
tg_audit_py_fix_guard_use(const char *src, size_t len,
			  const struct tg_audit_finding *f, const char *name,
			  int (*add)(void *ctx, size_t start, size_t end,
				     const char *text, size_t len),
			  void *ctx, const char **why)
{
	const struct tg_api_fix *x = &f->api->fix;
	int rc;

	/* the shape the fix needs, as the plain fix checks it (its edits
	 * are not made) */
	rc = tg_audit_py_fix_use(src, len, f, x->to, add_none, NULL, why);
	if (rc || *why) {
		if (!rc && strstr(*why, "import form"))
			*why = "an import, or a use through a name one binds: "
			       "the compat name replaces a whole dotted name "
			       "only";
		return rc;
	}
	if (x->insert && strcmp(f->kind, "call") != 0 &&
	    strcmp(f->kind, "decorator") != 0) {
		*why = "not a call or a decorator, and the compat name of a "
		       "fix that inserts an argument is a function";
		return 0;
	}
	return add(ctx, f->start, f->end, name, strlen(name));
}
