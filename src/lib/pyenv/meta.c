/* meta.c - core-metadata headers as Python's email parser reads them
 * SPDX-License-Identifier: MIT
 *
 * A header line is `name:value` where name is printable ASCII other than
 * ':' (email.feedparser's headerRE); `From ` at the very top is skipped.
 * Values keep their continuation lines (line ends and leading blanks
 * included, as written), as compat32 does. Header lines must be UTF-8 without NUL
 * bytes (importlib.metadata decodes the file as UTF-8); the body is not
 * read past the first TG_META_HEAD_MAX bytes and not checked.
 */
#include "lib/pyenv/meta.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util/buf.h"
#include "lib/util/file.h"
#include "lib/util/str.h"
#include "lib/util/grow.h"

#define MAX_FIELDS 100000

void
tg_meta_release(struct tg_meta *m)
{
	free(m->fields);
	free(m->store);
	m->fields = NULL;
	m->n = 0;
	m->store = NULL;
}

/* Set *cr to the first '\r' in s[from..), looked for a page at a time:
 * where the look stopped (a byte that is not '\r', or len) if none. */
static void
look_cr(const char *s, size_t from, size_t len, size_t *cr)
{
	size_t b = len - from > 4096 ? from + 4096 : len;
	const char *r = memchr(s + from, '\r', b - from);

	*cr = r ? (size_t)(r - s) : b;
}

/* End of the line starting at i (the index of its terminator). '\r' is
 * looked for ahead rather than on every line (most files have none):
 * when *cr >= i, there is no '\r' in s[i..*cr), and *cr is one or where
 * the look stopped; 0 to start. */
static inline size_t
line_end(const char *s, size_t i, size_t len, size_t *cr)
{
	const char *nl = memchr(s + i, '\n', len - i);
	size_t e = nl ? (size_t)(nl - s) : len;

	if (*cr < i)
		look_cr(s, i, len, cr);
	while (*cr < e && s[*cr] != '\r')
		look_cr(s, *cr, len, cr);
	return *cr < e ? *cr : e;
}

static inline size_t
after_newline(const char *s, size_t i, size_t len)
{
	if (i < len && s[i] == '\r') {
		i++;
		if (i < len && s[i] == '\n')
			i++;
	} else if (i < len && s[i] == '\n') {
		i++;
	}
	return i;
}

static size_t
name_len(const char *s, size_t i, size_t e)
{
	size_t j = i;

	/* the names of most lines, printable up to their ':', at once */
	if (e - i >= 14 && memcmp(s + i, "Requires-Dist:", 14) == 0)
		return 13;
	if (e - i >= 11 && memcmp(s + i, "Classifier:", 11) == 0)
		return 10;
	if (e - i >= 15 && memcmp(s + i, "Provides-Extra:", 15) == 0)
		return 14;
	if (e - i >= 8 && memcmp(s + i, "Dynamic:", 8) == 0)
		return 7;
	if (e - i >= 12 && memcmp(s + i, "Project-URL:", 12) == 0)
		return 11;

	while (j < e && s[j] != ':') {
		unsigned char c = (unsigned char)s[j];

		if (c < 0x21 || c > 0x7e)
			return (size_t)-1;
		j++;
	}
	return j < e ? j - i : (size_t)-1;
}

/* The first byte at or after i and before e that is NUL or not ASCII,
 * or e: the lines before it need neither check. Eight bytes at a time:
 * (w - 0x01..) | w has a high bit set in a byte of a word that holds a
 * 0x00 or a byte >= 0x80, and only then (a borrow starts at a zero). */
static size_t
next_odd(const char *s, size_t i, size_t e)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	const uint64_t highs = UINT64_C(0x8080808080808080);
	uint64_t w;

	uint64_t x, y, z;

	/* 32 bytes a turn while all four words are plain */
	for (; e - i >= 32; i += 32) {
		memcpy(&w, s + i, 8);
		memcpy(&x, s + i + 8, 8);
		memcpy(&y, s + i + 16, 8);
		memcpy(&z, s + i + 24, 8);
		if (((w - ones) | w | (x - ones) | x | (y - ones) | y |
		     (z - ones) | z) &
		    highs)
			break;
	}
	for (; e - i >= 16; i += 16) {
		memcpy(&w, s + i, 8);
		memcpy(&x, s + i + 8, 8);
		if (((w - ones) | w | (x - ones) | x) & highs)
			break;
	}
	for (; e - i >= 8; i += 8) {
		memcpy(&w, s + i, 8);
		if (((w - ones) | w) & highs)
			break;
	}
	for (; i < e; i++)
		if (s[i] == '\0' || (unsigned char)s[i] >= 0x80)
			return i;
	return e;
}

/* Give the last field, if it has none yet, its value s[vs..ve), ended
 * in place: the line end at ve is behind the parse by now. */
static void
finish(struct tg_meta *m, char *s, size_t vs, size_t ve)
{
	struct tg_meta_field *f = m->n ? &m->fields[m->n - 1] : NULL;

	if (!f || f->value)
		return;
	f->value = s + vs;
	s[ve] = '\0';
}

/* Parse s (len bytes, len + 1 allocated) in place, and keep it as
 * m->store: each name ends where its ':' was, each value at its last
 * line end. Takes s, also on failure. A line that ends a value or a
 * name is behind the parse when it is changed, and line numbers are
 * counted as the lines go by. */
static int
parse_owned(struct tg_meta *m, char *s, size_t len, int truncated,
	    const char *file, struct tg_err *err)
{
	size_t i = 0, bad, cap = 0, vs = 0, ve = 0, lineno = 1, odd = 0;
	size_t cr = 0;
	int rc = 0, ended = 0;

	m->fields = NULL;
	m->n = 0;
	m->store = s;
	if (len >= 5 && memcmp(s, "From ", 5) == 0) {
		i = after_newline(s, line_end(s, 0, len, &cr), len);
		lineno++;
	}
	while (i < len) {
		size_t e = line_end(s, i, len, &cr), nl = (size_t)-1;
		struct tg_meta_field *f;

		if (e == i) {
			ended = 1;
			break;
		}
		if (s[i] != ' ' && s[i] != '\t')
			nl = name_len(s, i, e);
		if (s[i] != ' ' && s[i] != '\t' && nl == (size_t)-1) {
			ended = 1; /* not a header: the body starts here */
			break;
		}
		if (truncated && e == len)
			break; /* the line goes on past what was read */
		/* looked for a page at a time: never far into the body */
		if (odd < i)
			odd = next_odd(s, i, len - i > 4096 ? i + 4096 : len);
		if (odd < e && tg_str_has_nul(s + i, e - i)) {
			rc = tg_err_set(err, TG_EINVAL,
					"cannot parse '%s': line %zu: binary "
					"data (a NUL byte)",
					file, lineno);
			goto out;
		}
		if (odd < e && !tg_str_utf8_valid(s + i, e - i, &bad)) {
			rc = tg_err_set(err, TG_EINVAL,
					"cannot parse '%s': line %zu: invalid "
					"UTF-8",
					file, lineno);
			goto out;
		}
		if (s[i] == ' ' || s[i] == '\t') {
			/* a continuation with no header before it: a defect
			 * Python records and skips */
			if (m->n == 0)
				goto next;
			ve = e; /* the value runs on, line ends and all */
		} else if (nl == (size_t)-1) {
			ended = 1; /* not a header: the body starts here */
			break;
		} else {
			size_t v = i + nl + 1;

			if (m->n == MAX_FIELDS) {
				rc = tg_err_set(err, TG_ELIMIT,
						"cannot parse '%s': more than "
						"%d header fields",
						file, MAX_FIELDS);
				goto out;
			}
			/* room for a typical file's fields at once */
			if (m->n == cap &&
			    TG_GROW(m->fields, m->n ? m->n + 1 : 64, cap)) {
				rc =
				    tg_err_set(err, TG_ENOMEM, "out of memory");
				goto out;
			}
			while (v < e && (s[v] == ' ' || s[v] == '\t'))
				v++;
			finish(m, s, vs, ve);
			f = &m->fields[m->n];
			f->value = NULL;
			f->name = s + i;
			s[i + nl] = '\0'; /* the ':' */
			m->n++;
			vs = v;
			ve = e;
		}
	next:
		i = after_newline(s, e, len);
		lineno++;
		if (truncated && i >= len)
			break;
	}
	finish(m, s, vs, ve);
	if (truncated && !ended)
		rc = tg_err_set(err, TG_ELIMIT,
				"cannot parse '%s': header block longer than "
				"%zu bytes",
				file, len);
out:
	if (rc)
		tg_meta_release(m);
	return rc;
}

int
tg_meta_parse(struct tg_meta *m, const char *text, size_t len, int truncated,
	      const char *file, struct tg_err *err)
{
	char *s = malloc(len + 1);

	m->fields = NULL;
	m->n = 0;
	m->store = NULL;
	if (!s)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	memcpy(s, text, len);
	return parse_owned(m, s, len, truncated, file, err);
}

int
tg_meta_load(struct tg_meta *m, const char *path, int *absent,
	     struct tg_err *err)
{
	char *text = NULL;
	size_t len;
	int truncated, rc;

	m->fields = NULL;
	m->n = 0;
	m->store = NULL;
	rc = tg_file_read_head(path, TG_META_HEAD_MAX, &text, &len, &truncated,
			       absent, err);
	if (rc || !text)
		return rc;
	/* read_head leaves room for a NUL after len bytes */
	return parse_owned(m, text, len, truncated, path, err);
}

const char *
tg_meta_next(const struct tg_meta *m, const char *name, size_t *pos)
{
	/* the first byte, case folded, tells most names apart */
	for (; *pos < m->n; (*pos)++)
		if ((m->fields[*pos].name[0] | 0x20) == (name[0] | 0x20) &&
		    strcasecmp(m->fields[*pos].name, name) == 0)
			return m->fields[*pos].value;
	return NULL;
}

const char *
tg_meta_get(const struct tg_meta *m, const char *name)
{
	size_t i = 0;

	return tg_meta_next(m, name, &i);
}
