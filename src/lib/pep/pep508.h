/* pep508_lex.h - tokens of PEP 508 requirements and markers
 * SPDX-License-Identifier: MIT
 *
 * The context-sensitive tokenizer of pypa/packaging's _tokenizer.py: the
 * parser asks whether the next token is of a given kind at the current
 * position, and the lexer answers by matching only that kind there.
 */
#ifndef TG_LIB_PEP_PEP508_H
#define TG_LIB_PEP_PEP508_H

#include <stddef.h>

#include "lib/util/err.h"

enum tg_tok {
	TG_TOK_LPAREN,
	TG_TOK_RPAREN,
	TG_TOK_LBRACKET,
	TG_TOK_RBRACKET,
	TG_TOK_SEMICOLON,
	TG_TOK_COMMA,
	TG_TOK_QUOTED,
	TG_TOK_OP,
	TG_TOK_BOOLOP,
	TG_TOK_IN,
	TG_TOK_NOT,
	TG_TOK_VARIABLE,
	TG_TOK_SPECIFIER,
	TG_TOK_AT,
	TG_TOK_URL,
	TG_TOK_IDENTIFIER,
	TG_TOK_PREFIX_TRAIL, /* ".*" */
	TG_TOK_LOCAL_TRAIL,  /* "+local" */
	TG_TOK_WS,
	TG_TOK_END,
};

struct tg_pep508_lexer {
	const char *s;
	size_t len;
	size_t pos;
};

/* Length of a token of kind k at the current position, or 0 (END: 1 at
 * the end of input, else 0). */
size_t tg_pep508_peek(const struct tg_pep508_lexer *lx, enum tg_tok k);
/* If a token of kind k is next, consume it, store its span, return 1. */
int tg_pep508_take(struct tg_pep508_lexer *lx, enum tg_tok k, size_t *start,
		   size_t *len);
/* Consume whitespace ([ \t]+) if any. */
void tg_pep508_ws(struct tg_pep508_lexer *lx);

#endif
