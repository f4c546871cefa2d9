/* marker.c - PEP 508 environment markers: parse, print, evaluate
 * SPDX-License-Identifier: MIT
 *
 * A marker is a list of nodes, as packaging's MarkerList: comparisons,
 * parenthesised sub-markers and the words "and"/"or" between them.
 * Evaluation groups the list at each "or" and answers any(all(group)).
 * Nesting depth is bounded (TG_MARKER_MAX_DEPTH) so hostile input cannot
 * exhaust the stack. A marker parsed into an arena has its nodes, its
 * strings and its sub-markers there, and tg_marker_free leaves it.
 */
#include "lib/pep/marker.h"
#include "lib/pep/name.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pep/pyspace.h"
#include "lib/util/str.h"
#include "lib/pep/spec.h"
#include "lib/pep/version.h"
#include "lib/util/grow.h"

#define TG_MARKER_MAX_DEPTH 64

enum node_kind { N_ITEM, N_GROUP, N_AND, N_OR };

/* What a variable is to the evaluator, worked out when parsed. */
enum {
	V_EXTRA = 1,   /* "extra" */
	V_SET = 2,     /* "extras", "dependency_groups" */
	V_VERSION = 4, /* compared as versions when it can be */
	V_FULL = 8,    /* "python_full_version" */
};

/* The operators as the evaluator tells them apart. */
enum op {
	OP_EQ,
	OP_LE,
	OP_GE,
	OP_NE,
	OP_LT,
	OP_GT,
	OP_COMPAT,
	OP_ARB,
	OP_IN,
	OP_NOT_IN
};

struct side {
	int is_var;
	int owned;  /* text is a string of its own (else a static name, or
		     * an arena's) */
	int var;    /* V_* of a variable */
	char *text; /* variable name, or the decoded string value */
};

struct node {
	enum node_kind kind;
	struct side lhs, rhs;
	char op[8];
	enum op opc; /* op */
	struct tg_marker *group;
};

/* Most markers are one comparison, or two and the word between them:
 * their nodes are kept in the struct (small), more in an array. */
#define SMALL_NODES 3

struct tg_marker {
	struct node *nodes; /* small, or an array of cap */
	size_t n, cap;
	struct tg_arena *arena; /* where all of it is, or NULL */
	struct node small[SMALL_NODES];
};

static const char *const version_vars[] = {
    "implementation_version",
    "platform_release",
    "python_full_version",
    "python_version",
};

void
tg_marker_free(struct tg_marker *m)
{
	size_t k;

	if (!m || m->arena)
		return;
	for (k = 0; k < m->n; k++) {
		if (m->nodes[k].lhs.owned)
			free(m->nodes[k].lhs.text);
		if (m->nodes[k].rhs.owned)
			free(m->nodes[k].rhs.text);
		tg_marker_free(m->nodes[k].group);
	}
	if (m->nodes != m->small)
		free(m->nodes);
	free(m);
}

static int
push(struct tg_marker *m, struct node *nd)
{
	if (m->n == m->cap && m->arena) {
		struct node *v;

		if (m->cap > SIZE_MAX / 2 / sizeof(*v))
			return TG_ENOMEM;
		v = tg_arena_alloc(m->arena, 2 * m->cap * sizeof(*v));
		if (!v)
			return TG_ENOMEM;
		memcpy(v, m->nodes, m->n * sizeof(*v));
		m->nodes = v;
		m->cap *= 2;
	} else if (m->n == m->cap && m->nodes == m->small) {
		struct node *v = malloc(2 * SMALL_NODES * sizeof(*v));

		if (!v)
			return TG_ENOMEM;
		memcpy(v, m->small, m->n * sizeof(*v));
		m->nodes = v;
		m->cap = 2 * SMALL_NODES;
	} else if (TG_GROW(m->nodes, m->n + 1, m->cap)) {
		return TG_ENOMEM;
	}
	m->nodes[m->n++] = *nd;
	memset(nd, 0, sizeof(*nd));
	return 0;
}

static int
syntax(struct tg_err *err, size_t pos, const char *msg)
{
	return tg_err_set_at(err, TG_EINVAL, pos, "%s", msg);
}

static int
put_utf8(struct tg_buf *b, unsigned long cp)
{
	char u[4];

	if (cp < 0x80) {
		u[0] = (char)cp;
		return tg_buf_add(b, u, 1);
	}
	if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		return tg_buf_add(b, u, 2);
	}
	if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		return tg_buf_add(b, u, 3);
	}
	u[0] = (char)(0xf0 | (cp >> 18));
	u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	u[3] = (char)(0x80 | (cp & 0x3f));
	return tg_buf_add(b, u, 4);
}

/* Decode the Python string literal s[0..n) (quotes included) as
 * ast.literal_eval does, into a string of its own, or of a when a is not
 * NULL; NULL when Python would reject it or the value cannot be held
 * (NUL, lone surrogate, \N{...} names), or out of memory (*nomem set). */
static char *
decode_literal(const char *s, size_t n, struct tg_arena *a, int *nomem)
{
	char *p;

	struct tg_buf b = TG_BUF_INIT;
	size_t i, k, digits;
	unsigned long cp;
	int rc = 0, h;

	/* most literals hold no escape and nothing Python refuses: the
	 * bytes between the quotes, as the loop below would copy them */
	for (i = 1; i + 1 < n; i++)
		if (s[i] == '\\' || s[i] == '\n' || s[i] == '\r' ||
		    s[i] == '\0')
			break;
	if (n >= 2 && i + 1 >= n && n - 2 < TG_BUF_DEFAULT_MAX / 2) {
		p = a ? tg_arena_strndup(a, s + 1, n - 2)
		      : tg_str_ndup(s + 1, n - 2);
		if (!p)
			*nomem = 1;
		return p;
	}
	for (i = 1; !rc && i + 1 < n; i++) {
		char c = s[i];

		if (c == '\n' || c == '\r' || c == '\0')
			goto fail;
		if (c != '\\') {
			rc = tg_buf_addc(&b, c);
			continue;
		}
		if (++i + 1 >= n)
			goto fail; /* backslash before the closing quote */
		c = s[i];
		switch (c) {
		case '\n':
			break; /* line continuation */
		case '\\':
		case '\'':
		case '"':
			rc = tg_buf_addc(&b, c);
			break;
		case 'a':
			rc = tg_buf_addc(&b, '\a');
			break;
		case 'b':
			rc = tg_buf_addc(&b, '\b');
			break;
		case 'f':
			rc = tg_buf_addc(&b, '\f');
			break;
		case 'n':
			rc = tg_buf_addc(&b, '\n');
			break;
		case 'r':
			rc = tg_buf_addc(&b, '\r');
			break;
		case 't':
			rc = tg_buf_addc(&b, '\t');
			break;
		case 'v':
			rc = tg_buf_addc(&b, '\v');
			break;
		case 'x':
		case 'u':
		case 'U':
			digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
			for (cp = 0, k = 0; k < digits; k++) {
				if (i + 1 + k + 1 >= n ||
				    (h = tg_str_hexval(s[i + 1 + k])) < 0)
					goto fail;
				cp = cp * 16 + (unsigned long)h;
			}
			i += digits;
			if (cp == 0 || cp > 0x10ffff ||
			    (cp >= 0xd800 && cp <= 0xdfff))
				goto fail;
			rc = put_utf8(&b, cp);
			break;
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
			for (cp = 0, k = 0; k < 3 && i + k + 1 < n &&
					    s[i + k] >= '0' && s[i + k] <= '7';
			     k++)
				cp = cp * 8 + (unsigned long)(s[i + k] - '0');
			i += k - 1;
			if (cp == 0)
				goto fail;
			rc = put_utf8(&b, cp);
			break;
		case 'N':
			goto fail;
		default: /* unknown escapes stay as written */
			rc = tg_buf_addc(&b, '\\');
			rc = rc ? rc : tg_buf_addc(&b, c);
		}
	}
	if (rc)
		goto fail;
	if (a) {
		p = tg_arena_strndup(a, b.data ? b.data : "", b.len);
		tg_buf_release(&b);
	} else {
		p = tg_buf_detach(&b);
	}
	if (!p)
		*nomem = 1;
	return p;
fail:
	if (rc == TG_ENOMEM)
		*nomem = 1;
	tg_buf_release(&b);
	return NULL;
}

/* The variables as the evaluator names them ('.' read as '_', and
 * python_implementation as platform_python_implementation). */
static const char *const var_names[] = {
    "python_version",
    "python_full_version",
    "os_name",
    "sys_platform",
    "platform_release",
    "platform_system",
    "platform_version",
    "platform_machine",
    "platform_python_implementation",
    "implementation_name",
    "implementation_version",
    "extras",
    "extra",
    "dependency_groups",
};

/* The static name of the variable token t (n bytes), or NULL. */
static const char *
var_name(const char *t, size_t n)
{
	size_t k, i;

	if (n == 21 && memcmp(t, "python_implementation", 21) == 0)
		return "platform_python_implementation";
	for (k = 0; k < sizeof(var_names) / sizeof(var_names[0]); k++) {
		const char *v = var_names[k];

		if (strlen(v) != n)
			continue;
		for (i = 0; i < n && (t[i] == '.' ? '_' : t[i]) == v[i]; i++)
			;
		if (i == n)
			return v;
	}
	return NULL;
}

static int is_version_var(const char *name);
static int is_set_var(const char *name);

static int
var_kind(const char *name)
{
	return (strcmp(name, "extra") == 0 ? V_EXTRA : 0) |
	       (is_set_var(name) ? V_SET : 0) |
	       (is_version_var(name) ? V_VERSION : 0) |
	       (strcmp(name, "python_full_version") == 0 ? V_FULL : 0);
}

static enum op
op_code(const char *op)
{
	static const struct {
		const char *s;
		enum op c;
	} ops[] = {
	    {"==", OP_EQ},	   {"<=", OP_LE},   {">=", OP_GE},
	    {"!=", OP_NE},	   {"<", OP_LT},    {">", OP_GT},
	    {"~=", OP_COMPAT},	   {"===", OP_ARB}, {"in", OP_IN},
	    {"not in", OP_NOT_IN},
	};
	size_t k;

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (strcmp(op, ops[k].s) == 0)
			return ops[k].c;
	return OP_EQ; /* parse_op gives one of those */
}

static int
parse_side(struct tg_pep508_lexer *lx, struct side *sd, struct tg_arena *a,
	   struct tg_err *err)
{
	size_t at, n, k;
	char *name;

	if (tg_pep508_take(lx, TG_TOK_VARIABLE, &at, &n)) {
		const char *v = var_name(lx->s + at, n);

		sd->is_var = 1;
		if (v) { /* every token the lexer gives: no copy */
			sd->text = (char *)v;
			sd->var = var_kind(v);
			return 0;
		}
		name = a ? tg_arena_alloc(a, n + 1) : malloc(n + 1);
		if (!name)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		for (k = 0; k < n; k++)
			name[k] = lx->s[at + k] == '.' ? '_' : lx->s[at + k];
		name[n] = '\0';
		if (strcmp(name, "python_implementation") == 0) {
			if (!a)
				free(name);
			name = a ? tg_arena_strndup(
				       a, "platform_python_implementation", 30)
				 : strdup("platform_python_implementation");
			if (!name)
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory");
		}
		sd->owned = !a;
		sd->text = name;
		sd->var = var_kind(name);
		return 0;
	}
	if (tg_pep508_take(lx, TG_TOK_QUOTED, &at, &n)) {
		int nomem = 0;

		sd->text = decode_literal(lx->s + at, n, a, &nomem);
		sd->owned = sd->text != NULL && !a;
		if (nomem)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (!sd->text)
			return syntax(err, at + n, "invalid quoted string");
		return 0;
	}
	return syntax(err, lx->pos,
		      "expected a marker variable or quoted string");
}

static int
parse_op(struct tg_pep508_lexer *lx, char op[8], struct tg_err *err)
{
	size_t at, n;

	if (tg_pep508_take(lx, TG_TOK_IN, NULL, NULL)) {
		strcpy(op, "in");
		return 0;
	}
	if (tg_pep508_take(lx, TG_TOK_NOT, NULL, NULL)) {
		if (!tg_pep508_take(lx, TG_TOK_WS, NULL, NULL))
			return syntax(err, lx->pos,
				      "expected whitespace after 'not'");
		if (!tg_pep508_take(lx, TG_TOK_IN, NULL, NULL))
			return syntax(err, lx->pos,
				      "expected 'in' after 'not'");
		strcpy(op, "not in");
		return 0;
	}
	if (tg_pep508_take(lx, TG_TOK_OP, &at, &n)) {
		memcpy(op, lx->s + at, n);
		op[n] = '\0';
		return 0;
	}
	return syntax(err, lx->pos,
		      "expected marker operator, one of <=, <, !=, ==, >=, >, "
		      "~=, ===, in, not in");
}

/* extra == "Foo_Bar" keeps "foo-bar", as packaging's _normalize_extras */
static int
normalize_extra(struct node *nd)
{
	struct side *v = NULL;

	if (nd->lhs.is_var && strcmp(nd->lhs.text, "extra") == 0 &&
	    !nd->rhs.is_var)
		v = &nd->rhs;
	else if (nd->rhs.is_var && !nd->lhs.is_var &&
		 (strcmp(nd->rhs.text, "extra") == 0 ||
		  strcmp(nd->rhs.text, "extras") == 0 ||
		  strcmp(nd->rhs.text, "dependency_groups") == 0))
		v = &nd->lhs;
	if (!v)
		return 0;
	/* in place: the normal form is never longer */
	tg_name_canonicalize_to(v->text, v->text);
	return 0;
}

static int parse_marker(struct tg_pep508_lexer *lx, struct tg_marker **out,
			int depth, struct tg_arena *a, struct tg_err *err);

static int
parse_atom(struct tg_pep508_lexer *lx, struct node *nd, int depth,
	   struct tg_arena *a, struct tg_err *err)
{
	size_t open;
	int rc;

	tg_pep508_ws(lx);
	if (tg_pep508_take(lx, TG_TOK_LPAREN, &open, NULL)) {
		if (depth >= TG_MARKER_MAX_DEPTH)
			return tg_err_set_at(err, TG_EINVAL, open,
					     "markers nest deeper than %d",
					     TG_MARKER_MAX_DEPTH);
		tg_pep508_ws(lx);
		nd->kind = N_GROUP;
		rc = parse_marker(lx, &nd->group, depth + 1, a, err);
		if (rc)
			return rc;
		tg_pep508_ws(lx);
		if (!tg_pep508_take(lx, TG_TOK_RPAREN, NULL, NULL))
			return syntax(err, lx->pos,
				      "expected matching RIGHT_PARENTHESIS for "
				      "LEFT_PARENTHESIS, after marker "
				      "expression");
	} else {
		nd->kind = N_ITEM;
		tg_pep508_ws(lx);
		rc = parse_side(lx, &nd->lhs, a, err);
		if (!rc) {
			tg_pep508_ws(lx);
			rc = parse_op(lx, nd->op, err);
			nd->opc = op_code(nd->op);
		}
		if (!rc) {
			tg_pep508_ws(lx);
			rc = parse_side(lx, &nd->rhs, a, err);
		}
		if (!rc && normalize_extra(nd))
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		if (rc)
			return rc;
		tg_pep508_ws(lx);
	}
	tg_pep508_ws(lx);
	return 0;
}

static void
node_release(struct node *nd)
{
	if (nd->lhs.owned)
		free(nd->lhs.text);
	if (nd->rhs.owned)
		free(nd->rhs.text);
	tg_marker_free(nd->group);
	memset(nd, 0, sizeof(*nd));
}

static int
parse_marker(struct tg_pep508_lexer *lx, struct tg_marker **out, int depth,
	     struct tg_arena *a, struct tg_err *err)
{
	struct tg_marker *m =
	    a ? tg_arena_alloc(a, sizeof(*m)) : malloc(sizeof(*m));
	struct node nd;
	size_t at, n;
	int rc;

	*out = NULL;
	if (!m)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	m->nodes = m->small;
	m->n = 0;
	m->cap = SMALL_NODES;
	m->arena = a;
	for (;;) {
		memset(&nd, 0, sizeof(nd));
		rc = parse_atom(lx, &nd, depth, a, err);
		if (!rc && push(m, &nd))
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		if (rc)
			break;
		if (!tg_pep508_take(lx, TG_TOK_BOOLOP, &at, &n))
			break;
		nd.kind = lx->s[at] == 'o' ? N_OR : N_AND;
		if (push(m, &nd)) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			break;
		}
	}
	if (rc) {
		node_release(&nd);
		tg_marker_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int
tg_marker_parse_lex(struct tg_marker **out, struct tg_pep508_lexer *lx,
		    struct tg_err *err)
{
	return parse_marker(lx, out, 0, NULL, err);
}

int
tg_marker_parse_arena(struct tg_marker **out, struct tg_pep508_lexer *lx,
		      struct tg_arena *a, struct tg_err *err)
{
	return parse_marker(lx, out, 0, a, err);
}

int
tg_marker_parse(struct tg_marker **out, const char *s, size_t len,
		struct tg_err *err)
{
	struct tg_pep508_lexer lx = {s, len, 0};
	int rc = parse_marker(&lx, out, 0, NULL, err);

	if (!rc && !tg_pep508_take(&lx, TG_TOK_END, NULL, NULL)) {
		tg_marker_free(*out);
		*out = NULL;
		rc = syntax(err, lx.pos, "expected end of marker expression");
	}
	return rc;
}

static int
format_side(const struct side *sd, struct tg_buf *out, struct tg_err *err)
{
	char q;

	if (sd->is_var)
		return tg_buf_adds(out, sd->text);
	if (!strchr(sd->text, '"'))
		q = '"';
	else if (!strchr(sd->text, '\''))
		q = '\'';
	else
		return tg_err_set(err, TG_EINVAL,
				  "cannot print a marker value that holds "
				  "both quote characters");
	tg_buf_addc(out, q);
	tg_buf_adds(out, sd->text);
	tg_buf_addc(out, q);
	return tg_buf_error(out);
}

static int format_list(const struct tg_marker *m, struct tg_buf *out, int first,
		       struct tg_err *err);

static int
format_node(const struct node *nd, struct tg_buf *out, int first,
	    struct tg_err *err)
{
	int rc;

	switch (nd->kind) {
	case N_AND:
		return tg_buf_adds(out, "and");
	case N_OR:
		return tg_buf_adds(out, "or");
	case N_GROUP:
		return format_list(nd->group, out, first, err);
	case N_ITEM:
		rc = format_side(&nd->lhs, out, err);
		if (!rc)
			rc = tg_buf_addf(out, " %s ", nd->op);
		if (!rc)
			rc = format_side(&nd->rhs, out, err);
		return rc;
	}
	return 0;
}

/* packaging's _format_marker */
static int
format_list(const struct tg_marker *m, struct tg_buf *out, int first,
	    struct tg_err *err)
{
	size_t k;
	int rc = 0;

	if (m->n == 1)
		return format_node(&m->nodes[0], out, first, err);
	if (!first)
		rc = tg_buf_addc(out, '(');
	for (k = 0; !rc && k < m->n; k++) {
		if (k)
			rc = tg_buf_addc(out, ' ');
		if (!rc)
			rc = format_node(&m->nodes[k], out, 0, err);
	}
	if (!rc && !first)
		rc = tg_buf_addc(out, ')');
	return rc;
}

int
tg_marker_format(const struct tg_marker *m, struct tg_buf *out,
		 struct tg_err *err)
{
	int rc = format_list(m, out, 1, err);

	if (rc == TG_ENOMEM || rc == TG_ELIMIT)
		return tg_err_set(err, rc, "out of memory");
	return rc;
}

/* ---- evaluation ---- */

const struct tg_marker_var *
tg_marker_env_get(const struct tg_marker_env *env, const char *name)
{
	size_t k;

	/* the last wins, as in a Python dict built from JSON */
	for (k = env->n; k-- > 0;)
		if (strcmp(env->vars[k].name, name) == 0)
			return &env->vars[k];
	return NULL;
}

static int
is_version_var(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof(version_vars) / sizeof(version_vars[0]); k++)
		if (strcmp(name, version_vars[k]) == 0)
			return 1;
	return 0;
}

static int
is_set_var(const char *name)
{
	return strcmp(name, "extras") == 0 ||
	       strcmp(name, "dependency_groups") == 0;
}

/* A value as the evaluator sees it: a string or a set of strings. */
struct val {
	const char *s;
	const char *const *items;
	size_t nitems;
	int is_set;
};

static int
env_value(const struct tg_marker_env *env, const char *key, int var,
	  struct val *out, char **owned, struct tg_err *err)
{
	const struct tg_marker_var *v = tg_marker_env_get(env, key);
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!v) {
		if (var & V_EXTRA) {
			out->s = "";
			return 0;
		}
		return tg_err_set(err, TG_EUNDEF,
				  "the environment has no variable '%s'", key);
	}
	if (!v->value) {
		out->is_set = 1;
		out->items = (const char *const *)v->items;
		out->nitems = v->nitems;
		return 0;
	}
	out->s = v->value;
	if ((var & V_EXTRA) && *v->value) {
		*owned = tg_name_canonicalize(v->value);
		if (!*owned)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		out->s = *owned;
	} else if ((var & V_FULL) && (n = strlen(v->value)) > 0 &&
		   v->value[n - 1] == '+') {
		*owned = malloc(n + 6);
		if (!*owned)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		memcpy(*owned, v->value, n);
		memcpy(*owned + n, "local", 6);
		out->s = *owned;
	}
	return 0;
}

/* Specifier(op + rhs).contains(lhs, prereleases=True), or -1 when
 * op + rhs is not a valid specifier, or TG_ENOMEM. */
static int
version_compare(const char *lhs, const char *op, const char *rhs)
{
	struct tg_buf b = TG_BUF_INIT;
	struct tg_err e2 = TG_ERR_INIT;
	struct tg_spec sp;
	struct tg_version v;
	size_t s, e;
	int r = -1, have_v;

	if (tg_buf_adds(&b, op) || tg_buf_adds(&b, rhs)) {
		r = tg_buf_error(&b) == TG_ENOMEM ? TG_ENOMEM : -1;
		goto out;
	}
	s = tg_pyspace_lstrip(b.data, 0, b.len);
	e = tg_pyspace_rstrip(b.data, s, b.len);
	if (tg_spec_parse(&sp, b.data + s, e - s, &e2) != 0) {
		r = e2.code == TG_ENOMEM ? TG_ENOMEM : -1;
		goto out;
	}
	have_v = tg_version_parse(&v, lhs, strlen(lhs), &e2) == 0;
	if (!have_v && e2.code == TG_ENOMEM) {
		tg_spec_release(&sp);
		r = TG_ENOMEM;
		goto out;
	}
	r = tg_spec_match(&sp, lhs, strlen(lhs), have_v ? &v : NULL);
	if (have_v)
		tg_version_release(&v);
	tg_spec_release(&sp);
out:
	tg_buf_release(&b);
	return r;
}

static int
set_has(const struct val *set, const char *s)
{
	size_t k;

	for (k = 0; k < set->nitems; k++)
		if (strcmp(set->items[k], s) == 0)
			return 1;
	return 0;
}

static int
eval_item(const struct node *nd, const struct tg_marker_env *env, int *result,
	  struct tg_err *err)
{
	struct val lhs, rhs;
	const char *key;
	char *own_l = NULL, *own_r = NULL, **canon = NULL;
	size_t k;
	int rc = 0, r, var;

	if (nd->lhs.is_var) {
		key = nd->lhs.text;
		var = nd->lhs.var;
		rc = env_value(env, key, var, &lhs, &own_l, err);
		memset(&rhs, 0, sizeof(rhs));
		rhs.s = nd->rhs.text;
	} else {
		memset(&lhs, 0, sizeof(lhs));
		lhs.s = nd->lhs.text;
		key = nd->rhs.text;
		var = nd->rhs.var;
		rc = env_value(env, key, var, &rhs, &own_r, err);
	}
	if (rc)
		goto out;
	if (lhs.is_set) {
		rc = tg_err_set(err, TG_EUNDEF,
				"set-valued marker '%s' can only be used with "
				"the membership form (\"<name>\" in %s)",
				key, key);
		goto out;
	}
	if (var & V_SET) { /* compare normalised names */
		char *c = tg_name_canonicalize(lhs.s);

		if (!c)
			goto nomem;
		free(own_l);
		lhs.s = own_l = c;
		if (!rhs.is_set) {
			c = tg_name_canonicalize(rhs.s);
			if (!c)
				goto nomem;
			free(own_r);
			rhs.s = own_r = c;
		} else {
			canon = calloc(rhs.nitems + 1, sizeof(*canon));
			if (!canon)
				goto nomem;
			for (k = 0; k < rhs.nitems; k++)
				if (!(canon[k] =
					  tg_name_canonicalize(rhs.items[k])))
					goto nomem;
			rhs.items = (const char *const *)canon;
		}
	}
	if ((var & V_VERSION) && !rhs.is_set &&
	    (r = version_compare(lhs.s, nd->op, rhs.s)) != -1) {
		if (r == TG_ENOMEM)
			goto nomem;
		*result = r;
		goto out;
	}
	if (nd->opc == OP_IN || nd->opc == OP_NOT_IN) {
		r = rhs.is_set ? set_has(&rhs, lhs.s)
			       : strstr(rhs.s, lhs.s) != NULL;
		*result = nd->opc == OP_NOT_IN ? !r : r;
	} else if (rhs.is_set) {
		*result = nd->opc == OP_NE; /* str vs set */
		if (nd->opc == OP_COMPAT || nd->opc == OP_ARB)
			goto undefined;
	} else if (nd->opc == OP_LT || nd->opc == OP_GT) {
		*result = 0;
	} else if (nd->opc == OP_NE) {
		*result = strcmp(lhs.s, rhs.s) != 0;
	} else if (nd->opc == OP_COMPAT || nd->opc == OP_ARB) {
		goto undefined;
	} else { /* == <= >= */
		*result = strcmp(lhs.s, rhs.s) == 0;
	}
	goto out;
undefined:
	rc = tg_err_set(err, TG_EUNDEF,
			"undefined comparison '%s' on '%s' "
			"and '%s'",
			nd->op, TG_QUOTE(lhs.s),
			rhs.is_set ? "{...}" : TG_QUOTE(rhs.s));
	goto out;
nomem:
	rc = tg_err_set(err, TG_ENOMEM, "out of memory");
out:
	if (canon) {
		for (k = 0; canon[k]; k++)
			free(canon[k]);
		free(canon);
	}
	free(own_l);
	free(own_r);
	return rc;
}

static const char *
side_missing(const struct side *sd, const struct tg_marker_env *env)
{
	if (!sd->is_var || (sd->var & V_EXTRA) ||
	    tg_marker_env_get(env, sd->text))
		return NULL;
	return sd->text;
}

static int
is_extra(const struct side *sd)
{
	return sd->is_var && (sd->var & V_EXTRA);
}

int
tg_marker_extra_literals(const struct tg_marker *m, const char **out, size_t *n)
{
	size_t k;

	for (k = 0; k < m->n; k++) {
		const struct node *nd = &m->nodes[k];
		const struct side *lit;

		if (nd->kind == N_GROUP) {
			if (!tg_marker_extra_literals(nd->group, out, n))
				return 0;
			continue;
		}
		if (nd->kind != N_ITEM ||
		    (!is_extra(&nd->lhs) && !is_extra(&nd->rhs)))
			continue;
		lit = is_extra(&nd->lhs) ? &nd->rhs : &nd->lhs;
		if (lit->is_var || !*lit->text ||
		    (nd->opc != OP_EQ && nd->opc != OP_NE))
			return 0;
		if (out)
			out[*n] = lit->text;
		(*n)++;
	}
	return 1;
}

const char *
tg_marker_missing(const struct tg_marker *m, const struct tg_marker_env *env)
{
	const char *name = NULL;
	size_t k;

	for (k = 0; k < m->n && !name; k++) {
		const struct node *nd = &m->nodes[k];

		if (nd->kind == N_GROUP)
			name = tg_marker_missing(nd->group, env);
		else if (nd->kind == N_ITEM &&
			 !(name = side_missing(&nd->lhs, env)))
			name = side_missing(&nd->rhs, env);
	}
	return name;
}

int
tg_marker_evaluate(const struct tg_marker *m, const struct tg_marker_env *env,
		   int *result, struct tg_err *err)
{
	int any = 0, all = 1, r = 0, rc;
	size_t k;

	for (k = 0; k < m->n; k++) {
		const struct node *nd = &m->nodes[k];

		switch (nd->kind) {
		case N_AND:
			continue;
		case N_OR:
			any |= all;
			all = 1;
			continue;
		case N_GROUP:
			rc = tg_marker_evaluate(nd->group, env, &r, err);
			break;
		case N_ITEM:
			rc = eval_item(nd, env, &r, err);
			break;
		}
		if (rc)
			return rc;
		all &= r;
	}
	*result = any | all;
	return 0;
}

int
tg_marker_env_set(struct tg_marker_env *env, const char *name,
		  const char *value, const char *const *items, size_t nitems)
{
	struct tg_marker_var *v;
	size_t k;

	if (TG_GROW(env->vars, env->n + 1, env->cap))
		return TG_ENOMEM;
	v = &env->vars[env->n];
	memset(v, 0, sizeof(*v));
	v->name = strdup(name);
	if (!v->name)
		return TG_ENOMEM;
	if (value) {
		v->value = strdup(value);
		if (!v->value)
			goto nomem;
	} else {
		v->items = calloc(nitems + 1, sizeof(*v->items));
		if (!v->items)
			goto nomem;
		for (k = 0; k < nitems; k++) {
			v->items[k] = strdup(items[k]);
			if (!v->items[k])
				goto nomem;
			v->nitems++;
		}
	}
	env->n++;
	return 0;
nomem:
	for (k = 0; k < v->nitems; k++)
		free(v->items[k]);
	free(v->items);
	free(v->value);
	free(v->name);
	return TG_ENOMEM;
}

void
tg_marker_env_release(struct tg_marker_env *env)
{
	size_t k, j;

	for (k = 0; k < env->n; k++) {
		free(env->vars[k].name);
		free(env->vars[k].value);
		for (j = 0; j < env->vars[k].nitems; j++)
			free(env->vars[k].items[j]);
		free(env->vars[k].items);
	}
	free(env->vars);
	env->vars = NULL;
	env->n = env->cap = 0;
}
