/* fuzz_python.c - libFuzzer harness for Python source: the tokenizer and
 * discover's Python harvester
 * SPDX-License-Identifier: MIT
 *
 * The input is a .py file. The tokenizer must cover it in order: each
 * token inside the text, starting where the last one ended or later,
 * every call but END moving on, END exactly once, a string's body inside
 * its token. Then the harvester reads it as torch/fuzz.py, and the
 * replacement finder reads it as a deprecation message. Each answers or
 * fails with a message; none crashes, leaks or reads past the text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/discover/discover.h"
#include "lib/lex/pylex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
same(const struct tg_pylex_tok *p, const struct tg_pylex_tok *q)
{
	return p->kind == q->kind && p->flags == q->flags && p->off == q->off &&
	       p->len == q->len && p->line == q->line && p->col == q->col &&
	       p->depth == q->depth && p->pre == q->pre && p->quote == q->quote;
}

/* tg_pylex_line returns tg_pylex_next's tokens but NL, the same in
 * every field, whether its array fills up (room 3) or not: the two
 * streams are read whole and compared. */
static void
lines(const char *s, size_t n)
{
	struct tg_pylex a, b;
	struct tg_pylex_tok t, *x = malloc((2 * n + 32) * sizeof(*x)), *y;
	size_t nx = 0, ny = 0, na, k, room;
	int got;

	y = malloc((2 * n + 32) * sizeof(*y));
	if (!x || !y)
		goto out;
	tg_pylex_init(&a, s, n);
	while (tg_pylex_next(&a, &t) && nx < 2 * n + 32)
		if (t.kind != TG_PYLEX_NL)
			x[nx++] = t;
	for (room = 3; room <= 64; room += 61) {
		tg_pylex_init(&b, s, n);
		ny = 0;
		for (;;) {
			struct tg_pylex_tok buf[64];

			na = 0;
			got = tg_pylex_line(&b, buf, room, &na, &t);
			if (na > room || (got == 0 && na != room) ||
			    ny + na + 1 > 2 * n + 32)
				__builtin_trap();
			for (k = 0; k < na; k++)
				y[ny++] = buf[k];
			if (got < 0)
				break;
			if (got > 0)
				y[ny++] = t;
		}
		if (nx != ny)
			__builtin_trap();
		for (k = 0; k < nx; k++)
			if (!same(&x[k], &y[k]))
				__builtin_trap();
	}
out:
	free(x);
	free(y);
}

static void
lex(const char *s, size_t n)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;
	size_t end = 0, count = 0, at;

	tg_pylex_init(&lx, s, n);
	while (tg_pylex_next(&lx, &t)) {
		if (t.off < end || t.off + t.len > n || t.line == 0)
			__builtin_trap();
		if (t.kind == TG_PYLEX_STRING &&
		    (size_t)t.pre + t.quote > t.len)
			__builtin_trap();
		end = t.off + t.len;
		if (t.kind == TG_PYLEX_END)
			break;
		/* zero-length tokens (NEWLINE, DEDENT-like ends) are few */
		if (++count > 2 * n + 16)
			__builtin_trap();
	}
	if (t.kind != TG_PYLEX_END || tg_pylex_next(&lx, &t) != 0)
		__builtin_trap();
	lines(s, n);
	for (at = 0; at < n && at < 64; at++)
		if (tg_pylex_string(s, n, at, &t) &&
		    (t.off != at || t.off + t.len > n))
			__builtin_trap();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tg_decls d = TG_DECLS_INIT;
	struct tg_err err = TG_ERR_INIT;
	char *s = malloc(size ? size : 1), *msg, *repl = NULL;

	if (!s)
		return 0;
	/* an exactly sized copy: ASan sees a read past the end */
	memcpy(s, data, size);
	lex(s, size);
	if (tg_discover_text(&d, s, size, TG_LANG_PYTHON, "torch.fuzz",
			     "torch/fuzz.py", &err) != 0 &&
	    !err.msg[0])
		__builtin_trap();
	tg_discover_release(&d);
	free(s);
	msg = malloc(size + 1);
	if (!msg)
		return 0;
	memcpy(msg, data, size);
	msg[size] = '\0';
	(void)tg_discover_replacement(msg, &repl, NULL);
	free(repl);
	free(msg);
	return 0;
}
