/* html.c - escaping and links for the HTML torchgate writes
 * SPDX-License-Identifier: MIT
 *
 * What every HTML writer needs so that text from outside stays text:
 * escaping (& < > " ' as entities, a byte that is not UTF-8 and a
 * control character as U+FFFD, an optional cut with an ellipsis at a
 * number of characters), a count of characters for widths estimated
 * rather than measured, and relative links to a package's files (every
 * byte of a path outside [A-Za-z0-9._~/-] percent-encoded, so a path
 * cannot spell a scheme, and runs of '/' made one, so it cannot spell a
 * host). No state, no allocation but the appends to the caller's
 * buffer; each call is linear in its string.
 */
#include <string.h>

#include "lib/render/html.h"

/* Length of the UTF-8 sequence at s[0..n), or 0 when it is not one. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, k;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (k = 2; k < len; k++)
		if (s[k] < 0x80 || s[k] > 0xbf)
			return 0;
	return len;
}

/* Characters of s (a byte that is not UTF-8 counts as one). */
size_t
tg_html_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k = 0, c = 0, l;

	while (k < n) {
		l = utf8_len(p + k, n - k);
		k += l ? l : 1;
		c++;
	}
	return c;
}

/* s escaped for a text or an attribute value, at most max characters
 * (then cut with an ellipsis); invalid UTF-8 and control characters as
 * U+FFFD. */
void
tg_html_esc_max(struct tg_buf *b, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k = 0, c = 0, l;
	int cut = tg_html_chars(s) > max;

	while (k < n) {
		if (cut && c + 1 >= max) {
			tg_buf_adds(b, "\xe2\x80\xa6");
			return;
		}
		l = utf8_len(p + k, n - k);
		c++;
		if (!l || p[k] == 0x7f || (p[k] < 0x20 && p[k] != '\t')) {
			tg_buf_adds(b, "\xef\xbf\xbd");
			k++;
			continue;
		}
		switch (p[k]) {
		case '&':
			tg_buf_adds(b, "&amp;");
			break;
		case '<':
			tg_buf_adds(b, "&lt;");
			break;
		case '>':
			tg_buf_adds(b, "&gt;");
			break;
		case '"':
			tg_buf_adds(b, "&quot;");
			break;
		case '\'':
			tg_buf_adds(b, "&#39;");
			break;
		default:
			tg_buf_add(b, s + k, l);
		}
		k += l;
	}
}

void
tg_html_esc(struct tg_buf *b, const char *s)
{
	tg_html_esc_max(b, s, (size_t)-1);
}

/* A relative link to path: bytes outside [A-Za-z0-9._~/-] percent-
 * encoded (no scheme can be spelt: ':' is encoded), a run of '/' one
 * (no "//host"). */
static void
href(struct tg_buf *b, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)path;
	size_t k;

	for (k = 0; p[k]; k++) {
		unsigned char c = p[k];

		if (c == '/' && k && p[k - 1] == '/')
			continue;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("._~/-", c)) {
			tg_buf_addc(b, (char)c);
		} else {
			tg_buf_addc(b, '%');
			tg_buf_addc(b, hex[c >> 4]);
			tg_buf_addc(b, hex[c & 15]);
		}
	}
}

/* <a href="PATH">PATH:LINE</a>; PATH alone, no link, without a line
 * (what --declared judges is no file) */
void
tg_html_use_link(struct tg_buf *b, const char *path, size_t line)
{
	if (!line) {
		tg_html_esc(b, path);
		return;
	}
	tg_buf_adds(b, "<a href=\"");
	href(b, path);
	tg_buf_adds(b, "\">");
	tg_html_esc(b, path);
	tg_buf_addf(b, ":%zu</a>", line);
}
