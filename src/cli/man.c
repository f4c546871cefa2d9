/* man.c - a manual page as plain text, for when man(1) is not there
 * SPDX-License-Identifier: MIT
 *
 * Knows the man(7) requests and escapes our pages use (doc/, sections 1, 5 and 7);
 * anything else is dropped (a request) or kept (text). Lines are not
 * filled, so the text reads as the source was written.
 */
#include "cli/man.h"

#include <string.h>

static const struct {
	const char *esc, *text;
} named[] = {
    {"(aq", "'"}, {"(dq", "\""}, {"(lq", "\""}, {"(rq", "\""}, {"(bu", "*"},
    {"(en", "-"}, {"(em", "--"}, {"(ga", "`"},	{"(ha", "^"},  {"(ti", "~"},
};

/* Text with escapes: s[0..n) to f. */
static void
text(FILE *f, const char *s, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			fputc(s[i], f);
			continue;
		}
		i++;
		switch (s[i]) {
		case '"':
			return; /* a comment to the end of the line */
		case 'f':
			i += i + 1 < n && s[i + 1] == '(' ? 3 : 1;
			break;
		case '-':
			fputc('-', f);
			break;
		case ' ':
		case '~':
			fputc(' ', f);
			break;
		case 'e':
			fputc('\\', f);
			break;
		case '&':
		case 'c':
		case '%':
			break;
		case '(':
			for (k = 0; k < sizeof(named) / sizeof(named[0]); k++)
				if (n - i >= 3 &&
				    strncmp(s + i, named[k].esc, 3) == 0)
					break;
			if (k < sizeof(named) / sizeof(named[0]))
				fputs(named[k].text, f);
			i += 2;
			break;
		default:
			fputc(s[i], f);
			break;
		}
	}
}

/* The arguments of a font request, quotes removed, joined (alternating
 * fonts: no space) or spaced (.B, .I). */
static void
font_args(FILE *f, const char *s, size_t n, int spaced)
{
	size_t i = 0, a;
	int first = 1;

	while (i < n) {
		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			break;
		if (!first && spaced)
			fputc(' ', f);
		first = 0;
		if (s[i] == '"') {
			a = ++i;
			while (i < n && s[i] != '"')
				i++;
			text(f, s + a, i - a);
			i++;
		} else {
			a = i;
			while (i < n && s[i] != ' ')
				i += s[i] == '\\' && i + 1 < n ? 2 : 1;
			if (i > n)
				i = n;
			text(f, s + a, i - a);
		}
	}
	fputc('\n', f);
}

static int
is_request(const char *s, size_t n, const char *name)
{
	size_t l = strlen(name);

	return n >= l && strncmp(s, name, l) == 0 && (n == l || s[l] == ' ');
}

void
cli_man_text(FILE *f, const char *roff)
{
	const char *p = roff, *e;

	for (; *p; p = *e ? e + 1 : e) {
		size_t n, skip;

		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		n = (size_t)(e - p);
		if (n == 0 || (p[0] != '.' && p[0] != '\'')) {
			text(f, p, n);
			fputc('\n', f);
			continue;
		}
		skip = strcspn(p, " ");
		skip = skip < n ? skip + 1 : n;
		if (is_request(p, n, ".SH")) {
			fputc('\n', f);
			font_args(f, p + skip, n - skip, 1);
		} else if (is_request(p, n, ".SS")) {
			fputs("\n  ", f);
			font_args(f, p + skip, n - skip, 1);
		} else if (is_request(p, n, ".B") || is_request(p, n, ".I")) {
			font_args(f, p + skip, n - skip, 1);
		} else if (n > 2 && strchr("BIR", p[1]) &&
			   strchr("BIR", p[2]) && (n == 3 || p[3] == ' ')) {
			font_args(f, p + skip, n - skip, 0);
		} else if (is_request(p, n, ".PP") || is_request(p, n, ".TP") ||
			   is_request(p, n, ".LP") || is_request(p, n, ".P")) {
			fputc('\n', f);
		} else if (is_request(p, n, ".IP")) {
			fputc('\n', f);
			if (n > skip)
				font_args(f, p + skip, n - skip, 1);
		} else if (is_request(p, n, ".UR")) {
			text(f, p + skip, n - skip);
			fputc('\n', f);
		}
		/* .TH, .RS, .RE, .EX, .EE, .br, .UE, .TQ, comments: nothing */
	}
}
