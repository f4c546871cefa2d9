/* fuzz_cxx.c - libFuzzer harness for C and C++ source: the tokenizer and
 * discover's C++ harvester
 * SPDX-License-Identifier: MIT
 *
 * The input is a header. The tokenizer must cover it in order: each
 * token inside the text, starting where the last one ended or later,
 * every call but END moving on, END exactly once, a literal's body
 * inside its token; the reader of what is not code
 * (tg_clex_next_text) returns those same tokens (clex_agree.h). Then
 * the harvester reads it as torch/include/fuzz.h. Each answers or fails with a message; none
 * crashes, leaks or reads past the text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clex_agree.h"
#include "lib/discover/discover.h"
#include "lib/lex/clex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
lex(const char *s, size_t n)
{
	struct tg_clex lx;
	struct tg_clex_tok t;
	size_t end = 0, count = 0;

	tg_clex_init(&lx, s, n);
	while (tg_clex_next(&lx, &t)) {
		if (t.off < end || t.off + t.len > n || t.line == 0)
			__builtin_trap();
		if ((t.kind == TG_CLEX_STRING || t.kind == TG_CLEX_CHAR) &&
		    (t.body < t.off || t.body + t.body_len > t.off + t.len))
			__builtin_trap();
		end = t.off + t.len;
		if (t.kind == TG_CLEX_END)
			break;
		if (t.len == 0 || ++count > n)
			__builtin_trap(); /* only END is empty */
	}
	if (t.kind != TG_CLEX_END || tg_clex_next(&lx, &t) != 0)
		__builtin_trap();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tg_decls d = TG_DECLS_INIT;
	struct tg_err err = TG_ERR_INIT;
	char *s = malloc(size ? size : 1);

	if (!s)
		return 0;
	/* an exactly sized copy: ASan sees a read past the end */
	memcpy(s, data, size);
	lex(s, size);
	if (!clex_agree(s, size))
		__builtin_trap();
	if (tg_discover_text(&d, s, size, TG_LANG_CXX, NULL,
			     "torch/include/fuzz.h", &err) != 0 &&
	    !err.msg[0])
		__builtin_trap();
	tg_discover_release(&d);
	free(s);
	return 0;
}
