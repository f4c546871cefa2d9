/* editable.c - setuptools' editable finders, read as text
 * SPDX-License-Identifier: MIT
 *
 * The MAPPING line is the repr() of a dict of str to str. Accepted:
 * `MAPPING = {` or `MAPPING: <annotation> = {`, then 'key': 'value'
 * pairs in single or double quotes without backslashes, then `}`. The
 * finder module is read up to 1 MiB.
 */
#include "lib/pyenv/editable.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/file.h"
#include "lib/util/str.h"
#include "lib/util/path.h"

#define FINDER_MAX ((size_t)1024 * 1024)

static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* A quoted literal at p: its body in [*s, *s + *n); returns past it. */
static const char *
literal(const char *p, const char **s, size_t *n)
{
	char q = *p;
	const char *e;

	if (q != '\'' && q != '"')
		return NULL;
	for (e = p + 1; *e && *e != q && *e != '\\' && *e != '\n'; e++)
		;
	if (*e != q)
		return NULL;
	*s = p + 1;
	*n = (size_t)(e - p - 1);
	return e + 1;
}

static int
lookup_mapping(const char *text, const char *file, const char *package,
	       char **dir, struct tg_err *err)
{
	const char *p = text;

	for (;;) {
		p = strstr(p, "MAPPING");
		if (!p)
			return 0;
		if ((p == text || p[-1] == '\n') &&
		    (p[7] == ' ' || p[7] == ':' || p[7] == '='))
			break;
		p += 7;
	}
	p = strchr(p, '=');
	if (!p || *(p = skip_ws(p + 1)) != '{')
		goto bad;
	p = skip_ws(p + 1);
	while (*p != '}') {
		const char *k, *v;
		size_t kn, vn;

		if (!(p = literal(p, &k, &kn)))
			goto bad;
		p = skip_ws(p);
		if (*p != ':')
			goto bad;
		if (!(p = literal(skip_ws(p + 1), &v, &vn)))
			goto bad;
		if (kn == strlen(package) && memcmp(k, package, kn) == 0) {
			*dir = tg_str_ndup(v, vn);
			return *dir ? 0
				    : tg_err_set(err, TG_ENOMEM,
						 "out of memory");
		}
		p = skip_ws(p);
		if (*p == ',')
			p = skip_ws(p + 1);
		else if (*p != '}')
			goto bad;
	}
	return 0;
bad:
	return tg_err_set(err, TG_EINVAL,
			  "cannot parse '%s': MAPPING is not a dict of "
			  "plain strings",
			  file);
}

int
tg_editable_lookup(const char *pth_file, const char *text, const char *package,
		   char **dir, char **finder, struct tg_err *err)
{
	const char *m = text + strlen("import"), *e;
	char *dirname = NULL, *name = NULL, *content = NULL;
	size_t len, n;
	int rc = 0;

	*dir = NULL;
	*finder = NULL;
	if (strncmp(tg_path_basename(pth_file), "__editable__", 12) != 0)
		return 0;
	while (*m == ' ' || *m == '\t')
		m++;
	for (e = m; *e && *e != ';' && *e != ' ' && *e != '\t' && *e != ',';
	     e++)
		;
	n = (size_t)(e - m);
	if (n == 0 || strncmp(m, "__editable___", 13) != 0 ||
	    memchr(m, '/', n) || memchr(m, '.', n))
		return 0;
	dirname = tg_path_dirname(pth_file);
	name = malloc(n + 4);
	if (!dirname || !name) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	memcpy(name, m, n);
	memcpy(name + n, ".py", 4);
	*finder = tg_path_join(dirname, name);
	if (!*finder) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	rc = tg_file_read(*finder, FINDER_MAX, &content, &len, NULL, err);
	if (!rc && memchr(content, '\0', len))
		rc = tg_err_set(err, TG_EINVAL,
				"cannot parse '%s': binary data", *finder);
	if (!rc)
		rc = lookup_mapping(content, *finder, package, dir, err);
out:
	if (rc || !*dir) {
		free(*finder);
		*finder = NULL;
	}
	free(dirname);
	free(name);
	free(content);
	return rc;
}
