/* clex.c - a C/C++ tokenizer: comments, literals, directives, names
 * SPDX-License-Identifier: MIT
 *
 * The state is the position, the line, the bracket depth and whether the
 * line holds code yet (a '#' starts a directive only when it does not);
 * each token is found from the bytes at the position. Every scan stops
 * at len; a raw string's closing ")delim\"" is compared in place, so no
 * token needs memory. Worst case: each byte is looked at a bounded
 * number of times, a raw string's bytes up to 18 times.
 */
#include "lib/lex/clex.h"

#include <string.h>

static int
id_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static int
id_char(unsigned char c)
{
	return id_start(c) || (c >= '0' && c <= '9');
}

/* Length of a backslash-newline at s[i], or 0. */
static size_t
splice(const char *s, size_t len, size_t i)
{
	if (s[i] != '\\' || i + 1 >= len)
		return 0;
	if (s[i + 1] == '\n')
		return 2;
	if (s[i + 1] == '\r' && i + 2 < len && s[i + 2] == '\n')
		return 3;
	return 0;
}

/* The end of the short literal whose quote is at q. */
static size_t
short_end(const char *s, size_t len, size_t q, unsigned *fl)
{
	size_t k;

	for (k = q + 1; k < len && s[k] != s[q] && s[k] != '\n'; k++)
		if (s[k] == '\\' && k + 1 < len)
			k++;
	if (k < len && s[k] == s[q])
		return k + 1;
	*fl |= TG_CLEX_UNTERMINATED;
	return k < len ? k : len;
}

/* The end of the comment at s[i] ("//" or "/" "*"). */
static size_t
comment_end(const char *s, size_t len, size_t i, unsigned *fl)
{
	size_t k, n;

	if (s[i + 1] == '/') {
		for (k = i + 2; k < len && s[k] != '\n'; k++)
			if ((n = splice(s, len, k)) > 0)
				k += n - 1;
		if (k > i && k < len && s[k - 1] == '\r')
			k--;
		return k;
	}
	for (k = i + 2; k + 1 < len; k++)
		if (s[k] == '*' && s[k + 1] == '/')
			return k + 2;
	*fl |= TG_CLEX_UNTERMINATED;
	return len;
}

/* The punctuators of more than one byte, longest first (so the first
 * that matches is the longest), with their lengths; the first byte is
 * compared before anything else, as most bytes start none. */
static const struct {
	char s[4];
	unsigned char n;
} puncts[] = {{"<<=", 3}, {">>=", 3}, {"...", 3}, {"->*", 3}, {"<=>", 3},
	      {"::", 2},  {"->", 2},  {"++", 2},  {"--", 2},  {"<<", 2},
	      {">>", 2},  {"<=", 2},  {">=", 2},  {"==", 2},  {"!=", 2},
	      {"&&", 2},  {"||", 2},  {"+=", 2},  {"-=", 2},  {"*=", 2},
	      {"/=", 2},  {"%=", 2},  {"&=", 2},  {"|=", 2},  {"^=", 2},
	      {".*", 2},  {"##", 2}};

static size_t
punct_len(const char *s, size_t len, size_t i)
{
	size_t k, n;

	for (k = 0; k < sizeof(puncts) / sizeof(puncts[0]); k++) {
		if (puncts[k].s[0] != s[i])
			continue;
		n = puncts[k].n;
		if (len - i >= n && memcmp(s + i, puncts[k].s, n) == 0)
			return n;
	}
	return s[i] && strchr("{}[]()<>;:,.?~!+-*/%^&|=#", s[i]) ? 1 : 0;
}

/* A literal whose prefix starts at a and quote is at q. */
static size_t
literal(const char *s, size_t len, size_t a, size_t q, int raw,
	struct tg_clex_tok *t)
{
	size_t k, d, end;

	t->kind = s[q] == '"' ? TG_CLEX_STRING : TG_CLEX_CHAR;
	t->pre = (unsigned char)(q - a);
	if (!raw || s[q] != '"') {
		end = short_end(s, len, q, &t->flags);
		t->body = q + 1;
		t->body_len =
		    end - t->body - (t->flags & TG_CLEX_UNTERMINATED ? 0 : 1);
		return end;
	}
	t->flags |= TG_CLEX_RAW;
	for (k = q + 1; k < len && k - q - 1 <= 16 && s[k] != '('; k++)
		if (s[k] == ' ' || s[k] == '\\' || s[k] == ')' ||
		    s[k] == '\n' || s[k] == '\t')
			break;
	if (k >= len || s[k] != '(' || k - q - 1 > 16) {
		t->flags |= TG_CLEX_BAD_RAW | TG_CLEX_UNTERMINATED;
		t->body = q + 1;
		t->body_len = 0;
		return q + 1;
	}
	d = k - q - 1;
	t->body = k + 1;
	for (k++; k < len; k++)
		if (s[k] == ')' && len - k > d + 1 &&
		    memcmp(s + k + 1, s + q + 1, d) == 0 &&
		    s[k + 1 + d] == '"') {
			t->body_len = k - t->body;
			return k + d + 2;
		}
	t->flags |= TG_CLEX_UNTERMINATED;
	t->body_len = len - t->body;
	return len;
}

/* Whether s[a..e) is a literal prefix; *raw for one ending in R. */
static int
prefix(const char *s, size_t a, size_t e, int *raw)
{
	static const char *const pre[] = {"L",	"u",  "U",  "u8", "R",
					  "LR", "uR", "UR", "u8R"};
	size_t k;

	for (k = 0; k < sizeof(pre) / sizeof(pre[0]); k++)
		if (strlen(pre[k]) == e - a &&
		    memcmp(s + a, pre[k], e - a) == 0) {
			*raw = pre[k][e - a - 1] == 'R';
			return 1;
		}
	return 0;
}

/* The end of the directive whose '#' is at i: its last continued line,
 * comments and literals in it skipped. */
static size_t
directive_end(const char *s, size_t len, size_t i)
{
	unsigned fl = 0;
	size_t k = i + 1, n;

	while (k < len && s[k] != '\n') {
		if ((n = splice(s, len, k)) > 0)
			k += n;
		else if (s[k] == '/' && k + 1 < len &&
			 (s[k + 1] == '/' || s[k + 1] == '*'))
			k = comment_end(s, len, k, &fl);
		else if (s[k] == '"' || s[k] == '\'')
			k = short_end(s, len, k, &fl);
		else
			k++;
	}
	if (k > i && k < len && s[k - 1] == '\r')
		k--;
	return k;
}

void
tg_clex_init(struct tg_clex *lx, const char *s, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->s = s;
	lx->len = len;
	lx->line = 1;
}

int
tg_clex_next(struct tg_clex *lx, struct tg_clex_tok *t)
{
	const char *s = lx->s;
	size_t len = lx->len, i, end, n;
	int raw = 0;

	memset(t, 0, sizeof(*t));
	for (i = lx->pos; i < len; i++) {
		if (s[i] == '\n') {
			lx->line++;
			lx->lstart = i + 1;
			lx->code = 0;
		} else if ((n = splice(s, len, i)) > 0) {
			i += n - 1;
			lx->line++;
			lx->lstart = i + 1;
		} else if (!(s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
			     s[i] == '\f' || s[i] == '\v')) {
			break;
		}
	}
	lx->pos = i;
	t->off = i;
	t->line = lx->line;
	t->col = i - lx->lstart;
	t->depth = lx->depth;
	if (i >= len) {
		t->kind = TG_CLEX_END;
		t->flags = lx->depth ? TG_CLEX_UNBALANCED : 0;
		if (lx->ended)
			return 0;
		lx->ended = 1;
		return 1;
	}
	if (s[i] == '/' && i + 1 < len &&
	    (s[i + 1] == '/' || s[i + 1] == '*')) {
		t->kind = TG_CLEX_COMMENT;
		end = comment_end(s, len, i, &t->flags);
	} else if (s[i] == '#' && !lx->code) {
		t->kind = TG_CLEX_DIRECTIVE;
		end = directive_end(s, len, i);
	} else if (s[i] == '"' || s[i] == '\'') {
		end = literal(s, len, i, i, 0, t);
	} else if ((s[i] >= '0' && s[i] <= '9') ||
		   (s[i] == '.' && i + 1 < len && s[i + 1] >= '0' &&
		    s[i + 1] <= '9')) {
		for (end = i + 1; end < len; end++) {
			char c = s[end];

			if ((c == '+' || c == '-') &&
			    strchr("eEpP", s[end - 1]))
				continue;
			if (c == '\'' && end + 1 < len &&
			    id_char((unsigned char)s[end + 1]))
				continue;
			if (!id_char((unsigned char)c) && c != '.')
				break;
		}
		t->kind = TG_CLEX_NUMBER;
	} else if (id_start((unsigned char)s[i])) {
		for (end = i; end < len && id_char((unsigned char)s[end]);
		     end++)
			;
		if (end < len && (s[end] == '"' || s[end] == '\'') &&
		    prefix(s, i, end, &raw))
			end = literal(s, len, i, end, raw, t);
		else
			t->kind = TG_CLEX_IDENT;
	} else if ((n = punct_len(s, len, i)) > 0) {
		end = i + n;
		t->kind = TG_CLEX_PUNCT;
		if (strchr("([{", s[i]) && n == 1) {
			lx->depth++;
		} else if (strchr(")]}", s[i]) && n == 1) {
			if (lx->depth)
				lx->depth--;
			else
				t->flags |= TG_CLEX_UNBALANCED;
			t->depth = lx->depth;
		}
	} else {
		end = i + 1;
		t->kind = TG_CLEX_ERROR;
	}
	if (t->kind != TG_CLEX_COMMENT)
		lx->code = 1;
	t->len = end - i;
	for (; lx->pos < end; lx->pos++)
		if (s[lx->pos] == '\n') {
			lx->line++;
			lx->lstart = lx->pos + 1;
			if (t->kind == TG_CLEX_DIRECTIVE)
				lx->code = 0;
		}
	if (t->kind == TG_CLEX_DIRECTIVE)
		lx->code = 0; /* the newline after it starts a fresh line */
	return 1;
}
