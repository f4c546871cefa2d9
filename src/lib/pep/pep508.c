/* pep508_lex.c - tokens of PEP 508 requirements and markers
 * SPDX-License-Identifier: MIT
 *
 * Each rule mirrors one regular expression of packaging 26.x's
 * DEFAULT_RULES. Python's \b is Unicode-aware; here every non-ASCII byte
 * counts as a word character, which agrees for letters and digits.
 */
#include "lib/pep/pep508.h"

#include <stdint.h>
#include <string.h>

#include "lib/pep/pyspace.h"
#include "lib/pep/version.h"

static int
word_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

/* \b at offset i of s[0..len) */
static int
boundary(const char *s, size_t len, size_t i)
{
	int before = i > 0 && word_char((unsigned char)s[i - 1]);
	int after = i < len && word_char((unsigned char)s[i]);

	return before != after;
}

/* \bword\b at pos, w n bytes long */
static size_t
keyword(const struct tg_pep508_lexer *lx, const char *w, size_t n)
{
	if (lx->len - lx->pos < n || lx->s[lx->pos] != w[0] ||
	    memcmp(lx->s + lx->pos, w, n) != 0)
		return 0;
	if (!boundary(lx->s, lx->len, lx->pos) ||
	    !boundary(lx->s, lx->len, lx->pos + n))
		return 0;
	return n;
}

#define KW(w) w, sizeof(w) - 1

/* In packaging's order: the first that matches is the token. */
static const struct {
	const char *w;
	size_t n;
} variables[] = {
    {KW("python_version")},
    {KW("python_full_version")},
    {KW("os_name")},
    {KW("os.name")},
    {KW("sys_platform")},
    {KW("sys.platform")},
    {KW("platform_release")},
    {KW("platform_system")},
    {KW("platform_version")},
    {KW("platform.version")},
    {KW("platform_machine")},
    {KW("platform.machine")},
    {KW("platform_python_implementation")},
    {KW("platform.python_implementation")},
    {KW("python_implementation")},
    {KW("implementation_name")},
    {KW("implementation_version")},
    {KW("extras")},
    {KW("extra")},
    {KW("dependency_groups")},
};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* End of v? (N!)? N (.N)* at s[i..e), with at least min_nums release
 * numbers, or SIZE_MAX. */
static size_t
release_end(const char *s, size_t i, size_t e, int min_nums)
{
	size_t j;
	int nums = 1;

	if (i < e && (s[i] == 'v' || s[i] == 'V'))
		i++;
	for (j = i; j < e && is_digit(s[j]); j++)
		;
	if (j > i && j + 1 < e && s[j] == '!' && is_digit(s[j + 1]))
		for (i = j + 1, j = i; j < e && is_digit(s[j]); j++)
			;
	if (j == i)
		return SIZE_MAX;
	while (j + 1 < e && s[j] == '.' && is_digit(s[j + 1])) {
		for (j++; j < e && is_digit(s[j]); j++)
			;
		nums++;
	}
	return nums >= min_nums ? j : SIZE_MAX;
}

/* packaging's Specifier regex, matched (not fullmatched) at pos. */
static size_t
specifier(const struct tg_pep508_lexer *lx)
{
	const char *s = lx->s;
	size_t i = lx->pos, e = lx->len, end;
	int op_eq = 0, op_compat = 0;

	if (e - i >= 3 && memcmp(s + i, "===", 3) == 0) {
		i = tg_pyspace_lstrip(s, i + 3, e);
		while (i < e && s[i] != ';' && s[i] != ')' &&
		       !tg_pyspace_at(s, i, e))
			i++;
		return i - lx->pos;
	}
	if (e - i >= 2 &&
	    (memcmp(s + i, "==", 2) == 0 || memcmp(s + i, "!=", 2) == 0)) {
		op_eq = 1;
		i += 2;
	} else if (e - i >= 2 && memcmp(s + i, "~=", 2) == 0) {
		op_compat = 1;
		i += 2;
	} else if (e - i >= 2 && (memcmp(s + i, "<=", 2) == 0 ||
				  memcmp(s + i, ">=", 2) == 0)) {
		i += 2;
	} else if (i < e && (s[i] == '<' || s[i] == '>')) {
		i += 1;
	} else {
		return 0;
	}
	i = tg_pyspace_lstrip(s, i, e);
	end = release_end(s, i, e, op_compat ? 2 : 1);
	if (end == SIZE_MAX)
		return 0;
	if (op_eq && end + 1 < e && s[end] == '.' && s[end + 1] == '*')
		return end + 2 - lx->pos;
	end = tg_version_scan_prefix(s, i, e, op_eq);
	return end == SIZE_MAX ? 0 : end - lx->pos;
}

static int
ident_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '.' || c == '_' || c == '-';
}

static int
lower_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z');
}

size_t
tg_pep508_peek(const struct tg_pep508_lexer *lx, enum tg_tok k)
{
	const char *s = lx->s + lx->pos;
	size_t n = lx->len - lx->pos, i, w;
	char q;

	switch (k) {
	case TG_TOK_LPAREN:
		return n && *s == '(';
	case TG_TOK_RPAREN:
		return n && *s == ')';
	case TG_TOK_LBRACKET:
		return n && *s == '[';
	case TG_TOK_RBRACKET:
		return n && *s == ']';
	case TG_TOK_SEMICOLON:
		return n && *s == ';';
	case TG_TOK_COMMA:
		return n && *s == ',';
	case TG_TOK_AT:
		return n && *s == '@';
	case TG_TOK_QUOTED:
		if (!n || (*s != '\'' && *s != '"'))
			return 0;
		q = *s;
		for (i = 1; i < n; i++)
			if (s[i] == q)
				return i + 1;
		return 0;
	case TG_TOK_OP:
		if (n >= 3 && memcmp(s, "===", 3) == 0)
			return 3;
		if (n >= 2 && s[1] == '=' &&
		    (s[0] == '=' || s[0] == '~' || s[0] == '!' || s[0] == '<' ||
		     s[0] == '>'))
			return 2;
		return n && (*s == '<' || *s == '>');
	case TG_TOK_BOOLOP:
		return (w = keyword(lx, KW("or"))) ? w : keyword(lx, KW("and"));
	case TG_TOK_IN:
		return keyword(lx, KW("in"));
	case TG_TOK_NOT:
		return keyword(lx, KW("not"));
	case TG_TOK_VARIABLE:
		/* keyword() fails on the first byte for most: skip the call */
		for (i = 0; n && i < sizeof(variables) / sizeof(variables[0]);
		     i++)
			if (variables[i].w[0] == *s &&
			    (w = keyword(lx, variables[i].w, variables[i].n)) !=
				0)
				return w;
		return 0;
	case TG_TOK_SPECIFIER:
		return specifier(lx);
	case TG_TOK_URL:
		for (i = 0; i < n && s[i] != ' ' && s[i] != '\t'; i++)
			;
		return i;
	case TG_TOK_IDENTIFIER:
		/* \b[a-zA-Z0-9][a-zA-Z0-9._-]*\b */
		if (!n || *s == '.' || *s == '_' || *s == '-' ||
		    !ident_char(*s) || !boundary(lx->s, lx->len, lx->pos))
			return 0;
		for (i = 1; i < n && ident_char(s[i]); i++)
			;
		/* give back until a word boundary follows */
		while (i > 0 && !(word_char((unsigned char)s[i - 1]) &&
				  boundary(lx->s, lx->len, lx->pos + i)))
			i--;
		return i;
	case TG_TOK_PREFIX_TRAIL:
		return n >= 2 && s[0] == '.' && s[1] == '*' ? 2 : 0;
	case TG_TOK_LOCAL_TRAIL:
		/* \+[a-z0-9]+(?:[-_\.][a-z0-9]+)* (lower case only) */
		if (n < 2 || s[0] != '+' || !lower_alnum(s[1]))
			return 0;
		for (i = 1; i < n && lower_alnum(s[i]); i++)
			;
		while (i + 1 < n &&
		       (s[i] == '-' || s[i] == '_' || s[i] == '.') &&
		       lower_alnum(s[i + 1]))
			for (i++; i < n && lower_alnum(s[i]); i++)
				;
		return i;
	case TG_TOK_WS:
		for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
			;
		return i;
	case TG_TOK_END:
		return n == 0;
	}
	return 0;
}

/* The byte of each one-byte token, 0 for the others. */
static const char single[] = {
    [TG_TOK_LPAREN] = '(',   [TG_TOK_RPAREN] = ')',    [TG_TOK_LBRACKET] = '[',
    [TG_TOK_RBRACKET] = ']', [TG_TOK_SEMICOLON] = ';', [TG_TOK_COMMA] = ',',
    [TG_TOK_AT] = '@',	     [TG_TOK_END] = 0,
};

int
tg_pep508_take(struct tg_pep508_lexer *lx, enum tg_tok k, size_t *start,
	       size_t *len)
{
	size_t n;

	/* most takes are of one-byte tokens, and most of those fail: no
	 * call to peek for them */
	if ((size_t)k < sizeof(single) && single[k]) {
		if (lx->pos >= lx->len || lx->s[lx->pos] != single[k])
			return 0;
		n = 1;
	} else {
		n = tg_pep508_peek(lx, k);
	}

	if (!n)
		return 0;
	if (k == TG_TOK_END)
		n = 0;
	if (start)
		*start = lx->pos;
	if (len)
		*len = n;
	lx->pos += n;
	return 1;
}

void
tg_pep508_ws(struct tg_pep508_lexer *lx)
{
	/* called between most tokens, and mostly with none to skip */
	while (lx->pos < lx->len &&
	       (lx->s[lx->pos] == ' ' || lx->s[lx->pos] == '\t'))
		lx->pos++;
}
