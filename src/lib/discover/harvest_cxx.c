/* harvest_cxx.c - the deprecations declared in C++ headers
 * SPDX-License-Identifier: MIT
 *
 * Masks a header from lex/clex's tokens (comments, literal bodies and
 * preprocessor directives blanked, newlines kept; a "//" comment goes on
 * over a backslash-newline, as in C++) and reads each site the pattern finds:
 * C10_DEPRECATED_MESSAGE(...), TORCH_WARN_DEPRECATION(...) and
 * [[deprecated]] / [[deprecated("...")]]. The name a declaration applies
 * to comes from a brace tracker that moves forward with the sites and
 * reads the statement before each '{' (namespace, class, function)
 * with a small tokenizer of the masked text, at most TOKENS_MAX tokens
 * per statement head and HEAD_SPAN_MAX bytes after an attribute. It is
 * not a parser: on code it does not understand it gives a shorter name,
 * never a wrong file or line.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/discover/discover.h"
#include "lib/discover/internal.h"
#include "lib/lex/clex.h"
#include "lib/util/buf.h"

/* Sites in masked C++. */
static const char pattern[] = "(\\bC10_DEPRECATED_MESSAGE\\s*\\()"
			      "|(\\bTORCH_WARN_DEPRECATION\\s*\\()"
			      "|(\\[\\[)[^\\[\\]]*?\\bdeprecated\\b";

/* Whether the identifier s[a..e) is a string-literal prefix; *raw for
 * an R one. */
static int
cxx_prefix(const char *s, size_t a, size_t e, int *raw)
{
	static const char *const pre[] = {"L",	"u",  "U",  "u8", "R",
					  "LR", "uR", "UR", "u8R"};
	size_t k;

	for (k = 0; k < sizeof(pre) / sizeof(pre[0]); k++)
		if (strlen(pre[k]) == e - a &&
		    strncmp(s + a, pre[k], e - a) == 0) {
			*raw = pre[k][e - a - 1] == 'R';
			return 1;
		}
	return 0;
}

/* Blank the splices (backslash-newline) in the gap s[a..e) between two
 * tokens: clex reads them as whitespace, the sites must too. The gap
 * holds nothing else but whitespace (a stray backslash is a token), and
 * a '\r' is blanked as the scanner before clex did. */
static void
blank_splices(const struct src *x, size_t a, size_t e)
{
	for (; a < e; a++)
		if (x->s[a] == '\\' || x->s[a] == '\r')
			x->m[a] = ' ';
}

/* Mask comments, literal bodies and preprocessor directives from
 * lex/clex's tokens: comments and directives whole, string and char
 * literals from after the quote to before the closing one (raw strings:
 * the delimiters and parentheses too; an unterminated one to where clex
 * ends it), newlines kept; names, numbers and punctuators stay. */
static void
mask(struct src *x)
{
	struct tg_clex lx;
	struct tg_clex_tok t;
	size_t prev = 0, q, e;

	tg_clex_init(&lx, x->s, x->len);
	while (tg_clex_next(&lx, &t) && t.kind != TG_CLEX_END) {
		blank_splices(x, prev, t.off);
		prev = t.off + t.len;
		switch (t.kind) {
		case TG_CLEX_COMMENT:
		case TG_CLEX_DIRECTIVE:
			blank(x->m, t.off, t.off + t.len);
			break;
		case TG_CLEX_STRING:
		case TG_CLEX_CHAR:
			q = t.off + t.pre;
			e = t.off + t.len;
			if (!(t.flags & TG_CLEX_UNTERMINATED))
				e--;
			if (q + 1 < e)
				blank(x->m, q + 1, e);
			break;
		default:
			break;
		}
	}
	blank_splices(x, prev, x->len);
}

/* Render a C++ argument x->m[a..e): its string literals concatenated
 * (original text, escapes decoded), anything else as {...}. */
static void
render(const struct src *x, size_t a, size_t e, struct tg_buf *out, int *lit)
{
	const char *s = x->s, *m = x->m;
	size_t i = a;

	while (i < e) {
		size_t st, q = 0, d = 0, k;
		int raw = 0, found = 0;

		while (i < e && space((unsigned char)m[i]))
			i++;
		if (i >= e)
			break;
		/* Find the next literal at depth 0: a quote, maybe after a
		 * prefix. Everything before it is one non-literal operand. */
		for (st = i; i < e; i++) {
			char c = m[i];

			if (c == '(' || c == '[' || c == '{')
				d++;
			else if ((c == ')' || c == ']' || c == '}') && d)
				d--;
			else if (c == '"' && d == 0) {
				size_t p = i;

				while (p > st &&
				       ident_char((unsigned char)m[p - 1]))
					p--;
				if (p < i && !cxx_prefix(m, p, i, &raw))
					p = i;
				q = i;
				i = p;
				found = 1;
				break;
			}
		}
		if (i > st) {
			size_t b = i;

			while (b > st && space((unsigned char)m[b - 1]))
				b--;
			tg_buf_addc(out, '{');
			tg_message_add_collapsed(out, m, st, b);
			tg_buf_addc(out, '}');
		}
		if (!found)
			break;
		/* The masked body holds no quote: the next one closes it. */
		for (k = q + 1; k < e && m[k] != '"'; k++)
			;
		if (k >= e)
			break;
		*lit = 1;
		if (raw) {
			size_t b = q + 1, d2;

			while (b < k && s[b] != '(')
				b++;
			d2 = b - (q + 1);
			if (b < k && k - b >= d2 + 2)
				tg_buf_add(out, s + b + 1,
					   k - (b + 1) - d2 - 1);
		} else {
			size_t j;

			for (j = q + 1; j < k; j++) {
				if (s[j] != '\\' || j + 1 >= k) {
					tg_buf_addc(out, s[j]);
					continue;
				}
				switch (s[++j]) {
				case '\n':
				case '\r':
					break;
				case 'n':
				case 't':
				case 'r':
					tg_buf_addc(out, ' ');
					break;
				case '\\':
				case '\'':
				case '"':
				case '?':
					tg_buf_addc(out, s[j]);
					break;
				default:
					tg_buf_addc(out, '\\');
					tg_buf_addc(out, s[j]);
					break;
				}
			}
		}
		i = k + 1;
	}
}

enum { T_ID, T_NUM, T_STR, T_COLON2, T_PUNCT };

struct tok {
	int type;
	size_t a, e;
};

/* Tokens of masked m[a..e): attributes [[...]] left out. */
static size_t
tokenize(const char *m, size_t a, size_t e, struct tok *t, size_t max)
{
	size_t n = 0, i = a;

	while (i < e && n < max) {
		char c = m[i];
		size_t st = i;

		if (space((unsigned char)c)) {
			i++;
			continue;
		}
		if (c == '[' && i + 1 < e && m[i + 1] == '[') {
			size_t d = 0;

			for (; i < e; i++) {
				if (m[i] == '[')
					d++;
				else if (m[i] == ']' && --d == 0)
					break;
			}
			i++;
			continue;
		}
		if (ident_start((unsigned char)c)) {
			while (i < e && ident_char((unsigned char)m[i]))
				i++;
			t[n].type = T_ID;
		} else if (c >= '0' && c <= '9') {
			while (i < e && (ident_char((unsigned char)m[i]) ||
					 m[i] == '.' || m[i] == '\''))
				i++;
			t[n].type = T_NUM;
		} else if (c == '"' || c == '\'') {
			for (i++; i < e && m[i] != c; i++)
				;
			i = i < e ? i + 1 : e;
			t[n].type = T_STR;
		} else if (c == ':' && i + 1 < e && m[i + 1] == ':') {
			i += 2;
			t[n].type = T_COLON2;
		} else {
			i++;
			t[n].type = T_PUNCT;
		}
		t[n].a = st;
		t[n].e = i;
		n++;
	}
	return n;
}

static int
tok_is(const char *m, const struct tok *t, const char *word)
{
	size_t n = strlen(word);

	return t->e - t->a == n && strncmp(m + t->a, word, n) == 0;
}

static int
punct(const char *m, const struct tok *t, char c)
{
	return t->type == T_PUNCT && m[t->a] == c;
}

/* An identifier that names no function: a macro (upper case), or a
 * keyword that takes parentheses. */
static int
not_a_name(const char *m, const struct tok *t)
{
	static const char *const kw[] = {
	    "decltype",	     "alignas",	 "__attribute__",
	    "__declspec",    "noexcept", "sizeof",
	    "alignof",	     "throw",	 "requires",
	    "static_assert", "if",	 "for",
	    "while",	     "switch",	 "return",
	    "void",	     "catch",	 "explicit",
	    "__pragma",	     "_Pragma"};
	size_t k, lowercase = 0, letters = 0;

	for (k = 0; k < sizeof(kw) / sizeof(kw[0]); k++)
		if (tok_is(m, t, kw[k]))
			return 1;
	for (k = t->a; k < t->e; k++) {
		lowercase += m[k] >= 'a' && m[k] <= 'z';
		letters += ident_start((unsigned char)m[k]) && m[k] != '_';
	}
	return lowercase == 0 && letters > 0 && t->e - t->a > 1;
}

/* Skip the balanced group opening at token k ('(' or '<'); the index
 * of its closing token, or n. */
static size_t
skip_group(const char *m, const struct tok *t, size_t n, size_t k)
{
	char o = m[t[k].a], c = o == '(' ? ')' : '>';
	size_t d = 0, paren = 0;

	for (; k < n; k++) {
		if (t[k].type != T_PUNCT)
			continue;
		if (o == '<' && m[t[k].a] == '(')
			paren++;
		else if (o == '<' && m[t[k].a] == ')' && paren)
			paren--;
		else if (paren)
			continue;
		else if (m[t[k].a] == o)
			d++;
		else if (m[t[k].a] == c && --d == 0)
			return k;
	}
	return n;
}

/* The name a statement head m[a..e) declares or defines: *kind SC_NS,
 * SC_CLASS, SC_FUNC, SC_EXTERN or SC_OTHER; the name in *na..*ne
 * (empty when there is none). decl: the head is a declaration (ends at
 * ';', '=' or '{'), so a variable or alias name counts too. */
static void
head_name(const char *m, size_t a, size_t e, int decl, int *kind, size_t *na,
	  size_t *ne)
{
	struct tok t[TOKENS_MAX];
	size_t n = tokenize(m, a, e, t, TOKENS_MAX), k = 0, j, last = n;
	int seen_eq = 0;

	*kind = SC_OTHER;
	*na = *ne = 0;
	if (n == TOKENS_MAX)
		return;
	for (;;) {
		if (k + 1 < n && t[k].type == T_ID &&
		    punct(m, &t[k + 1], ':') &&
		    (tok_is(m, &t[k], "public") ||
		     tok_is(m, &t[k], "private") ||
		     tok_is(m, &t[k], "protected"))) {
			k += 2;
		} else if (k + 1 < n && tok_is(m, &t[k], "template") &&
			   punct(m, &t[k + 1], '<')) {
			k = skip_group(m, t, n, k + 1) + 1;
		} else if (k + 1 < n && t[k].type == T_ID &&
			   not_a_name(m, &t[k]) && punct(m, &t[k + 1], '(') &&
			   (j = skip_group(m, t, n, k + 1)) + 1 < n &&
			   t[j + 1].type == T_ID &&
			   (tok_is(m, &t[j + 1], "namespace") ||
			    tok_is(m, &t[j + 1], "class") ||
			    tok_is(m, &t[j + 1], "struct") ||
			    tok_is(m, &t[j + 1], "template") ||
			    not_a_name(m, &t[j + 1]))) {
			/* C10_CLANG_DIAGNOSTIC_PUSH() namespace c10 */
			k = j + 1;
		} else {
			break;
		}
	}
	if (k >= n)
		return;
	if (k + 2 == n && tok_is(m, &t[k], "extern") &&
	    t[k + 1].type == T_STR) {
		*kind = SC_EXTERN;
		return;
	}
	if (tok_is(m, &t[k], "inline") && k + 1 < n &&
	    tok_is(m, &t[k + 1], "namespace"))
		k++;
	if (tok_is(m, &t[k], "namespace")) {
		*kind = SC_NS;
		for (j = k + 1;
		     j < n && (t[j].type == T_ID || t[j].type == T_COLON2); j++)
			;
		if (j > k + 1) {
			*na = t[k + 1].a;
			*ne = t[j - 1].e;
		}
		return;
	}
	if (tok_is(m, &t[k], "using") && decl) {
		if (k + 1 < n && t[k + 1].type == T_ID &&
		    !tok_is(m, &t[k + 1], "namespace")) {
			*na = t[k + 1].a;
			*ne = t[k + 1].e;
		}
		return;
	}
	if (tok_is(m, &t[k], "class") || tok_is(m, &t[k], "struct") ||
	    tok_is(m, &t[k], "union") || tok_is(m, &t[k], "enum")) {
		int is_func = 0;

		for (j = k + 1; j < n; j++) {
			if (punct(m, &t[j], ':') || punct(m, &t[j], '<') ||
			    punct(m, &t[j], '{') || punct(m, &t[j], ';'))
				break;
			if (punct(m, &t[j], '(')) {
				if (t[j - 1].type == T_ID &&
				    !not_a_name(m, &t[j - 1])) {
					is_func = 1;
					break;
				}
				j = skip_group(m, t, n, j);
				continue;
			}
			if (t[j].type == T_ID && !tok_is(m, &t[j], "final") &&
			    !tok_is(m, &t[j], "class") &&
			    !tok_is(m, &t[j], "struct"))
				last = j;
		}
		if (!is_func) {
			if (last < n) {
				*na = t[last].a;
				*ne = t[last].e;
			}
			*kind = SC_CLASS;
			return;
		}
		last = n;
	}
	/* A function: the first '(' after a name that is not a macro. */
	for (j = k; j < n; j++) {
		size_t p;

		if (punct(m, &t[j], '=') && !decl)
			seen_eq = 1;
		if (!punct(m, &t[j], '('))
			continue;
		if (seen_eq)
			break;
		if (j == k) {
			j = skip_group(m, t, n, j);
			continue;
		}
		p = j - 1;
		if (t[p].type == T_ID && tok_is(m, &t[p], "operator")) {
			/* operator()(...) */
			*na = t[p].a;
			*ne = j + 1 < n ? t[j + 1].e : t[j].e;
			*kind = SC_FUNC;
			return;
		}
		if (t[p].type == T_ID && p > k &&
		    tok_is(m, &t[p - 1], "operator")) {
			/* operator bool() */
			*na = t[p - 1].a;
			*ne = t[p].e;
			*kind = SC_FUNC;
			return;
		}
		if (t[p].type == T_ID && not_a_name(m, &t[p])) {
			j = skip_group(m, t, n, j);
			continue;
		}
		if (t[p].type == T_PUNCT) {
			size_t q = p;

			while (q > k && t[q].type == T_PUNCT && p - q < 3)
				q--;
			if (tok_is(m, &t[q], "operator")) {
				*na = t[q].a;
				*ne = t[p].e;
				*kind = SC_FUNC;
				return;
			}
			j = skip_group(m, t, n, j);
			continue;
		}
		if (t[p].type != T_ID) {
			j = skip_group(m, t, n, j);
			continue;
		}
		/* Qualified: A::B::name, ~name, Tmpl<T>::name. */
		*ne = t[p].e;
		for (;;) {
			if (p > k && punct(m, &t[p - 1], '~'))
				p--;
			if (p > k + 1 && t[p - 1].type == T_COLON2 &&
			    t[p - 2].type == T_ID)
				p -= 2;
			else
				break;
		}
		*na = t[p].a;
		*kind = SC_FUNC;
		return;
	}
	if (decl && !seen_eq) {
		/* A variable or an enumerator: the last name. */
		for (j = n; j > k; j--)
			if (t[j - 1].type == T_ID &&
			    !not_a_name(m, &t[j - 1])) {
				*na = t[j - 1].a;
				*ne = t[j - 1].e;
				return;
			}
	}
}

/* Move the brace scopes forward to offset upto. */
static void
cxx_track(struct cxxtrack *t, const struct src *x, size_t upto)
{
	const char *m = x->m;

	for (; t->pos < upto && t->pos < x->len; t->pos++) {
		char c = m[t->pos];

		if (c == '{') {
			struct cxxscope sc = {SC_OTHER, 0, 0};
			int opaque = t->over > 0;
			size_t na, ne;

			if (t->n && (t->v[t->n - 1].kind == SC_FUNC ||
				     t->v[t->n - 1].kind == SC_OTHER))
				opaque = 1;
			if (!opaque) {
				head_name(m, t->stmt, t->pos, 0, &sc.kind, &na,
					  &ne);
				sc.name = na;
				sc.nlen = ne - na;
			}
			if (t->n < SCOPE_MAX && !t->over)
				t->v[t->n++] = sc;
			else
				t->over++;
			t->stmt = t->pos + 1;
		} else if (c == '}') {
			if (t->over)
				t->over--;
			else if (t->n)
				t->n--;
			t->stmt = t->pos + 1;
		} else if (c == ';') {
			t->stmt = t->pos + 1;
		}
	}
}

/* Append m[a..e) without whitespace. */
static void
add_name(struct tg_buf *b, const char *m, size_t a, size_t e)
{
	for (; a < e; a++)
		if (!space((unsigned char)m[a]))
			tg_buf_addc(b, m[a]);
}

/* Namespaces and classes, then the enclosing function when there is
 * one (then name is left out: a local), then name. */
static char *
cxx_symbol(const struct src *x, const struct cxxtrack *t, size_t na, size_t ne)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t k;
	int in_func = 0;

	for (k = 0; k < t->n; k++) {
		const struct cxxscope *sc = &t->v[k];

		if (sc->kind == SC_OTHER)
			break;
		if (sc->nlen) {
			add_name(&b, x->m, sc->name, sc->name + sc->nlen);
			tg_buf_adds(&b, "::");
		}
		if (sc->kind == SC_FUNC) {
			in_func = 1;
			break;
		}
	}
	if (!in_func && ne > na)
		add_name(&b, x->m, na, ne);
	while (b.len >= 2 && b.data[b.len - 1] == ':' &&
	       b.data[b.len - 2] == ':')
		b.len -= 2;
	if (!b.len)
		tg_buf_adds(&b, "(unknown)");
	if (!b.data)
		return NULL;
	b.data[b.len] = '\0';
	return tg_buf_detach(&b);
}

static int
site(void *vr, const char *mm, const size_t *ov, size_t ng)
{
	struct run *r = vr;
	struct src *x = r->x;
	const char *m = x->m;
	struct arg args[ARGS_MAX];
	size_t n = 0, close = 0, k, start, after, stop, na = 0, ne = 0, d = 0;
	size_t line;
	char *message = NULL;
	const char *kind;
	int sk, rc, c10 = 0, warn = 0, found;

	(void)mm;
	(void)ng;
	if (ov[2] != TG_SCAN_UNSET) {
		kind = TG_DECL_C10;
		start = ov[2];
		c10 = 1;
	} else if (ov[4] != TG_SCAN_UNSET) {
		kind = TG_DECL_TORCH_WARN;
		start = ov[4];
		warn = 1;
	} else {
		kind = TG_DECL_ATTRIBUTE;
		start = ov[6];
	}
	cxx_track(r->ct, x, start);
	line = line_of(x, start);
	if (!c10 && !warn) {
		for (k = ov[1]; k < x->len && space((unsigned char)m[k]); k++)
			;
		if (k < x->len && m[k] == '(') {
			found = tg_message_split_args(m, x->len, k, args, &n,
						      &close);
			if (tg_decl_spend(
				r, tg_decl_call_cost(x, k, found, close), line))
				return 1;
			if (!found)
				return 0;
			k = close + 1;
		}
		for (; k + 1 < x->len && k - ov[1] < 256; k++)
			if (m[k] == ']' && m[k + 1] == ']')
				break;
		if (k + 1 >= x->len || m[k] != ']')
			return 0;
		after = k + 2;
	} else {
		found = tg_message_split_args(m, x->len, ov[1] - 1, args, &n,
					      &close);
		if (tg_decl_spend(
			r, tg_decl_call_cost(x, ov[1] - 1, found, close), line))
			return 1;
		if (!found)
			return 0;
		after = close + 1;
	}
	if (warn) {
		struct tg_buf b = TG_BUF_INIT;
		int lit = 0;

		tg_buf_init(&b, MESSAGE_MAX);
		for (k = 0; k < n; k++)
			render(x, args[k].a, args[k].e, &b, &lit);
		if (b.len) {
			message = tg_message_finish(b.data, b.len);
			if (!message) {
				tg_buf_release(&b);
				return tg_err_set(r->err, TG_ENOMEM,
						  "out of memory");
			}
		}
		tg_buf_release(&b);
		return tg_decl_emit(r, cxx_symbol(x, r->ct, 0, 0), line,
				    message, kind);
	}
	if (n > 0 && (rc = tg_message_render_arg(
			  x, &args[0], &tg_harvest_cxx_ops, 1, &message)) != 0)
		return tg_err_set(r->err, rc, "out of memory");
	if (c10 && !message)
		return 0; /* the macro's own definition, or a parameter */
	/* The declaration: from the statement's start to ';', '{', '}' or
	 * a top-level '='. */
	for (stop = after; stop < x->len && stop - after < HEAD_SPAN_MAX;
	     stop++) {
		char c = m[stop];

		if (c == '(' || c == '[')
			d++;
		else if ((c == ')' || c == ']') && d)
			d--;
		else if (d == 0 && (c == ';' || c == '{' || c == '}'))
			break;
		else if (d == 0 && c == '=' && m[stop + 1] != '=' &&
			 !strchr("=!<>+-*/%&|^", m[stop - 1]))
			break; /* an initializer, not operator== */
	}
	if (tg_decl_spend(r, stop - r->ct->stmt, line)) {
		free(message);
		return 1;
	}
	head_name(m, r->ct->stmt, stop, 1, &sk, &na, &ne);
	return tg_decl_emit(r, cxx_symbol(x, r->ct, na, ne), line, message,
			    kind);
}

/* ---- replacements --------------------------------------------------- */

/* Every site names "deprecat" or "DEPRECAT". */
static int
may_declare(const char *text, size_t len)
{
	return memmem(text, len, "deprecat", 8) ||
	       memmem(text, len, "DEPRECAT", 8);
}

static const char *const exts[] = {".h", ".hpp", ".cuh", NULL};

const struct harvester tg_harvest_cxx_ops = {
    .lang = TG_LANG_CXX,
    .exts = exts,
    .headers = 1,
    .skip_dir = NULL,
    .modules = 0,
    .pattern = pattern,
    .may_declare = may_declare,
    .mask = mask,
    .site = site,
    .render = render,
};
