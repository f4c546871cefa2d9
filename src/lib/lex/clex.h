/* clex.h - a C/C++ tokenizer: comments, literals, directives, names
 * SPDX-License-Identifier: MIT
 *
 * A bounded, allocation-free iterator over C or C++ source bytes, in the
 * shape of pylex.h: a struct tg_clex the caller keeps and one token per
 * tg_clex_next. Tokens: comments ("//" to the end of the line, going on
 * over backslash-continued lines; "/" "*" to "*" "/"), string and char
 * literals with their prefixes (L, u, U, u8, and R for raw strings
 * R"delim( ... )delim", the delimiter at most 16 bytes), a
 * preprocessor directive as one token from its '#' (the first thing on
 * its line but whitespace and comments) to the end of its last continued
 * line, identifiers (bytes >= 0x80 too), numbers (pp-numbers, with
 * digit separators 1'000 and exponent signs), punctuators (longest
 * match), and errors. Backslash-newline continuations outside
 * directives and comments are whitespace.
 *
 * Positions: off and len in bytes, line 1-based, col 0-based in bytes;
 * lines end at "\n" ("\r\n" counts once). depth: the (, [ and { open
 * before the token (a closer: after it).
 *
 * Errors are tokens: an unterminated literal or comment has
 * TG_CLEX_UNTERMINATED (a short literal ends before its line's newline,
 * a raw string or a comment at the end of the input); a raw string whose
 * delimiter is bad (over 16 bytes, or a space, '\\' or ')' in it) is the
 * prefix and quote alone with TG_CLEX_BAD_RAW; a closer with nothing
 * open is flagged TG_CLEX_UNBALANCED.
 */
#ifndef TG_LIB_LEX_CLEX_H
#define TG_LIB_LEX_CLEX_H

#include <stddef.h>

enum tg_clex_kind {
	TG_CLEX_END,
	TG_CLEX_IDENT,
	TG_CLEX_NUMBER,
	TG_CLEX_STRING, /* "..." and raw strings, prefix included */
	TG_CLEX_CHAR,	/* '...', prefix included */
	TG_CLEX_PUNCT,
	TG_CLEX_COMMENT,
	TG_CLEX_DIRECTIVE,
	TG_CLEX_ERROR, /* one byte that starts no token */
};

#define TG_CLEX_UNTERMINATED 0x01
#define TG_CLEX_UNBALANCED 0x02
#define TG_CLEX_RAW 0x04
#define TG_CLEX_BAD_RAW 0x08

struct tg_clex_tok {
	enum tg_clex_kind kind;
	unsigned flags;
	size_t off, len;
	size_t line, col;
	size_t depth;
	/* Literals: the prefix's length; the body starts after the quote
	 * (raw: after the '(') and ends before the closing quote (raw:
	 * before ')delim"'), body and body_len. */
	unsigned char pre;
	size_t body, body_len;
};

struct tg_clex {
	const char *s;
	size_t len, pos, line, lstart, depth;
	int code; /* the line holds a token other than a comment */
	int ended;
};

void tg_clex_init(struct tg_clex *lx, const char *s, size_t len);

/* The next token: 1, or 0 once END was returned. */
int tg_clex_next(struct tg_clex *lx, struct tg_clex_tok *tok);

/* The next comment, string or char literal, directive or END: the
 * tokens of those kinds tg_clex_next would return, the same in every
 * field, the others passed over without being made (for a reader of
 * what is not code, several times faster). The two may be mixed on
 * one struct tg_clex. */
int tg_clex_next_text(struct tg_clex *lx, struct tg_clex_tok *tok);

#endif
