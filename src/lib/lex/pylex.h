/* pylex.h - a Python tokenizer: strings, comments, names, brackets
 * SPDX-License-Identifier: MIT
 *
 * A bounded, allocation-free iterator over Python source bytes: the
 * caller keeps a struct tg_pylex and asks for one token at a time, so a
 * file of any size streams through it. It finds where every string
 * form ends (single, double and triple quotes; the prefixes r, u, b, f,
 * t and rb, br, fr, rf, tr, rt in any case; f-strings with replacement
 * fields holding nested strings of any quote, as Python 3.12 reads them,
 * with {{ and }} escapes, format specs and nested fields), comments,
 * backslash continuations, bracket depth and so NEWLINE (the end of a
 * logical line) against NL (a newline inside brackets, or on a line
 * with no code). It makes no INDENT/DEDENT tokens.
 *
 * Positions: off and len in bytes; line 1-based; col 0-based, in bytes
 * from the line's start (as Python's tokenize, but bytes). They are 32
 * bits, so that a token is 24 bytes (arrays of them are written at a
 * token per 6 to 9 bytes of source): an input is read to at most
 * TG_PYLEX_LEN_MAX bytes. Lines end at "\n" or "\r\n"; a lone "\r" is
 * whitespace. A string's line and col are those of its first byte (its
 * prefix).
 *
 * Errors are tokens, never reads past len: an unterminated string is a
 * STRING with TG_PYLEX_UNTERMINATED (a single-quoted one ends before
 * its line's newline, a triple-quoted one at the end of the input); a
 * closing bracket with none open is an OP with TG_PYLEX_UNBALANCED (the
 * depth stays 0); brackets still open at the end give an END token with
 * depth > 0 and TG_PYLEX_UNBALANCED; a byte that starts no token
 * ('$', '?', a backslash not before a newline) is an ERROR token of one
 * byte. Bracket kinds are not matched against each other: "(]" closes.
 *
 * Worst case: every byte is looked at a bounded number of times; nested
 * f-strings recurse at most TG_PYLEX_NEST_MAX levels, deeper ones are
 * read as plain strings and flagged TG_PYLEX_TOO_DEEP.
 */
#ifndef TG_LIB_LEX_PYLEX_H
#define TG_LIB_LEX_PYLEX_H

#include <stddef.h>
#include <stdint.h>

#define TG_PYLEX_NEST_MAX 16
#define TG_PYLEX_LEN_MAX ((size_t)UINT32_MAX)

enum tg_pylex_kind {
	TG_PYLEX_END,	  /* the end of the input; len 0 */
	TG_PYLEX_NAME,	  /* an identifier or keyword (bytes >= 0x80 too) */
	TG_PYLEX_NUMBER,  /* 1, 0x1f, 1_000, 1.5e-3, 2j */
	TG_PYLEX_STRING,  /* a whole literal, prefix and quotes included */
	TG_PYLEX_OP,	  /* an operator or delimiter, longest match */
	TG_PYLEX_COMMENT, /* '#' to the end of the line, no newline */
	TG_PYLEX_NEWLINE, /* ends a logical line; len 0 at the input's end */
	TG_PYLEX_NL,	  /* a newline that ends no logical line */
	TG_PYLEX_ERROR,	  /* one byte that starts no token */
};

/* Flags. */
#define TG_PYLEX_UNTERMINATED 0x01 /* a string without its closing quote */
#define TG_PYLEX_UNBALANCED 0x02   /* see above */
#define TG_PYLEX_RAW 0x04	   /* r prefix */
#define TG_PYLEX_BYTES 0x08	   /* b prefix */
#define TG_PYLEX_FSTRING 0x10	   /* f or t prefix: fields in braces */
#define TG_PYLEX_TRIPLE 0x20	   /* ''' or """ */
#define TG_PYLEX_TOO_DEEP 0x40	   /* nested past TG_PYLEX_NEST_MAX */

struct tg_pylex_tok {
	uint32_t off, len;
	uint32_t line, col;
	uint32_t depth; /* brackets open before the token (a closer: after) */
	unsigned char kind;  /* enum tg_pylex_kind */
	unsigned char flags; /* TG_PYLEX_UNTERMINATED... */
	/* Strings: the prefix's length and the quote's (1 or 3); the body
	 * is off + pre + quote up to off + len - quote (- 0 when
	 * unterminated). */
	unsigned char pre, quote;
};

struct tg_pylex {
	const char *s;
	size_t len, pos;
	size_t line, lstart; /* the current line and its first byte */
	size_t depth;
	int code;  /* the logical line holds a token that is code */
	int ended; /* END was returned */
	/* the tokens returned so far that are lexical errors: ERROR, or
	 * flagged UNTERMINATED, UNBALANCED or TOO_DEEP */
	size_t errors;
};

/* Lex s[0..len), at most TG_PYLEX_LEN_MAX bytes of it (END there). */
void tg_pylex_init(struct tg_pylex *lx, const char *s, size_t len);

/* The next token in *tok: 1, or 0 once END has been returned (tok then
 * holds END again). */
int tg_pylex_next(struct tg_pylex *lx, struct tg_pylex_tok *tok);

/* The tokens tg_pylex_next returns, read on in one call: the names,
 * numbers, strings and operators appended to out[*n..cap) (*n counts
 * them), NL tokens dropped, until the first token of another kind
 * (NEWLINE, COMMENT, ERROR, END), which goes to *stop: 1. 0 when out
 * is full first (the next call goes on where this one stopped), -1
 * once END has been returned. */
int tg_pylex_line(struct tg_pylex *lx, struct tg_pylex_tok *out, size_t cap,
		  size_t *n, struct tg_pylex_tok *stop);

/* The tokens tg_pylex_next returns, every kind, appended to
 * out[*n..cap) in one call (*n counts them) up to and with END: 1 once
 * END has been appended (by this call or one before: no token more), 0
 * when out is full first (the next call goes on where this one
 * stopped). */
int tg_pylex_fill(struct tg_pylex *lx, struct tg_pylex_tok *out, size_t cap,
		  size_t *n);

/* Whether a string literal (prefix included) starts at s[at]: the
 * prefix is the whole identifier there. 1 with *tok filled (line and
 * col 0, depth 0), else 0. For a caller that already knows it is in
 * code. */
int tg_pylex_string(const char *s, size_t len, size_t at,
		    struct tg_pylex_tok *tok);

#endif
