/* test_clex.c - unit tests for lib/lex/clex: the C/C++ tokenizer
 * SPDX-License-Identifier: MIT
 *
 * Each case is an input and its tokens, written as
 * "<kind><off>+<len>:<line>.<col>[/<depth>][!<flags in hex>]", kinds I
 * identifier, D number, S string, Q char, P punctuator, M comment, H
 * directive, X error, E end: comments with continuations, every literal
 * prefix, raw strings with tricky delimiters, directives over continued
 * lines, digit separators, unterminated input, CRLF, empty input.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../fuzz/clex_agree.h"
#include "check.h"
#include "lib/lex/clex.h"

static const char kinds[] = "EIDSQPMHX";

struct tcase {
	const char *in, *want;
};

static const struct tcase cases[] = {
    {"", "E0+0:1.0"},
    {"int x;\n", "I0+3:1.0 I4+1:1.4 P5+1:1.5 E7+0:2.0"},
    {"a // c \\\n still\nb", "I0+1:1.0 M2+13:1.2 I16+1:3.0 E17+0:3.1"},
    {"/* a\n*/ b /* c", "M0+7:1.0 I8+1:2.3 M10+4:2.5!1 E14+0:2.9"},
    {"\"a\\\"b\" 'c' '\\''", "S0+6:1.0 Q7+3:1.7 Q11+4:1.11 E15+0:1.15"},
    {"L\"a\" u\"b\" U'c' u8\"d\" x\"e\"",
     "S0+4:1.0 S5+4:1.5 Q10+4:1.10 S15+5:1.15 I21+1:1.21 S22+3:1.22 "
     "E25+0:1.25"},
    {"R\"(a)\" R\"x()\")x\" u8R\"--(\n)-\n)--\"",
     "S0+6:1.0!4 S7+9:1.7!4 S17+15:1.17!4 E32+0:3.4"},
    {"R\"abcdefghijklmnopq(x)abcdefghijklmnopq\"",
     "S0+2:1.0!d I2+17:1.2 P19+1:1.19 I20+1:1.20/1 P21+1:1.21 I22+17:1.22 "
     "S39+1:1.39!1 E40+0:1.40"},
    {"R\"x(never", "S0+9:1.0!5 E9+0:1.9"},
    {"#define X(a) \\\n  a + 1 // c\nint y;",
     "H0+27:1.0 I28+3:3.0 I32+1:3.4 P33+1:3.5 E34+0:3.6"},
    {"  # include <a.h> /* x\n y */ z\nw", "H2+28:1.2 I31+1:3.0 E32+0:3.1"},
    {"x # y", "I0+1:1.0 P2+1:1.2 I4+1:1.4 E5+0:1.5"},
    {"/* c */ #if 1\n", "M0+7:1.0 H8+5:1.8 E14+0:2.0"},
    {"1'000 0x1F 1e-5 .5f 'a'", "D0+5:1.0 D6+4:1.6 D11+4:1.11 D16+3:1.16 "
				"Q20+3:1.20 E23+0:1.23"},
    {"a->b::c<<=d...e",
     "I0+1:1.0 P1+2:1.1 I3+1:1.3 P4+2:1.4 I6+1:1.6 P7+3:1.7 I10+1:1.10 "
     "P11+3:1.11 I14+1:1.14 E15+0:1.15"},
    {"\"abc\nx", "S0+4:1.0!1 I5+1:2.0 E6+0:2.1"},
    /* kinds are not matched: ")" closes "{" */
    {"f(a[1]{)}", "I0+1:1.0 P1+1:1.1 I2+1:1.2/1 P3+1:1.3/1 D4+1:1.4/2 "
		  "P5+1:1.5/1 P6+1:1.6/1 P7+1:1.7/1 P8+1:1.8 E9+0:1.9"},
    {"(", "P0+1:1.0 E1+0:1.1/1!2"},
    {"x\r\n// c\r\ny", "I0+1:1.0 M3+4:2.0 I9+1:3.0 E10+0:3.1"},
    /* a backslash-CRLF in a literal splices it to the next line */
    {"\"a\\\r\nb\" '\\\r\nc' d", "S0+7:1.0 Q8+6:2.3 I15+1:3.3 E16+0:3.4"},
    {"a \\\n b", "I0+1:1.0 I5+1:2.1 E6+0:2.2"},
    {"@ $", "X0+1:1.0 X2+1:1.2 E3+0:1.3"},
    /* directives of sixteen bytes and more after what ends them (read
     * sixteen bytes at a time): a comment's opener in a literal, a
     * comment over two lines, a splice */
    {"#define X \"/*\" y + some_more_code_here\nz",
     "H0+38:1.0 I39+1:2.0 E40+0:2.1"},
    {"#define X '/*' y + some_more_code_here\nz",
     "H0+38:1.0 I39+1:2.0 E40+0:2.1"},
    {"#define X /* a\n b */ y + some_more_code_here\nz",
     "H0+44:1.0 I45+1:3.0 E46+0:3.1"},
    {"#define X a \\\n b + some_more_code_here\nz",
     "H0+38:1.0 I39+1:3.0 E40+0:3.1"},
    {"#define X 1\nint some_long_name_here;",
     "H0+11:1.0 I12+3:2.0 I16+19:2.4 P35+1:2.23 E36+0:2.24"},
    {"#include <some/long/path/x.h>\nz", "H0+29:1.0 I30+1:2.0 E31+0:2.1"},
};

/* Inputs whose code tokens hold bytes that could start a literal, a
 * comment or a directive elsewhere: tg_clex_next_text must pass over
 * them as tg_clex_next reads them (checked with the cases above). */
static const char *const text_only[] = {
    "1'000'0 x'a' 0x1'F' u8'x' uR\"(a)\" LR\"q()\")q\" Lx\"s\"",
    "a/'b' c/=d e//f\ng #h\n  #i j\n#k",
    "x ## y # z\n\\\n# w\n",
    "..5'e' .5e+1'2 1.e-'3' @$` \\ '\\'' \"\\\"\"",
    "f((g)[h]{) }}]]) \r\n /**/ # l\r\n",
    "u8 \"a\" u8R u9\"b\" R \"c\" _R\"d\"",
};

static void
render(const char *in, char *out, size_t cap, int text)
{
	struct tg_clex lx;
	struct tg_clex_tok t;
	size_t n = 0, guard = 0;

	out[0] = '\0';
	tg_clex_init(&lx, in, strlen(in));
	while ((text ? tg_clex_next_text(&lx, &t) : tg_clex_next(&lx, &t)) &&
	       guard++ < 1000 && n + 64 < cap) {
		n += (size_t)snprintf(out + n, cap - n, "%s%c%zu+%zu:%zu.%zu",
				      n ? " " : "", kinds[t.kind], t.off, t.len,
				      t.line, t.col);
		if (t.depth)
			n +=
			    (size_t)snprintf(out + n, cap - n, "/%zu", t.depth);
		if (t.flags)
			n += (size_t)snprintf(out + n, cap - n, "!%x", t.flags);
	}
}

static void
bodies(void)
{
	struct tg_clex lx;
	struct tg_clex_tok t;
	const char *s = "R\"x()\")x\" u8\"ab\"";

	tg_clex_init(&lx, s, strlen(s));
	CHECK(tg_clex_next(&lx, &t) && t.body == 4 && t.body_len == 2 &&
		  t.pre == 1,
	      "raw body: %zu %zu", t.body, t.body_len);
	CHECK(tg_clex_next(&lx, &t) && t.body == 13 && t.body_len == 2 &&
		  t.pre == 2,
	      "u8 body: %zu %zu", t.body, t.body_len);
	CHECK(tg_clex_next(&lx, &t) && t.kind == TG_CLEX_END, "end");
	CHECK(!tg_clex_next(&lx, &t) && t.kind == TG_CLEX_END, "end again");
}

/* Of a rendering, the tokens tg_clex_next_text returns: literals,
 * comments, directives, END. */
static void
keep_text(const char *all, char *out)
{
	const char *p = all, *e;
	size_t n = 0;

	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ' ');
		if (!e)
			e = p + strlen(p);
		if (strchr("SQMHE", *p)) {
			if (n)
				out[n++] = ' ';
			memcpy(out + n, p, (size_t)(e - p));
			n += (size_t)(e - p);
		}
	}
	out[n] = '\0';
}

static void
same_text(const char *in)
{
	char all[4096], want[4096], got[4096];

	render(in, all, sizeof(all), 0);
	keep_text(all, want);
	render(in, got, sizeof(got), 1);
	CHECK_STR(got, want, in);
}

/* Random texts of the bytes that change the tokenizer's state, mostly
 * longer than sixteen bytes (where skip_code goes sixteen at a time):
 * next_text must agree with next on each (the same seed every run). */
static void
random_texts(void)
{
	static const char alpha[] = "\n\n\"''#//*\\\r()[]{}  \t\v"
				    "aaxu8RLUe1.'+-,;<>=:@$";
	uint64_t x = UINT64_C(88172645463325252);
	char s[300];
	size_t k, j, n, bad = 0;

	for (k = 0; k < 20000; k++) {
		n = k % 280;
		for (j = 0; j < n; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			s[j] = alpha[(x >> 11) % (sizeof(alpha) - 1)];
		}
		if (!clex_agree(s, n) && bad++ < 3)
			CHECK(0, "next_text and next differ on '%.*s'", (int)n,
			      s);
	}
	CHECK(bad == 0, "%zu random texts differ", bad);
}

int
main(void)
{
	char got[4096];
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		render(cases[k].in, got, sizeof(got), 0);
		CHECK_STR(got, cases[k].want, cases[k].in);
		same_text(cases[k].in);
	}
	for (k = 0; k < sizeof(text_only) / sizeof(text_only[0]); k++)
		same_text(text_only[k]);
	bodies();
	random_texts();
	return check_result("test_clex");
}
