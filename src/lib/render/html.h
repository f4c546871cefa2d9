/* html.h - escaping and links for the HTML torchgate writes
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_RENDER_HTML_H
#define TG_LIB_RENDER_HTML_H

#include <stddef.h>

#include "lib/util/buf.h"

/* The characters of s, a byte that is not UTF-8 counted as one: the
 * unit of the widths a page estimates. */
size_t tg_html_chars(const char *s);

/* Append s escaped for a text or an attribute value (& < > " ' as
 * entities, a byte that is not UTF-8 and a control character but tab as
 * U+FFFD), cut with an ellipsis when it has more than max characters
 * (the ellipsis counted). */
void tg_html_esc_max(struct tg_buf *b, const char *s, size_t max);

/* tg_html_esc_max() without a cut. */
void tg_html_esc(struct tg_buf *b, const char *s);

/* Append <a href="PATH">PATH:LINE</a>, PATH a relative link (every byte
 * outside [A-Za-z0-9._~/-] percent-encoded, a run of '/' made one), or
 * PATH alone, escaped, when line is 0 (no file to link: what --declared
 * judges). */
void tg_html_use_link(struct tg_buf *b, const char *path, size_t line);

#endif
