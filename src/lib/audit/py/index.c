/* index.c - the Python analyzer's index of the table's names
 * SPDX-License-Identifier: MIT
 *
 * Owns tg_audit_py_index_new and _free: an index built once from the
 * table maps dotted names to entries: each id, and the spellings its
 * usage patterns write literally (\bA\.B\b, alternations such as
 * (?:Float|Double)Storage expanded, "from A import ... N" as A.N), but for
 * a spelling that is a package prefix of an entry's id (the pattern
 * \btorch\.linalg\b of torch.linalg.solve: a regex hint, not a name).
 * Patterns that do neither ((?:\w+\.)?, lookaheads) are not run: the
 * index turns the table's methods and parameters into rules read from the
 * tokens (rules.c). It also holds the table's roots ("torch",
 * "functorch": the first component of an id), Python's keywords (a
 * perfect hash), the hot filter (the names a logical line must hold to
 * matter) and three more of the same kind, each a necessary condition
 * that spares a lookup: the last components of its names, the names of
 * the methods, and the last components of the functions the call rules
 * name.
 *
 * Read-only once built, so one index serves many files and threads.
 * Worst case: linear in the table (a pattern expands to at most
 * EXPAND_MAX names).
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/py/internal.h"
#include "lib/util/grow.h"

#define KW_MAX 4 /* keywords of one parameter entry */

/* Python's keywords (keyword.kwlist). */
static const char *const keywords[] = {
    "False",  "None",	"True",	   "and",      "as",	   "assert", "async",
    "await",  "break",	"class",   "continue", "def",	   "del",    "elif",
    "else",   "except", "finally", "for",      "from",	   "global", "if",
    "import", "in",	"is",	   "lambda",   "nonlocal", "not",    "or",
    "pass",   "raise",	"return",  "try",      "while",	   "with",   "yield",
};

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
			last_set(ix->leaf, s, n);
			return 0;
		}
		if (e->hash == h && e->len == n && memcmp(e->name, s, n) == 0)
			return 0;
		k = (k + 1) & (ix->nslots - 1);
	}
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
	size_t ol[EXPAND_MAX], al[EXPAND_MAX]; /* the strings' lengths */
	int n = 1, k;

	out[0][0] = '\0';
	ol[0] = 0;
	while (p < stop) {
		if (p[0] == '\\' && p + 1 < stop && p[1] == 'b') {
			p += 2;
		} else if (p[0] == '\\' && p + 1 < stop && p[1] == '.') {
			for (k = 0; k < n; k++)
				if (ol[k] + 2 < NAME_MAX_LEN) {
					out[k][ol[k]++] = '.';
					out[k][ol[k]] = '\0';
				}
			p += 2;
		} else if (ident_char((unsigned char)p[0]) &&
			   (unsigned char)p[0] < 0x80) {
			for (k = 0; k < n; k++)
				if (ol[k] + 2 < NAME_MAX_LEN) {
					out[k][ol[k]++] = p[0];
					out[k][ol[k]] = '\0';
				}
			p++;
		} else if (p[0] == '(' && p + 2 < stop && p[1] == '?' &&
			   p[2] == ':') {
			const char *q = p + 3, *e;
			char piece[EXPAND_MAX][64];
			size_t pl[EXPAND_MAX];
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
				pl[np] = (size_t)j;
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
				pl[np] = 0;
				piece[np++][0] = '\0';
			}
			if (n * np > EXPAND_MAX)
				return -1;
			for (k = 0; k < n; k++)
				for (j = 0; j < np; j++) {
					if (ol[k] + pl[j] + 1 >= NAME_MAX_LEN)
						return -1;
					memcpy(alts[m], out[k], ol[k]);
					memcpy(alts[m] + ol[k], piece[j],
					       pl[j] + 1);
					al[m++] = ol[k] + pl[j];
				}
			for (k = 0; k < m; k++) {
				memcpy(out[k], alts[k], al[k] + 1);
				ol[k] = al[k];
			}
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
		if (t->apis[k].lang == TG_LANG_PYTHON &&
		    t->apis[k].id[n] == '.')
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

	if (TG_GROW(ix->methods, ix->nmethods + 1, ix->capmethods))
		return TG_ENOMEM;
	v = ix->methods;
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
	  const char *func, size_t fn, int method, int under, const char *kw,
	  int not_none)
{
	struct param_rule *v;

	if (TG_GROW(ix->params, ix->nparams + 1, ix->capparams))
		return TG_ENOMEM;
	v = ix->params + ix->nparams;
	v->api = api;
	v->func = strndup(func, fn);
	v->flen = fn;
	v->kw = strdup(kw);
	v->method = method;
	v->under = under;
	v->twin = 0;
	v->not_none = not_none;
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

/* The keyword a usage pattern "\bNAME\s*=..." names (size_average's
 * entry names reduce= too): its length, 0 for another pattern;
 * *not_none whether the pattern goes on "(?!\s*None\b)". */
static size_t
keyword_pattern(const char *u, int *not_none)
{
	size_t n = 0;

	if (!starts_with(u, "\\b"))
		return 0;
	for (u += 2; ident_char((unsigned char)u[n]); n++)
		;
	if (!n || n >= NAME_MAX_LEN || !starts_with(u + n, "\\s*="))
		return 0;
	*not_none = strcmp(u + n + 4, "(?!\\s*None\\b)") == 0;
	return n;
}

/* A parameter entry: the call it is a keyword of, and the other
 * functions its usage patterns name before "\s*\(" (CppExtension's
 * CUDAExtension, is_autocast_enabled's set_autocast_enabled, the loss
 * classes of size_average's entry), each with the id's keyword and the
 * others its patterns "\bNAME\s*=" name (reduce=). */
static int
index_param(struct tg_audit_py_index *ix, const struct tg_api *a)
{
	static char names[EXPAND_MAX][NAME_MAX_LEN];
	char kws[KW_MAX][NAME_MAX_LEN], func[NAME_MAX_LEN];
	int nn[KW_MAX] = {0}; /* each keyword's not_none */
	const char *dot = strrchr(a->id, '.'), *par;
	size_t fn, k, pl, q, nk = 1;
	int rc, method, under, n, j;

	if (!dot || dot == a->id || strlen(dot + 1) >= sizeof(kws[0]))
		return 0;
	strcpy(kws[0], dot + 1);
	for (k = 0; k < a->nusage && nk < KW_MAX; k++) {
		int none;
		size_t l = keyword_pattern(a->usage[k], &none);

		if (l) {
			memcpy(kws[nk], a->usage[k] + 2, l);
			kws[nk][l] = '\0';
			for (q = 0; q < nk && strcmp(kws[q], kws[nk]) != 0; q++)
				;
			nn[q] = none;
			nk += q == nk;
		}
	}
	fn = (size_t)(dot - a->id);
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
	for (q = 0; q < nk; q++) {
		const char *m = strrchr(func, '.') + 1;

		rc = method
			 ? add_param(ix, a, m, strlen(m), 1, 0, kws[q], nn[q])
			 : add_param(ix, a, func, fn, 0, under, kws[q], nn[q]);
		if (rc)
			return rc;
	}
	par = strrchr(func, '.');
	pl = par ? (size_t)(par - func) : 0;
	for (k = 0; k < a->nusage && !method; k++) {
		const char *u = a->usage[k], *st = strstr(u, "\\s*\\(");

		if (!st || st == u)
			continue;
		n = expand(u, st, names);
		for (j = 0; j < n; j++) {
			char full[NAME_MAX_LEN];

			if (strchr(names[j], '.') || !names[j][0])
				continue;
			if (pl + strlen(names[j]) + 2 >= sizeof(full))
				continue;
			memcpy(full, func, pl);
			full[pl] = '.';
			strcpy(full + pl + 1, names[j]);
			if (strcmp(full, func) == 0)
				continue;
			for (q = 0; q < nk; q++)
				if ((rc = add_param(ix, a, full, strlen(full),
						    0, 0, kws[q], nn[q])))
					return rc;
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
	free(ix->call_rules);
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
	if (!ix->slots) {
		ix->nslots = 0; /* nothing for tg_audit_py_index_free */
		goto out;
	}
	for (k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++) {
		unsigned h = kw_slot(keywords[k], strlen(keywords[k]));

		assert(!ix->kw[h]); /* kw_slot is a perfect hash of them */
		ix->kw[h] = keywords[k];
		ix->kwlen[h] = (unsigned char)strlen(keywords[k]);
	}
	/* ids first: an id is never claimed by another entry's pattern */
	for (k = 0; k < t->n; k++) {
		const struct tg_api *a = &t->apis[k];

		if (a->lang != TG_LANG_PYTHON)
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

		if (a->lang != TG_LANG_PYTHON)
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
	for (b = 0; b < NBEHAV; b++) {
		const struct behav_rule *br = &tg_audit_py_behaviours[b];

		ix->behav[b] = tg_table_find(t, br->id);
		for (u = 0; u < 4 && br->funcs[u]; u++)
			last_set(ix->call_leaf, br->funcs[u],
				 strlen(br->funcs[u]));
	}
	for (k = 0; k < ix->nroots; k++) {
		size_t o;

		hot_set(ix->hot, ix->roots[k], ix->rootlen[k]);
		for (o = 0; o < ix->nroots; o++)
			if (o != k && strstr(ix->roots[k], ix->roots[o]))
				ix->root_implied[k] = 1;
	}
	for (k = 0; k < ix->nmethods; k++) {
		hot_set(ix->hot, ix->methods[k].name, ix->methods[k].nlen);
		hot_set(ix->meth, ix->methods[k].name, ix->methods[k].nlen);
	}
	ix->call_rules = malloc((2 * ix->nparams + 1) * sizeof(size_t));
	if (!ix->call_rules) {
		rc = TG_ENOMEM;
		goto out;
	}
	ix->under_rules = ix->call_rules + ix->nparams;
	for (k = 0; k < ix->nparams; k++) {
		struct param_rule *pr = &ix->params[k];

		if (!pr->method) {
			last_set(ix->call_leaf, pr->func, pr->flen);
			ix->call_rules[ix->ncall++] = k;
			if (pr->under)
				ix->under_rules[ix->nunder++] = k;
			continue;
		}
		hot_set(ix->hot, pr->func, pr->flen);
		hot_set(ix->meth, pr->func, pr->flen);
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
