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
#include "lib/lex/name_end.h"
#include "lib/util/wide.h"

#include <string.h>

/* Byte classes, looked up once per byte (the table below is these
 * rules, written out). */
#define C_START 1 /* starts an identifier: letters, '_', bytes >= 0x80 */
#define C_DIGIT 2
#define C_SPACE 4 /* ' ' '\t' '\r' '\f' '\v' */
#define C_PUNCT 8 /* a punctuator of one byte */
/* code skip_code passes over a byte at a time with nothing to do but
 * note that the line holds code: the punctuators but '#', '.', '/' and
 * the brackets, and the bytes that start no token but the quotes, '\\'
 * and '\n' */
#define C_PLAIN 16

static const unsigned char cls[256] = {
    16, 16, 16, 16, 16, 16, 16, 16, 16, 4,  0,	4,  4,	4,  16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 4,  24, 0,  8,	16, 24,
    24, 0,  8,	8,  24, 24, 24, 24, 8,	8,  2,	2,  2,	2,  2,	2,  2,	2,  2,
    2,	24, 24, 24, 24, 24, 24, 16, 1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	8,  0,	8,  24,
    1,	16, 1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,	8,  24, 8,  24, 16, 1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,	1,  1,
    1,	1,  1,	1,  1,	1,  1,	1,  1,
};

static int
id_start(unsigned char c)
{
	return cls[c] & C_START;
}

static int
id_char(unsigned char c)
{
	return cls[c] & (C_START | C_DIGIT);
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
			k += splice(s, len, k) == 3 ? 2 : 1; /* "\\\r\n" */
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
		/* to the first newline that no backslash splices */
		for (k = i + 2; k < len; k = n + 1) {
			const char *nl = memchr(s + k, '\n', len - k);

			if (!nl)
				return len;
			n = (size_t)(nl - s);
			if (!(n > k && s[n - 1] == '\\') &&
			    !(n > k + 1 && s[n - 1] == '\r' &&
			      s[n - 2] == '\\'))
				break;
		}
		if (k >= len)
			return len;
		k = n;
		if (k > i && s[k - 1] == '\r')
			k--;
		return k;
	}
	for (k = i + 2; k + 1 < len; k++) {
		const char *star = memchr(s + k, '*', len - 1 - k);

		if (!star)
			break;
		k = (size_t)(star - s);
		if (s[k + 1] == '/')
			return k + 2;
	}
	*fl |= TG_CLEX_UNTERMINATED;
	return len;
}

/* The length of the punctuator at s[i] (the longest that matches), 0
 * when none starts there. */
static size_t
punct_len(const char *s, size_t len, size_t i)
{
	char c = s[i], d = len - i > 1 ? s[i + 1] : '\0',
	     e = len - i > 2 ? s[i + 2] : '\0';

	if (!(cls[(unsigned char)c] & C_PUNCT))
		return 0;
	switch (c) {
	case '<':
		if (d == '<')
			return e == '=' ? 3 : 2;
		if (d == '=')
			return e == '>' ? 3 : 2;
		return 1;
	case '>':
		if (d == '>')
			return e == '=' ? 3 : 2;
		return d == '=' ? 2 : 1;
	case '.':
		if (d == '.' && e == '.')
			return 3;
		return d == '*' ? 2 : 1;
	case '-':
		if (d == '>')
			return e == '*' ? 3 : 2;
		return d == '-' || d == '=' ? 2 : 1;
	case ':':
		return d == ':' ? 2 : 1;
	case '+':
		return d == '+' || d == '=' ? 2 : 1;
	case '&':
		return d == '&' || d == '=' ? 2 : 1;
	case '|':
		return d == '|' || d == '=' ? 2 : 1;
	case '=':
	case '!':
	case '*':
	case '/':
	case '%':
	case '^':
		return d == '=' ? 2 : 1;
	case '#':
		return d == '#' ? 2 : 1;
	default:
		return 1;
	}
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

/* From k, past the bytes of a directive that are none of a newline,
 * '\\', '/' and a quote: sixteen at a time where SSE2 is there, to the
 * first such byte or the last fifteen bytes of the text. */
static size_t
directive_plain(const char *s, size_t len, size_t k)
{
#ifdef TG_WIDE
	while (len - k >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + k)), m;
		unsigned bits;

		m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
				 _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
		if ((bits = (unsigned)_mm_movemask_epi8(m)) != 0)
			return k + (size_t)__builtin_ctz(bits);
		k += 16;
	}
#else
	(void)s;
	(void)len;
#endif
	return k;
}

/* The end of the directive whose '#' is at i: its last continued line,
 * comments and literals in it skipped. */
static size_t
directive_end(const char *s, size_t len, size_t i)
{
	unsigned fl = 0;
	size_t k = i + 1, n;

	while ((k = directive_plain(s, len, k)) < len && s[k] != '\n') {
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

/* Whether a pp-number starts at s[i]: a digit, or '.' before one. */
static int
number_start(const char *s, size_t len, size_t i)
{
	return (cls[(unsigned char)s[i]] & C_DIGIT) ||
	       (s[i] == '.' && i + 1 < len &&
		(cls[(unsigned char)s[i + 1]] & C_DIGIT));
}

/* The end of the pp-number at s[i]. */
static size_t
number_end(const char *s, size_t len, size_t i)
{
	size_t end;

	for (end = i + 1; end < len; end++) {
		char c = s[end];

		if ((c == '+' || c == '-') &&
		    (s[end - 1] == 'e' || s[end - 1] == 'E' ||
		     s[end - 1] == 'p' || s[end - 1] == 'P'))
			continue;
		if (c == '\'' && end + 1 < len &&
		    id_char((unsigned char)s[end + 1]))
			continue;
		if (!id_char((unsigned char)c) && c != '.')
			break;
	}
	return end;
}

void
tg_clex_init(struct tg_clex *lx, const char *s, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->s = s;
	lx->len = len;
	lx->line = 1;
}

/* In code, outside comments, literals and directives, the tokens are
 * names, numbers and punctuators; skip_code passes over them a byte or
 * a name at a time, and where sixteen bytes can be compared at once
 * (SSE2, every x86-64) it passes over sixteen at a time and stops only
 * at the bytes that change its state or end its run ("special" below).
 * The bytes before a quote are the exception: a name there may be a
 * literal's prefix and a number may hold a digit separator, which only
 * the byte loop tells, from the start of that name or number. */
#ifdef TG_WIDE
/* Whether c can be in a name or a number (a pp-number's bytes but '\''):
 * no token of either starts right after a byte that cannot. */
static int
name_or_number(unsigned char c)
{
	return (cls[c] & (C_START | C_DIGIT)) || c == '.' || c == '+' ||
	       c == '-';
}

/* Of the sixteen bytes v, as bits: those skip_code must look at (a
 * newline, a quote, '#', '/', '\\', a bracket). */
static inline unsigned
specials(__m128i v)
{
	__m128i fe = _mm_and_si128(v, _mm_set1_epi8((char)0xfe)),
		df = _mm_and_si128(v, _mm_set1_epi8((char)0xdf)), m;

	/* "#: fe 0x22; (): fe 0x28; [{: df 0x5b; ]}: df 0x5d */
	m = _mm_or_si128(_mm_cmpeq_epi8(fe, _mm_set1_epi8(0x22)),
			 _mm_cmpeq_epi8(fe, _mm_set1_epi8(0x28)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(df, _mm_set1_epi8(0x5b)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(df, _mm_set1_epi8(0x5d)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
	return (unsigned)_mm_movemask_epi8(m);
}

/* Of the sixteen bytes v, as bits: the blanks (C_SPACE). */
static inline unsigned
blanks(__m128i v)
{
	/* ' ', and 9-13 ('\n' among them, which is special) */
	__m128i c = _mm_sub_epi8(v, _mm_set1_epi8(9));

	return (unsigned)_mm_movemask_epi8(
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
			 _mm_cmpeq_epi8(_mm_min_epu8(c, _mm_set1_epi8(4)), c)));
}

/* Whether bytes [a, b) of the block at blk hold one that is not blank
 * (blank: their mask, found once per block when first needed). */
static inline int
code_in(const char *blk, unsigned *blank, int *have, size_t a, size_t b)
{
	if (a >= b)
		return 0;
	if (!*have) {
		*blank = blanks(_mm_loadu_si128((const __m128i *)blk));
		*have = 1;
	}
	return (~*blank & ((1u << b) - (1u << a))) != 0;
}

/* From i, a token's start on a line that holds code, sixteen bytes or
 * more before len: as skip_code, sixteen bytes at a time, to where it
 * must stop (*stop set: a comment, or a directive's '#'), or to where
 * its byte loop must go on, up to *until: a quote's name or number, or
 * the last bytes of the text, from the start of the name or number
 * before them. */
static size_t
skip_wide(struct tg_clex *lx, size_t i, size_t *until, int *stop)
{
	const char *s = lx->s;
	size_t len = lx->len, from = i, q;

	*stop = 0;
	while (len - i >= 16) {
		unsigned m =
		    specials(_mm_loadu_si128((const __m128i *)(s + i)));
		unsigned blank = 0;
		size_t cur = i, next = i + 16, p, n;
		int have = 0;

		/* from: a token's start; cur: the state is known to there */
		for (; m; m &= m - 1) {
			unsigned char c;

			p = i + (size_t)__builtin_ctz(m);
			if (p < cur)
				continue; /* a splice's bytes */
			c = (unsigned char)s[p];
			if (c == '"' || c == '\'') {
				for (q = p;
				     q > from &&
				     name_or_number((unsigned char)s[q - 1]);
				     q--)
					;
				/* a name or number from before cur is not
				 * blank: the state was right for it */
				if (!lx->code && q > cur &&
				    code_in(s + i, &blank, &have, cur - i,
					    q - i))
					lx->code = 1;
				*until = p + 1;
				return q;
			}
			if (!lx->code &&
			    code_in(s + i, &blank, &have, cur - i, p - i))
				lx->code = 1;
			cur = from = p + 1;
			switch (c) {
			case '\n':
				lx->line++;
				lx->lstart = p + 1;
				lx->code = 0;
				continue;
			case '(':
			case '[':
			case '{':
				lx->depth++;
				break;
			case ')':
			case ']':
			case '}':
				if (lx->depth)
					lx->depth--;
				break;
			case '/':
				if (p + 1 < len &&
				    (s[p + 1] == '/' || s[p + 1] == '*')) {
					*stop = 1;
					return p;
				}
				break;
			case '#':
				if (!lx->code) {
					*stop = 1;
					return p;
				}
				break;
			default: /* '\\' */
				if ((n = splice(s, len, p)) > 0) {
					lx->line++;
					lx->lstart = cur = from = p + n;
					if (cur > next)
						next = cur;
					continue;
				}
				break;
			}
			lx->code = 1;
		}
		if (!lx->code && cur < i + 16 &&
		    code_in(s + i, &blank, &have, cur - i, 16))
			lx->code = 1;
		i = next;
	}
	/* the last bytes by the byte loop, from the start of a name or
	 * number that reaches them (not blank: the code flag holds for
	 * them either way) */
	for (q = i; q > from && name_or_number((unsigned char)s[q - 1]); q--)
		;
	*until = len;
	return q;
}
#endif

/* From lx->pos, past the code tokens (names, numbers, punctuators,
 * error bytes) and blanks to where a comment, literal or directive
 * starts, or to the end: the state as tg_clex_next would leave it
 * after returning those tokens. A name before a quote that is a
 * literal's prefix is left for the caller; a punctuator is passed a
 * byte at a time, which consumes what longest match would, since none
 * holds a byte that starts a comment, literal or directive where a
 * single byte would not ('/' before '/' or '*' is a comment either
 * way). */
static void
skip_code(struct tg_clex *lx)
{
	const char *s = lx->s;
	size_t len = lx->len, i = lx->pos, e, n;
	int raw;
#ifdef TG_WIDE
	size_t until = i;
#endif

	while (i < len) {
		unsigned char c = (unsigned char)s[i];

#ifdef TG_WIDE
		if (lx->code && i >= until && len - i >= 16) {
			int stop;

			i = skip_wide(lx, i, &until, &stop);
			if (stop)
				break;
			continue;
		}
#endif
		if (cls[c] & C_PLAIN) {
			lx->code = 1;
			i++;
		} else if (cls[c] & C_SPACE) {
			i++;
		} else if (c == '\n') {
			lx->line++;
			lx->lstart = ++i;
			lx->code = 0;
		} else if (id_start(c)) {
			/* a literal's prefix too: tg_clex_next sets code
			 * for the literal, and reads it only for a '#' */
			lx->code = 1;
			e = tg_lex_name_end(s, len, i + 1);
			if (e < len && (s[e] == '"' || s[e] == '\'') &&
			    e - i <= 3 && prefix(s, i, e, &raw))
				break;
			i = e;
		} else if (number_start(s, len, i)) {
			lx->code = 1;
			i = number_end(s, len, i);
		} else if (c == '"' || c == '\'' || (c == '#' && !lx->code) ||
			   (c == '/' && i + 1 < len &&
			    (s[i + 1] == '/' || s[i + 1] == '*'))) {
			break;
		} else if (c == '\\' && (n = splice(s, len, i)) > 0) {
			i += n;
			lx->line++;
			lx->lstart = i;
		} else {
			if (c == '(' || c == '[' || c == '{')
				lx->depth++;
			else if ((c == ')' || c == ']' || c == '}') &&
				 lx->depth)
				lx->depth--;
			lx->code = 1;
			i++;
		}
	}
	lx->pos = i;
}

int
tg_clex_next_text(struct tg_clex *lx, struct tg_clex_tok *t)
{
	skip_code(lx);
	return tg_clex_next(lx, t);
}

int
tg_clex_next(struct tg_clex *lx, struct tg_clex_tok *t)
{
	const char *s = lx->s, *nl;
	size_t len = lx->len, i, end, n;
	int raw = 0, multiline = 1;

	t->flags = 0;
	t->pre = 0;
	t->body = t->body_len = 0;
	for (i = lx->pos; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (cls[c] & C_SPACE)
			continue;
		if (c == '\n') {
			lx->line++;
			lx->lstart = i + 1;
			lx->code = 0;
		} else if (c == '\\' && (n = splice(s, len, i)) > 0) {
			i += n - 1;
			lx->line++;
			lx->lstart = i + 1;
		} else {
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
		t->len = 0;
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
	} else if (number_start(s, len, i)) {
		end = number_end(s, len, i);
		t->kind = TG_CLEX_NUMBER;
		multiline = 0;
	} else if (id_start((unsigned char)s[i])) {
		end = tg_lex_name_end(s, len, i + 1);
		if (end < len && (s[end] == '"' || s[end] == '\'') &&
		    end - i <= 3 && prefix(s, i, end, &raw)) {
			end = literal(s, len, i, end, raw, t);
		} else {
			t->kind = TG_CLEX_IDENT;
			multiline = 0;
		}
	} else if ((n = punct_len(s, len, i)) > 0) {
		end = i + n;
		t->kind = TG_CLEX_PUNCT;
		multiline = 0;
		if (n == 1 && (s[i] == '(' || s[i] == '[' || s[i] == '{')) {
			lx->depth++;
		} else if (n == 1 &&
			   (s[i] == ')' || s[i] == ']' || s[i] == '}')) {
			if (lx->depth)
				lx->depth--;
			else
				t->flags |= TG_CLEX_UNBALANCED;
			t->depth = lx->depth;
		}
	} else {
		end = i + 1;
		t->kind = TG_CLEX_ERROR;
		multiline = 0;
	}
	if (t->kind != TG_CLEX_COMMENT)
		lx->code = 1;
	t->len = end - i;
	/* only comments, literals and directives hold newlines */
	while (multiline && (nl = memchr(s + lx->pos, '\n', end - lx->pos))) {
		lx->pos = (size_t)(nl - s) + 1;
		lx->line++;
		lx->lstart = lx->pos;
		if (t->kind == TG_CLEX_DIRECTIVE)
			lx->code = 0;
	}
	lx->pos = end;
	if (t->kind == TG_CLEX_DIRECTIVE)
		lx->code = 0; /* the newline after it starts a fresh line */
	return 1;
}
