/* test_pylex.c - unit tests for lib/lex/pylex: the Python tokenizer
 * SPDX-License-Identifier: MIT
 *
 * Each case is an input and its tokens, written compactly as
 * "<kind><off>+<len>:<line>.<col>[/<depth>][!<flags in hex>]" joined by
 * spaces, kinds N name, D number, S string, O operator, C comment, L
 * NEWLINE, l NL, X error, E end. Every string form, nested f-strings,
 * continued lines, brackets over lines, unterminated input, CRLF and
 * empty input; then tg_pylex_string's prefixes and body offsets.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/lex/pylex.h"

static const char kinds[] = "ENDSOCLlX";

struct tcase {
	const char *in, *want;
};

static const struct tcase cases[] = {
    {"", "E0+0:1.0"},
    {"\n", "l0+1:1.0 E1+0:2.0"},
    {"x = 1\n", "N0+1:1.0 O2+1:1.2 D4+1:1.4 L5+1:1.5 E6+0:2.0"},
    /* no newline at the end: a NEWLINE of length 0 */
    {"x", "N0+1:1.0 L1+0:1.1 E1+0:1.1"},
    /* strings, every quote */
    {"'a' \"b\"", "S0+3:1.0 S4+3:1.4 L7+0:1.7 E7+0:1.7"},
    {"'''a\n'b'''\n", "S0+10:1.0!20 L10+1:2.5 E11+0:3.0"},
    /* a string's body read sixteen bytes at a time: an escaped quote
     * after sixteen, an f-string's "}}" and field after sixteen */
    {"'abcdefghijklmnop\\'qrstuvwxyz0123456789' y\n",
     "S0+40:1.0 N41+1:1.41 L42+1:1.42 E43+0:2.0"},
    {"f'abcdefghijklmnop}}q{x}' y\n",
     "S0+25:1.0!10 N26+1:1.26 L27+1:1.27 E28+0:2.0"},
    /* lines of a long string counted eight bytes at a time: a newline
     * at several places of a word, and a CRLF */
    {"'''abcdefghijklmno\n0123456\n01234567\r\n\n'''x\n"
     "\"\"\"\nabcdefghij\"\"\" y",
     "S0+41:1.0!20 N41+1:5.3 L42+1:5.4 S43+17:6.0!20 N61+1:7.14 "
     "L62+0:7.15 E62+0:7.15"},
    {"\"\"\"\"\"\"", "S0+6:1.0!20 L6+0:1.6 E6+0:1.6"},
    {"''", "S0+2:1.0 L2+0:1.2 E2+0:1.2"},
    /* prefixes, any case */
    {"r'\\d' Rb'x' bR\"y\" u'z'",
     "S0+5:1.0!4 S6+5:1.6!c S12+5:1.12!c S18+4:1.18 L22+0:1.22 "
     "E22+0:1.22"},
    {"f'{x}' rf'{y}' FR'' t'{z}'",
     "S0+6:1.0!10 S7+7:1.7!14 S15+4:1.15!14 S20+6:1.20!10 L26+0:1.26 "
     "E26+0:1.26"},
    /* not prefixes: a name, then a string */
    {"ub'x'", "N0+2:1.0 S2+3:1.2 L5+0:1.5 E5+0:1.5"},
    {"else'y'", "N0+4:1.0 S4+3:1.4 L7+0:1.7 E7+0:1.7"},
    /* escapes: the quote, and a backslash-newline in a short string */
    {"'a\\'b' r'\\''", "S0+6:1.0 S7+5:1.7!4 L12+0:1.12 E12+0:1.12"},
    {"'a\\\nb'\n", "S0+6:1.0 L6+1:2.2 E7+0:3.0"},
    /* a backslash-CRLF continues a short string, and an f-string's
     * field */
    {"'a\\\r\nb'\r\n", "S0+7:1.0 L7+2:2.2 E9+0:3.0"},
    {"f'{x \\\r\n}'", "S0+10:1.0!10 L10+0:2.2 E10+0:2.2"},
    /* f-strings: nested strings of the same quote (3.12), escapes,
     * format specs with fields, dicts and comments in fields */
    {"f\"{x[\"a\"]}\" + 1",
     "S0+11:1.0!10 O12+1:1.12 D14+1:1.14 L15+0:1.15 E15+0:1.15"},
    {"f'{{x}}' f'}}'", "S0+8:1.0!10 S9+5:1.9!10 L14+0:1.14 E14+0:1.14"},
    {"f'{x:>{w}.{p}}' f'{ {1: 2}[1] }'",
     "S0+15:1.0!10 S16+16:1.16!10 L32+0:1.32 E32+0:1.32"},
    {"f'{f\"{f'{1}'}\"}'", "S0+16:1.0!10 L16+0:1.16 E16+0:1.16"},
    {"f'''{x # c\n}'''", "S0+15:1.0!30 L15+0:2.4 E15+0:2.4"},
    {"f'\\N{DASH}' f'{x!r}'",
     "S0+11:1.0!10 S12+8:1.12!10 L20+0:1.20 E20+0:1.20"},
    {"rf'\\{x}'", "S0+8:1.0!14 L8+0:1.8 E8+0:1.8"},
    /* a plain string's braces are text */
    {"'{'", "S0+3:1.0 L3+0:1.3 E3+0:1.3"},
    /* unterminated: a short string stops before its newline */
    {"'abc\nx", "S0+4:1.0!1 L4+1:1.4 N5+1:2.0 L6+0:2.1 E6+0:2.1"},
    {"'''abc", "S0+6:1.0!21 L6+0:1.6 E6+0:1.6"},
    {"f'{x\n", "S0+4:1.0!11 L4+1:1.4 E5+0:2.0"},
    {"f'{\"a'\n", "S0+6:1.0!11 L6+1:1.6 E7+0:2.0"},
    {"'a\\", "S0+3:1.0!1 L3+0:1.3 E3+0:1.3"},
    /* comments, NL on a comment-only line, CRLF */
    {"# c\nx # d\n", "C0+3:1.0 l3+1:1.3 N4+1:2.0 C6+3:2.2 L9+1:2.5 "
		     "E10+0:3.0"},
    {"x\r\n# c\r\n", "N0+1:1.0 L1+2:1.1 C3+3:2.0 l6+2:2.3 E8+0:3.0"},
    /* brackets: one logical line over several, NL inside */
    {"f(a,\n  b)\n",
     "N0+1:1.0 O1+1:1.1 N2+1:1.2/1 O3+1:1.3/1 l4+1:1.4/1 N7+1:2.2/1 "
     "O8+1:2.3 L9+1:2.4 E10+0:3.0"},
    {"[{(\n", "O0+1:1.0 O1+1:1.1/1 O2+1:1.2/2 l3+1:1.3/3 E4+0:2.0/3!2"},
    {")", "O0+1:1.0!2 L1+0:1.1 E1+0:1.1"},
    /* backslash continuation: no token, the logical line goes on */
    {"x = \\\n  1\n", "N0+1:1.0 O2+1:1.2 D8+1:2.2 L9+1:2.3 E10+0:3.0"},
    /* what lies between tokens, right after one: a continuation, a tab,
     * a form feed */
    {"x\\\ny\n", "N0+1:1.0 N3+1:2.0 L4+1:2.1 E5+0:3.0"},
    {"a\tb\fc\n", "N0+1:1.0 N2+1:1.2 N4+1:1.4 L5+1:1.5 E6+0:2.0"},
    {"x = \\\r\n1", "N0+1:1.0 O2+1:1.2 D7+1:2.0 L8+0:2.1 E8+0:2.1"},
    /* numbers and operators */
    {"1_000 0x1F 1.5e-3 .5 2j 1e+",
     "D0+5:1.0 D6+4:1.6 D11+6:1.11 D18+2:1.18 D21+2:1.21 D24+2:1.24 "
     "O26+1:1.26 L27+0:1.27 E27+0:1.27"},
    {"a**=b//c->d:=e...!=",
     "N0+1:1.0 O1+3:1.1 N4+1:1.4 O5+2:1.5 N7+1:1.7 O8+2:1.8 N10+1:1.10 "
     "O11+2:1.11 N13+1:1.13 O14+3:1.14 O17+2:1.17 L19+0:1.19 "
     "E19+0:1.19"},
    /* bytes that start no token; a lone CR is whitespace */
    {"$ ?\\x", "X0+1:1.0 X2+1:1.2 X3+1:1.3 N4+1:1.4 L5+0:1.5 E5+0:1.5"},
    {"a\rb", "N0+1:1.0 N2+1:1.2 L3+0:1.3 E3+0:1.3"},
    /* non-ASCII names */
    {"\xc3\xa9t\xc3\xa9 = 1", "N0+5:1.0 O6+1:1.6 D8+1:1.8 L9+0:1.9 "
			      "E9+0:1.9"},
    /* a decorator and a def */
    {"@deprecated('x')\ndef f(): pass\n",
     "O0+1:1.0 N1+10:1.1 O11+1:1.11 S12+3:1.12/1 O15+1:1.15 L16+1:1.16 "
     "N17+3:2.0 N21+1:2.4 O22+1:2.5 O23+1:2.6 O24+1:2.7 N26+4:2.9 "
     "L30+1:2.13 E31+0:3.0"},
};

static void
render(const char *in, char *out, size_t cap)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;
	size_t n = 0, guard = 0;

	out[0] = '\0';
	tg_pylex_init(&lx, in, strlen(in));
	while (tg_pylex_next(&lx, &t) && guard++ < 1000 && n + 64 < cap) {
		n += (size_t)snprintf(
		    out + n, cap - n,
		    "%s%c%" PRIu32 "+%" PRIu32 ":%" PRIu32 ".%" PRIu32,
		    n ? " " : "", kinds[t.kind], t.off, t.len, t.line, t.col);
		if (t.depth)
			n += (size_t)snprintf(out + n, cap - n, "/%" PRIu32,
					      t.depth);
		if (t.flags)
			n += (size_t)snprintf(out + n, cap - n, "!%x", t.flags);
	}
}

static void
string_at(void)
{
	struct tg_pylex_tok t;
	const char *s = "x = rb'\\'' + f'''{a}''' + bar'y' + ''";

	CHECK(tg_pylex_string(s, strlen(s), 4, &t) == 1 && t.len == 6 &&
		  t.pre == 2 && t.quote == 1 &&
		  t.flags == (TG_PYLEX_RAW | TG_PYLEX_BYTES),
	      "rb: %" PRIu32 " %u %u %x", t.len, t.pre, t.quote, t.flags);
	CHECK(tg_pylex_string(s, strlen(s), 13, &t) == 1 && t.len == 10 &&
		  t.pre == 1 && t.quote == 3,
	      "f triple: %" PRIu32, t.len);
	CHECK(tg_pylex_string(s, strlen(s), 26, &t) == 0, "bar is no prefix");
	CHECK(tg_pylex_string(s, strlen(s), 29, &t) == 1 && t.len == 3,
	      "the quote after bar");
	CHECK(tg_pylex_string(s, strlen(s), 0, &t) == 0, "x is no string");
	CHECK(tg_pylex_string(s, strlen(s), 35, &t) == 1 && t.len == 2 &&
		  t.flags == 0,
	      "empty string");
	CHECK(tg_pylex_string(s, strlen(s), 37, &t) == 0, "at the end");
	/* bounded by len: the string runs to it, unterminated */
	CHECK(tg_pylex_string(s, 8, 4, &t) == 1 && t.len == 4 &&
		  (t.flags & TG_PYLEX_UNTERMINATED),
	      "bounded: %" PRIu32, t.len);
}

static void
deep(void)
{
	char in[4096];
	size_t k, n = 0;
	struct tg_pylex lx;
	struct tg_pylex_tok t;

	/* f'{f'{f'{...}'}'}' past the nesting limit: bounded, one token */
	for (k = 0; k < 40; k++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "f%c{",
				      k % 2 ? '"' : '\'');
	for (k = 40; k-- > 0;)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "}%c",
				      k % 2 ? '"' : '\'');
	tg_pylex_init(&lx, in, n);
	CHECK(tg_pylex_next(&lx, &t) && t.kind == TG_PYLEX_STRING && t.off == 0,
	      "deep: kind %d", t.kind);
	/* f'{a:{b:{c:...' (specs in specs): bounded too */
	n = 0;
	n += (size_t)snprintf(in, sizeof(in), "f'");
	for (k = 0; k < 1000; k++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "{a:");
	tg_pylex_init(&lx, in, n);
	CHECK(tg_pylex_next(&lx, &t) && t.kind == TG_PYLEX_STRING &&
		  t.len == n && (t.flags & TG_PYLEX_UNTERMINATED),
	      "specs: %" PRIu32 " of %zu", t.len, n);
	/* END again after END */
	CHECK(tg_pylex_next(&lx, &t) && t.kind == TG_PYLEX_NEWLINE, "nl");
	CHECK(tg_pylex_next(&lx, &t) && t.kind == TG_PYLEX_END, "end");
	CHECK(!tg_pylex_next(&lx, &t) && t.kind == TG_PYLEX_END, "end again");
}

/* One token as render writes it. */
static size_t
put(char *out, size_t n, size_t cap, const struct tg_pylex_tok *t)
{
	n += (size_t)snprintf(
	    out + n, cap - n,
	    "%s%c%" PRIu32 "+%" PRIu32 ":%" PRIu32 ".%" PRIu32, n ? " " : "",
	    kinds[t->kind], t->off, t->len, t->line, t->col);
	if (t->depth)
		n += (size_t)snprintf(out + n, cap - n, "/%" PRIu32, t->depth);
	if (t->flags)
		n += (size_t)snprintf(out + n, cap - n, "!%x", t->flags);
	return n;
}

/* The case's tokens read with tg_pylex_line into an array of room
 * tokens (a small one fills up, and the next call goes on), NL tokens
 * left out of the rendering as tg_pylex_line leaves them out. */
static void
render_lines(const char *in, char *out, size_t cap, size_t room)
{
	struct tg_pylex lx;
	struct tg_pylex_tok a[8], stop;
	size_t n = 0, k, na = 0, guard = 0;
	int got;

	out[0] = '\0';
	tg_pylex_init(&lx, in, strlen(in));
	while (guard++ < 1000 && n + 600 < cap) {
		na = 0;
		got = tg_pylex_line(&lx, a, room, &na, &stop);
		for (k = 0; k < na; k++)
			n = put(out, n, cap, &a[k]);
		if (got < 0)
			break;
		if (got > 0)
			n = put(out, n, cap, &stop);
	}
}

/* The case's tokens read with tg_pylex_fill into an array of room
 * tokens, emptied each time it fills (the next call goes on): every
 * token tg_pylex_next gives, END the last. */
static void
render_fill(const char *in, char *out, size_t cap, size_t room)
{
	struct tg_pylex lx;
	struct tg_pylex_tok a[64];
	size_t n = 0, k, na, guard = 0;
	int done = 0;

	out[0] = '\0';
	tg_pylex_init(&lx, in, strlen(in));
	while (!done && guard++ < 1000 && n + 64 * 40 < cap) {
		na = 0;
		done = tg_pylex_fill(&lx, a, room, &na);
		CHECK(done || na == room, "fill: %zu of %zu, not done", na,
		      room);
		for (k = 0; k < na; k++)
			n = put(out, n, cap, &a[k]);
	}
	CHECK(done, "fill: END reached");
	na = 0;
	CHECK(tg_pylex_fill(&lx, a, room, &na) == 1 && na == 0,
	      "fill after END: %zu more", na);
}

/* Without its NL tokens. */
static void
drop_nl(const char *all, char *out)
{
	const char *p = all, *e;
	size_t n = 0;

	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ' ');
		if (!e)
			e = p + strlen(p);
		if (*p != 'l') {
			if (n)
				out[n++] = ' ';
			memcpy(out + n, p, (size_t)(e - p));
			n += (size_t)(e - p);
		}
	}
	out[n] = '\0';
}

/* The end of a string found wherever its stop byte falls in the
 * eight-byte steps over its body: the closing quote, an escaped quote,
 * a newline (single quotes: unterminated), a field of an f-string. */
static void
string_ends(void)
{
	char src[64];
	struct tg_pylex lx;
	struct tg_pylex_tok t;
	size_t k, bad = 0;

	for (k = 0; k < 24; k++) {
		/* 'aaa...' */
		memset(src, 'a', sizeof(src));
		src[0] = '\'';
		src[k + 1] = '\'';
		src[k + 2] = '\0';
		tg_pylex_init(&lx, src, k + 2);
		bad += !(tg_pylex_next(&lx, &t) && t.len == k + 2 && !t.flags);
		/* 'aa\'aa' x */
		memset(src, 'a', sizeof(src));
		src[0] = '\'';
		src[k + 1] = '\\';
		src[k + 2] = '\'';
		src[k + 12] = '\'';
		tg_pylex_init(&lx, src, k + 13);
		bad += !(tg_pylex_next(&lx, &t) && t.len == k + 13);
		/* 'aa<newline> : unterminated before the newline */
		memset(src, 'a', sizeof(src));
		src[0] = '\'';
		src[k + 1] = '\n';
		tg_pylex_init(&lx, src, 40);
		bad += !(tg_pylex_next(&lx, &t) && t.len == k + 1 &&
			 (t.flags & TG_PYLEX_UNTERMINATED));
		/* f'aa{'}'}aa' : a field holding a string with the quote */
		memset(src, 'a', sizeof(src));
		memcpy(src, "f'", 2);
		memcpy(src + k + 2, "{'}'}", 5);
		src[k + 12] = '\'';
		tg_pylex_init(&lx, src, k + 13);
		bad += !(tg_pylex_next(&lx, &t) && t.len == k + 13 &&
			 (t.flags & TG_PYLEX_FSTRING));
	}
	CHECK(bad == 0, "%zu string ends missed", bad);
}

/* lx.errors: the tokens that are errors, counted as they are
 * returned (END's unbalanced flag once) */
static void
errors(void)
{
	static const struct {
		const char *in;
		size_t want;
	} ec[] = {
	    {"x = 1\n", 0},
	    {"x = (1,\n", 1},	      /* END unbalanced */
	    {"x = 1)\n", 1},	      /* a closer too many */
	    {"x = $ ? `\n", 3},	      /* three ERROR tokens */
	    {"s = 'abc\nt = 1\n", 1}, /* unterminated */
	    {"s = '''abc\n", 1},      /* unterminated to the end */
	    {"f((]\n", 1},	      /* ] closes a (; END unbalanced */
	};
	size_t k;

	for (k = 0; k < sizeof(ec) / sizeof(ec[0]); k++) {
		struct tg_pylex lx;
		struct tg_pylex_tok t;
		size_t n = 0;

		tg_pylex_init(&lx, ec[k].in, strlen(ec[k].in));
		while (tg_pylex_next(&lx, &t))
			n += t.kind == TG_PYLEX_ERROR ||
			     (t.flags &
			      (TG_PYLEX_UNTERMINATED | TG_PYLEX_UNBALANCED |
			       TG_PYLEX_TOO_DEEP));
		CHECK(lx.errors == n && n == ec[k].want,
		      "errors of '%s': %zu counted, %zu flagged, want %zu",
		      ec[k].in, lx.errors, n, ec[k].want);
	}
}

int
main(void)
{
	char got[8192], want[4096];
	size_t k, room;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		render(cases[k].in, got, sizeof(got));
		CHECK_STR(got, cases[k].want, cases[k].in);
		drop_nl(cases[k].want, want);
		for (room = 1; room <= 8; room += 7) {
			render_lines(cases[k].in, got, sizeof(got), room);
			CHECK_STR(got, want, cases[k].in);
		}
		for (room = 1; room <= 64; room = room * 4 - 1) {
			render_fill(cases[k].in, got, sizeof(got), room);
			CHECK_STR(got, cases[k].want, cases[k].in);
		}
	}
	string_at();
	string_ends();
	deep();
	errors();
	return check_result("test_pylex");
}
