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
	size_t k;

	for (k = 0; k < m->n; k++) {
		free(m->fields[k].name);
		free(m->fields[k].value);
	}
	free(m->fields);
	m->fields = NULL;
	m->n = 0;
}

/* End of the line starting at i (the index of its terminator). */
static size_t
line_end(const char *s, size_t i, size_t len)
{
	while (i < len && s[i] != '\n' && s[i] != '\r')
		i++;
	return i;
}

static size_t
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

	while (j < e && s[j] != ':') {
		unsigned char c = (unsigned char)s[j];

		if (c < 0x21 || c > 0x7e)
			return (size_t)-1;
		j++;
	}
	return j < e ? j - i : (size_t)-1;
}

static size_t
lineno_at(const char *s, size_t pos)
{
	size_t k, n = 1;

	for (k = 0; k < pos; k++)
		if (s[k] == '\n' ||
		    (s[k] == '\r' && (k + 1 == pos || s[k + 1] != '\n')))
			n++;
	return n;
}

/* Give the last field, if it has none yet, its value s[vs..ve): one copy
 * per field, however many continuation lines it has. */
static int
finish(struct tg_meta *m, const char *s, size_t vs, size_t ve,
       struct tg_err *err)
{
	struct tg_meta_field *f = m->n ? &m->fields[m->n - 1] : NULL;

	if (!f || f->value)
		return 0;
	f->value = tg_str_ndup(s + vs, ve - vs);
	return f->value ? 0 : tg_err_set(err, TG_ENOMEM, "out of memory");
}

int
tg_meta_parse(struct tg_meta *m, const char *s, size_t len, int truncated,
	      const char *file, struct tg_err *err)
{
	size_t i = 0, bad, cap = 0, vs = 0, ve = 0;
	int rc = 0, ended = 0;

	m->fields = NULL;
	m->n = 0;
	if (len >= 5 && memcmp(s, "From ", 5) == 0)
		i = after_newline(s, line_end(s, 0, len), len);
	while (i < len) {
		size_t e = line_end(s, i, len), nl;
		struct tg_meta_field *f;

		if (e == i) {
			ended = 1;
			break;
		}
		nl = name_len(s, i, e);
		if (s[i] != ' ' && s[i] != '\t' && nl == (size_t)-1) {
			ended = 1; /* not a header: the body starts here */
			break;
		}
		if (truncated && e == len)
			break; /* the line goes on past what was read */
		if (tg_str_has_nul(s + i, e - i)) {
			rc = tg_err_set(err, TG_EINVAL,
					"cannot parse '%s': line %zu: binary "
					"data (a NUL byte)",
					file, lineno_at(s, i));
			goto out;
		}
		if (!tg_str_utf8_valid(s + i, e - i, &bad)) {
			rc = tg_err_set(err, TG_EINVAL,
					"cannot parse '%s': line %zu: invalid "
					"UTF-8",
					file, lineno_at(s, i));
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
			if (TG_GROW(m->fields, m->n + 1, cap)) {
				rc =
				    tg_err_set(err, TG_ENOMEM, "out of memory");
				goto out;
			}
			while (v < e && (s[v] == ' ' || s[v] == '\t'))
				v++;
			if ((rc = finish(m, s, vs, ve, err)))
				goto out;
			f = &m->fields[m->n];
			f->value = NULL;
			f->name = tg_str_ndup(s + i, nl);
			if (!f->name) {
				rc =
				    tg_err_set(err, TG_ENOMEM, "out of memory");
				goto out;
			}
			m->n++;
			vs = v;
			ve = e;
		}
	next:
		i = after_newline(s, e, len);
		if (truncated && i >= len)
			break;
	}
	if (!rc)
		rc = finish(m, s, vs, ve, err);
	if (!rc && truncated && !ended)
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
tg_meta_load(struct tg_meta *m, const char *path, int *absent,
	     struct tg_err *err)
{
	char *text = NULL;
	size_t len;
	int truncated, rc;

	m->fields = NULL;
	m->n = 0;
	rc = tg_file_read_head(path, TG_META_HEAD_MAX, &text, &len, &truncated,
			       absent, err);
	if (rc || !text)
		return rc;
	rc = tg_meta_parse(m, text, len, truncated, path, err);
	free(text);
	return rc;
}

const char *
tg_meta_next(const struct tg_meta *m, const char *name, size_t *pos)
{
	for (; *pos < m->n; (*pos)++)
		if (strcasecmp(m->fields[*pos].name, name) == 0)
			return m->fields[*pos].value;
	return NULL;
}

const char *
tg_meta_get(const struct tg_meta *m, const char *name)
{
	size_t i = 0;

	return tg_meta_next(m, name, &i);
}
