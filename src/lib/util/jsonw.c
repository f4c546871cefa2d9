/* jsonw.c - the JSON writer every command's output goes through
 * SPDX-License-Identifier: MIT
 *
 * The writer keeps, per open container, whether it is flow and how many
 * members it has, which is all the layout needs: a separator before each
 * member, and for a block a newline and indentation. Output depends on
 * the calls only, so it is deterministic.
 */
#include "lib/util/jsonw.h"

#include <assert.h>
#include <string.h>

void
tg_jsonw_init(struct tg_jsonw *w, struct tg_buf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

static void
indent(struct tg_jsonw *w, int depth)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)depth * 2;

	while (n > sizeof(spaces) - 1) {
		tg_buf_add(w->out, spaces, sizeof(spaces) - 1);
		n -= sizeof(spaces) - 1;
	}
	tg_buf_add(w->out, spaces, n);
}

/* Before a value or a key: the separator and layout its container asks. */
static void
before(struct tg_jsonw *w)
{
	if (w->key_pending) {
		w->key_pending = 0;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->level[w->depth - 1].flow) {
		if (w->level[w->depth - 1].n)
			tg_buf_add(w->out, ", ", 2);
	} else if (w->level[w->depth - 1].n) {
		tg_buf_add(w->out, ",\n", 2);
		indent(w, w->depth);
	} else {
		tg_buf_addc(w->out, '\n');
		indent(w, w->depth);
	}
	w->level[w->depth - 1].n++;
}

static void
open_(struct tg_jsonw *w, char c, enum tg_jsonw_style style)
{
	int flow = style == TG_JSONW_FLOW ||
		   (w->depth > 0 && w->level[w->depth - 1].flow);

	before(w);
	assert(w->depth < TG_JSONW_DEPTH);
	tg_buf_addc(w->out, c);
	w->level[w->depth].close = c == '{' ? '}' : ']';
	w->level[w->depth].flow = (unsigned char)flow;
	w->level[w->depth].n = 0;
	w->depth++;
}

void
tg_jsonw_object(struct tg_jsonw *w, enum tg_jsonw_style style)
{
	open_(w, '{', style);
}

void
tg_jsonw_array(struct tg_jsonw *w, enum tg_jsonw_style style)
{
	open_(w, '[', style);
}

void
tg_jsonw_end(struct tg_jsonw *w)
{
	int d;

	assert(w->depth > 0 && !w->key_pending);
	d = --w->depth;
	if (!w->level[d].flow && w->level[d].n) {
		tg_buf_addc(w->out, '\n');
		indent(w, d);
	}
	tg_buf_addc(w->out, w->level[d].close);
}

void
tg_jsonw_key(struct tg_jsonw *w, const char *key)
{
	assert(w->depth > 0 && w->level[w->depth - 1].close == '}');
	before(w);
	tg_jsonw_quote(w->out, key, strlen(key));
	tg_buf_add(w->out, ": ", 2);
	w->key_pending = 1;
}

void
tg_jsonw_strn(struct tg_jsonw *w, const char *s, size_t len)
{
	before(w);
	tg_jsonw_quote(w->out, s, len);
}

void
tg_jsonw_str(struct tg_jsonw *w, const char *s)
{
	if (!s)
		tg_jsonw_null(w);
	else
		tg_jsonw_strn(w, s, strlen(s));
}

void
tg_jsonw_int(struct tg_jsonw *w, long long v)
{
	char d[24];
	size_t n = sizeof(d);
	unsigned long long u =
	    v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	before(w);
	do
		d[--n] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		d[--n] = '-';
	tg_buf_add(w->out, d + n, sizeof(d) - n);
}

void
tg_jsonw_bool(struct tg_jsonw *w, int v)
{
	before(w);
	tg_buf_adds(w->out, v ? "true" : "false");
}

void
tg_jsonw_tristate(struct tg_jsonw *w, int v)
{
	if (v < 0)
		tg_jsonw_null(w);
	else
		tg_jsonw_bool(w, v);
}

void
tg_jsonw_null(struct tg_jsonw *w)
{
	before(w);
	tg_buf_adds(w->out, "null");
}

void
tg_jsonw_kstr(struct tg_jsonw *w, const char *key, const char *s)
{
	tg_jsonw_key(w, key);
	tg_jsonw_str(w, s);
}

void
tg_jsonw_kint(struct tg_jsonw *w, const char *key, long long v)
{
	tg_jsonw_key(w, key);
	tg_jsonw_int(w, v);
}

void
tg_jsonw_kbool(struct tg_jsonw *w, const char *key, int v)
{
	tg_jsonw_key(w, key);
	tg_jsonw_bool(w, v);
}

int
tg_jsonw_finish(struct tg_jsonw *w)
{
	assert(w->depth == 0 && !w->key_pending);
	tg_buf_addc(w->out, '\n');
	return tg_buf_error(w->out);
}

int
tg_jsonw_quote(struct tg_buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	/* the bytes that need an escape: controls, '"', '\\', DEL */
	static const unsigned char esc_byte[256] = {
	    1, 1, 1, 1, 1, 1, 1, 1, 1,	       1,	   1,	      1,
	    1, 1, 1, 1, 1, 1, 1, 1, 1,	       1,	   1,	      1,
	    1, 1, 1, 1, 1, 1, 1, 1, ['"'] = 1, ['\\'] = 1, [0x7f] = 1};
	size_t i = 0, run;

	tg_buf_addc(b, '"');
	while (i < len) {
		unsigned char c;
		char esc[6] = {'\\', 'u', '0', '0', 0, 0};

		/* the bytes that go out as they are, in one append */
		for (run = i; run < len && !esc_byte[(unsigned char)s[run]];
		     run++)
			;
		if (run > i)
			tg_buf_add(b, s + i, run - i);
		if (run == len)
			break;
		c = (unsigned char)s[run];
		i = run + 1;
		if (c == '"' || c == '\\') {
			esc[1] = (char)c;
			tg_buf_add(b, esc, 2);
		} else if (c == '\n') {
			tg_buf_add(b, "\\n", 2);
		} else if (c == '\t') {
			tg_buf_add(b, "\\t", 2);
		} else {
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			tg_buf_add(b, esc, 6);
		}
	}
	return tg_buf_addc(b, '"');
}
