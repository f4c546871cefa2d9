/* audit_py.c - the Python analyzer: uses of the table's Python APIs
 * SPDX-License-Identifier: MIT
 *
 * One pass over lex/pylex's tokens, a logical line at a time. The line's
 * tokens (comments and NLs left out) are buffered, at most LINE_TOKS
 * of them: a longer logical line is analyzed in parts, with a note, and
 * its later parts only for references. Per line: the block stack moves
 * by the indentation of the line's first token (pylex makes no INDENT
 * or DEDENT); a compound header (if/elif/else/try/except/finally, and
 * the others only as blocks) pushes or switches a block; imports bind
 * names; references are resolved; assignments, def and class end an
 * alias. Comments and strings are scanned for mentions and suppression
 * comments.
 *
 * Bindings: one scope for the whole file, in source order (a name bound
 * inside a function counts after it for the rest of the file), but a
 * def's parameters hide the torch names they spell in its body (the
 * def's block puts them back when it ends; the names in its header are
 * no uses). A name that a try's body bound to torch and a handler of
 * that try that guards binds again (a fallback: "except ImportError:
 * get_global_rank = _get_global_rank") keeps the body's binding, and
 * the try guards its later uses (bind_set). Only
 * names bound to a table root ("torch", "functorch": the first component
 * of an id) are kept, at most BINDINGS_MAX; a root name is bound to
 * itself until something else binds it. Star imports of a torch module
 * make every entry directly under it a bare name (STARS_MAX modules).
 *
 * Names: an index built once from the table (tg_audit_py_index_new)
 * maps dotted names to entries: each id, and the spellings its usage
 * patterns write literally (\bA\.B\b, alternations such as
 * (?:Float|Double)Storage expanded, "from A import ... N" as A.N), but
 * for a spelling that is a package prefix of an entry's id (the pattern
 * \btorch\.linalg\b of torch.linalg.solve: a regex hint, not a name). A
 * resolved chain matches its longest prefix that is a name; failing
 * that prefix, the same prefix without its next-to-last component when
 * that is a module-like name under a package of two or more components
 * (torch.cuda.amp.autocast_mode.autocast is torch.cuda.amp.autocast:
 * packages re-export what their submodules define); getattr(CHAIN,
 * "name") with a literal name is a use of CHAIN.name (check_getattr).
 * Patterns that do
 * neither ((?:\w+\.)?, lookaheads) are not run: methods, parameters and
 * behaviours are read from the tokens instead, see the rules below.
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
 * table's order only, the receiver's class being unknown; FUNC a module named
 * "functional" means any function in it (size_average=). A positional
 * use of a parameter is not seen. Behaviours (kind "behavior"): the ones
 * in behaviours[] below are judged from the call's arguments (torch.load
 * without weights_only=, checkpoint without use_reentrant=, onnx.export
 * without dynamo=, softmax with neither dim= nor a second positional
 * argument); a call with *args or **kwargs is not judged; other
 * behaviour entries are not reported by this analyzer.
 *
 * The expressions of f-string fields are code (scan_fields: each field
 * tokenized on its own, its guards those of the string), the rest of an
 * f-string is text for mentions. Not read: a def's parameters in a
 * body on the def's own line (def f(torch): return torch.x) or after
 * type parameters (def f[T](torch)), a lambda's parameters (lambda
 * torch: torch.x reads as a use of torch.x); tuple compares are read as if
 * the name held a tuple as long as the literal: TORCH_VERSION > (2, 4)
 * is >=2.5. The targets of for, with ... as and except ... as end an
 * alias (header_targets).
 *
 * Guards: the innermost block that guards wins; a try's handlers are
 * seen after its body, so the body's findings are patched when an
 * except clause is read (they are the last ones appended). Version
 * branches are the if/elif/else clauses whose test is one comparison of
 * a torch version that can be read exactly (or an "and" of them), or,
 * failing that, a test the grid decides (read_test_grid: "or", "not",
 * TORCH_MAJOR and TORCH_MINOR apart, is_torch_min_version(...) calls).
 *
 * Worst case: linear in the input; memory is the line buffer, the
 * bindings and the block stack, all bounded, plus the findings.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/lex/pylex.h"

#define LINE_TOKS 32768	  /* tokens of one logical line analyzed at once */
#define CHAIN_MAX 32	  /* components of a dotted name */
#define NAME_MAX_LEN 512  /* bytes of a resolved dotted name */
#define BINDINGS_MAX 4096 /* names bound per file */
#define BIND_SLOTS0 64	  /* the first hash table (a power of two) */
#define HOT_BITS 16384	  /* the filter of names a line must hold to matter */
#define STARS_MAX 16
#define SHADOWS_MAX 8 /* parameters of one def that hide a torch name */
#define ROOTS_MAX 8
#define BLOCKS_MAX 200
#define INTERVALS_MAX 64
#define TEXT_MAX 200 /* bytes of a finding's text */
#define EXPAND_MAX 64
#define KW_SLOTS 128

/* ------------------------------------------------------------------ */
/* The index */

struct name_ent {
	char *name;
	size_t len;
	uint32_t hash;
	const struct tg_api *api;
};

/* A method: ".name(" on any receiver (its type is not known). */
struct method_rule {
	char *name;
	size_t nlen;
	const struct tg_api *api;
	int zeroarg; /* only ".name()" */
};

/* A parameter entry func.param: a call of func with param=. */
struct param_rule {
	const struct tg_api *api;
	char *func; /* the resolved dotted name, or a method's name */
	size_t flen;
	int method; /* func is a method: ".func(" on any receiver */
	int under;  /* func is a module: any function under it */
	int twin;   /* an earlier method rule has this func and kw: skipped */
	char *kw;
};

/* A behaviour judged from a call's arguments: the call of one of funcs
 * without the keyword kw (nor a positional argument at pos, when pos is
 * not -1). */
struct behav_rule {
	const char *id;
	const char *funcs[4];
	const char *kw;
	int pos;
};

static const struct behav_rule behaviours[] = {
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
#define NBEHAV (sizeof(behaviours) / sizeof(behaviours[0]))

struct tg_audit_py_index {
	struct name_ent *slots;
	size_t nslots, nnames;
	struct method_rule *methods;
	size_t nmethods;
	struct param_rule *params;
	size_t nparams;
	const struct tg_api *behav[NBEHAV];
	char roots[ROOTS_MAX][32];
	size_t rootlen[ROOTS_MAX];
	size_t nroots;
	/* the roots may_match looks for: those that hold no other root
	 * (a text holding "functorch" holds "torch") */
	unsigned char root_implied[ROOTS_MAX];
	/* a bit per hot_key of a root, a method's or a method parameter's
	 * name: a logical line with none of them (and no string, and no
	 * name the file bound) cannot hold a use (hot_line) */
	unsigned char hot[HOT_BITS / 8];
	/* Python's keywords by kw_slot (a perfect hash of them), and
	 * their lengths (0: a free slot) */
	const char *kw[KW_SLOTS];
	unsigned char kwlen[KW_SLOTS];
};

#define HASH0 2166136261u /* FNV-1a */

static uint32_t
hash_more(uint32_t h, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		h ^= (unsigned char)s[k];
		h *= 16777619u;
	}
	return h;
}

static uint32_t
hash_bytes(const char *s, size_t n)
{
	return hash_more(HASH0, s, n);
}

/* The hot filter's key of name s[0..n) (n > 0): from its length and
 * three of its bytes, as every name of a file is looked up. */
static inline uint32_t
hot_key(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	return ((uint32_t)u[0] * 131u + (uint32_t)u[n - 1] * 31u +
		(uint32_t)u[n / 2] * 17u + (uint32_t)n * 7u) &
	       (HOT_BITS - 1);
}

static void
hot_set(unsigned char *bits, const char *s, size_t n)
{
	uint32_t k = n ? hot_key(s, n) : 0;

	bits[k >> 3] |= (unsigned char)(1u << (k & 7));
}

static int
hot_get(const unsigned char *bits, uint32_t k)
{
	return bits[k >> 3] & (1u << (k & 7));
}

/* Python's keywords (keyword.kwlist). */
static const char *const keywords[] = {
    "False",  "None",	"True",	   "and",      "as",	   "assert", "async",
    "await",  "break",	"class",   "continue", "def",	   "del",    "elif",
    "else",   "except", "finally", "for",      "from",	   "global", "if",
    "import", "in",	"is",	   "lambda",   "nonlocal", "not",    "or",
    "pass",   "raise",	"return",  "try",      "while",	   "with",   "yield",
};

/* The slot of name s[0..n) (n > 0) in the index's keyword table: a
 * hash with no two of Python's keywords in one slot (which
 * tg_audit_py_index_new asserts). */
static inline unsigned
kw_slot(const char *s, size_t n)
{
	return ((unsigned char)s[0] + 11u * (unsigned char)s[n - 1] +
		(unsigned)n) &
	       (KW_SLOTS - 1);
}

static const struct tg_api *
index_find_h(const struct tg_audit_py_index *ix, const char *s, size_t n,
	     uint32_t h)
{
	size_t k = h & (ix->nslots - 1);

	for (;;) {
		const struct name_ent *e = &ix->slots[k];

		if (!e->name)
			return NULL;
		if (e->hash == h && e->len == n && memcmp(e->name, s, n) == 0)
			return e->api;
		k = (k + 1) & (ix->nslots - 1);
	}
}

static const struct tg_api *
index_find(const struct tg_audit_py_index *ix, const char *s, size_t n)
{
	return index_find_h(ix, s, n, hash_bytes(s, n));
}

/* Add name -> api; the first entry to claim a name keeps it. */
static int
index_add(struct tg_audit_py_index *ix, const char *s, size_t n,
	  const struct tg_api *api)
{
	uint32_t h = hash_bytes(s, n);
	size_t k = h & (ix->nslots - 1);

	if (n == 0 || ix->nnames + 1 >= ix->nslots / 2)
		return 0;
	for (;;) {
		struct name_ent *e = &ix->slots[k];

		if (!e->name) {
			e->name = malloc(n + 1);
			if (!e->name)
				return TG_ENOMEM;
			memcpy(e->name, s, n);
			e->name[n] = '\0';
			e->len = n;
			e->hash = h;
			e->api = api;
			ix->nnames++;
			return 0;
		}
		if (e->hash == h && e->len == n && memcmp(e->name, s, n) == 0)
			return 0;
		k = (k + 1) & (ix->nslots - 1);
	}
}

static int
ident_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (c >= '0' && c <= '9') || c >= 0x80;
}

/* Expand a pattern made only of literal name characters, "\.", "\b"
 * (ignored), and non-nested groups "(?:a|b)" with an optional "?", up
 * to stop (exclusive), into at most EXPAND_MAX strings written to
 * out[k] (each of size NAME_MAX_LEN). The count, or -1 when the
 * pattern is of another shape or expands to more. */
static int
expand(const char *p, const char *stop, char out[][NAME_MAX_LEN])
{
	char alts[EXPAND_MAX][NAME_MAX_LEN];
	int n = 1, k;

	out[0][0] = '\0';
	while (p < stop) {
		if (p[0] == '\\' && p + 1 < stop && p[1] == 'b') {
			p += 2;
		} else if (p[0] == '\\' && p + 1 < stop && p[1] == '.') {
			for (k = 0; k < n; k++)
				if (strlen(out[k]) + 2 < NAME_MAX_LEN)
					strcat(out[k], ".");
			p += 2;
		} else if (ident_char((unsigned char)p[0]) &&
			   (unsigned char)p[0] < 0x80) {
			for (k = 0; k < n; k++) {
				size_t l = strlen(out[k]);

				if (l + 2 < NAME_MAX_LEN) {
					out[k][l] = p[0];
					out[k][l + 1] = '\0';
				}
			}
			p++;
		} else if (p[0] == '(' && p + 2 < stop && p[1] == '?' &&
			   p[2] == ':') {
			const char *q = p + 3, *e;
			char piece[EXPAND_MAX][64];
			int np = 0, opt, m = 0, j;

			for (e = q; e < stop && *e != ')'; e++)
				if (*e == '(' || *e == '[' ||
				    (*e == '\\' && e[1] != '.'))
					return -1;
				else if (*e == '\\')
					e++;
			if (e >= stop)
				return -1;
			while (q <= e) {
				const char *a = q;

				while (q < e && *q != '|')
					q++;
				if (np >= EXPAND_MAX || q - a >= 64)
					return -1;
				for (j = 0; a < q; a++)
					if (*a != '\\')
						piece[np][j++] = *a;
				piece[np][j] = '\0';
				for (j = 0; piece[np][j]; j++)
					if (!ident_char(
						(unsigned char)piece[np][j]) &&
					    piece[np][j] != '.')
						return -1;
				np++;
				q++;
			}
			p = e + 1;
			opt = p < stop && *p == '?';
			if (opt) {
				p++;
				if (np >= EXPAND_MAX)
					return -1;
				piece[np++][0] = '\0';
			}
			if (n * np > EXPAND_MAX)
				return -1;
			for (k = 0; k < n; k++)
				for (j = 0; j < np; j++) {
					if (strlen(out[k]) + strlen(piece[j]) +
						1 >=
					    NAME_MAX_LEN)
						return -1;
					strcpy(alts[m], out[k]);
					strcat(alts[m], piece[j]);
					m++;
				}
			for (k = 0; k < m; k++)
				strcpy(out[k], alts[k]);
			n = m;
		} else {
			return -1;
		}
	}
	return n;
}

static int
starts_with(const char *s, const char *pre)
{
	return strncmp(s, pre, strlen(pre)) == 0;
}

/* "from\s+A\s+import\s+(?:\([^)]*|[^\n]*)\bN\b": A.N into out. */
static int
from_pattern(const char *u, char *out)
{
	static const char mid[] = "\\s+import\\s+(?:\\([^)]*|[^\\n]*)\\b";
	const char *a, *m, *n;
	char mod[1][NAME_MAX_LEN], nm[1][NAME_MAX_LEN];
	size_t ln;

	if (!starts_with(u, "from\\s+"))
		return 0;
	a = u + 7;
	m = strstr(a, mid);
	if (!m)
		return 0;
	n = m + strlen(mid);
	ln = strlen(n);
	if (ln < 3 || strcmp(n + ln - 2, "\\b") != 0)
		return 0;
	if (expand(a, m, mod) != 1 || expand(n, n + ln - 2, nm) != 1)
		return 0;
	if (strlen(mod[0]) + strlen(nm[0]) + 2 >= NAME_MAX_LEN ||
	    strchr(nm[0], '.'))
		return 0;
	{
		size_t a0 = strlen(mod[0]), a1 = strlen(nm[0]);

		memcpy(out, mod[0], a0);
		out[a0] = '.';
		memcpy(out + a0 + 1, nm[0], a1 + 1);
	}
	return 1;
}

/* Whether name is a package prefix of a Python entry's id ("torch.linalg"
 * of "torch.linalg.solve"): a usage pattern spelling it is a hint for a
 * regex search, not a name of the entry (every torch.linalg.* would be
 * reported as torch.linalg.solve). */
static int
package_prefix(const struct tg_table *t, const char *name)
{
	size_t n = strlen(name), lo = 0, hi = t->n, k;

	/* the ids are sorted (strcmp): those that start with name are
	 * one run from the first id not below name */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->apis[mid].id, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < t->n && strncmp(t->apis[k].id, name, n) == 0; k++)
		if (!t->apis[k].cxx && t->apis[k].id[n] == '.')
			return 1;
	return 0;
}

static void
add_root(struct tg_audit_py_index *ix, const char *id)
{
	size_t n = strcspn(id, "."), k;

	if (n == 0 || n >= sizeof(ix->roots[0]))
		return;
	for (k = 0; k < ix->nroots; k++)
		if (strlen(ix->roots[k]) == n &&
		    memcmp(ix->roots[k], id, n) == 0)
			return;
	if (ix->nroots < ROOTS_MAX) {
		memcpy(ix->roots[ix->nroots], id, n);
		ix->roots[ix->nroots][n] = '\0';
		ix->rootlen[ix->nroots] = n;
		ix->nroots++;
	}
}

/* Whether the dotted name's last-but-one component starts upper case:
 * torch.nn.Module.load_state_dict is a method. */
static int
is_method_path(const char *id)
{
	const char *last = strrchr(id, '.'), *p;

	if (!last)
		return 0;
	for (p = last - 1; p > id && p[-1] != '.'; p--)
		;
	return p >= id && *p >= 'A' && *p <= 'Z';
}

static int
add_method(struct tg_audit_py_index *ix, const char *name, size_t n,
	   const struct tg_api *api, int zeroarg)
{
	struct method_rule *v;

	v = realloc(ix->methods, (ix->nmethods + 1) * sizeof(*v));
	if (!v)
		return TG_ENOMEM;
	ix->methods = v;
	v[ix->nmethods].name = strndup(name, n);
	if (!v[ix->nmethods].name)
		return TG_ENOMEM;
	v[ix->nmethods].nlen = n;
	v[ix->nmethods].api = api;
	v[ix->nmethods].zeroarg = zeroarg;
	ix->nmethods++;
	return 0;
}

static int
add_param(struct tg_audit_py_index *ix, const struct tg_api *api,
	  const char *func, size_t fn, int method, int under, const char *kw)
{
	struct param_rule *v;

	v = realloc(ix->params, (ix->nparams + 1) * sizeof(*v));
	if (!v)
		return TG_ENOMEM;
	ix->params = v;
	v += ix->nparams;
	v->api = api;
	v->func = strndup(func, fn);
	v->flen = fn;
	v->kw = strdup(kw);
	v->method = method;
	v->under = under;
	v->twin = 0;
	if (!v->func || !v->kw) {
		free(v->func);
		free(v->kw);
		return TG_ENOMEM;
	}
	ix->nparams++;
	return 0;
}

/* A method pattern "(?:\.|->)NAME\(\s*\)" or "(?:\.|->)NAME\s*\(". */
static int
method_pattern(const char *u, size_t *nlen, int *zeroarg)
{
	static const char pre[] = "(?:\\.|->)";
	const char *n = u + strlen(pre), *e;

	if (!starts_with(u, pre))
		return 0;
	for (e = n; ident_char((unsigned char)*e); e++)
		;
	if (e == n)
		return 0;
	*nlen = (size_t)(e - n);
	if (strcmp(e, "\\(\\s*\\)") == 0) {
		*zeroarg = 1;
		return 1;
	}
	if (strcmp(e, "\\s*\\(") == 0) {
		*zeroarg = 0;
		return 1;
	}
	return 0;
}

/* A parameter entry: the call it is a keyword of, and the other
 * functions its usage patterns name before "\s*\(" (CppExtension's
 * CUDAExtension, is_autocast_enabled's set_autocast_enabled). */
static int
index_param(struct tg_audit_py_index *ix, const struct tg_api *a)
{
	static char names[EXPAND_MAX][NAME_MAX_LEN];
	const char *dot = strrchr(a->id, '.'), *kw, *par;
	size_t fn, k, pl;
	int rc, method, under, n, j;

	if (!dot || dot == a->id)
		return 0;
	kw = dot + 1;
	fn = (size_t)(dot - a->id);
	{
		char func[NAME_MAX_LEN];

		if (fn >= sizeof(func))
			return 0;
		memcpy(func, a->id, fn);
		func[fn] = '\0';
		method = is_method_path(func);
		/* a module (no call of its own): any function under it */
		under = !method && index_find(ix, func, fn) == NULL &&
			strchr(func + strcspn(func, ".") + 1, '.') != NULL &&
			func[fn - 1] != ')' && strrchr(func, '.')[1] >= 'a' &&
			strcmp(strrchr(func, '.') + 1, "functional") == 0;
		if (method) {
			const char *m = strrchr(func, '.') + 1;

			rc = add_param(ix, a, m, strlen(m), 1, 0, kw);
		} else {
			rc = add_param(ix, a, func, fn, 0, under, kw);
		}
		if (rc)
			return rc;
		par = strrchr(func, '.');
		pl = par ? (size_t)(par - func) : 0;
		for (k = 0; k < a->nusage; k++) {
			const char *u = a->usage[k], *st = strstr(u, "\\s*\\(");

			if (!st || st == u)
				continue;
			n = expand(u, st, names);
			for (j = 0; j < n; j++) {
				char full[NAME_MAX_LEN];

				if (strchr(names[j], '.') || !names[j][0] ||
				    method)
					continue;
				if (pl + strlen(names[j]) + 2 >= sizeof(full))
					continue;
				memcpy(full, func, pl);
				full[pl] = '.';
				strcpy(full + pl + 1, names[j]);
				if (strcmp(full, func) == 0)
					continue;
				rc = add_param(ix, a, full, strlen(full), 0, 0,
					       kw);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

void
tg_audit_py_index_free(struct tg_audit_py_index *ix)
{
	size_t k;

	if (!ix)
		return;
	for (k = 0; k < ix->nslots; k++)
		free(ix->slots[k].name);
	free(ix->slots);
	for (k = 0; k < ix->nmethods; k++)
		free(ix->methods[k].name);
	free(ix->methods);
	for (k = 0; k < ix->nparams; k++) {
		free(ix->params[k].func);
		free(ix->params[k].kw);
	}
	free(ix->params);
	free(ix);
}

int
tg_audit_py_index_new(struct tg_audit_py_index **out, const struct tg_table *t,
		      struct tg_err *err)
{
	static char names[EXPAND_MAX][NAME_MAX_LEN];
	struct tg_audit_py_index *ix;
	size_t k, u, b;
	int rc = TG_ENOMEM, n, j;

	*out = NULL;
	ix = calloc(1, sizeof(*ix));
	if (!ix)
		goto out;
	for (ix->nslots = 64; ix->nslots < t->n * 16; ix->nslots *= 2)
		;
	ix->slots = calloc(ix->nslots, sizeof(*ix->slots));
	if (!ix->slots)
		goto out;
	for (k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++) {
		unsigned h = kw_slot(keywords[k], strlen(keywords[k]));

		assert(!ix->kw[h]); /* kw_slot is a perfect hash of them */
		ix->kw[h] = keywords[k];
		ix->kwlen[h] = (unsigned char)strlen(keywords[k]);
	}
	/* ids first: an id is never claimed by another entry's pattern */
	for (k = 0; k < t->n; k++) {
		const struct tg_api *a = &t->apis[k];

		if (a->cxx)
			continue;
		add_root(ix, a->id);
		if (strcmp(a->kind, "method") == 0 ||
		    strcmp(a->kind, "parameter") == 0 ||
		    strcmp(a->kind, "behavior") == 0 ||
		    strcmp(a->kind, "build") == 0)
			continue;
		if ((rc = index_add(ix, a->id, strlen(a->id), a)))
			goto out;
	}
	for (k = 0; k < t->n; k++) {
		const struct tg_api *a = &t->apis[k];
		int names_ok = strcmp(a->kind, "parameter") != 0 &&
			       strcmp(a->kind, "behavior") != 0 &&
			       strcmp(a->kind, "build") != 0;

		if (a->cxx)
			continue;
		if (strcmp(a->kind, "method") == 0) {
			const char *m = strrchr(a->id, '.');

			if (m &&
			    (rc = add_method(ix, m + 1, strlen(m + 1), a, 0)))
				goto out;
		}
		if (strcmp(a->kind, "parameter") == 0 &&
		    (rc = index_param(ix, a)))
			goto out;
		for (u = 0; u < a->nusage; u++) {
			const char *p = a->usage[u];
			char full[NAME_MAX_LEN];
			size_t ml;
			int za;

			if (method_pattern(p, &ml, &za)) {
				const char *m = strrchr(a->id, '.');

				/* the id's own method was added above; a
				 * zero-argument form narrows it */
				if (strcmp(a->kind, "method") == 0 && m &&
				    strlen(m + 1) == ml &&
				    memcmp(m + 1, p + 9, ml) == 0) {
					size_t q;

					for (q = 0; q < ix->nmethods; q++)
						if (ix->methods[q].api == a)
							ix->methods[q].zeroarg =
							    za;
					continue;
				}
				if ((rc = add_method(ix, p + 9, ml, a, za)))
					goto out;
				continue;
			}
			if (!names_ok)
				continue;
			if (from_pattern(p, full)) {
				if (!package_prefix(t, full) &&
				    (rc = index_add(ix, full, strlen(full), a)))
					goto out;
				continue;
			}
			n = expand(p, p + strlen(p), names);
			for (j = 0; j < n; j++)
				if (strchr(names[j], '.') &&
				    !package_prefix(t, names[j]) &&
				    (rc = index_add(ix, names[j],
						    strlen(names[j]), a)))
					goto out;
		}
	}
	for (b = 0; b < NBEHAV; b++)
		ix->behav[b] = tg_table_find(t, behaviours[b].id);
	for (k = 0; k < ix->nroots; k++) {
		size_t o;

		hot_set(ix->hot, ix->roots[k], ix->rootlen[k]);
		for (o = 0; o < ix->nroots; o++)
			if (o != k && strstr(ix->roots[k], ix->roots[o]))
				ix->root_implied[k] = 1;
	}
	for (k = 0; k < ix->nmethods; k++)
		hot_set(ix->hot, ix->methods[k].name, ix->methods[k].nlen);
	for (k = 0; k < ix->nparams; k++) {
		struct param_rule *pr = &ix->params[k];

		if (!pr->method)
			continue;
		hot_set(ix->hot, pr->func, pr->flen);
		for (u = 0; u < k && !pr->twin; u++)
			pr->twin = ix->params[u].method &&
				   strcmp(ix->params[u].func, pr->func) == 0 &&
				   strcmp(ix->params[u].kw, pr->kw) == 0;
	}
	rc = 0;
	*out = ix;
	ix = NULL;
out:
	tg_audit_py_index_free(ix);
	if (rc)
		tg_err_set(err, rc,
			   "cannot index the API table: out of memory");
	return rc;
}

/* ------------------------------------------------------------------ */
/* Per file */

/* What guards the uses of a name bound to torch in two alternatives
 * (bind_set): the try or the if. */
struct bind_guard {
	enum tg_audit_guard kind; /* TG_AUDIT_UNGUARDED: no fallback */
	size_t line;
	char text[96]; /* as a block's gtext */
};

/* Where a binding was made: in clause `clause` of the block numbered
 * `block` (the innermost try, or if that guards; 0: none). */
struct bind_site {
	size_t block, clause;
};

struct binding {
	const char *name; /* into the source */
	size_t nlen;
	char *target; /* NULL: bound to something that is not torch */
	struct bind_site site;
	struct bind_guard fb;
};

/* A def's parameter that hides a name bound to torch: the binding to
 * put back when the def's block ends. */
struct shadow {
	const char *name; /* into the source */
	size_t nlen;
	char *target;
	struct bind_site site;
	struct bind_guard fb;
};

struct block {
	size_t indent, line;
	struct shadow shadows[SHADOWS_MAX];
	size_t nshadows;
	int kind;   /* B_IF, B_TRY, B_OTHER */
	int clause; /* try: 0 body, 1 except, 2 else, 3 finally; if: 0 the
		       if, 1... each elif and the else */
	enum tg_audit_guard guard;
	char gtext[96];
	size_t gline;
	size_t first;  /* try: the first finding appended inside it */
	size_t serial; /* if, try: its number in the file, from 1 */
	/* version branch of the current clause */
	int vb;
	size_t cl_line;
	char cond[TEXT_MAX], req[160], neg[160];
};

enum { B_OTHER, B_IF, B_TRY };

struct interval {
	size_t a, b; /* token indexes, b exclusive */
	char text[128];
};

struct state {
	const struct tg_audit_py_index *ix;
	const char *s;
	size_t len;
	const char *path;
	struct tg_audit_result *r;
	struct tg_pylex_tok *t; /* the line's tokens */
	unsigned char *ann;	/* per token: in an annotation */
	unsigned char *tc;	/* per token: its tok_code */
	size_t n;
	int cont; /* the buffer continues a longer logical line */
	int noted_long, noted_nul, noted_bind, noted_unterm;
	struct binding *bind;
	uint32_t *slots;	       /* index + 1 into bind, 0 empty */
	size_t nbind, capbind, nslots; /* nslots: a power of two, > 2 nbind */
	/* a bit per (first byte, length) some bound name has: most names
	 * are not bound, and are told so without hashing */
	unsigned char bound_bits[256 / 8];
	unsigned char hot[HOT_BITS / 8]; /* the index's, and names bound */
	int hot_line;			 /* the line may hold a use */
	char *stars[STARS_MAX];
	size_t nstars;
	size_t nblocks, nserial;
	size_t niv;
	size_t last_line; /* the last line of the previous logical line */
	/* reading an f-string's fields (scan_fields): the string's token
	 * in the line, whose conditional-expression guards apply, and its
	 * line; SIZE_MAX when not */
	size_t field_of, field_line;
	/* the binding of the head of the chain being reported, whose
	 * fallback guards its uses (NULL: none) */
	const struct binding *via;
	/* a getattr with a default being reported: it copes with the
	 * name's absence, so it guards itself */
	int self_guarded;
	/* reading a def's header: the index of its '(' (its parameters'
	 * names are no uses), else SIZE_MAX */
	size_t params_at;
	int rc;
	/* last, and not cleared for a new file: only [0, nblocks) and
	 * [0, niv) are ever read */
	struct block blocks[BLOCKS_MAX];
	struct interval iv[INTERVALS_MAX];
};

static inline int
tok_isn(const struct state *st, size_t i, const char *text, size_t n)
{
	return i < st->n && st->t[i].len == n &&
	       st->s[st->t[i].off] == text[0] &&
	       memcmp(st->s + st->t[i].off, text, n) == 0 &&
	       (st->t[i].kind == TG_PYLEX_OP || st->t[i].kind == TG_PYLEX_NAME);
}

/* text is a string literal, or a string with its length computed */
#define tok_is(st, i, text) tok_isn((st), (i), (text), strlen(text))

/* A token's code, kept per token of the line (st->tc) so that the
 * passes over a line ask one byte of each token, not its kind, length
 * and text: an operator of one byte is that byte, a longer one
 * TC_OPS; a name that is a Python keyword TC_KEYWORD (tok_kw asks only
 * for keywords); anything else TC_OTHER. */
#define TC_OTHER 0
#define TC_KEYWORD 1
#define TC_OPS 2

static inline int
is_keyword(const struct tg_audit_py_index *ix, const char *s, size_t n)
{
	unsigned h = kw_slot(s, n);

	return ix->kwlen[h] == n && memcmp(ix->kw[h], s, n) == 0;
}

static inline unsigned char
tok_code(const struct tg_audit_py_index *ix, const char *s,
	 const struct tg_pylex_tok *t)
{
	if (t->kind == TG_PYLEX_OP)
		return t->len == 1 ? (unsigned char)s[t->off] : TC_OPS;
	if (t->kind == TG_PYLEX_NAME && is_keyword(ix, s + t->off, t->len))
		return TC_KEYWORD;
	return TC_OTHER;
}

static inline int
tok_op(const struct state *st, size_t i, const char *text)
{
	if (i >= st->n)
		return 0;
	if (text[1] == '\0')
		return st->tc[i] == (unsigned char)text[0];
	return st->tc[i] == TC_OPS && tok_is(st, i, text);
}

static inline int
tok_name(const struct state *st, size_t i)
{
	return i < st->n && st->t[i].kind == TG_PYLEX_NAME;
}

static inline int
tok_kw(const struct state *st, size_t i, const char *kw)
{
	return i < st->n && st->tc[i] == TC_KEYWORD && tok_is(st, i, kw);
}

static int
is_root(const struct state *st, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < st->ix->nroots; k++)
		if (st->ix->rootlen[k] == n &&
		    memcmp(st->ix->roots[k], s, n) == 0)
			return 1;
	return 0;
}

/* The filter's key of name s[0..n): its first byte and length. */
static unsigned
filter_key(const char *s, size_t n)
{
	return ((unsigned char)s[0] ^ (unsigned)(n * 37)) & 255u;
}

static int
bound_bit(const struct state *st, const char *s, size_t n)
{
	unsigned k = n ? filter_key(s, n) : 0;

	return st->bound_bits[k >> 3] & (1u << (k & 7));
}

static void
slot_put(uint32_t *slots, size_t nslots, size_t h, size_t v)
{
	size_t k;

	for (k = h & (nslots - 1); slots[k]; k = (k + 1) & (nslots - 1))
		;
	slots[k] = (uint32_t)v;
}

/* Room for one more binding: the array and the table grow as a file
 * binds more names (most bind a few), the table kept under half full.
 * 0, or TG_ENOMEM. */
static int
bind_room(struct state *st)
{
	size_t k;

	if (st->nbind == st->capbind) {
		size_t cap = st->capbind ? 2 * st->capbind : BIND_SLOTS0 / 2;
		struct binding *v = realloc(st->bind, cap * sizeof(*v));

		if (!v)
			return TG_ENOMEM;
		st->bind = v;
		st->capbind = cap;
	}
	if (2 * (st->nbind + 1) > st->nslots) {
		size_t ns = st->nslots ? 2 * st->nslots : BIND_SLOTS0;
		uint32_t *sl = calloc(ns, sizeof(*sl));

		if (!sl)
			return TG_ENOMEM;
		for (k = 0; k < st->nbind; k++)
			slot_put(sl, ns,
				 hash_bytes(st->bind[k].name, st->bind[k].nlen),
				 k + 1);
		free(st->slots);
		st->slots = sl;
		st->nslots = ns;
	}
	return 0;
}

static struct binding *
bind_find(const struct state *st, const char *s, size_t n)
{
	size_t k;

	if (!bound_bit(st, s, n))
		return NULL;
	k = hash_bytes(s, n) & (st->nslots - 1);

	for (;;) {
		uint32_t v = st->slots[k];
		struct binding *b;

		if (!v)
			return NULL;
		b = &st->bind[v - 1];
		if (b->nlen == n && memcmp(b->name, s, n) == 0)
			return b;
		k = (k + 1) & (st->nslots - 1);
	}
}

/* Where a binding made now is made: the innermost try, or if whose
 * test guards. */
static struct bind_site
bind_here(const struct state *st)
{
	struct bind_site w = {0, 0};
	size_t k;

	for (k = st->nblocks; k-- > 0;) {
		const struct block *b = &st->blocks[k];

		if (b->kind == B_TRY ||
		    (b->kind == B_IF && b->guard == TG_AUDIT_GUARDED)) {
			w.block = b->serial;
			w.clause = (size_t)b->clause;
			break;
		}
	}
	return w;
}

/* The block of which a binding made now is an alternative to binding
 * b (bind_set), or NULL. */
static const struct block *
alternative_of(const struct state *st, const struct binding *b)
{
	size_t k;

	for (k = st->nblocks; b->site.block && k-- > 0;) {
		const struct block *a = &st->blocks[k];

		if (a->kind == B_OTHER || a->serial != b->site.block)
			continue;
		if (a->kind == B_TRY)
			return a->clause == 1 && b->site.clause == 0 &&
				       a->guard != TG_AUDIT_UNGUARDED
				   ? a
				   : NULL;
		return (size_t)a->clause != b->site.clause ? a : NULL;
	}
	return NULL;
}

static int bind_status(const struct state *st, const char *target, size_t tn,
		       int dep);

static const struct bind_guard no_fallback = {TG_AUDIT_UNGUARDED, 0, ""};

/* Bind name to target (NULL: to something that is not torch), as made
 * at site, with guard fb. A name that was never bound to torch and is
 * not a root needs no record. */
static void
bind_put(struct state *st, const char *s, size_t n, const char *target,
	 size_t tn, struct bind_site site, const struct bind_guard *fb)
{
	struct binding *b = bind_find(st, s, n);
	size_t k;
	char *c = NULL;

	if (!b && !target && !is_root(st, s, n))
		return;
	if (target && !(c = strndup(target, tn))) {
		st->rc = TG_ENOMEM;
		return;
	}
	if (!b) {
		if (st->nbind >= BINDINGS_MAX) {
			free(c);
			if (!st->noted_bind++)
				st->rc = tg_diag_add(
				    &st->r->notes, TG_SEV_NOTE, 0, st->path, 0,
				    0, "audit-limit", NULL,
				    "more than %d names bound to "
				    "torch: later ones not followed",
				    BINDINGS_MAX);
			return;
		}
		if (bind_room(st)) {
			free(c);
			st->rc = TG_ENOMEM;
			return;
		}
		b = &st->bind[st->nbind++];
		b->name = s;
		b->nlen = n;
		b->target = NULL;
		k = filter_key(s, n);
		st->bound_bits[k >> 3] |= (unsigned char)(1u << (k & 7));
		hot_set(st->hot, s, n);
		slot_put(st->slots, st->nslots, hash_bytes(s, n), st->nbind);
	}
	free(b->target);
	b->target = c;
	b->site = site;
	b->fb = *fb;
}

/* Bind name to target where the code binds it (bind_put).
 *
 * A name bound to torch, then bound again in an alternative to that
 * binding, has two meanings, and the block that chooses between them
 * guards its later uses: a try whose body bound it and a handler that
 * guards binds it again (at any depth: a try in the handler), or an if
 * whose test guards (hasattr, a version) and another of its branches.
 * The meaning kept: a try's body's (what the name is wherever the body's
 * import works: try: from torch.distributed import get_global_rank /
 * except ImportError: get_global_rank = _get_global_rank, a later
 * get_global_rank(...) is the public name), unless it is an entry some
 * torch removed (try: from torch._six import inf / except ImportError:
 * from torch import inf: torch.inf); an if's first branch's, unless it
 * is deprecated or removed and the other is a torch name that is not
 * (the branch a current torch takes). */
static void
bind_set(struct state *st, const char *s, size_t n, const char *target,
	 size_t tn)
{
	struct binding *b = bind_find(st, s, n);
	const struct block *a = b ? alternative_of(st, b) : NULL;
	int take;

	if (!a) {
		bind_put(st, s, n, target, tn, bind_here(st), &no_fallback);
		return;
	}
	if (b->fb.kind != TG_AUDIT_GUARDED) {
		b->fb.kind = a->guard;
		b->fb.line = a->gline;
		snprintf(b->fb.text, sizeof(b->fb.text), "%s", a->gtext);
	}
	if (!b->target)
		return;
	if (a->kind == B_TRY)
		take = bind_status(st, b->target, strlen(b->target), 0);
	else
		take = target &&
		       bind_status(st, b->target, strlen(b->target), 1) &&
		       !bind_status(st, target, tn, 1);
	if (take) {
		struct bind_guard g = b->fb;

		bind_put(st, s, n, target, tn, b->site, &g);
	}
}

/* The dotted name a head name stands for: its binding, itself for a
 * root, or NULL. *via (where not NULL) gets the binding, NULL for a
 * root or an unbound name. */
static const char *
resolve_head(const struct state *st, const char *s, size_t n, size_t *tn,
	     const struct binding **via)
{
	const struct binding *b = bind_find(st, s, n);

	if (via)
		*via = b;
	if (b) {
		if (!b->target)
			return NULL;
		*tn = strlen(b->target);
		return b->target;
	}
	if (is_root(st, s, n)) {
		*tn = n;
		return s;
	}
	return NULL;
}

/* The entry for the dotted name full[0..n) (ncomp components, comp[k]
 * the offset of component k): its longest prefix of at least minc
 * components that is a name, directly or without its next-to-last
 * component (a re-export). *kc gets the components matched. */
static const struct tg_api *
match_longest(const struct state *st, const char *full, size_t ncomp,
	      const size_t *comp, size_t minc, size_t *kc)
{
	/* hp[k]: the hash of the first k components; a prefix's hash goes
	 * on from the one before it */
	uint32_t hp[CHAIN_MAX + 1];
	size_t k;

	hp[0] = HASH0;
	for (k = 1; k <= ncomp; k++)
		hp[k] =
		    hash_more(k > 1 ? hash_more(hp[k - 1], ".", 1) : HASH0,
			      full + comp[k - 1], comp[k] - 1 - comp[k - 1]);
	for (k = ncomp; k >= minc && k >= 1; k--) {
		size_t end = comp[k] - 1;
		const struct tg_api *a = index_find_h(st->ix, full, end, hp[k]);

		if (!a && k >= 4) {
			/* package.submodule.Name -> package.Name */
			char buf[NAME_MAX_LEN];
			size_t a0 = comp[k - 2], a1 = comp[k - 1];
			unsigned char c0 = (unsigned char)full[a0];

			if ((c0 >= 'a' && c0 <= 'z') || c0 == '_') {
				memcpy(buf, full, a0);
				memcpy(buf + a0, full + a1, end - a1);
				a = index_find_h(
				    st->ix, buf, a0 + end - a1,
				    hash_more(hash_more(hp[k - 2], ".", 1),
					      full + a1, end - a1));
			}
		}
		if (a) {
			*kc = k;
			return a;
		}
		if (k == 1)
			break;
	}
	return NULL;
}

/* Split full[0..n) into components: comp[k] the start of component k,
 * comp[ncomp] = n + 1. */
static size_t
split_comps(const char *full, size_t n, size_t *comp)
{
	size_t k, nc = 0;

	comp[nc++] = 0;
	for (k = 0; k < n && nc < CHAIN_MAX; k++)
		if (full[k] == '.')
			comp[nc++] = k + 1;
	comp[nc] = n + 1;
	return nc;
}

static void
copy_text(char *dst, size_t cap, const char *s, size_t n)
{
	size_t k;

	if (n >= cap)
		n = cap - 1;
	for (k = 0; k < n && s[k] != '\n' && s[k] != '\r'; k++)
		dst[k] = s[k] ? s[k] : ' ';
	dst[k] = '\0';
}

/* Whether the dotted name target[0..tn) is under an entry that some
 * torch removed (or, with dep, deprecated). */
static int
bind_status(const struct state *st, const char *target, size_t tn, int dep)
{
	size_t comp[CHAIN_MAX + 1], kc, nc = split_comps(target, tn, comp);
	const struct tg_api *a = match_longest(st, target, nc, comp, 1, &kc);

	return a && (a->removed.version || (dep && a->deprecated.version));
}

/* The guard of a finding at token index ti (SIZE_MAX: none). */
static enum tg_audit_guard
guard_of(const struct state *st, size_t ti, const char **text, size_t *line)
{
	const struct block *soft = NULL;
	size_t k;

	size_t at = st->field_of != SIZE_MAX ? st->field_of : ti;

	for (k = 0; at != SIZE_MAX && k < st->niv; k++)
		if (at >= st->iv[k].a && at < st->iv[k].b) {
			*text = st->iv[k].text;
			*line = st->field_of != SIZE_MAX ? st->field_line
							 : st->t[ti].line;
			return TG_AUDIT_GUARDED;
		}
	for (k = st->nblocks; k-- > 0;) {
		const struct block *b = &st->blocks[k];

		if (b->kind == B_TRY && b->clause == 3)
			continue;
		if (b->guard == TG_AUDIT_GUARDED) {
			*text = b->gtext;
			*line = b->gline;
			return TG_AUDIT_GUARDED;
		}
		if (b->guard == TG_AUDIT_SOFT && !soft)
			soft = b;
	}
	if (soft) {
		*text = soft->gtext;
		*line = soft->gline;
		return TG_AUDIT_SOFT;
	}
	*text = NULL;
	*line = 0;
	return TG_AUDIT_UNGUARDED;
}

static void
emit(struct state *st, const struct tg_api *api, size_t line, size_t col,
     enum tg_audit_in in, const char *kind, size_t ti, const char *text,
     size_t tn)
{
	struct tg_audit_finding f;
	char buf[TEXT_MAX];
	const char *gt;

	if (st->rc)
		return;
	memset(&f, 0, sizeof(f));
	f.api = api;
	f.line = line;
	f.column = col + 1;
	f.in = in;
	f.kind = kind;
	/* a mention is no code use: nothing guards it */
	if (in == TG_AUDIT_IN_CODE) {
		const struct bind_guard *fb = st->via ? &st->via->fb : NULL;

		f.guard = guard_of(st, ti, &gt, &f.guard_line);
		if (fb &&
		    (f.guard == TG_AUDIT_UNGUARDED ||
		     (f.guard == TG_AUDIT_SOFT &&
		      fb->kind == TG_AUDIT_GUARDED)) &&
		    fb->kind != TG_AUDIT_UNGUARDED) {
			f.guard = fb->kind;
			gt = fb->text;
			f.guard_line = fb->line;
		}
		if (st->self_guarded && f.guard != TG_AUDIT_GUARDED) {
			f.guard = TG_AUDIT_GUARDED;
			gt = "getattr with a default";
			f.guard_line = line;
		}
	} else {
		gt = NULL;
	}
	f.guard_text = (char *)gt;
	copy_text(buf, sizeof(buf), text, tn);
	f.text = buf;
	st->rc = tg_audit_result_add_finding(st->r, &f);
}

/* ------------------------------------------------------------------ */
/* Mentions and suppressions */

/* Mentions of table names in text[0..n) (a comment or a string body)
 * that starts at line, col. */
static void
scan_mentions(struct state *st, const char *text, size_t n, size_t line,
	      size_t col, enum tg_audit_in in, size_t ti)
{
	const char *end = text + n, *d, *from = text;
	size_t r;

	/* a mention is "root." : each '.' (memchr) with a root before it */
	for (d = memchr(text, '.', n); d && d + 1 < end;
	     d = memchr(d + 1, '.', (size_t)(end - d - 1))) {
		for (r = 0; r < st->ix->nroots; r++) {
			const char *root = st->ix->roots[r];
			size_t rl = st->ix->rootlen[r];
			const char *p, *q;
			char full[NAME_MAX_LEN];
			size_t comp[CHAIN_MAX + 1], fl = 0, nc, kc, pos, l2, c2;
			const struct tg_api *a;

			if ((size_t)(d - from) < rl)
				continue;
			p = d - rl;
			if (memcmp(p, root, rl) != 0 ||
			    (p > text && (ident_char((unsigned char)p[-1]) ||
					  p[-1] == '.')))
				continue;
			q = p;
			while (q < end && fl + 1 < sizeof(full) &&
			       (ident_char((unsigned char)*q) ||
				(*q == '.' && q + 1 < end &&
				 ident_char((unsigned char)q[1]))))
				full[fl++] = *q++;
			nc = split_comps(full, fl, comp);
			a = match_longest(st, full, nc, comp, 2, &kc);
			if (a) {
				/* line and column of p */
				pos = (size_t)(p - text);
				l2 = line;
				c2 = col + pos;
				{
					const char *nl = p;

					while (nl > text && nl[-1] != '\n')
						nl--;
					if (nl != text) {
						const char *z;

						l2 = line;
						for (z = text; z < nl; z++)
							if (*z == '\n')
								l2++;
						c2 = (size_t)(p - nl);
					}
				}
				emit(st, a, l2, c2, in, "reference", ti, p,
				     (size_t)(q - p));
			}
			/* the chain is read: on after it */
			from = q;
			if (q > d + 1)
				d = q - 1;
			break;
		}
	}
}

static void
scan_suppression(struct state *st, const struct tg_pylex_tok *t)
{
	const char *c = st->s + t->off, *e = c + t->len, *p;
	const char *ids[64];
	char idbuf[64][128];
	size_t nids = 0;

	p = tg_audit_marker(c, t->len);
	if (!p)
		return;
	p += 10;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (e - p < 6 || memcmp(p, "ignore", 6) != 0)
		return;
	p += 6;
	if (p < e && *p == '[') {
		p++;
		while (p < e && *p != ']') {
			const char *a;

			while (p < e && (*p == ' ' || *p == ','))
				p++;
			a = p;
			while (p < e && *p != ',' && *p != ']' && *p != ' ')
				p++;
			if (p > a && nids < 64) {
				copy_text(idbuf[nids], sizeof(idbuf[0]), a,
					  (size_t)(p - a));
				ids[nids] = idbuf[nids];
				nids++;
			}
			while (p < e && *p == ' ')
				p++;
		}
	} else if (p < e && ident_char((unsigned char)*p)) {
		return; /* "ignored", not ours */
	}
	if (!st->rc)
		st->rc =
		    tg_audit_result_add_suppression(st->r, t->line, ids, nids);
}

/* ------------------------------------------------------------------ */
/* Chains and references */

/* The chain of names starting at token i: its last token index. */
static size_t
chain_end(const struct state *st, size_t i)
{
	size_t k = i, nc = 1;

	while (nc < CHAIN_MAX && tok_op(st, k + 1, ".") &&
	       tok_name(st, k + 2)) {
		k += 2;
		nc++;
	}
	return k;
}

/* Resolve the chain tokens i..e (names at i, i+2, ...) into full;
 * *ntarget the components the head stood for, *via the head's binding
 * (NULL: a root or a star import's name). 0 when the head is not
 * torch. */
static int
resolve_chain(const struct state *st, size_t i, size_t e, char *full,
	      size_t *fl, size_t *ntarget, const struct binding **via)
{
	const char *h = st->s + st->t[i].off, *tg = NULL;
	size_t hn = st->t[i].len, tn = 0, k, n;

	tg = resolve_head(st, h, hn, &tn, via);
	if (!tg && st->nstars && !*via) {
		/* a bare name from "from torch.x import *" */
		for (k = 0; k < st->nstars && !tg; k++) {
			char buf[NAME_MAX_LEN];
			size_t sl = strlen(st->stars[k]);

			if (sl + hn + 2 > sizeof(buf))
				continue;
			memcpy(buf, st->stars[k], sl);
			buf[sl] = '.';
			memcpy(buf + sl + 1, h, hn);
			if (index_find(st->ix, buf, sl + 1 + hn)) {
				memcpy(full, buf, sl + 1 + hn);
				tn = sl + 1 + hn;
				tg = full;
			}
		}
	}
	if (!tg)
		return 0;
	if (tg != full)
		memmove(full, tg, tn);
	n = tn;
	*ntarget = 1;
	for (k = 0; k < n; k++)
		if (full[k] == '.')
			(*ntarget)++;
	for (k = i + 2; k <= e; k += 2) {
		size_t l = st->t[k].len;

		if (n + l + 2 >= NAME_MAX_LEN)
			return 0;
		full[n++] = '.';
		memcpy(full + n, st->s + st->t[k].off, l);
		n += l;
	}
	*fl = n;
	return 1;
}

/* Whether token i is the name of a parameter of the def whose
 * parameters open at token p: a name after '(' or ',' (or '*', '**'
 * after one), at the parameters' own depth. */
static int
param_name(const struct state *st, size_t p, size_t i)
{
	if (st->t[i].kind != TG_PYLEX_NAME || i <= p ||
	    st->t[i].depth != st->t[p].depth + 1)
		return 0;
	return i == p + 1 || tok_op(st, i - 1, ",") ||
	       ((tok_op(st, i - 1, "*") || tok_op(st, i - 1, "**")) &&
		(i - 1 == p + 1 || tok_op(st, i - 2, ",")));
}

/* The index of the closer of the bracket opened at token p, or n. */
static size_t
closer(const struct state *st, size_t p)
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
	size_t c = closer(st, p), d = st->t[p].depth + 1, k, kl = strlen(kw);
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

/* A call of full (resolved) at '(' token p: parameters and behaviours. */
static void
check_call(struct state *st, const char *full, size_t fl, size_t p, size_t head)
{
	const struct tg_audit_py_index *ix = st->ix;
	size_t k, b, kwat, npos;
	int star, empty;

	for (k = 0; k < ix->nparams; k++) {
		const struct param_rule *pr = &ix->params[k];
		size_t pl = pr->flen;

		if (pr->method)
			continue;
		if (!(pl == fl && memcmp(pr->func, full, fl) == 0) &&
		    !(pr->under && fl > pl && full[pl] == '.' &&
		      memcmp(pr->func, full, pl) == 0))
			continue;
		if (call_args(st, p, pr->kw, &kwat, &npos, &star, &empty) &&
		    kwat != SIZE_MAX)
			emit(st, pr->api, st->t[kwat].line, st->t[kwat].col,
			     TG_AUDIT_IN_CODE, "argument", kwat,
			     st->s + st->t[kwat].off, st->t[kwat].len);
	}
	for (b = 0; b < NBEHAV; b++) {
		const struct behav_rule *br = &behaviours[b];
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
		emit(st, ix->behav[b], st->t[head].line, st->t[head].col,
		     TG_AUDIT_IN_CODE, "call", head, st->s + st->t[head].off,
		     st->t[p].off - st->t[head].off);
	}
}

/* ".name(" at token i (a name after a '.'): methods and method
 * parameters. */
static void
check_method(struct state *st, size_t i)
{
	const struct tg_audit_py_index *ix = st->ix;
	const char *nm = st->s + st->t[i].off;
	size_t nl = st->t[i].len, k, kwat, npos;
	int star, empty;

	for (k = 0; k < ix->nmethods; k++) {
		const struct method_rule *m = &ix->methods[k];

		if (m->nlen != nl || memcmp(m->name, nm, nl) != 0)
			continue;
		if (m->zeroarg && !tok_op(st, i + 2, ")"))
			continue;
		emit(st, m->api, st->t[i].line, st->t[i].col, TG_AUDIT_IN_CODE,
		     "method", i, nm - 1, nl + 1);
	}
	for (k = 0; k < ix->nparams; k++) {
		const struct param_rule *pr = &ix->params[k];

		if (!pr->method || pr->twin || pr->flen != nl ||
		    memcmp(pr->func, nm, nl) != 0)
			continue;
		if (call_args(st, i + 1, pr->kw, &kwat, &npos, &star, &empty) &&
		    kwat != SIZE_MAX)
			emit(st, pr->api, st->t[kwat].line, st->t[kwat].col,
			     TG_AUDIT_IN_CODE, "argument", kwat,
			     st->s + st->t[kwat].off, st->t[kwat].len);
	}
}

/* A string annotation: its body read as dotted names. */
static void
string_annotation(struct state *st, size_t i)
{
	const struct tg_pylex_tok *t = &st->t[i];
	size_t b = t->off + t->pre + t->quote, e = t->off + t->len, k;

	if (!(t->flags & TG_PYLEX_UNTERMINATED))
		e -= t->quote;
	if (t->flags & (TG_PYLEX_BYTES | TG_PYLEX_FSTRING) || e <= b)
		return;
	for (k = b; k < e;) {
		char full[NAME_MAX_LEN];
		size_t comp[CHAIN_MAX + 1], fl = 0, a = k, k0, nc, kc, tn;
		const char *h, *tg;
		const struct tg_api *api;

		if (!ident_char((unsigned char)st->s[k]) ||
		    (k > b && (ident_char((unsigned char)st->s[k - 1]) ||
			       st->s[k - 1] == '.'))) {
			k++;
			continue;
		}
		while (k < e && ident_char((unsigned char)st->s[k]))
			k++;
		h = st->s + a;
		k0 = k;
		tg = resolve_head(st, h, k - a, &tn, NULL);
		if (!tg || tn + 1 >= sizeof(full))
			continue;
		memcpy(full, tg, tn);
		fl = tn;
		while (k + 1 < e && st->s[k] == '.' &&
		       ident_char((unsigned char)st->s[k + 1])) {
			size_t c0 = k;

			k++;
			while (k < e && ident_char((unsigned char)st->s[k]))
				k++;
			if (fl + (k - c0) + 1 >= sizeof(full))
				break;
			memcpy(full + fl, st->s + c0, k - c0);
			fl += k - c0;
		}
		nc = split_comps(full, fl, comp);
		api = match_longest(st, full, nc, comp, 1, &kc);
		st->via = bind_find(st, h, (size_t)(k0 - a));
		if (api)
			emit(st, api, t->line, t->col + (a - t->off),
			     TG_AUDIT_IN_CODE, "annotation", i, h, k - a);
		st->via = NULL;
	}
}

static void scan_refs(struct state *st, size_t a, size_t b);

#define FIELD_TOKS 256 /* tokens of one f-string field read as code */

/* Line and 0-based column of byte off of string token t. */
static void
str_pos(const struct state *st, const struct tg_pylex_tok *t, size_t off,
	size_t *line, size_t *col)
{
	size_t k, ls = SIZE_MAX;

	*line = t->line;
	for (k = t->off; k < off; k++)
		if (st->s[k] == '\n') {
			(*line)++;
			ls = k + 1;
		}
	*col = ls == SIZE_MAX ? t->col + (off - t->off) : off - ls;
}

/* The mentions in bytes [a, e) of string token t (token ti). */
static void
str_mentions(struct state *st, const struct tg_pylex_tok *t, size_t ti,
	     size_t a, size_t e)
{
	size_t line, col;

	if (e <= a)
		return;
	str_pos(st, t, a, &line, &col);
	scan_mentions(st, st->s + a, e - a, line, col, TG_AUDIT_IN_STRING, ti);
}

/* The expression of the field whose '{' is at byte at, read as code:
 * its tokens up to the '}', '!', ':' or '=' that ends it at depth 0,
 * scanned for references. The byte after the expression. */
static size_t
read_field_code(struct state *st, const struct tg_pylex_tok *t, size_t ti,
		size_t at, size_t end)
{
	struct tg_pylex lx;
	struct tg_pylex_tok ft[FIELD_TOKS], *save_t, tok;
	unsigned char fann[FIELD_TOKS], ftc[FIELD_TOKS], *save_ann, *save_tc;
	size_t nf = 0, save_n, save_params, stop = end, line, col;

	str_pos(st, t, at + 1, &line, &col);
	tg_pylex_init(&lx, st->s, end);
	lx.pos = at + 1;
	lx.line = line;
	lx.lstart = at + 1 - col;
	lx.code = 1;
	while (nf < FIELD_TOKS && tg_pylex_next(&lx, &tok)) {
		if (tok.kind == TG_PYLEX_END || tok.kind == TG_PYLEX_NEWLINE ||
		    tok.kind == TG_PYLEX_ERROR || tok.off >= end) {
			stop = tok.off < end ? tok.off : end;
			break;
		}
		if (tok.kind == TG_PYLEX_NL || tok.kind == TG_PYLEX_COMMENT)
			continue;
		if (tok.kind == TG_PYLEX_OP && tok.depth == 0 && tok.len == 1 &&
		    (st->s[tok.off] == '}' || st->s[tok.off] == '!' ||
		     st->s[tok.off] == ':' ||
		     (st->s[tok.off] == '=' && tok.off + 1 < end &&
		      strchr("}!:", st->s[tok.off + 1])))) {
			stop = tok.off;
			break;
		}
		ftc[nf] = tok_code(st->ix, st->s, &tok);
		ft[nf++] = tok;
	}
	if (!nf)
		return stop;
	memset(fann, 0, nf);
	save_t = st->t;
	save_ann = st->ann;
	save_tc = st->tc;
	save_n = st->n;
	if (st->field_of == SIZE_MAX) {
		st->field_of = ti;
		st->field_line = t->line;
	}
	st->t = ft;
	st->ann = fann;
	st->tc = ftc;
	st->n = nf;
	save_params = st->params_at;
	st->params_at = SIZE_MAX;
	scan_refs(st, 0, nf);
	st->params_at = save_params;
	st->t = save_t;
	st->ann = save_ann;
	st->tc = save_tc;
	st->n = save_n;
	return stop; /* field_of: scan_fields puts it back */
}

/* An f-string (token ti): its literal text scanned for mentions, the
 * expressions of its replacement fields as code (PEP 701: nested
 * strings of any quote, format specs with fields of their own). */
static void
scan_fields(struct state *st, size_t ti)
{
	const struct tg_pylex_tok t = st->t[ti];
	size_t i = t.off + t.pre + t.quote, end = t.off + t.len, lit = i;
	int raw = (t.flags & TG_PYLEX_RAW) != 0;
	size_t outer = st->field_of;

	if (!(t.flags & TG_PYLEX_UNTERMINATED) && end >= i + t.quote)
		end -= t.quote;
	while (i < end && !st->rc) {
		char c = st->s[i];

		if (c == '\\' && !raw && i + 2 < end && st->s[i + 1] == 'N' &&
		    st->s[i + 2] == '{') {
			/* \N{NAME}: an escape's braces, no field */
			for (i += 3; i < end && st->s[i] != '}'; i++)
				;
			i++;
			continue;
		}
		if (c == '\\') {
			i += 2;
			continue;
		}
		if ((c == '{' || c == '}') && i + 1 < end &&
		    st->s[i + 1] == c) {
			i += 2; /* {{ or }} */
			continue;
		}
		if (c == '{') {
			str_mentions(st, &t, ti, lit, i);
			i = read_field_code(st, &t, ti, i, end);
			/* the rest: a conversion, a format spec (its own
			 * fields are found as the loop goes on), the '}' */
			if (i < end && st->s[i] == '=')
				i++;
			if (i < end && st->s[i] == '!')
				i += 2;
			if (i < end && st->s[i] == ':')
				i++;
			lit = i;
			continue;
		}
		i++;
	}
	str_mentions(st, &t, ti, lit, end);
	st->field_of = outer;
}

/* getattr(CHAIN, "name"...) with CHAIN (tokens i..e) resolved to
 * full[0..fl): a use of full.name where that is an entry, guarded by
 * itself when it has a default (it copes with the name's absence). */
static void
check_getattr(struct state *st, size_t i, size_t e, const char *full, size_t fl)
{
	const struct tg_pylex_tok *t;
	char name[NAME_MAX_LEN];
	size_t comp[CHAIN_MAX + 1], nc, kc, bo, eo, k;
	const struct tg_api *api;

	if (e + 2 >= st->n)
		return;
	t = &st->t[e + 2];
	if (i < 2 || !tok_is(st, i - 2, "getattr") || !tok_op(st, i - 1, "(") ||
	    (i > 2 && tok_op(st, i - 3, ".")) || !tok_op(st, e + 1, ",") ||
	    t->kind != TG_PYLEX_STRING ||
	    (t->flags &
	     (TG_PYLEX_FSTRING | TG_PYLEX_BYTES | TG_PYLEX_UNTERMINATED)) ||
	    !(tok_op(st, e + 3, ",") || tok_op(st, e + 3, ")")))
		return;
	bo = t->off + t->pre + t->quote;
	eo = t->off + t->len - t->quote;
	if (eo <= bo || fl + 1 + (eo - bo) >= sizeof(name))
		return;
	for (k = bo; k < eo; k++)
		if (!ident_char((unsigned char)st->s[k]))
			return;
	memcpy(name, full, fl);
	name[fl] = '.';
	memcpy(name + fl + 1, st->s + bo, eo - bo);
	fl += 1 + (eo - bo);
	name[fl] = '\0';
	nc = split_comps(name, fl, comp);
	api = match_longest(st, name, nc, comp, nc, &kc);
	if (!api)
		return;
	st->self_guarded = tok_op(st, e + 3, ",");
	emit(st, api, st->t[i - 2].line, st->t[i - 2].col, TG_AUDIT_IN_CODE,
	     "getattr", i - 2, st->s + st->t[i - 2].off,
	     t->off + t->len - st->t[i - 2].off);
	st->self_guarded = 0;
}

/* References in tokens [a, b): chains resolved to table names, methods,
 * strings. */
static void
scan_refs(struct state *st, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b && !st->rc; i++) {
		const struct tg_pylex_tok *t = &st->t[i];
		char full[NAME_MAX_LEN];
		size_t comp[CHAIN_MAX + 1], e, fl, ntg, nc, kc, m, ntok;
		const struct tg_api *api;
		const char *kind;

		if (t->kind == TG_PYLEX_STRING) {
			if (st->ann[i]) {
				string_annotation(st, i);
			} else if ((t->flags & TG_PYLEX_FSTRING) &&
				   !(t->flags & (TG_PYLEX_BYTES |
						 TG_PYLEX_UNTERMINATED))) {
				/* an unterminated one is text, as the rest
				 * of its line is */
				scan_fields(st, i);
			} else {
				size_t bo = t->off + t->pre + t->quote,
				       eo = t->off + t->len;

				if (!(t->flags & TG_PYLEX_UNTERMINATED))
					eo -= t->quote;
				if (eo > bo)
					scan_mentions(
					    st, st->s + bo, eo - bo, t->line,
					    t->col + t->pre + t->quote,
					    TG_AUDIT_IN_STRING, i);
			}
			continue;
		}
		if (t->kind != TG_PYLEX_NAME)
			continue;
		if (i > 0 && tok_op(st, i - 1, ".")) {
			if (tok_op(st, i + 1, "("))
				check_method(st, i);
			continue;
		}
		/* an assignment target or a keyword, or a def's parameter:
		 * a name, no use */
		if (tok_op(st, i + 1, "=") ||
		    (st->params_at != SIZE_MAX &&
		     param_name(st, st->params_at, i)))
			continue;
		/* a head neither bound nor a root resolves to nothing
		 * (resolve_chain): every bound name and root is hot */
		if (!st->nstars &&
		    !hot_get(st->hot, hot_key(st->s + t->off, t->len)))
			continue;
		e = chain_end(st, i);
		if (e >= b)
			e = b - 1;
		if (!resolve_chain(st, i, e, full, &fl, &ntg, &st->via))
			continue;
		check_getattr(st, i, e, full, fl);
		nc = split_comps(full, fl, comp);
		api = match_longest(st, full, nc, comp, 1, &kc);
		ntok = (e - i) / 2 + 1;
		/* the tokens the match covers */
		m = kc + 1 > ntg ? kc + 1 - ntg : 1;
		if (m > ntok)
			m = ntok;
		if (!api) {
			if (tok_op(st, e + 1, "("))
				check_call(st, full, fl, e + 1, i);
			st->via = NULL;
			i = e;
			continue;
		}
		if (i > 0 && tok_op(st, i - 1, "@") && i - 1 == 0)
			kind = "decorator";
		else if (st->ann[i])
			kind = "annotation";
		else if (m == ntok && tok_op(st, e + 1, "("))
			kind = "call";
		else if (ntok > 1)
			kind = "attribute";
		else
			kind = "reference";
		emit(st, api, t->line, t->col, TG_AUDIT_IN_CODE, kind, i,
		     st->s + t->off, st->t[e].off + st->t[e].len - t->off);
		if (tok_op(st, e + 1, "("))
			check_call(st, full, fl, e + 1, i);
		st->via = NULL;
		i = e;
	}
}

/* ------------------------------------------------------------------ */
/* Imports and bindings */

/* The dotted module written at tokens i.. (names and dots): its text
 * into buf, the index after it. Relative imports start with '.'. */
static size_t
read_module(const struct state *st, size_t i, size_t b, char *buf, size_t *bl,
	    int *relative)
{
	size_t n = 0;

	*relative = 0;
	while (i < b && (tok_op(st, i, ".") || tok_op(st, i, "..."))) {
		*relative = 1;
		i++;
	}
	while (i < b && tok_name(st, i) && !tok_kw(st, i, "import")) {
		size_t l = st->t[i].len;

		if (n + l + 2 >= NAME_MAX_LEN)
			break;
		if (n)
			buf[n++] = '.';
		memcpy(buf + n, st->s + st->t[i].off, l);
		n += l;
		i++;
		if (!tok_op(st, i, "."))
			break;
		i++;
	}
	buf[n] = '\0'; /* callers strcspn it */
	*bl = n;
	return i;
}

static int
head_is_root(const struct state *st, const char *mod, size_t ml)
{
	return is_root(st, mod,
		       strcspn(mod, ".") < ml ? strcspn(mod, ".") : ml);
}

static void
import_finding(struct state *st, const char *full, size_t fl, size_t ti,
	       size_t minc, int *done)
{
	size_t comp[CHAIN_MAX + 1], nc = split_comps(full, fl, comp), kc;
	const struct tg_api *a = match_longest(st, full, nc, comp, minc, &kc);

	if (a && !*done) {
		emit(st, a, st->t[ti].line, st->t[ti].col, TG_AUDIT_IN_CODE,
		     "import", ti, full, fl);
		if (done != NULL && kc < nc)
			*done = 1; /* only the module: once per statement */
	}
}

/* "import a.b [as c], ..." at tokens [a, b). */
static void
stmt_import(struct state *st, size_t a, size_t b)
{
	size_t i = a + 1;

	while (i < b) {
		char mod[NAME_MAX_LEN];
		size_t ml, at = i;
		int rel, once = 0;

		i = read_module(st, i, b, mod, &ml, &rel);
		if (!ml)
			break;
		if (head_is_root(st, mod, ml))
			import_finding(st, mod, ml, at, 1, &once);
		if (tok_kw(st, i, "as") && tok_name(st, i + 1)) {
			const struct tg_pylex_tok *n = &st->t[i + 1];

			bind_set(st, st->s + n->off, n->len,
				 head_is_root(st, mod, ml) ? mod : NULL, ml);
			i += 2;
		} else {
			size_t hl = strcspn(mod, ".");

			bind_set(st, st->s + st->t[at].off, st->t[at].len,
				 head_is_root(st, mod, ml) ? mod : NULL,
				 hl < ml ? hl : ml);
		}
		while (i < b && !tok_op(st, i, ","))
			i++;
		i++;
	}
}

/* "from m import x [as y], ..." or "from m import (...)" or "*". */
static void
stmt_from(struct state *st, size_t a, size_t b)
{
	char mod[NAME_MAX_LEN];
	size_t ml, i, mat = a + 1;
	int rel, torch, once = 0;

	i = read_module(st, a + 1, b, mod, &ml, &rel);
	torch = !rel && ml && head_is_root(st, mod, ml);
	if (!tok_kw(st, i, "import"))
		return;
	i++;
	if (tok_op(st, i, "*")) {
		if (torch) {
			int dummy = 0;

			import_finding(st, mod, ml, mat, 2, &dummy);
			if (st->nstars < STARS_MAX) {
				st->stars[st->nstars] = strndup(mod, ml);
				if (!st->stars[st->nstars])
					st->rc = TG_ENOMEM;
				else
					st->nstars++;
			}
		}
		return;
	}
	for (; i < b; i++) {
		const struct tg_pylex_tok *n, *as;
		char full[NAME_MAX_LEN];
		size_t fl;

		if (!tok_name(st, i))
			continue;
		n = &st->t[i];
		as = n;
		if (tok_kw(st, i + 1, "as") && tok_name(st, i + 2))
			as = &st->t[i + 2];
		if (torch && ml + n->len + 2 < sizeof(full)) {
			memcpy(full, mod, ml);
			full[ml] = '.';
			memcpy(full + ml + 1, st->s + n->off, n->len);
			fl = ml + 1 + n->len;
			import_finding(st, full, fl, i, 2, &once);
			bind_set(st, st->s + as->off, as->len, full, fl);
		} else {
			bind_set(st, st->s + as->off, as->len, NULL, 0);
		}
		if (as != n)
			i += 2;
	}
}

/* After the references of a statement [a, b): what it binds. */
static void
stmt_assign(struct state *st, size_t a, size_t b)
{
	size_t i, eq = SIZE_MAX;

	if (tok_kw(st, a, "def") || tok_kw(st, a, "class")) {
		if (tok_name(st, a + 1))
			bind_set(st, st->s + st->t[a + 1].off, st->t[a + 1].len,
				 NULL, 0);
		return;
	}
	if (tok_kw(st, a, "async") && tok_kw(st, a + 1, "def") &&
	    tok_name(st, a + 2)) {
		bind_set(st, st->s + st->t[a + 2].off, st->t[a + 2].len, NULL,
			 0);
		return;
	}
	for (i = a; i < b; i++)
		if (st->t[i].depth == st->t[a].depth && tok_op(st, i, "=")) {
			eq = i;
			break;
		}
	if (eq == SIZE_MAX)
		return;
	/* NAME = chain: an alias when the chain is torch */
	if (eq == a + 1 && tok_name(st, a) && tok_name(st, eq + 1) &&
	    chain_end(st, eq + 1) == b - 1) {
		char full[NAME_MAX_LEN];
		size_t fl, ntg;
		const struct binding *via;

		if (resolve_chain(st, eq + 1, b - 1, full, &fl, &ntg, &via)) {
			size_t comp[CHAIN_MAX + 1],
			    kc = 0, nc = split_comps(full, fl, comp);

			/* an entry or a module path; not a value inside an
			 * entry (OptState.READY) */
			if (!match_longest(st, full, nc, comp, 1, &kc) ||
			    kc == nc) {
				bind_set(st, st->s + st->t[a].off, st->t[a].len,
					 full, fl);
				return;
			}
		}
	}
	/* NAME [, NAME]* = ... or NAME: ann = ...: those names rebound */
	for (i = a; i < eq; i++) {
		if (tok_op(st, i, ":"))
			break;
		if (tok_name(st, i) && (i == a || tok_op(st, i - 1, ",")) &&
		    (i + 1 == eq || tok_op(st, i + 1, ",") ||
		     tok_op(st, i + 1, ":")))
			bind_set(st, st->s + st->t[i].off, st->t[i].len, NULL,
				 0);
	}
}

/* ------------------------------------------------------------------ */
/* Guards and version branches */

static int
ci_contains(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), k, j;

	for (k = 0; k + m <= n; k++) {
		char c0 = s[k];

		/* the first byte alone rules out most places */
		if (c0 >= 'A' && c0 <= 'Z')
			c0 = (char)(c0 - 'A' + 'a');
		if (c0 != needle[0])
			continue;
		for (j = 1; j < m; j++) {
			char c = s[k + j];

			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[j])
				break;
		}
		if (j == m)
			return 1;
	}
	return 0;
}

/* Whether s[0..n) holds "torch" as a word of an identifier: not
 * followed by a letter of the same case as its last (TORCH_MAJOR,
 * torch_version, is_torch_min_version, torchVersion; not
 * torchvision_version_major or TORCHVISION_VERSION, a version of
 * another package). */
static int
torch_word(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k + 5 <= n; k++) {
		char h = s[k + 4], c = k + 5 < n ? s[k + 5] : '_';
		int lower = h >= 'a' && h <= 'z';

		if ((s[k] | 0x20) == 't' && ci_contains(s + k, 5, "torch") &&
		    !(lower ? c >= 'a' && c <= 'z' : c >= 'A' && c <= 'Z'))
			return 1;
	}
	return 0;
}

/* A torch version name: TORCH_VERSION, TORCH_MAJOR, torch_version,
 * is_torch_min_version, _TORCH_GREATER_EQUAL_2_0. */
static int
version_name(const char *s, size_t n)
{
	return torch_word(s, n) &&
	       (ci_contains(s, n, "version") || ci_contains(s, n, "major") ||
		ci_contains(s, n, "minor") || ci_contains(s, n, "greater") ||
		ci_contains(s, n, "less"));
}

/* Whether tokens k..e are torch.__version__ (through any alias of
 * torch), not another package's __version__. */
static int
torch_version_attr(const struct state *st, size_t k, size_t e)
{
	size_t tn = 0;
	const char *tg;

	if (e != k + 2 || !tok_is(st, e, "__version__"))
		return 0;
	tg = resolve_head(st, st->s + st->t[k].off, st->t[k].len, &tn, NULL);
	return tg && tn == 5 && memcmp(tg, "torch", 5) == 0;
}

/* Whether token i starts a guard test; its text into text. */
static int
guard_signal(const struct state *st, size_t i, char *text, size_t cap)
{
	const struct tg_pylex_tok *t = &st->t[i];
	const char *s = st->s + t->off;
	size_t tn;

	if (t->kind != TG_PYLEX_NAME)
		return 0;
	if ((tok_is(st, i, "hasattr") || tok_is(st, i, "getattr") ||
	     tok_is(st, i, "dir")) &&
	    tok_op(st, i + 1, "(") && tok_name(st, i + 2) &&
	    resolve_head(st, st->s + st->t[i + 2].off, st->t[i + 2].len, &tn,
			 NULL)) {
		size_t e = chain_end(st, i + 2);

		snprintf(text, cap, "%.*s(%.*s%s)", (int)t->len, s,
			 (int)(st->t[e].off + st->t[e].len - st->t[i + 2].off),
			 st->s + st->t[i + 2].off,
			 tok_is(st, i, "dir") ? "" : ", ...");
		return 1;
	}
	/* torch.__version__, through any alias; not another package's */
	if (tok_is(st, i, "__version__") && i >= 2 && tok_op(st, i - 1, ".") &&
	    (i == 2 || !tok_op(st, i - 3, ".")) &&
	    torch_version_attr(st, i - 2, i)) {
		snprintf(text, cap, "torch version");
		return 1;
	}
	if (tok_is(st, i, "TYPE_CHECKING")) {
		snprintf(text, cap, "TYPE_CHECKING");
		return 1;
	}
	if (version_name(s, t->len)) {
		snprintf(text, cap, "torch version (%.*s)", (int)t->len, s);
		return 1;
	}
	if (t->len > 4 && memcmp(s, "HAS_", 4) == 0) {
		snprintf(text, cap, "%.*s", (int)t->len, s);
		return 1;
	}
	return 0;
}

/* Whether tokens [a, b) hold a guard test; its text. */
static int
guard_test(const struct state *st, size_t a, size_t b, char *text, size_t cap)
{
	size_t i;

	for (i = a; i < b; i++)
		if (guard_signal(st, i, text, cap))
			return 1;
	return 0;
}

/* The guards inside one line: "G and X" and "X if G else Y". */
static void
line_intervals(struct state *st, size_t a, size_t b)
{
	size_t i, j;
	char text[80];

	st->niv = 0;
	for (i = a; i < b && st->niv < INTERVALS_MAX; i++) {
		size_t d = st->t[i].depth, gs, ge;

		if (tok_kw(st, i, "and")) {
			/* a guard earlier in the same group */
			for (j = i; j-- > a;) {
				if (st->t[j].depth < d)
					break;
				if (st->t[j].depth == d &&
				    (tok_kw(st, j, "or") || tok_op(st, j, ",")))
					break;
				if (guard_signal(st, j, text, sizeof(text)))
					break;
			}
			if (j == SIZE_MAX || j < a ||
			    !guard_signal(st, j, text, sizeof(text)))
				continue;
			for (ge = i + 1;
			     ge < b && st->t[ge].depth >= d &&
			     !(st->t[ge].depth == d &&
			       (tok_kw(st, ge, "or") || tok_op(st, ge, ",")));
			     ge++)
				;
			st->iv[st->niv].a = i + 1;
			st->iv[st->niv].b = ge;
			snprintf(st->iv[st->niv].text, sizeof(st->iv[0].text),
				 "%s and ...", text);
			st->niv++;
		} else if (tok_kw(st, i, "if") && i > a) {
			for (ge = i + 1;
			     ge < b && st->t[ge].depth >= d &&
			     !(st->t[ge].depth == d && tok_kw(st, ge, "else"));
			     ge++)
				;
			if (!guard_test(st, i + 1, ge, text, sizeof(text)))
				continue;
			for (gs = i; gs > a && st->t[gs - 1].depth >= d; gs--)
				;
			for (; ge < b && st->t[ge].depth >= d; ge++)
				if (st->t[ge].depth == d && tok_op(st, ge, ","))
					break;
			st->iv[st->niv].a = gs;
			st->iv[st->niv].b = ge;
			snprintf(st->iv[st->niv].text, sizeof(st->iv[0].text),
				 "if %s (conditional "
				 "expression)",
				 text);
			st->niv++;
		}
	}
}

/* Whether name token e (the end of a chain) is a function that parses
 * a version: parse (packaging.version), Version, parse_version
 * (pkg_resources), LooseVersion, digit_version (mmcv/mmengine). */
static int
parse_func(const struct state *st, size_t e)
{
	return tok_is(st, e, "parse") || tok_is(st, e, "Version") ||
	       tok_is(st, e, "parse_version") ||
	       tok_is(st, e, "LooseVersion") || tok_is(st, e, "digit_version");
}

/* One side of a version comparison at [a, b): 1 a version name, 2
 * parse(torch.__version__), 3 torch.__version__ itself, 4 a tuple
 * (into ver), 5 parse("X") (into ver), 6 an integer compared with a
 * MAJOR name (into ver), 0 none. */
static int
version_side(const struct state *st, size_t a, size_t b, char *ver, size_t cap)
{
	size_t e;

	if (a >= b)
		return 0;
	if (tok_op(st, a, "(")) {
		size_t k = a + 1, n = 0, c = closer(st, a);

		if (c + 1 != b)
			return 0;
		ver[0] = '\0';
		for (; k < c; k++) {
			if (st->t[k].kind == TG_PYLEX_NUMBER && n < 4 &&
			    strlen(ver) + st->t[k].len + 2 < cap) {
				if (n++)
					strcat(ver, ".");
				strncat(ver, st->s + st->t[k].off,
					st->t[k].len);
				if (!tok_op(st, k + 1, ",") && k + 1 != c)
					return 0;
				if (tok_op(st, k + 1, ","))
					k++;
			} else {
				return 0;
			}
		}
		return n ? 4 : 0;
	}
	if (st->t[a].kind == TG_PYLEX_NUMBER && b == a + 1 &&
	    st->t[a].len < cap) {
		memcpy(ver, st->s + st->t[a].off, st->t[a].len);
		ver[st->t[a].len] = '\0';
		return 6;
	}
	if (!tok_name(st, a))
		return 0;
	e = chain_end(st, a);
	if (e + 1 == b) {
		if (tok_is(st, e, "__version__"))
			return torch_version_attr(st, a, e) ? 3 : 0;
		if (version_name(st->s + st->t[e].off, st->t[e].len))
			return 1;
		return 0;
	}
	if (tok_op(st, e + 1, "(") && closer(st, e + 1) + 1 == b &&
	    parse_func(st, e)) {
		size_t k = e + 2;

		if (st->t[k].kind == TG_PYLEX_STRING && k + 1 == b - 1) {
			const struct tg_pylex_tok *s = &st->t[k];
			size_t bo = s->off + s->pre + s->quote,
			       eo = s->off + s->len - s->quote, j;

			if (s->flags & TG_PYLEX_UNTERMINATED || eo <= bo ||
			    eo - bo >= cap)
				return 0;
			for (j = bo; j < eo; j++)
				if (!ident_char((unsigned char)st->s[j]) &&
				    st->s[j] != '.' && st->s[j] != '+')
					return 0;
			memcpy(ver, st->s + bo, eo - bo);
			ver[eo - bo] = '\0';
			return 5;
		}
		if (tok_name(st, k)) {
			size_t ke = chain_end(st, k);

			if (ke + 2 == b && torch_version_attr(st, k, ke))
				return 2;
		}
	}
	return 0;
}

static const char *const cmp_ops[] = {">=", "<=", ">", "<", "==", "!="};

/* Whether tokens [a, b) are one string literal whose body starts with a
 * digit: a version compared as a string ("2.4"; not "parrots"). */
static int
version_string(const struct state *st, size_t a, size_t b)
{
	const struct tg_pylex_tok *t = &st->t[a];
	size_t bo = t->off + t->pre + t->quote;

	return b == a + 1 && t->kind == TG_PYLEX_STRING &&
	       !(t->flags & TG_PYLEX_UNTERMINATED) && bo < t->off + t->len &&
	       st->s[bo] >= '0' && st->s[bo] <= '9';
}

/* op index flipped (operands swapped) and negated. */
static const int flip_op[] = {1, 0, 3, 2, 4, 5};
static const int neg_op[] = {3, 2, 1, 0, 5, 4};

/* Increment the last numeric component of ver. */
static void
bump_last(char *ver, size_t cap)
{
	char *d = strrchr(ver, '.');
	char *p = d ? d + 1 : ver;
	unsigned long v = strtoul(p, NULL, 10);

	snprintf(p, cap - (size_t)(p - ver), "%lu", v + 1);
}

/* The specifier of "torch OP ver" for the side kind (4 or 6: tuple
 * semantics, a tuple as long as the literal; 5: PEP 440). */
static void
make_spec(int op, const char *ver, int kind, char *out, size_t cap)
{
	char v[40];

	snprintf(v, sizeof(v), "%.30s", ver);
	if (kind == 4 || kind == 6) {
		switch (op) {
		case 0:
			snprintf(out, cap, ">=%s", v);
			break;
		case 1:
			bump_last(v, sizeof(v));
			snprintf(out, cap, "<%s", v);
			break;
		case 2:
			bump_last(v, sizeof(v));
			snprintf(out, cap, ">=%s", v);
			break;
		case 3:
			snprintf(out, cap, "<%s", v);
			break;
		case 4:
			snprintf(out, cap, "==%s.*", v);
			break;
		default:
			snprintf(out, cap, "!=%s.*", v);
			break;
		}
		return;
	}
	snprintf(out, cap, "%s%s", cmp_ops[op], v);
}

/* One comparison at [a, b): its specifier and that of its negation. 1
 * when read exactly. */
static int
read_compare(struct state *st, size_t a, size_t b, char *pos, char *neg,
	     size_t cap)
{
	size_t i, d = st->t[a].depth;
	int op = -1, lk, rk;
	char lv[64], rv[64];

	for (i = a; i < b; i++)
		if (st->t[i].depth == d && st->t[i].kind == TG_PYLEX_OP) {
			size_t k;

			for (k = 0; k < 6; k++)
				if (tok_op(st, i, cmp_ops[k]))
					break;
			if (k < 6) {
				op = (int)k;
				break;
			}
		}
	if (op < 0)
		return 0;
	lk = version_side(st, a, i, lv, sizeof(lv));
	rk = version_side(st, i + 1, b, rv, sizeof(rv));
	if ((lk == 3 && version_string(st, i + 1, b)) ||
	    (rk == 3 && version_string(st, a, i))) {
		if (!st->rc)
			st->rc = tg_diag_add(
			    &st->r->notes, TG_SEV_NOTE, 0, st->path,
			    st->t[a].line, st->t[a].col + 1,
			    "audit-string-version", NULL,
			    "torch.__version__ compared as a string: not "
			    "read as a version branch");
		return 0;
	}
	if (lk >= 4 && lk != 6) {
		int t = lk;
		char tv[64];

		memcpy(tv, lv, sizeof(tv));
		lk = rk;
		memcpy(lv, rv, sizeof(lv));
		rk = t;
		memcpy(rv, tv, sizeof(rv));
		op = flip_op[op];
	}
	if (!((lk == 1 && rk == 4) || (lk == 2 && rk == 5)))
		if (!(lk == 1 && rk == 6 &&
		      ci_contains(st->s + st->t[a].off,
				  st->t[i - 1].off + st->t[i - 1].len -
				      st->t[a].off,
				  "major")))
			return 0;
	make_spec(op, rv, rk, pos, cap);
	make_spec(neg_op[op], rv, rk, neg, cap);
	return 1;
}

/* ------------------------------------------------------------------ */
/* Version tests over the grid (audit.h): the forms read_test cannot
 * write as one specifier set: "or", "not", parentheses, a TORCH_MAJOR
 * and a TORCH_MINOR name compared apart, helper calls such as
 * is_torch_min_version("2.4"). Each comparison is evaluated at every
 * point major.minor of the grid; the points where the whole test holds
 * must be one interval. A comparison that the grid cannot decide
 * exactly (a patch level other than 0, a pre-release, a string) makes
 * the test unreadable, as before. */

enum gkind { G_NONE, G_MAJOR, G_MINOR, G_VERSION, G_NUMBER, G_TUPLE };

struct gside {
	enum gkind kind;
	long v[3]; /* G_NUMBER: v[0]; G_TUPLE: major, minor, patch */
};

/* The digits of s[0..n) as a version "X[.Y[.Z]]" into v: 1, or 0 when
 * it is anything else (a pre-release, a local label, more parts). */
static int
grid_version(const char *s, size_t n, long v[3])
{
	size_t i = 0, k = 0;

	v[0] = v[1] = v[2] = 0;
	while (k < 3) {
		size_t a = i;

		while (i < n && s[i] >= '0' && s[i] <= '9' && i - a < 6)
			v[k] = v[k] * 10 + (s[i++] - '0');
		if (i == a)
			return 0;
		k++;
		if (i == n)
			return 1;
		if (s[i++] != '.')
			return 0;
	}
	return 0;
}

/* An integer literal token. */
static int
grid_int(const struct state *st, size_t i, long *v)
{
	const struct tg_pylex_tok *t = &st->t[i];
	size_t k;

	if (t->kind != TG_PYLEX_NUMBER || t->len > 6)
		return 0;
	*v = 0;
	for (k = 0; k < t->len; k++) {
		char c = st->s[t->off + k];

		if (c < '0' || c > '9')
			return 0;
		*v = *v * 10 + (c - '0');
	}
	return 1;
}

/* A string literal token holding a version, into v. */
static int
grid_str(const struct state *st, size_t i, long v[3])
{
	const struct tg_pylex_tok *t = &st->t[i];
	size_t bo = t->off + t->pre + t->quote;

	if (t->kind != TG_PYLEX_STRING || (t->flags & TG_PYLEX_UNTERMINATED) ||
	    t->len < (size_t)t->pre + 2u * t->quote)
		return 0;
	return grid_version(st->s + bo, t->off + t->len - t->quote - bo, v);
}

/* Numbers (n, n[, n]) in tokens [a, c) into v (c the closer). */
static int
grid_tuple(const struct state *st, size_t a, size_t c, long v[3])
{
	size_t k = a, n = 0;

	v[0] = v[1] = v[2] = 0;
	while (k < c) {
		if (n == 3 || !grid_int(st, k, &v[n]))
			return 0;
		n++;
		k++;
		if (k < c && !tok_op(st, k, ","))
			return 0;
		k++;
	}
	return n > 0;
}

/* One side of a comparison, tokens [a, b). */
static int
grid_side(const struct state *st, size_t a, size_t b, struct gside *g)
{
	size_t e;

	g->kind = G_NONE;
	if (a >= b)
		return 0;
	if (b == a + 1 && grid_int(st, a, &g->v[0])) {
		g->kind = G_NUMBER;
		return 1;
	}
	if (tok_op(st, a, "(") && closer(st, a) + 1 == b) {
		g->kind = G_TUPLE;
		return grid_tuple(st, a + 1, b - 1, g->v);
	}
	if (!tok_name(st, a))
		return 0;
	e = chain_end(st, a);
	if (e + 1 == b) {
		const char *n = st->s + st->t[e].off;
		size_t nl = st->t[e].len;

		if (!version_name(n, nl))
			return 0;
		g->kind = ci_contains(n, nl, "minor")	? G_MINOR
			  : ci_contains(n, nl, "major") ? G_MAJOR
							: G_VERSION;
		return 1;
	}
	/* parse(...), Version(...), parse_version(...), LooseVersion(...)
	 * of a version string or of torch.__version__ */
	if (tok_op(st, e + 1, "(") && closer(st, e + 1) + 1 == b &&
	    parse_func(st, e)) {
		size_t k = e + 2;

		if (k + 1 == b - 1 && grid_str(st, k, g->v)) {
			g->kind = G_TUPLE;
			return 1;
		}
		if (tok_name(st, k) && chain_end(st, k) + 2 == b &&
		    torch_version_attr(st, k, chain_end(st, k))) {
			g->kind = G_VERSION;
			return 1;
		}
	}
	return 0;
}

static int
grid_cmp(long x, int op, long y)
{
	switch (op) {
	case 0:
		return x >= y;
	case 1:
		return x <= y;
	case 2:
		return x > y;
	case 3:
		return x < y;
	case 4:
		return x == y;
	default:
		return x != y;
	}
}

/* A comparison of tokens [a, b) at grid point (M, m): 0 or 1, or -1
 * when it is not one the grid decides. */
static int
grid_compare(const struct state *st, size_t a, size_t b, long M, long m)
{
	size_t i, d = st->t[a].depth, k;
	struct gside l, r;
	int op = -1;

	for (i = a; i < b && op < 0; i++)
		for (k = 0; k < 6 && st->t[i].depth == d; k++)
			if (tok_op(st, i, cmp_ops[k])) {
				op = (int)k;
				break;
			}
	if (op < 0)
		return -1;
	i--;
	if (!grid_side(st, a, i, &l) || !grid_side(st, i + 1, b, &r))
		return -1;
	if (l.kind == G_NUMBER || l.kind == G_TUPLE) {
		struct gside t = l;

		l = r;
		r = t;
		op = flip_op[op];
	}
	if ((l.kind == G_MAJOR || l.kind == G_MINOR) && r.kind == G_NUMBER)
		return grid_cmp(l.kind == G_MAJOR ? M : m, op, r.v[0]);
	if (l.kind == G_VERSION && r.kind == G_TUPLE) {
		if (r.v[2])
			return -1; /* a patch level: between grid points */
		return grid_cmp(M * 1000 + m, op, r.v[0] * 1000 + r.v[1]);
	}
	return -1;
}

/* A helper call NAME(...) whose name says "at least this torch":
 * is_torch_min_version("2.4"), min_torch_version("2.6.0"),
 * torch_version_at_least(2, 4). */
static int
grid_helper(const struct state *st, size_t a, size_t b, long M, long m)
{
	size_t e, c;
	const char *n;
	long v[3];

	if (!tok_name(st, a))
		return -1;
	e = chain_end(st, a);
	n = st->s + st->t[e].off;
	if (!tok_op(st, e + 1, "(") || (c = closer(st, e + 1)) + 1 != b ||
	    !torch_word(n, st->t[e].len) ||
	    !((ci_contains(n, st->t[e].len, "min") &&
	       ci_contains(n, st->t[e].len, "version")) ||
	      ci_contains(n, st->t[e].len, "at_least")))
		return -1;
	if (!(c == e + 3 && grid_str(st, e + 2, v)) &&
	    !grid_tuple(st, e + 2, c, v))
		return -1;
	if (v[2])
		return -1;
	return M * 1000 + m >= v[0] * 1000 + v[1];
}

/* Tokens [a, b) at depth d as a test at grid point (M, m): 0 or 1, or
 * -1 when not readable. depth bounds the recursion. */
static int
grid_eval(const struct state *st, size_t a, size_t b, long M, long m, int depth)
{
	size_t d, i;
	int x, y;

	if (a >= b || depth > 32)
		return -1;
	d = st->t[a].depth;
	for (i = a; i < b; i++)
		if (st->t[i].depth == d && tok_kw(st, i, "or")) {
			x = grid_eval(st, a, i, M, m, depth + 1);
			y = grid_eval(st, i + 1, b, M, m, depth + 1);
			return x < 0 || y < 0 ? -1 : x || y;
		}
	for (i = a; i < b; i++)
		if (st->t[i].depth == d && tok_kw(st, i, "and")) {
			x = grid_eval(st, a, i, M, m, depth + 1);
			y = grid_eval(st, i + 1, b, M, m, depth + 1);
			return x < 0 || y < 0 ? -1 : x && y;
		}
	if (tok_kw(st, a, "not")) {
		x = grid_eval(st, a + 1, b, M, m, depth + 1);
		return x < 0 ? -1 : !x;
	}
	if (tok_op(st, a, "(") && closer(st, a) + 1 == b)
		return grid_eval(st, a + 1, b - 1, M, m, depth + 1);
	x = grid_helper(st, a, b, M, m);
	return x >= 0 ? x : grid_compare(st, a, b, M, m);
}

/* The test [a, b) over the grid: the specifier sets where it holds and
 * where it does not (empty when that is not one interval); 0 when it is
 * not readable or holds everywhere or nowhere. */
static int
read_test_grid(const struct state *st, size_t a, size_t b, char *pos, char *neg,
	       size_t cap)
{
	unsigned char set[TG_AUDIT_GRID], not_set[TG_AUDIT_GRID];
	size_t k;
	int x;

	pos[0] = neg[0] = '\0';
	for (k = 0; k < TG_AUDIT_GRID; k++) {
		x = grid_eval(st, a, b, (long)(k / TG_AUDIT_GRID_MINOR),
			      (long)(k % TG_AUDIT_GRID_MINOR), 0);
		if (x < 0)
			return 0;
		set[k] = (unsigned char)x;
		not_set[k] = (unsigned char)!x;
	}
	if (!tg_audit_grid_spec(set, pos, cap))
		return 0;
	if (!tg_audit_grid_spec(not_set, neg, cap))
		neg[0] = '\0';
	return 1;
}

/* A whole test [a, b): one comparison, or several joined by "and"
 * (then no negation: *neg empty). */
static int
read_test(struct state *st, size_t a, size_t b, char *pos, char *neg,
	  size_t cap)
{
	size_t d = st->t[a].depth, i, s = a, n = 0;
	char p1[64], n1[64];

	pos[0] = neg[0] = '\0';
	for (i = a; i <= b; i++) {
		if (i < b && !(tok_kw(st, i, "and") && st->t[i].depth == d)) {
			if (st->t[i].depth == d &&
			    (tok_kw(st, i, "or") || tok_kw(st, i, "not")))
				return 0;
			continue;
		}
		if (!read_compare(st, s, i, p1, n1, sizeof(p1)))
			return 0;
		if (strlen(pos) + strlen(p1) + 2 >= cap)
			return 0;
		if (n++)
			strcat(pos, ",");
		strcat(pos, p1);
		if (n == 1)
			snprintf(neg, cap, "%s", n1);
		else
			neg[0] = '\0';
		s = i + 1;
	}
	return n > 0;
}

static void
join_spec(char *dst, size_t cap, const char *a, const char *b)
{
	if (!a[0])
		snprintf(dst, cap, "%s", b);
	else if (!b[0])
		snprintf(dst, cap, "%s", a);
	else
		snprintf(dst, cap, "%s,%s", a, b);
}

/* The current clause of block b ended at the last line: its branch. */
static void
close_clause(struct state *st, struct block *b)
{
	if (b->kind == B_IF && b->vb && b->req[0] && !st->rc)
		st->rc = tg_audit_result_add_branch(
		    st->r, b->cl_line,
		    st->last_line > b->cl_line ? st->last_line : b->cl_line,
		    b->cond, b->req);
	b->vb = 0;
}

static void
pop_block(struct state *st)
{
	struct block *b = &st->blocks[st->nblocks - 1];
	size_t k;

	close_clause(st, b);
	/* a def's body ends: the names its parameters hid are torch's
	 * again */
	for (k = b->nshadows; k-- > 0;) {
		struct shadow *h = &b->shadows[k];

		bind_put(st, h->name, h->nlen, h->target, strlen(h->target),
			 h->site, &h->fb);
		free(h->target);
	}
	st->nblocks--;
}

/* The colon ending a compound header at [a, b): its index, or b. */
static size_t
header_colon(const struct state *st, size_t a, size_t b)
{
	size_t i, d = st->t[a].depth;

	for (i = a; i < b; i++)
		if (st->t[i].depth == d && tok_op(st, i, ":"))
			return i;
	return b;
}

/* Patch the findings of the try block b that are guarded less than it
 * now is. */
static void
patch_try(struct state *st, const struct block *b)
{
	size_t k;

	for (k = b->first; k < st->r->nfindings && !st->rc; k++) {
		struct tg_audit_finding *f = &st->r->findings[k];
		char *c;

		if (f->guard >= b->guard && f->guard != TG_AUDIT_SOFT)
			continue;
		if (f->guard == TG_AUDIT_GUARDED ||
		    (f->guard == TG_AUDIT_SOFT && b->guard == TG_AUDIT_SOFT))
			continue;
		c = strdup(b->gtext);
		if (!c) {
			st->rc = TG_ENOMEM;
			return;
		}
		free(f->guard_text);
		f->guard_text = c;
		f->guard = b->guard;
		f->guard_line = b->gline;
	}
}

/* "except ...:" of try block b, tokens [a, c). */
static void
except_clause(struct state *st, struct block *b, size_t a, size_t c)
{
	static const char *const hard[] = {"ImportError", "ModuleNotFoundError",
					   "AttributeError"};
	enum tg_audit_guard g = TG_AUDIT_SOFT;
	char text[96];
	size_t i, k;

	snprintf(text, sizeof(text), "try/bare except");
	for (i = a + 1; i < c; i++) {
		if (tok_kw(st, i, "as"))
			break;
		for (k = 0; k < 3; k++)
			if (tok_is(st, i, hard[k])) {
				g = TG_AUDIT_GUARDED;
				snprintf(text, sizeof(text), "try/except %s",
					 hard[k]);
			}
		if (g == TG_AUDIT_SOFT && tok_name(st, i)) {
			if (tok_is(st, i, "Exception") ||
			    tok_is(st, i, "BaseException"))
				snprintf(text, sizeof(text), "try/except %.*s",
					 (int)st->t[i].len,
					 st->s + st->t[i].off);
			else if (strcmp(text, "try/bare except") == 0)
				g = TG_AUDIT_UNGUARDED;
		}
	}
	if (g == TG_AUDIT_UNGUARDED)
		return;
	if (g > b->guard || b->guard == TG_AUDIT_UNGUARDED ||
	    (g == TG_AUDIT_GUARDED && b->guard == TG_AUDIT_SOFT)) {
		if (b->guard == TG_AUDIT_GUARDED && g == TG_AUDIT_SOFT)
			return;
		b->guard = g;
		snprintf(b->gtext, sizeof(b->gtext), "%s", text);
		patch_try(st, b);
	}
}

static struct block *
push_block(struct state *st, int kind, size_t indent, size_t line)
{
	struct block *b;

	if (st->nblocks >= BLOCKS_MAX)
		return NULL;
	b = &st->blocks[st->nblocks++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->indent = indent;
	b->line = line;
	b->gline = line;
	b->first = st->r->nfindings;
	if (kind != B_OTHER)
		b->serial = ++st->nserial;
	return b;
}

/* if/elif test [a, c) of block b: guard and version branch. */
/* Whether tokens [a, b) can be a test of the torch version at all: a
 * name with "torch" as a word (version_name, is_torch_min_version) or
 * __version__, which every comparison read_test reads and every test
 * read_test_grid finds version-dependent has (most tests have none). */
static int
version_signal(const struct state *st, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++)
		if (st->t[i].kind == TG_PYLEX_NAME &&
		    (torch_word(st->s + st->t[i].off, st->t[i].len) ||
		     tok_is(st, i, "__version__")))
			return 1;
	return 0;
}

static void
if_test(struct state *st, struct block *b, size_t a, size_t c, int elif)
{
	char text[80], pos[160], neg[160];

	if (b->guard == TG_AUDIT_UNGUARDED &&
	    guard_test(st, a, c, text, sizeof(text))) {
		b->guard = TG_AUDIT_GUARDED;
		snprintf(b->gtext, sizeof(b->gtext), "%s %s",
			 elif ? "elif" : "if", text);
		b->gline = st->t[a].line;
	}
	b->cl_line = st->t[a].line;
	copy_text(b->cond, sizeof(b->cond), st->s + st->t[a].off,
		  c > a ? st->t[c - 1].off + st->t[c - 1].len - st->t[a].off
			: 0);
	if (a < c && version_signal(st, a, c) &&
	    (read_test(st, a, c, pos, neg, sizeof(pos)) ||
	     read_test_grid(st, a, c, pos, neg, sizeof(pos)))) {
		join_spec(b->req, sizeof(b->req), b->neg, pos);
		if (neg[0]) {
			char nn[160];

			join_spec(nn, sizeof(nn), b->neg, neg);
			memcpy(b->neg, nn, sizeof(nn));
		}
		b->vb = 1;
	} else {
		memcpy(b->req, b->neg, sizeof(b->req));
		b->vb = b->req[0] != 0;
	}
}

/* Move the block stack to the logical line [0, n). Returns where the
 * code of the line starts (after a header's colon for a one-line
 * suite, else 0); *header tells it was a compound header. */
static size_t
blocks_line(struct state *st, int *header)
{
	size_t indent = st->t[0].col, c, a = 0;
	struct block *top;
	int clause = 0;

	*header = 0;
	if (tok_kw(st, 0, "async"))
		a = 1;
	while (st->nblocks) {
		top = &st->blocks[st->nblocks - 1];
		if (top->indent < indent)
			break;
		if (top->indent == indent &&
		    ((top->kind == B_TRY &&
		      (tok_kw(st, 0, "except") || tok_kw(st, 0, "else") ||
		       tok_kw(st, 0, "finally"))) ||
		     (top->kind == B_IF &&
		      (tok_kw(st, 0, "elif") || tok_kw(st, 0, "else"))) ||
		     (top->kind == B_OTHER && tok_kw(st, 0, "else")))) {
			clause = 1;
			break;
		}
		pop_block(st);
	}
	if (!clause && !(tok_kw(st, 0, "if") || tok_kw(st, 0, "try") ||
			 tok_kw(st, a, "def") || tok_kw(st, 0, "class") ||
			 tok_kw(st, a, "with") || tok_kw(st, a, "for") ||
			 tok_kw(st, 0, "while")))
		return 0; /* no compound statement's header */
	c = header_colon(st, 0, st->n);
	if (clause) {
		top = &st->blocks[st->nblocks - 1];
		*header = 1;
		close_clause(st, top);
		if (top->kind == B_TRY) {
			if (tok_kw(st, 0, "except")) {
				top->clause = 1;
				except_clause(st, top, 0, c);
			} else if (tok_kw(st, 0, "else")) {
				top->clause = 2;
			} else {
				top->clause = 3;
			}
		} else if (top->kind == B_IF) {
			top->clause++;
			if (tok_kw(st, 0, "elif")) {
				if_test(st, top, 1, c, 1);
			} else {
				top->cl_line = st->t[0].line;
				snprintf(top->cond, sizeof(top->cond), "else");
				memcpy(top->req, top->neg, sizeof(top->req));
				top->vb = top->req[0] != 0;
			}
		}
	} else if (tok_kw(st, 0, "if")) {
		*header = 1;
		top = push_block(st, B_IF, indent, st->t[0].line);
		if (top)
			if_test(st, top, 1, c, 0);
	} else if (tok_kw(st, 0, "try")) {
		*header = 1;
		push_block(st, B_TRY, indent, st->t[0].line);
	} else if (tok_kw(st, a, "def") || tok_kw(st, 0, "class") ||
		   tok_kw(st, a, "with") || tok_kw(st, a, "for") ||
		   tok_kw(st, 0, "while")) {
		*header = 1;
		push_block(st, B_OTHER, indent, st->t[0].line);
	} else {
		return 0;
	}
	if (tok_kw(st, a, "def") || tok_kw(st, 0, "class"))
		return 0; /* its line holds names that are not code uses */
	return c + 1 < st->n ? c + 1 : 0;
}

/* Mark annotation tokens: a def's parameters after ':', after '->',
 * and a variable annotation NAME: ann [= ...]. */
static void
mark_annotations(struct state *st)
{
	size_t i = 0, d;
	int on = 0;

	memset(st->ann, 0, st->n);
	if (tok_kw(st, 0, "async"))
		i = 1;
	if (tok_kw(st, i, "def")) {
		for (; i < st->n && !tok_op(st, i, "("); i++)
			;
		if (i >= st->n)
			return;
		d = st->t[i].depth + 1;
		for (i++; i < st->n; i++) {
			const struct tg_pylex_tok *t = &st->t[i];

			if (t->depth < d)
				break;
			if (t->depth == d) {
				if (tok_op(st, i, ":")) {
					on = 1;
					continue;
				}
				if (tok_op(st, i, ",") || tok_op(st, i, "=")) {
					on = 0;
					continue;
				}
			}
			st->ann[i] = (unsigned char)on;
		}
		for (; i < st->n; i++)
			if (tok_op(st, i, "->"))
				break;
		for (i++; i < st->n && !(tok_op(st, i, ":") &&
					 st->t[i].depth == st->t[0].depth);
		     i++)
			st->ann[i] = 1;
		return;
	}
	/* NAME(.NAME)*: ann */
	if (!tok_name(st, 0) || tok_kw(st, 0, "lambda"))
		return;
	i = chain_end(st, 0);
	if (!tok_op(st, i + 1, ":") || header_colon(st, 0, st->n) != i + 1)
		return;
	{
		static const char *const kws[] = {
		    "if",  "elif",  "else", "try",   "except", "finally",
		    "for", "while", "with", "class", "def",    "lambda"};
		size_t k;

		for (k = 0; k < sizeof(kws) / sizeof(kws[0]); k++)
			if (tok_kw(st, 0, kws[k]))
				return;
	}
	for (i += 2; i < st->n; i++) {
		if (st->t[i].depth == st->t[0].depth && tok_op(st, i, "="))
			break;
		st->ann[i] = 1;
	}
}

/* The names a for, with ... as or except ... as header binds, in tokens
 * [0, e) of the line: no longer aliases. The targets of a for are the
 * names before its "in"; of as, the names after it up to the next ','
 * or ':' at its depth (a tuple of names too). */
static void
header_targets(struct state *st, size_t e)
{
	size_t i = 0, k, d;
	int on = 0;

	if (tok_kw(st, 0, "async"))
		i = 1;
	if (!tok_kw(st, i, "for") && !tok_kw(st, i, "with") &&
	    !tok_kw(st, i, "except"))
		return;
	d = st->t[i].depth;
	on = tok_kw(st, i, "for");
	for (k = i + 1; k < e; k++) {
		const struct tg_pylex_tok *t = &st->t[k];

		if (t->depth == d && tok_kw(st, k, "in") &&
		    tok_kw(st, i, "for"))
			break;
		if (t->depth == d && tok_kw(st, k, "as")) {
			on = 1;
			continue;
		}
		if (t->depth == d &&
		    (tok_op(st, k, ",") || tok_op(st, k, ":")) &&
		    !tok_kw(st, i, "for")) {
			on = 0;
			continue;
		}
		if (on && t->kind == TG_PYLEX_NAME && !tok_op(st, k - 1, ".") &&
		    !tok_op(st, k + 1, ".") && !tok_op(st, k + 1, "(") &&
		    !tok_op(st, k + 1, "["))
			bind_set(st, st->s + t->off, t->len, NULL, 0);
	}
}

/* The parameters of the def whose '(' is token p, on its own header
 * line (its body on the lines below): each one that names a module or
 * entry of torch (an alias, or a root) hides it in the body, which is
 * the top block; the block's end puts it back. */
static void
shadow_params(struct state *st, size_t p)
{
	struct block *b = st->nblocks ? &st->blocks[st->nblocks - 1] : NULL;
	size_t i, e, tn;

	/* the def's block (none when the stack was full) */
	if (!b || b->line != st->t[0].line || b->indent != st->t[0].col ||
	    !tok_op(st, p, "("))
		return;
	e = closer(st, p);
	for (i = p + 1; i < e && !st->rc; i++) {
		const struct tg_pylex_tok *t = &st->t[i];
		const char *s = st->s + t->off, *target;
		const struct binding *bb;
		char *c;

		if (!param_name(st, p, i))
			continue;
		if (!(target = resolve_head(st, s, t->len, &tn, NULL)))
			continue;
		if (b->nshadows == SHADOWS_MAX)
			break;
		if (!(c = malloc(tn + 1))) {
			st->rc = TG_ENOMEM;
			return;
		}
		memcpy(c, target, tn);
		c[tn] = '\0';
		b->shadows[b->nshadows].name = s;
		b->shadows[b->nshadows].nlen = t->len;
		b->shadows[b->nshadows].target = c;
		bb = bind_find(st, s, t->len);
		b->shadows[b->nshadows].site =
		    bb ? bb->site : (struct bind_site){0, 0};
		b->shadows[b->nshadows].fb = bb ? bb->fb : no_fallback;
		b->nshadows++;
		bind_put(st, s, t->len, NULL, 0, (struct bind_site){0, 0},
			 &no_fallback);
	}
}

/* One buffered logical line. */
static void
process_line(struct state *st)
{
	size_t a, i, start;
	int header = 0;

	if (!st->n)
		return;
	if (!st->hot_line && !st->cont && !st->nstars) {
		/* no use here: only the blocks it opens or closes */
		blocks_line(st, &header);
		goto out;
	}
	if (st->cont) {
		memset(st->ann, 0, st->n);
		st->niv = 0;
		scan_refs(st, 0, st->n);
		goto out;
	}
	start = blocks_line(st, &header);
	mark_annotations(st);
	line_intervals(st, 0, st->n);
	/* a header's own tokens: its test and a one-line suite */
	a = header ? start : 0;
	if (header) {
		if (tok_kw(st, 0, "def") || tok_kw(st, 0, "class") ||
		    tok_kw(st, 1, "def")) {
			size_t k = tok_kw(st, 0, "async") ? 2 : 1;

			if (!tok_kw(st, 0, "class") && tok_op(st, k + 1, "("))
				st->params_at = k + 1;
			scan_refs(st, k + 1, st->n);
			st->params_at = SIZE_MAX;
			stmt_assign(st, 0, st->n);
			if (!start && !tok_kw(st, 0, "class"))
				shadow_params(st, k + 1);
			goto out;
		}
		scan_refs(st, 0, start ? start : st->n);
		header_targets(st, start ? start : st->n);
		if (!start)
			goto out;
	}
	/* statements split by ';' */
	for (i = a; i <= st->n; i++) {
		if (i < st->n &&
		    !(tok_op(st, i, ";") && st->t[i].depth == st->t[a].depth))
			continue;
		if (i > a) {
			if (tok_kw(st, a, "import")) {
				stmt_import(st, a, i);
			} else if (tok_kw(st, a, "from")) {
				stmt_from(st, a, i);
			} else {
				scan_refs(st, a, i);
				stmt_assign(st, a, i);
			}
		}
		a = i + 1;
	}
out:
	st->last_line = st->t[st->n - 1].line;
	st->n = 0;
	st->hot_line = 0;
}

/* Whether src can hold a finding at all: a use, an import, a mention
 * or a suppression spells a root ("torch" in "torchgate" too), a method
 * its name, a version test a name with "torch" in some case (the
 * other cases of "torch" are not looked for). Most files of a package that does not use torch
 * end here. */
static int
may_match(const struct tg_audit_py_index *ix, const char *src, size_t len)
{
	size_t k;

	for (k = 0; k < ix->nroots; k++)
		if (!ix->root_implied[k] &&
		    memmem(src, len, ix->roots[k], ix->rootlen[k]))
			return 1;
	/* a version branch on TORCH_VERSION or a Torch... name */
	if (memmem(src, len, "TORCH", 5) || memmem(src, len, "Torch", 5))
		return 1;
	for (k = 0; k < ix->nmethods; k++)
		if (memmem(src, len, ix->methods[k].name,
			   strlen(ix->methods[k].name)))
			return 1;
	for (k = 0; k < ix->nparams; k++)
		if (ix->params[k].method && memmem(src, len, ix->params[k].func,
						   strlen(ix->params[k].func)))
			return 1;
	return 0;
}

static int
analyze(const struct tg_audit_py_index *ix, const char *src, size_t len,
	const char *path, struct tg_audit_result *r)
{
	struct state *st;
	struct tg_pylex lx;
	struct tg_pylex_tok tok;
	size_t k, cap = 256;
	int rc;

	if (!may_match(ix, src, len))
		return 0;
	st = malloc(sizeof(*st));
	if (!st)
		return TG_ENOMEM;
	memset(st, 0, offsetof(struct state, blocks));
	st->ix = ix;
	st->s = src;
	st->len = len;
	st->field_of = SIZE_MAX;
	st->params_at = SIZE_MAX;
	memcpy(st->hot, ix->hot, sizeof(st->hot));
	st->path = path;
	st->r = r;
	st->t = malloc(cap * sizeof(*st->t));
	st->ann = malloc(cap);
	st->tc = malloc(cap);
	if (!st->t || !st->ann || !st->tc || bind_room(st)) {
		rc = TG_ENOMEM;
		goto out;
	}
	tg_pylex_init(&lx, src, len);
	while (!st->rc) {
		size_t from = st->n;
		int got = tg_pylex_line(&lx, st->t, cap, &st->n, &tok);

		/* the line's new tokens: what makes it hot, what to note */
		for (k = from; k < st->n && !st->rc; k++) {
			const struct tg_pylex_tok *t = &st->t[k];

			st->tc[k] = tok_code(ix, src, t);
			if (t->kind == TG_PYLEX_NAME) {
				if (!st->hot_line &&
				    hot_get(st->hot,
					    hot_key(src + t->off, t->len)))
					st->hot_line = 1;
			} else if (t->kind == TG_PYLEX_STRING) {
				st->hot_line = 1;
				/* read on, as Python would not: say where
				 * (once a file) */
				if ((t->flags & TG_PYLEX_UNTERMINATED) &&
				    !st->noted_unterm++)
					st->rc = tg_diag_add(
					    &r->notes, TG_SEV_NOTE, 0, path,
					    t->line, t->col + 1,
					    "audit-unterminated", NULL,
					    "unterminated string: %s read as a "
					    "string",
					    t->flags & TG_PYLEX_TRIPLE
						? "the rest of the file"
						: "the rest of its line");
			}
		}
		if (got < 0 || st->rc)
			break;
		if (got == 0) {
			/* the buffer is full */
			if (cap < LINE_TOKS) {
				struct tg_pylex_tok *nt;
				unsigned char *na, *nc;

				nt = realloc(st->t, cap * 2 * sizeof(*nt));
				if (nt)
					st->t = nt;
				na = realloc(st->ann, cap * 2);
				if (na)
					st->ann = na;
				nc = realloc(st->tc, cap * 2);
				if (nc)
					st->tc = nc;
				if (!nt || !na || !nc) {
					rc = TG_ENOMEM;
					goto out;
				}
				cap *= 2;
			} else {
				if (!st->noted_long++)
					st->rc = tg_diag_add(
					    &r->notes, TG_SEV_NOTE, 0, path,
					    st->t[0].line, st->t[0].col + 1,
					    "audit-limit", NULL,
					    "logical line of more than %d "
					    "tokens: analyzed in parts",
					    LINE_TOKS);
				process_line(st);
				st->cont = 1;
			}
			continue;
		}
		switch (tok.kind) {
		case TG_PYLEX_COMMENT:
			/* a suppression's ids are no mentions */
			if (tg_audit_marker(src + tok.off, tok.len))
				scan_suppression(st, &tok);
			else if (tok.len > 1)
				scan_mentions(st, src + tok.off + 1,
					      tok.len - 1, tok.line,
					      tok.col + 1, TG_AUDIT_IN_COMMENT,
					      SIZE_MAX);
			break;
		case TG_PYLEX_ERROR:
			if (src[tok.off] == '\0' && !st->noted_nul++)
				st->rc = tg_diag_add(
				    &r->notes, TG_SEV_NOTE, 0, path, tok.line,
				    tok.col + 1, "audit-nul", NULL,
				    "NUL byte in Python source");
			break;
		default: /* NEWLINE, END */
			process_line(st);
			st->cont = 0;
			break;
		}
	}
	while (st->nblocks)
		pop_block(st);
	rc = st->rc;
out:
	while (st->nblocks) {
		struct block *b = &st->blocks[--st->nblocks];

		while (b->nshadows)
			free(b->shadows[--b->nshadows].target);
	}
	for (k = 0; k < st->nbind; k++)
		free(st->bind[k].target);
	for (k = 0; k < st->nstars; k++)
		free(st->stars[k]);
	free(st->t);
	free(st->ann);
	free(st->tc);
	free(st->slots);
	free(st->bind);
	free(st);
	return rc;
}

int
tg_audit_py_indexed(const struct tg_audit_py_index *ix, const char *src,
		    size_t len, const char *path, struct tg_audit_result *r,
		    struct tg_err *err)
{
	int rc = analyze(ix, src, len, path, r);

	if (rc)
		tg_err_set(err, rc, "cannot audit '%s': out of memory",
			   path ? path : "-");
	return rc;
}

int
tg_audit_py(const struct tg_table *t, const char *src, size_t len,
	    const char *path, struct tg_audit_result *r, struct tg_err *err)
{
	struct tg_audit_py_index *ix = NULL;
	int rc = tg_audit_py_index_new(&ix, t, err);

	if (rc)
		return rc;
	rc = tg_audit_py_indexed(ix, src, len, path, r, err);
	tg_audit_py_index_free(ix);
	return rc;
}
