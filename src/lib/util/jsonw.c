/* jsonw.c - the JSON writer every command's output goes through
 * SPDX-License-Identifier: MIT
 *
 * The writer keeps, per open container, whether it is flow and how many
 * members it has, which is all the layout needs: a separator before each
 * member, and for a block a newline and indentation. Output depends on
 * the calls only, so it is deterministic. A block member (key and value)
 * and a short string are composed in place, in one reservation of their
 * worst case (tg_buf_room); near the buffer's limit, or for a long
 * string, they are appended in parts, which fail exactly where the
 * limit falls.
 */
#include "lib/util/jsonw.h"

#include "lib/util/str.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

static char *room(struct tg_buf *b, size_t need);
static char *quote_into(char *p, const char *s, size_t len);
static int quote(struct tg_buf *b, const char *s, size_t len, const char *tail);

void
tg_jsonw_init(struct tg_jsonw *w, struct tg_buf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

/* A newline and the indentation of depth (at most TG_JSONW_DEPTH),
 * after an optional comma: one append. */
static void
newline(struct tg_jsonw *w, int comma, int depth)
{
	static const char text[2 + 2 * TG_JSONW_DEPTH + 1] =
	    ",\n                                "
	    "                                ";

	tg_buf_add(w->out, text + !comma,
		   1 + (size_t)comma + (size_t)depth * 2);
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
	} else {
		newline(w, w->level[w->depth - 1].n != 0, w->depth);
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
	if (!w->level[d].flow && w->level[d].n)
		newline(w, 0, d);
	tg_buf_addc(w->out, w->level[d].close);
}

/* A block member's separator, indentation, quoted key and ": " at p
 * (at most 4 + 2 depth + 6 kl bytes): the end. */
static char *
key_into(const struct tg_jsonw *w, char *p, const char *key, size_t kl)
{
	int d;

	if (w->level[w->depth - 1].n)
		*p++ = ',';
	*p++ = '\n';
	for (d = 0; d < w->depth; d++) {
		*p++ = ' ';
		*p++ = ' ';
	}
	p = quote_into(p, key, kl);
	*p++ = ':';
	*p++ = ' ';
	return p;
}

/* Whether the next key opens a member of a block object: the case
 * composed in place. */
static int
block_member(const struct tg_jsonw *w)
{
	return !w->key_pending && !w->level[w->depth - 1].flow;
}

/* A member of a block object whose value is the literal text v[0..vl)
 * (a number, true, false, null) in one reservation: 1, or 0 when it
 * must be written in parts. */
static int
member_text(struct tg_jsonw *w, const char *key, const char *v, size_t vl)
{
	size_t kl = strlen(key);
	char *p, *q;

	if (!block_member(w) ||
	    !(p = room(w->out, 4 + 2 * (size_t)w->depth + 6 * kl + vl)))
		return 0;
	q = key_into(w, p, key, kl);
	memcpy(q, v, vl);
	tg_buf_commit(w->out, (size_t)(q - p) + vl);
	w->level[w->depth - 1].n++;
	return 1;
}

void
tg_jsonw_key(struct tg_jsonw *w, const char *key)
{
	size_t kl;
	char *p, *q;

	assert(w->depth > 0 && w->level[w->depth - 1].close == '}');
	kl = strlen(key);
	/* a block's member, the common case: composed in place */
	if (block_member(w) &&
	    (p = room(w->out, 4 + 2 * (size_t)w->depth + 6 * kl))) {
		q = key_into(w, p, key, kl);
		tg_buf_commit(w->out, (size_t)(q - p));
		w->level[w->depth - 1].n++;
		w->key_pending = 1;
		return;
	}
	before(w);
	quote(w->out, key, kl, ": ");
	w->key_pending = 1;
}

void
tg_jsonw_strn(struct tg_jsonw *w, const char *s, size_t len)
{
	before(w);
	quote(w->out, s, len, "");
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
	size_t kl, sl;
	char *p, *q;

	assert(w->depth > 0 && w->level[w->depth - 1].close == '}');
	if (!s) {
		if (!member_text(w, key, "null", 4)) {
			tg_jsonw_key(w, key);
			tg_jsonw_null(w);
		}
		return;
	}
	kl = strlen(key);
	sl = strlen(s);
	/* key and value in one reservation */
	if (block_member(w) && sl <= 4096 &&
	    (p = room(w->out, 6 + 2 * (size_t)w->depth + 6 * (kl + sl)))) {
		q = quote_into(key_into(w, p, key, kl), s, sl);
		tg_buf_commit(w->out, (size_t)(q - p));
		w->level[w->depth - 1].n++;
		return;
	}
	tg_jsonw_key(w, key);
	tg_jsonw_strn(w, s, sl);
}

void
tg_jsonw_kint(struct tg_jsonw *w, const char *key, long long v)
{
	char d[24];
	size_t n = sizeof(d);
	unsigned long long u =
	    v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	assert(w->depth > 0 && w->level[w->depth - 1].close == '}');
	do
		d[--n] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		d[--n] = '-';
	if (!member_text(w, key, d + n, sizeof(d) - n)) {
		tg_jsonw_key(w, key);
		tg_jsonw_int(w, v);
	}
}

void
tg_jsonw_kbool(struct tg_jsonw *w, const char *key, int v)
{
	assert(w->depth > 0 && w->level[w->depth - 1].close == '}');
	if (!member_text(w, key, v ? "true" : "false", v ? 4 : 5)) {
		tg_jsonw_key(w, key);
		tg_jsonw_bool(w, v);
	}
}

int
tg_jsonw_finish(struct tg_jsonw *w)
{
	assert(w->depth == 0 && !w->key_pending);
	tg_buf_addc(w->out, '\n');
	return tg_buf_error(w->out);
}

/* The bytes that need an escape: controls, '"', '\\', DEL. */
static const unsigned char esc_byte[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1,	       1,	   1,	      1,
    1, 1, 1, 1, 1, 1, 1, 1, 1,	       1,	   1,	      1,
    1, 1, 1, 1, 1, 1, 1, 1, ['"'] = 1, ['\\'] = 1, [0x7f] = 1};

static const char hex[] = "0123456789abcdef";

/* Where the escape of byte c goes: its length. */
static size_t
escape(unsigned char c, char *p)
{
	p[0] = '\\';
	if (c == '"' || c == '\\') {
		p[1] = (char)c;
		return 2;
	}
	if (c == '\n' || c == '\t') {
		p[1] = c == '\n' ? 'n' : 't';
		return 2;
	}
	memcpy(p + 1, "u00", 3);
	p[4] = hex[c >> 4];
	p[5] = hex[c & 15];
	return 6;
}

/* Room for need bytes in b, or NULL where an append of need bytes
 * would fail or could come near the buffer's limit (the caller then
 * appends in parts, which fail exactly where they should). */
static char *
room(struct tg_buf *b, size_t need)
{
	if (b->err || need > 65536 || b->len > b->max ||
	    need >= b->max - b->len)
		return NULL;
	return tg_buf_room(b, need);
}

/* s[0..len) as a JSON string literal at p (at most 6 len + 2 bytes):
 * the end. */
/* Whether one of the eight bytes of v needs a look: below 0x20, '"',
 * '\\', DEL, or 0x80 and above (UTF-8 to check). Each test is the exact
 * one for "some byte is zero" ((x - 0x01..) & ~x & 0x80..) or "some
 * byte is below n" (n <= 0x80): a borrow can mark a byte wrongly only
 * above one that is marked rightly. */
static int
escape8(uint64_t v)
{
	const uint64_t ones = UINT64_C(0x0101010101010101),
		       high = UINT64_C(0x8080808080808080);
	uint64_t q = v ^ (ones * '"'), b = v ^ (ones * '\\'),
		 d = v ^ (ones * 0x7f);

	return ((((v - ones * 0x20) & ~v) | ((q - ones) & ~q) |
		 ((b - ones) & ~b) | ((d - ones) & ~d) | v) &
		high) != 0;
}

/* A byte that is no part of well-formed UTF-8 (a path's m\xff.py): the
 * lone surrogate Python's surrogateescape gives it, U+DC80 + byte, as a
 * \u escape (\udcff). The document stays valid JSON; json.loads gives
 * the string os.fsencode() turns back into the bytes, and a consumer that
 * insists on Unicode scalar values sees U+FFFD there. */
static size_t
escape_byte(unsigned char c, char *p)
{
	memcpy(p, "\\udc", 4);
	p[4] = hex[c >> 4];
	p[5] = hex[c & 15];
	return 6;
}

static char *
quote_into(char *p, const char *s, size_t len)
{
	size_t i = 0;

	*p++ = '"';
	while (i < len) {
		unsigned char c = 0;
		size_t n;

		/* eight bytes at a time while none needs a look */
		for (; len - i >= 8; i += 8, p += 8) {
			uint64_t v;

			memcpy(&v, s + i, 8);
			if (escape8(v))
				break;
			memcpy(p, &v, 8);
		}
		/* then one at a time up to the byte that needs a look (in
		 * the eight the test flagged, a true one: a key's or a short
		 * string's few bytes, the last seven) */
		while (i < len && (c = (unsigned char)s[i]) < 0x80 &&
		       !esc_byte[c]) {
			*p++ = (char)c;
			i++;
		}
		if (i == len)
			break;
		if (c < 0x80) {
			p += escape(c, p);
			i++;
		} else if ((n = tg_str_utf8_seq(s + i, len - i)) != 0) {
			memcpy(p, s + i, n);
			p += n, i += n;
		} else {
			p += escape_byte(c, p);
			i++;
		}
	}
	*p++ = '"';
	return p;
}

/* s[0..len) as a JSON string literal, then tail (a short literal): a
 * short string composed in place, a long one in runs. */
static int
quote(struct tg_buf *b, const char *s, size_t len, const char *tail)
{
	size_t tl = strlen(tail), i = 0, run;
	char *p, *q;

	if (len <= 4096 && (p = room(b, 6 * len + 2 + tl))) {
		q = quote_into(p, s, len);
		memcpy(q, tail, tl);
		tg_buf_commit(b, (size_t)(q - p) + tl);
		return 0;
	}
	tg_buf_addc(b, '"');
	while (i < len) {
		char esc[6];

		unsigned char c;
		size_t n;

		/* the bytes that go out as they are, in one append */
		for (run = i; run < len; run += n) {
			c = (unsigned char)s[run];
			n = c < 0x80 ? !esc_byte[c]
				     : tg_str_utf8_seq(s + run, len - run);
			if (n == 0)
				break;
		}
		if (run > i)
			tg_buf_add(b, s + i, run - i);
		if (run == len)
			break;
		c = (unsigned char)s[run];
		tg_buf_add(b, esc,
			   c < 0x80 ? escape(c, esc) : escape_byte(c, esc));
		i = run + 1;
	}
	tg_buf_addc(b, '"');
	return tg_buf_add(b, tail, tl);
}

int
tg_jsonw_quote(struct tg_buf *b, const char *s, size_t len)
{
	return quote(b, s, len, "");
}
