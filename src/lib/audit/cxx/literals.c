/* literals.c - the literals every match of a usage pattern holds
 * SPDX-License-Identifier: MIT
 *
 * literal_set reads a pattern (PCRE2 syntax, as the table writes it) and
 * finds a set of literals one of which each of its matches must contain
 * ("(?:c10|at)::optional" gives two names), and how many bytes of a match
 * can come before that literal (pre, WIDTH_ANY when not bounded): what
 * the prefilter looks for, and how far before a place a match is looked
 * for. A construct it cannot read makes the set empty (the pattern then
 * runs on every file): never a wrong literal.
 *
 * Worst case: linear in the pattern, the sets bounded by LITS_MAX
 * members.
 */
#include <string.h>

#include "lib/audit/cxx/internal.h"

/* a + b of two widths, either of which may be WIDTH_ANY */
static size_t
width_add(size_t a, size_t b)
{
	return a == WIDTH_ANY || b == WIDTH_ANY || b > WIDTH_ANY - 1 - a
		   ? WIDTH_ANY
		   : a + b;
}

/* The most bytes an escape p[i..i+2) matches (the patterns are not
 * compiled in UTF mode: a class matches one byte): 0 for \b and \B, 1
 * for an escaped punctuation byte, a class (\d, \w, \s, \h, \v and
 * theirs negated) or \n, \t, \r, \f; WIDTH_ANY for the rest (\R,
 * \x{...}, \p{...}, \Q, backreferences...). */
static size_t
escape_width(const char *p, size_t i)
{
	char c = p[i + 1];

	if (!is_ident((unsigned char)c))
		return 1;
	if (c == 'b' || c == 'B')
		return 0;
	if (strchr("dDwWsShHvVntrf", c))
		return 1;
	return WIDTH_ANY;
}

/* The most times the quantifier "{...}" at p[i] repeats its atom, and
 * its end (past the '}'): "{m}" m, "{m,n}" n, "{m,}" WIDTH_ANY, and
 * WIDTH_ANY for anything else (a '{' that PCRE2 reads as a byte). */
static size_t
repeat_max(const char *p, size_t i, size_t e, size_t *end)
{
	size_t k = i + 1, n = 0, digits = 0, comma = 0;

	for (; k < e && p[k] != '}'; k++) {
		if (p[k] == ',' && !comma++) {
			n = 0;
			digits = 0;
		} else if (p[k] >= '0' && p[k] <= '9' && n < 1000) {
			n = n * 10 + (size_t)(p[k] - '0');
			digits++;
		} else {
			n = WIDTH_ANY;
			break;
		}
	}
	while (k < e && p[k] != '}')
		k++;
	*end = k < e ? k + 1 : e;
	return k >= e || !digits || n >= 1000 ? WIDTH_ANY : n;
}

/* The shortest member's length; 0 for an empty set. */
static size_t
set_min(const struct litset *l)
{
	size_t k, m = l->n ? (size_t)-1 : 0;

	for (k = 0; k < l->n; k++)
		if (strlen(l->s[k]) < m)
			m = strlen(l->s[k]);
	return m;
}

/* The longest member's length. */
static size_t
set_max(const struct litset *l)
{
	size_t k, m = 0;

	for (k = 0; k < l->n; k++)
		if (strlen(l->s[k]) > m)
			m = strlen(l->s[k]);
	return m;
}

/* Keep cur as best when it is better: a longer shortest member, then
 * a longer longest member, then fewer members. */
static void
set_offer(struct litset *best, const struct litset *cur)
{
	size_t m = set_min(cur), b = set_min(best);

	if (m > b || (m && m == b && set_max(cur) > set_max(best)) ||
	    (m && m == b && set_max(cur) == set_max(best) && cur->n < best->n))
		*best = *cur;
}

/* cur = cur x add (each member followed by each of add's); 0 when the
 * product is too large (cur is then left as it was). */
static int
set_append(struct litset *cur, const struct litset *tg_audit_cxx_add)
{
	struct litset out;
	size_t i, j;

	if (cur->n * tg_audit_cxx_add->n > LITS_MAX)
		return 0;
	out.n = 0;
	out.pre = cur->pre;
	for (i = 0; i < cur->n; i++)
		for (j = 0; j < tg_audit_cxx_add->n; j++) {
			size_t a = strlen(cur->s[i]),
			       b = strlen(tg_audit_cxx_add->s[j]);

			if (a + b > LITERAL_MAX)
				return 0;
			memcpy(out.s[out.n], cur->s[i], a);
			memcpy(out.s[out.n] + a, tg_audit_cxx_add->s[j], b + 1);
			out.n++;
		}
	*cur = out;
	return 1;
}

/* The end of the group or class that starts at p[i] ('(' or '['), past
 * its closing byte; the string's end when it is not closed. */
static size_t
skip_group(const char *p, size_t i, size_t e)
{
	int depth = 0;

	while (i < e) {
		if (p[i] == '\\' && i + 1 < e) {
			i += 2;
			continue;
		}
		if (p[i] == '[') {
			i++;
			if (i < e && p[i] == '^')
				i++;
			if (i < e && p[i] == ']')
				i++;
			while (i < e && p[i] != ']')
				i += p[i] == '\\' && i + 1 < e ? 2 : 1;
			if (i < e)
				i++;
			if (!depth)
				return i;
			continue;
		}
		if (p[i] == '(')
			depth++;
		else if (p[i] == ')' && --depth == 0)
			return i + 1;
		i++;
	}
	return e;
}

/* A group's body p[a..e) as a set when it is literal alternatives
 * (letters, digits, escaped punctuation; no nesting): 1, else 0. */
static int
group_set(const char *p, size_t a, size_t e, struct litset *out)
{
	size_t i = a, w = 0;

	out->n = 1;
	out->s[0][0] = '\0';
	while (i < e) {
		char c = p[i];

		if (c == '|') {
			if (out->n == LITS_MAX)
				return 0;
			out->s[out->n - 1][w] = '\0';
			out->n++;
			w = 0;
			i++;
			continue;
		}
		if (c == '\\' && i + 1 < e &&
		    !is_ident((unsigned char)p[i + 1]))
			c = p[++i];
		else if (!is_ident((unsigned char)c) && c != ':' && c != '/' &&
			 c != '-' && c != '<' && c != '>' && c != '=' &&
			 c != ',' && c != '#' && c != '"' && c != '\'')
			return 0;
		if (w == LITERAL_MAX)
			return 0;
		out->s[out->n - 1][w++] = c;
		i++;
	}
	out->s[out->n - 1][w] = '\0';
	return 1;
}

/* One alternative p[a..e) (no '|' at its top): the best run of literal
 * bytes and literal groups, into best. */
static void
branch_set(const char *p, size_t a, size_t e, struct litset *best)
{
	struct litset cur, atom;
	size_t i = a, width = 0; /* the most bytes matched before p[i] */

	best->n = 0;
	best->pre = WIDTH_ANY;
	cur.n = 1;
	cur.s[0][0] = '\0';
	cur.pre = 0;
#define BREAK_RUN()                                                            \
	do {                                                                   \
		set_offer(best, &cur);                                         \
		cur.n = 1;                                                     \
		cur.s[0][0] = '\0';                                            \
	} while (0)
	while (i < e) {
		char c = p[i], q;
		size_t next, w; /* the atom p[i..next): the most it matches */
		int fresh;	/* cur is empty: a run would start here */

		atom.n = 0;
		w = 1;
		if (c == '\\' && i + 1 < e) {
			next = i + 2;
			w = escape_width(p, i);
			if (!is_ident((unsigned char)p[i + 1])) {
				atom.n = 1;
				atom.s[0][0] = p[i + 1];
				atom.s[0][1] = '\0';
			}
		} else if (c == '(') {
			next = skip_group(p, i, e);
			w = WIDTH_ANY;
			/* (?:...) or (...) of literal alternatives */
			if (next > i + 1 && p[next - 1] == ')') {
				size_t b = i + 1;

				if (b + 1 < next && p[b] == '?' &&
				    p[b + 1] == ':')
					b += 2;
				else if (b < next && p[b] == '?') {
					/* lookaround, flags: none; a
					 * lookaround matches no byte */
					if (b + 2 < next &&
					    (p[b + 1] == '=' ||
					     p[b + 1] == '!' ||
					     (p[b + 1] == '<' &&
					      (p[b + 2] == '=' ||
					       p[b + 2] == '!'))))
						w = 0;
					b = next;
				}
				if (b < next - 1 &&
				    !group_set(p, b, next - 1, &atom))
					atom.n = 0;
				if (atom.n)
					w = set_max(&atom);
			}
		} else if (c == '[') {
			next = skip_group(p, i, e);
		} else if (c == '.' || c == '^' || c == '$' || c == '+' ||
			   c == '*' || c == '?' || c == '{' || c == '|') {
			next = i + 1;
			/* a quantifier after a quantifier (lazy, possessive)
			 * adds nothing; a stray one: no bound */
			w = c == '.' ? 1 : c == '^' || c == '$' ? 0 : WIDTH_ANY;
			if (c == '{')
				while (next < e && p[next - 1] != '}')
					next++;
		} else {
			next = i + 1;
			atom.n = 1;
			atom.s[0][0] = c;
			atom.s[0][1] = '\0';
		}
		q = next < e ? p[next] : '\0';
		fresh = cur.n == 1 && !cur.s[0][0];
		if (q == '?' || q == '*' || q == '{') {
			atom.n = 0; /* optional: not required */
		} else if (atom.n && !set_append(&cur, &atom)) {
			BREAK_RUN();
			fresh = 1;
			if (!set_append(&cur, &atom))
				atom.n = 0;
		}
		if (atom.n && fresh)
			cur.pre = width; /* a run starts at this atom */
		if (!atom.n || q == '+')
			BREAK_RUN();
		/* its quantifier: '?' at most once, "{m}" and "{m,n}" so
		 * many times, '*', '+' and the rest any number (a lazy or
		 * possessive mark after it is an atom of no bound) */
		if (q == '?') {
			next++;
		} else if (q == '*' || q == '+') {
			w = WIDTH_ANY;
			next++;
		} else if (q == '{') {
			size_t n = repeat_max(p, next, e, &next);

			w = n == WIDTH_ANY || w == WIDTH_ANY ? WIDTH_ANY
							     : w * n;
		}
		width = width_add(width, w);
		i = next;
	}
	BREAK_RUN();
#undef BREAK_RUN
}

/* The literals one of which every match of p[a..e) contains, into best
 * (n == 0: none known): the best run of each alternative at the top,
 * and their union when there are several. */
void
tg_audit_cxx_literal_set(const char *p, size_t a, size_t e, struct litset *best)
{
	struct litset one;
	size_t i = a, start = a, k;

	best->n = 0;
	for (;;) {
		if (i < e && (p[i] == '(' || p[i] == '[')) {
			i = skip_group(p, i, e);
			continue;
		}
		if (i < e && p[i] == '\\') {
			i += i + 1 < e ? 2 : 1;
			continue;
		}
		if (i < e && p[i] != '|') {
			i++;
			continue;
		}
		if (start == a && i == e) {
			branch_set(p, a, e, best);
			return;
		}
		branch_set(p, start, i, &one);
		if (!one.n || best->n + one.n > LITS_MAX) {
			best->n = 0;
			return;
		}
		for (k = 0; k < one.n; k++)
			memcpy(best->s[best->n++], one.s[k], LITERAL_MAX + 1);
		if (best->n == one.n || one.pre > best->pre)
			best->pre = one.pre;
		if (i >= e)
			return;
		start = ++i;
	}
}
