/* pylex.c - a Python tokenizer: strings, comments, names, brackets
 * SPDX-License-Identifier: MIT
 *
 * The state is the position, the line, the bracket depth and whether
 * the logical line holds code (and a count of the tokens that were
 * lexical errors, so that a caller that read a buffer whole knows how
 * many it holds); everything else is found from the bytes
 * at the position, so a token never needs memory of its own. A string
 * is read whole by read_str, which for an f-string reads its fields
 * with read_field: code up to the '}' that closes the field (nested
 * brackets and strings skipped, '#' comments to the line's end), then
 * an optional format spec that may hold fields of its own. Each level
 * of nesting is one C call frame, at most TG_PYLEX_NEST_MAX of them.
 * Invariant: every index stays below len; a function returns where its
 * construct ends, never past len.
 */
#include "lib/lex/pylex.h"
#include "lib/lex/name_end.h"
#include "lib/util/wide.h"

#include <stdint.h>
#include <string.h>

/* Byte classes (the table is these rules, written out). */
#define C_START 1 /* starts a name: letters, '_', bytes >= 0x80 */
#define C_DIGIT 2
#define C_SPACE 4 /* ' ', '\t', '\f' */
#define C_GAP 8	  /* may start what lies between tokens: C_SPACE, '\r', '\\' */

static const unsigned char cls[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0,	12, 0, 0, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 12, 0,  0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2,	2,  0, 0, 0,  0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1,	1,  1, 1, 1,  1, 1, 1, 1, 1, 1, 0, 8, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1,	1,  1, 1, 1,  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 0, 0, 0, 0, 0, 1,	1,  1, 1, 1,  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1,	1,  1, 1, 1,  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1,	1,  1, 1, 1,  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1,	1,  1, 1, 1,  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1,	1,  1, 1, 1,  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1,	1,  1, 1, 1,  1, 1, 1,
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

static int
is_digit(unsigned char c)
{
	return cls[c] & C_DIGIT;
}

/* The flags of the string prefix s[a..e), or -1 when it is none. */
static int
prefix_flags(const char *s, size_t a, size_t e)
{
	int fl = 0, r = 0, other = 0;
	size_t k;

	if (e - a > 2)
		return -1;
	for (k = a; k < e; k++) {
		switch (s[k]) {
		case 'r':
		case 'R':
			if (r++)
				return -1;
			fl |= TG_PYLEX_RAW;
			break;
		case 'b':
		case 'B':
			if (other++)
				return -1;
			fl |= TG_PYLEX_BYTES;
			break;
		case 'f':
		case 'F':
		case 't':
		case 'T':
			if (other++)
				return -1;
			fl |= TG_PYLEX_FSTRING;
			break;
		case 'u':
		case 'U':
			if (other++ || e - a > 1)
				return -1;
			break;
		default:
			return -1;
		}
	}
	return fl;
}

static size_t read_str(const char *s, size_t len, size_t q, int fl, int level,
		       unsigned *out);

/* The bytes a string's body stops at, by quote (0 '\'', 1 '"'),
 * whether it is an f-string and whether it is triple-quoted: its quote,
 * '\\', '\n' but in a triple-quoted one, and for an f-string '{' and
 * '}'. All others are skipped in a tight loop. */
#define STOP(q, f, t)                                                          \
	{                                                                      \
		['\n'] = !(t), ['\\'] = 1, [q] = 1, ['{'] = (f), ['}'] = (f)   \
	}
static const unsigned char str_stop[2][2][2][256] = {
    {{STOP('\'', 0, 0), STOP('\'', 0, 1)},
     {STOP('\'', 1, 0), STOP('\'', 1, 1)}},
    {{STOP('"', 0, 0), STOP('"', 0, 1)}, {STOP('"', 1, 0), STOP('"', 1, 1)}},
};
#undef STOP

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Whether some byte of v is c (the exact word test for a zero byte of
 * v ^ c...c). */
static inline int
has_byte(uint64_t v, unsigned char c)
{
	uint64_t x = v ^ (ONES * c);

	return ((x - ONES) & ~x & HIGHS) != 0;
}

/* From s[k], past the bytes a string's body does not stop at (str_stop:
 * its quote, '\\', '\n' unless triple, and '{', '}' in an f-string),
 * sixteen at a time where TG_WIDE, then in whole words of eight: where
 * the byte loop goes on. */
static size_t
skip_plain(const char *s, size_t len, size_t k, char qc, unsigned fstring,
	   int triple)
{
	uint64_t v;

#ifdef TG_WIDE
	/* the quote stands for '\n' and '{' where they are not looked
	 * for; '}' needs nothing here (the byte loop passes "}}" and a
	 * lone '}' over alike) */
	__m128i q = _mm_set1_epi8(qc), b = _mm_set1_epi8('\\'),
		n = _mm_set1_epi8(triple ? qc : '\n'),
		o = _mm_set1_epi8(fstring ? '{' : qc);

	while (len - k >= 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(s + k)), m;
		unsigned bits;

		m = _mm_or_si128(_mm_cmpeq_epi8(w, q), _mm_cmpeq_epi8(w, b));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(w, n));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(w, o));
		if ((bits = (unsigned)_mm_movemask_epi8(m)) != 0)
			return k + (size_t)__builtin_ctz(bits);
		k += 16;
	}
#endif
	while (len - k >= 8) {
		memcpy(&v, s + k, 8);
		if (has_byte(v, (unsigned char)qc) || has_byte(v, '\\') ||
		    (!triple && has_byte(v, '\n')) ||
		    (fstring && (has_byte(v, '{') || has_byte(v, '}'))))
			break;
		k += 8;
	}
	return k;
}

/* The field of an f-string opening at s[i] ('{'): the index after its
 * closing '}', or, with *bad set, where the string ends unterminated (a
 * newline in a single-quoted string, an unterminated nested string, the
 * end of the input). A quote in a field starts a nested string (PEP
 * 701), whatever the outer string's quote. */
static size_t
read_field(const char *s, size_t len, size_t i, int triple, int level, int *bad)
{
	size_t d = 0;
	unsigned fl;

	for (i++; i < len;) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n' && !triple) {
			*bad = 1;
			return i;
		}
		if (c == '\'' || c == '"') {
			i = read_str(s, len, i, 0, level + 1, &fl);
			if (fl & TG_PYLEX_UNTERMINATED) {
				*bad = 1;
				return i;
			}
			continue;
		}
		if (id_start(c)) {
			size_t a = i;
			int pf;

			while (i < len && id_char((unsigned char)s[i]))
				i++;
			if (i < len && (s[i] == '\'' || s[i] == '"') &&
			    (pf = prefix_flags(s, a, i)) >= 0) {
				i = read_str(s, len, i, pf, level + 1, &fl);
				if (fl & TG_PYLEX_UNTERMINATED) {
					*bad = 1;
					return i;
				}
			}
			continue;
		}
		if (c == '#') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		if (c == '\\') {
			if (i + 2 < len && s[i + 1] == '\r' && s[i + 2] == '\n')
				i += 3; /* a continuation at "\r\n" */
			else
				i += i + 1 < len ? 2 : 1;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			d++;
		} else if ((c == ')' || c == ']') && d) {
			d--;
		} else if (c == '}') {
			if (d == 0)
				return i + 1;
			d--;
		} else if (c == ':' && d == 0) {
			/* The format spec: text, with fields of its own. */
			for (i++; i < len; i++) {
				if (s[i] == '\n' && !triple) {
					*bad = 1;
					return i;
				}
				if (s[i] == '}')
					return i + 1;
				if (s[i] == '{' &&
				    level + 1 < TG_PYLEX_NEST_MAX) {
					i = read_field(s, len, i, triple,
						       level + 1, bad);
					if (*bad)
						return i;
					i--;
				}
			}
			break;
		}
		i++;
	}
	*bad = 1;
	return len;
}

/* The end of the string whose opening quote is at s[q], with prefix
 * flags fl; *out gets the flags of the token. */
static size_t
read_str(const char *s, size_t len, size_t q, int fl, int level, unsigned *out)
{
	char qc = s[q];
	int triple = q + 2 < len && s[q + 1] == qc && s[q + 2] == qc, bad = 0;
	size_t k = q + (triple ? 3 : 1);

	*out = (unsigned)fl | (triple ? TG_PYLEX_TRIPLE : 0);
	if ((fl & TG_PYLEX_FSTRING) && level >= TG_PYLEX_NEST_MAX) {
		fl &= ~TG_PYLEX_FSTRING;
		*out |= TG_PYLEX_TOO_DEEP;
	}
	while (k < len) {
		const unsigned char *stop =
		    str_stop[qc == '"'][(fl & TG_PYLEX_FSTRING) != 0][triple];
		char c;

		k = skip_plain(s, len, k, qc, fl & TG_PYLEX_FSTRING, triple);
		while (k < len && !stop[(unsigned char)s[k]])
			k++;
		if (k >= len)
			break;
		c = s[k];
		if (c == '\\') {
			if (k + 1 < len && (fl & TG_PYLEX_FSTRING) &&
			    (s[k + 1] == '{' || s[k + 1] == '}')) {
				k++;
				continue;
			}
			if (k + 2 < len && (fl & TG_PYLEX_FSTRING) &&
			    !(fl & TG_PYLEX_RAW) && s[k + 1] == 'N' &&
			    s[k + 2] == '{') {
				/* \N{NAME}: braces of the escape, no field */
				for (k += 3; k < len && s[k] != '}' &&
					     s[k] != qc && s[k] != '\n';
				     k++)
					;
				if (k < len && s[k] == '}')
					k++;
				continue;
			}
			/* an escaped byte, or a line continuation ("\\\r\n"
			 * too: a line ends at "\r\n") */
			k += k + 2 < len && s[k + 1] == '\r' && s[k + 2] == '\n'
				 ? 3
				 : 2;
			continue;
		}
		if (c == '\n' && !triple)
			break;
		if ((fl & TG_PYLEX_FSTRING) && (c == '{' || c == '}')) {
			if (k + 1 < len && s[k + 1] == c) {
				k += 2; /* {{ or }} */
				continue;
			}
			if (c == '}') {
				k++;
				continue;
			}
			k = read_field(s, len, k, triple, level, &bad);
			if (bad)
				break;
			continue;
		}
		if (c == qc && (!triple || (k + 2 < len && s[k + 1] == qc &&
					    s[k + 2] == qc)))
			return k + (triple ? 3 : 1);
		k++;
	}
	*out |= TG_PYLEX_UNTERMINATED;
	return k < len ? k : len;
}

int
tg_pylex_string(const char *s, size_t len, size_t at, struct tg_pylex_tok *t)
{
	size_t i = at, end;
	int pf = 0;
	unsigned fl;

	if (len > TG_PYLEX_LEN_MAX)
		len = TG_PYLEX_LEN_MAX;
	if (at >= len)
		return 0;
	while (i < len && id_char((unsigned char)s[i]))
		i++;
	if (i >= len || (s[i] != '\'' && s[i] != '"'))
		return 0;
	if (i > at && (pf = prefix_flags(s, at, i)) < 0)
		return 0;
	end = read_str(s, len, i, pf, 0, &fl);
	memset(t, 0, sizeof(*t));
	t->kind = TG_PYLEX_STRING;
	t->flags = fl;
	t->off = at;
	t->len = end - at;
	t->pre = (unsigned char)(i - at);
	t->quote = (fl & TG_PYLEX_TRIPLE) ? 3 : 1;
	return 1;
}

void
tg_pylex_init(struct tg_pylex *lx, const char *s, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->s = s;
	lx->len = len < TG_PYLEX_LEN_MAX ? len : TG_PYLEX_LEN_MAX;
	lx->line = 1;
}

/* The length of the operator at s[i] (the longest that matches), 0
 * when none starts there. */
static size_t
op_len(const char *s, size_t len, size_t i)
{
	char d = i + 1 < len ? s[i + 1] : '\0',
	     e = i + 2 < len ? s[i + 2] : '\0';

	switch (s[i]) {
	case '*':
	case '/':
	case '>':
	case '<':
		if (d == s[i])
			return e == '=' ? 3 : 2;
		return d == '=' ? 2 : 1;
	case '.':
		return d == '.' && e == '.' ? 3 : 1;
	case '-':
		return d == '>' || d == '=' ? 2 : 1;
	case '=':
	case '!':
	case ':':
	case '+':
	case '%':
	case '&':
	case '|':
	case '^':
	case '@':
		return d == '=' ? 2 : 1;
	case '~':
	case '(':
	case ')':
	case '[':
	case ']':
	case '{':
	case '}':
	case ',':
	case ';':
		return 1;
	default:
		return 0;
	}
}

/* The end of the number at s[i]. */
static size_t
number_end(const char *s, size_t len, size_t i)
{
	int hex =
	    i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');

	while (i < len) {
		char c = s[i];

		if (id_char((unsigned char)c) || c == '.') {
			i++;
			if (!hex && (c == 'e' || c == 'E') && i < len &&
			    (s[i] == '+' || s[i] == '-') && i + 1 < len &&
			    is_digit((unsigned char)s[i + 1]))
				i++;
			continue;
		}
		break;
	}
	return i;
}

/* The newlines in s[0..n), eight bytes at a time: an exact test for
 * the zero bytes of a word xor "\n\n..." sets their high bits, which a
 * multiply by ONES sums into the top byte (at most 8: no carry out), a
 * count without a popcount instruction (x86-64's baseline has none, and
 * the library call cost more than the rest of the loop). */
static size_t
newlines(const char *s, size_t n)
{
	const uint64_t lo7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
	size_t k = 0, c = 0;

#ifdef TG_WIDE
	/* sixteen at a time: each newline a 1, summed per eight bytes */
	__m128i acc = _mm_setzero_si128();
	uint64_t sum[2];

	for (; n - k >= 16; k += 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(s + k));

		acc = _mm_add_epi64(
		    acc, _mm_sad_epu8(_mm_and_si128(_mm_cmpeq_epi8(
							w, _mm_set1_epi8('\n')),
						    _mm_set1_epi8(1)),
				      _mm_setzero_si128()));
	}
	_mm_storeu_si128((__m128i *)sum, acc);
	c = (size_t)(sum[0] + sum[1]);
#endif
	for (; n - k >= 8; k += 8) {
		uint64_t v, x;

		memcpy(&v, s + k, 8);
		x = v ^ (ONES * '\n');
		c += (size_t)((((~(((x & lo7) + lo7) | x) & HIGHS) >> 7) *
			       ONES) >>
			      56);
	}
	for (; k < n; k++)
		c += s[k] == '\n';
	return c;
}

/* Move to end, counting lines: the last newline before it starts the
 * line, and the newlines before that are counted. */
static void
advance(struct tg_pylex *lx, size_t end)
{
	const char *nl = memrchr(lx->s + lx->pos, '\n', end - lx->pos);

	if (nl) {
		lx->line +=
		    newlines(lx->s + lx->pos, (size_t)(nl - lx->s) - lx->pos) +
		    1;
		lx->lstart = (size_t)(nl - lx->s) + 1;
	}
	lx->pos = end;
}

#if defined(__GNUC__)
#define HOT_INLINE static inline __attribute__((always_inline))
#else
#define HOT_INLINE static inline
#endif

/* The token t that ends at end and is no string, written whole. */
HOT_INLINE void
put(struct tg_pylex_tok *t, const struct tg_pylex *lx, size_t i, size_t end,
    unsigned kind, unsigned flags, size_t depth)
{
	t->off = (uint32_t)i;
	t->len = (uint32_t)(end - i);
	t->line = (uint32_t)lx->line;
	t->col = (uint32_t)(i - lx->lstart);
	t->depth = (uint32_t)depth;
	t->kind = (unsigned char)kind;
	t->flags = (unsigned char)flags;
	t->pre = t->quote = 0;
}

/* The body of tg_pylex_next, inlined into it and into tg_pylex_line and
 * tg_pylex_fill. After the blanks, a token is told by its first byte: a
 * name's first (the most common token), else one switch; each kind's
 * case writes it whole, and only the kinds that can be lexical errors
 * count them. */
HOT_INLINE int
next_tok(struct tg_pylex *lx, struct tg_pylex_tok *t)
{
	const char *s = lx->s;
	size_t len = lx->len, i = lx->pos, end;
	unsigned char c;

	/* blanks, lone CRs and backslash continuations between tokens
	 * (most tokens follow none) */
	for (; i < len && (cls[(unsigned char)s[i]] & C_GAP);) {
		/* an indentation eight spaces at a time */
		if (i == lx->lstart)
			while (len - i >= 8 &&
			       memcmp(s + i, "        ", 8) == 0)
				i += 8;
		while (i < len && (cls[(unsigned char)s[i]] & C_SPACE))
			i++;
		if (i >= len)
			break;
		if (s[i] == '\r' && !(i + 1 < len && s[i + 1] == '\n')) {
			i++;
			continue;
		}
		if (s[i] == '\\' && i + 1 < len &&
		    (s[i + 1] == '\n' ||
		     (s[i + 1] == '\r' && i + 2 < len && s[i + 2] == '\n'))) {
			lx->pos = i;
			advance(lx, i + (s[i + 1] == '\n' ? 2 : 3));
			i = lx->pos;
			continue;
		}
		break;
	}
	lx->pos = i;
	if (i >= len) {
		if (lx->code && !lx->ended && lx->depth == 0) {
			put(t, lx, i, i, TG_PYLEX_NEWLINE, 0, 0);
			lx->code = 0;
			return 1;
		}
		put(t, lx, i, i, TG_PYLEX_END,
		    lx->depth ? TG_PYLEX_UNBALANCED : 0, lx->depth);
		if (lx->ended)
			return 0;
		lx->ended = 1;
		lx->errors += lx->depth != 0;
		return 1;
	}
	c = (unsigned char)s[i];
	if (id_start(c)) {
		end = tg_lex_name_end(s, len, i + 1);
		lx->code = 1;
		if (!(end < len && (s[end] == '\'' || s[end] == '"') &&
		      tg_pylex_string(s, len, i, t))) {
			put(t, lx, i, end, TG_PYLEX_NAME, 0, lx->depth);
			lx->pos = end;
			return 1;
		}
		goto string; /* a prefixed string */
	}
	switch (c) {
	case '\n':
	case '\r': /* "\r\n": a lone CR is a blank */
		end = i + (c == '\r' ? 2 : 1);
		if (lx->depth == 0 && lx->code) {
			put(t, lx, i, end, TG_PYLEX_NEWLINE, 0, 0);
			lx->code = 0;
		} else {
			put(t, lx, i, end, TG_PYLEX_NL, 0, lx->depth);
		}
		lx->line++;
		lx->lstart = lx->pos = end;
		return 1;
	case '#': {
		const char *nl = memchr(s + i, '\n', len - i);

		end = nl ? (size_t)(nl - s) : len;
		if (end > i && end < len && s[end - 1] == '\r')
			end--;
		put(t, lx, i, end, TG_PYLEX_COMMENT, 0, lx->depth);
		lx->pos = end;
		return 1;
	}
	case '\'':
	case '"':
		tg_pylex_string(s, len, i, t);
		lx->code = 1;
		goto string;
	case ',': /* the commonest operators, without op_len */
		end = 1;
		goto op;
	case '.':
		/* an operator, unless a digit follows: a number */
		if (!(i + 1 < len && is_digit((unsigned char)s[i + 1]))) {
			end = i + 2 < len && s[i + 1] == '.' && s[i + 2] == '.'
				  ? 3
				  : 1;
			goto op;
		}
		/* fall through */
	case '0':
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
	case '6':
	case '7':
	case '8':
	case '9':
		end = number_end(s, len, i);
		put(t, lx, i, end, TG_PYLEX_NUMBER, 0, lx->depth);
		lx->code = 1;
		lx->pos = end;
		return 1;
	case '(':
	case '[':
	case '{':
		put(t, lx, i, i + 1, TG_PYLEX_OP, 0, lx->depth);
		lx->depth++;
		lx->code = 1;
		lx->pos = i + 1;
		return 1;
	case ')':
	case ']':
	case '}':
		if (lx->depth) {
			lx->depth--;
			put(t, lx, i, i + 1, TG_PYLEX_OP, 0, lx->depth);
		} else {
			put(t, lx, i, i + 1, TG_PYLEX_OP, TG_PYLEX_UNBALANCED,
			    0);
			lx->errors++;
		}
		lx->code = 1;
		lx->pos = i + 1;
		return 1;
	default:
		break;
	}
	/* an operator, else a byte that starts no token */
	end = op_len(s, len, i);
op:
	if (end) {
		put(t, lx, i, i + end, TG_PYLEX_OP, 0, lx->depth);
		end += i;
	} else {
		end = i + 1;
		put(t, lx, i, end, TG_PYLEX_ERROR, 0, lx->depth);
		lx->errors++;
	}
	lx->code = 1;
	lx->pos = end;
	return 1;
string:
	/* tg_pylex_string wrote all but the position in the text */
	t->line = (uint32_t)lx->line;
	t->col = (uint32_t)(i - lx->lstart);
	t->depth = (uint32_t)lx->depth;
	if (t->flags & (TG_PYLEX_UNTERMINATED | TG_PYLEX_TOO_DEEP))
		lx->errors++;
	advance(lx, i + t->len);
	return 1;
}

int
tg_pylex_next(struct tg_pylex *lx, struct tg_pylex_tok *t)
{
	return next_tok(lx, t);
}

int
tg_pylex_fill(struct tg_pylex *lx, struct tg_pylex_tok *out, size_t cap,
	      size_t *n)
{
	size_t k = *n; /* counted here: a token's bytes may alias *n */
	int rc = 0;

	while (k < cap && !rc)
		rc = !next_tok(lx, &out[k]) || out[k++].kind == TG_PYLEX_END;
	*n = k;
	return rc;
}

int
tg_pylex_line(struct tg_pylex *lx, struct tg_pylex_tok *out, size_t cap,
	      size_t *n, struct tg_pylex_tok *stop)
{
	size_t k = *n; /* counted here: a token's bytes may alias *n */
	int rc = 0;
	/* and the state in a copy, which no token's byte can alias */
	struct tg_pylex l = *lx;

	while (k < cap) {
		struct tg_pylex_tok *t = &out[k];

		if (!next_tok(&l, t)) {
			rc = -1;
			break;
		}
		switch (t->kind) {
		case TG_PYLEX_NAME:
		case TG_PYLEX_NUMBER:
		case TG_PYLEX_STRING:
		case TG_PYLEX_OP:
			k++;
			continue;
		case TG_PYLEX_NL:
			continue;
		default:
			*stop = *t;
			rc = 1;
			break;
		}
		break;
	}
	*lx = l;
	*n = k;
	return rc;
}
