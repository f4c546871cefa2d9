/* man.c - a manual page as plain text, for when man(1) is not there
 * SPDX-License-Identifier: MIT
 *
 * Knows the man(7) requests and escapes our pages use (doc/, sections
 * 1, 5 and 7); anything else is dropped (a request) or kept (text). Text
 * is filled to 78 columns at man's indents (7 for the body, 7 more for
 * a .TP body or a .RS block); .EX blocks are kept as written. Lines
 * longer than 1 KiB are cut.
 */
#include "cli/man.h"

#include <string.h>

static const struct {
	const char *esc, *text;
} named[] = {
    {"(aq", "'"}, {"(dq", "\""}, {"(lq", "\""}, {"(rq", "\""}, {"(bu", "*"},
    {"(en", "-"}, {"(em", "--"}, {"(ga", "`"},	{"(ha", "^"},  {"(ti", "~"},
};

/* The output: words filled to WIDTH columns at an indent, as man does,
 * except in no-fill blocks (.EX). */
#define WIDTH 78
#define LINE_MAX_ 1024

struct out {
	FILE *f;
	char line[LINE_MAX_];
	size_t len; /* bytes in line */
	int indent; /* of the next line */
	int base;   /* the paragraph indent (.RS moves it) */
	int nofill; /* inside .EX/.EE */
	int tag;    /* the next line is a .TP tag */
	int blank;  /* a blank line is due before the next text */
};

static void
flush(struct out *o)
{
	if (o->len) {
		fprintf(o->f, "%.*s\n", (int)o->len, o->line);
		o->len = 0;
	}
}

static void
word(struct out *o, const char *w, size_t n)
{
	if (!n)
		return;
	if (o->blank) {
		flush(o);
		fputc('\n', o->f);
		o->blank = 0;
	}
	if (o->len && o->len + 1 + n > WIDTH)
		flush(o);
	if (!o->len) {
		memset(o->line, ' ', (size_t)o->indent);
		o->len = (size_t)o->indent;
	} else {
		o->line[o->len++] = ' ';
	}
	if (o->len + n >= LINE_MAX_)
		n = LINE_MAX_ - o->len - 1;
	memcpy(o->line + o->len, w, n);
	o->len += n;
}

/* Unescaped text s[0..n) into buf (at most size - 1 bytes): its length. */
static size_t
unescape(const char *s, size_t n, char *buf, size_t size)
{
	size_t i, k, w = 0;

#define PUT(str)                                                               \
	do {                                                                   \
		const char *p_ = (str);                                        \
		while (*p_ && w + 1 < size)                                    \
			buf[w++] = *p_++;                                      \
	} while (0)
	for (i = 0; i < n; i++) {
		char one[2] = {s[i], '\0'};

		if (s[i] != '\\' || i + 1 >= n) {
			PUT(one);
			continue;
		}
		i++;
		switch (s[i]) {
		case '"':
			i = n; /* a comment to the end of the line */
			break;
		case 'f':
			i += i + 1 < n && s[i + 1] == '(' ? 3 : 1;
			break;
		case '-':
			PUT("-");
			break;
		case ' ':
		case '~':
			PUT("\x01"); /* a space that does not break */
			break;
		case 'e':
			PUT("\\");
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
				PUT(named[k].text);
			i += 2;
			break;
		default:
			one[0] = s[i];
			PUT(one);
			break;
		}
	}
#undef PUT
	buf[w] = '\0';
	return w;
}

/* Text (already unescaped) into the output: filled, or as one line. */
static void
emit_text(struct out *o, char *t, size_t n)
{
	size_t i, a;

	for (i = 0; i < n; i++)
		if (t[i] == '\x01' && o->nofill)
			t[i] = ' ';
	if (o->nofill) {
		if (o->blank) {
			fputc('\n', o->f);
			o->blank = 0;
		}
		fprintf(o->f, "%*s%.*s\n", o->indent, "", (int)n, t);
		return;
	}
	for (i = 0; i < n;) {
		while (i < n && t[i] == ' ')
			i++;
		a = i;
		while (i < n && t[i] != ' ')
			i++;
		for (size_t k = a; k < i; k++)
			if (t[k] == '\x01')
				t[k] = ' ';
		word(o, t + a, i - a);
	}
	if (o->tag) {
		/* a .TP tag stands on its own line; the body is indented */
		flush(o);
		o->tag = 0;
		o->indent = o->base + 7;
	}
}

/* The arguments of a font request, quotes removed, joined (alternating
 * fonts: no space) or spaced (.B, .I), unescaped into buf. */
static size_t
font_args(const char *s, size_t n, int spaced, char *buf, size_t size)
{
	size_t i = 0, a, w = 0;
	int first = 1;

	while (i < n && w + 1 < size) {
		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			break;
		if (!first && spaced)
			buf[w++] = ' ';
		first = 0;
		if (s[i] == '"') {
			a = ++i;
			while (i < n && s[i] != '"')
				i++;
			w += unescape(s + a, i - a, buf + w, size - w);
			i++;
		} else {
			a = i;
			while (i < n && s[i] != ' ')
				i += s[i] == '\\' && i + 1 < n ? 2 : 1;
			if (i > n)
				i = n;
			w += unescape(s + a, i - a, buf + w, size - w);
		}
	}
	buf[w] = '\0';
	return w;
}

static int
is_request(const char *s, size_t n, const char *name)
{
	size_t l = strlen(name);

	return n >= l && strncmp(s, name, l) == 0 && (n == l || s[l] == ' ');
}

static void
paragraph(struct out *o)
{
	flush(o);
	o->blank = 1;
	o->indent = o->base;
}

void
cli_man_text(FILE *f, const char *roff)
{
	struct out o = {f, "", 0, 7, 7, 0, 0, 0};
	char buf[LINE_MAX_];
	const char *p = roff, *e;

	for (; *p; p = *e ? e + 1 : e) {
		size_t n, skip, len;

		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		n = (size_t)(e - p);
		if (n == 0 || (p[0] != '.' && p[0] != '\'')) {
			len = unescape(p, n, buf, sizeof(buf));
			emit_text(&o, buf, len);
			continue;
		}
		skip = strcspn(p, " ");
		skip = skip < n ? skip + 1 : n;
		if (is_request(p, n, ".SH") || is_request(p, n, ".SS")) {
			int sub = p[2] == 'S';

			flush(&o);
			fputc('\n', f);
			len =
			    font_args(p + skip, n - skip, 1, buf, sizeof(buf));
			for (size_t k = 0; k < len; k++)
				if (buf[k] == '\x01')
					buf[k] = ' ';
			fprintf(f, "%s%s\n", sub ? "   " : "", buf);
			o.base = o.indent = 7;
			o.blank = 0;
		} else if (is_request(p, n, ".B") || is_request(p, n, ".I")) {
			len =
			    font_args(p + skip, n - skip, 1, buf, sizeof(buf));
			emit_text(&o, buf, len);
		} else if (n > 2 && strchr("BIR", p[1]) &&
			   strchr("BIR", p[2]) && (n == 3 || p[3] == ' ')) {
			len =
			    font_args(p + skip, n - skip, 0, buf, sizeof(buf));
			emit_text(&o, buf, len);
		} else if (is_request(p, n, ".PP") || is_request(p, n, ".LP") ||
			   is_request(p, n, ".P")) {
			paragraph(&o);
		} else if (is_request(p, n, ".TP")) {
			paragraph(&o);
			o.tag = 1;
		} else if (is_request(p, n, ".TQ")) {
			flush(&o);
			o.indent = o.base;
			o.tag = 1;
		} else if (is_request(p, n, ".IP")) {
			paragraph(&o);
			/* the tag (a bullet) then the body beside it */
			len = strcspn(p + skip, " \n");
			len =
			    font_args(p + skip, len < n - skip ? len : n - skip,
				      1, buf, sizeof(buf));
			if (len)
				word(&o, buf, len);
		} else if (is_request(p, n, ".RS")) {
			flush(&o);
			o.base += 7;
			o.indent = o.base;
		} else if (is_request(p, n, ".RE")) {
			flush(&o);
			o.base = o.base > 7 ? o.base - 7 : 7;
			o.indent = o.base;
		} else if (is_request(p, n, ".EX")) {
			flush(&o);
			o.nofill = 1;
		} else if (is_request(p, n, ".EE")) {
			o.nofill = 0;
		} else if (is_request(p, n, ".br")) {
			flush(&o);
		} else if (is_request(p, n, ".UR")) {
			len = unescape(p + skip, n - skip, buf, sizeof(buf));
			emit_text(&o, buf, len);
		}
		/* .TH, .UE and comments: nothing */
	}
	flush(&o);
}
