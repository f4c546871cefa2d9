/* declared.c - the lowest torch a package declares it supports
 * SPDX-License-Identifier: MIT
 *
 * Three line-oriented readers (pyproject.toml, setup.cfg,
 * requirements*.txt) hand each dependency string to one judge, which
 * keeps the lowest torch floor of the current source. No reader goes
 * past its file's bytes; each file is read whole (bounded) and freed
 * before the next. See declared.h for what is read and what is not.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/declared.h"
#include "lib/pep/name.h"
#include "lib/pep/requirement.h"
#include "lib/util/buf.h"
#include "lib/util/file.h"

/* Requirement files looked at, at most (requirements*.txt). */
#define REQ_FILES_MAX 64

/* What one source (one file, or all requirements*.txt) declares. */
struct source {
	int named;   /* a torch requirement was seen */
	int nofloor; /* one of them has no lower bound */
	int have;    /* best holds a floor */
	struct tg_declared best;
	const char *path; /* the file being read */
	int oom;
};

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Judge one dependency string s[0..len) at line of the current file. */
static void
consider(struct source *src, const char *s, size_t len, size_t line)
{
	struct tg_requirement req = TG_REQUIREMENT_INIT;
	const struct tg_version *lb = NULL;
	char *name = NULL;
	size_t k;

	while (len && is_space(*s)) {
		s++;
		len--;
	}
	while (len && is_space(s[len - 1]))
		len--;
	if (!len || tg_requirement_parse(&req, s, len, NULL))
		goto out;
	name = tg_name_canonicalize(req.name);
	if (!name) {
		src->oom = 1;
		goto out;
	}
	if (strcmp(name, "torch") != 0)
		goto out;
	src->named = 1;
	for (k = 0; k < req.spec.n; k++) {
		const struct tg_spec *sp = &req.spec.specs[k];

		if (sp->op != TG_OP_GE && sp->op != TG_OP_COMPATIBLE &&
		    sp->op != TG_OP_EQ && sp->op != TG_OP_GT)
			continue;
		if (!lb || tg_version_cmp(&sp->v, lb) > 0)
			lb = &sp->v;
	}
	if (!lb) {
		src->nofloor = 1;
		goto out;
	}
	if (src->have && tg_version_cmp(lb, &src->best.floor) >= 0)
		goto out;
	tg_declared_release(&src->best);
	src->best.path = strdup(src->path);
	src->best.requirement = malloc(len + 1);
	if (!src->best.path || !src->best.requirement ||
	    tg_version_dup(&src->best.floor, lb)) {
		src->oom = 1;
		goto out;
	}
	memcpy(src->best.requirement, s, len);
	src->best.requirement[len] = '\0';
	src->best.line = line;
	src->have = 1;
out:
	free(name);
	tg_requirement_release(&req);
}

/* The next line of s[0..len) from *pos: [*b, *e) without its newline. */
static int
next_line(const char *s, size_t len, size_t *pos, const char **b,
	  const char **e)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	*b = s + *pos;
	nl = memchr(*b, '\n', len - *pos);
	*e = nl ? nl : s + len;
	*pos = (size_t)(*e - s) + (nl ? 1 : 0);
	return 1;
}

static const char *
skip_space(const char *p, const char *e)
{
	while (p < e && is_space(*p))
		p++;
	return p;
}

/* Whether [p, e) starts with key (bare or quoted), then '='; *after the
 * byte past the '=' and its spaces. */
static int
key_is(const char *p, const char *e, const char *key, const char **after)
{
	size_t n = strlen(key);
	char q = 0;

	if (p < e && (*p == '"' || *p == '\''))
		q = *p++;
	if ((size_t)(e - p) < n || memcmp(p, key, n) != 0)
		return 0;
	p += n;
	if (q) {
		if (p >= e || *p != q)
			return 0;
		p++;
	}
	p = skip_space(p, e);
	if (p >= e || *p != '=')
		return 0;
	*after = skip_space(p + 1, e);
	return 1;
}

/* The array of strings at s + at (just past '['); stops at its ']' or at
 * anything that is not a one-line string, a comma or a comment. */
static void
toml_array(struct source *src, const char *s, size_t len, size_t at,
	   size_t line, struct tg_buf *str)
{
	size_t i = at;

	while (i < len && !src->oom) {
		char c = s[i], q;
		size_t first = line;

		if (c == '\n') {
			line++;
			i++;
		} else if (is_space(c) || c == ',') {
			i++;
		} else if (c == '#') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (c == '"' || c == '\'') {
			q = c;
			if (i + 2 < len && s[i + 1] == q && s[i + 2] == q)
				return; /* a multi-line string */
			tg_buf_clear(str);
			for (i++; i < len && s[i] != q && s[i] != '\n'; i++) {
				if (q == '"' && s[i] == '\\') {
					/* only the escapes a requirement needs */
					if (i + 1 >= len || (s[i + 1] != '"' &&
							     s[i + 1] != '\\'))
						return;
					i++;
				}
				tg_buf_addc(str, s[i]);
			}
			if (i >= len || s[i] != q)
				return;
			i++;
			if (tg_buf_error(str)) {
				src->oom = 1;
				return;
			}
			consider(src, str->data ? str->data : "", str->len,
				 first);
		} else {
			return; /* ']' or not a literal array */
		}
	}
}

static void
read_pyproject(struct source *src, const char *s, size_t len)
{
	struct tg_buf str = TG_BUF_INIT;
	const char *b, *e, *p, *after;
	size_t pos = 0, line = 0;
	int root = 1, project = 0;

	while (next_line(s, len, &pos, &b, &e) && !src->named) {
		line++;
		p = skip_space(b, e);
		if (p < e && *p == '[') {
			const char *n = skip_space(p + 1, e), *ne;

			root = 0;
			ne = memchr(n, ']', (size_t)(e - n));
			while (ne && ne > n && is_space(ne[-1]))
				ne--;
			project = *n != '[' && ne && ne - n == 7 &&
				  memcmp(n, "project", 7) == 0;
			continue;
		}
		if ((project && key_is(p, e, "dependencies", &after)) ||
		    (root && key_is(p, e, "project.dependencies", &after))) {
			if (after < e && *after == '[')
				toml_array(src, s, len, (size_t)(after + 1 - s),
					   line, &str);
			break;
		}
	}
	tg_buf_release(&str);
}

static void
read_setup_cfg(struct source *src, const char *s, size_t len)
{
	const char *b, *e, *p, *k;
	size_t pos = 0, line = 0;
	int options = 0, in_value = 0;

	while (next_line(s, len, &pos, &b, &e)) {
		line++;
		p = skip_space(b, e);
		if (in_value) {
			if (p == e)
				continue;
			if (p == b) {
				in_value = 0; /* the next key or section */
			} else {
				if (*p != '#' && *p != ';')
					consider(src, p, (size_t)(e - p), line);
				continue;
			}
		}
		if (p < e && *p == '[') {
			options = (size_t)(e - p) >= 9 &&
				  memcmp(p, "[options]", 9) == 0;
			continue;
		}
		if (!options || p != b || p == e)
			continue;
		for (k = p; k < e && *k != '=' && *k != ':'; k++)
			;
		if (k == e)
			continue;
		while (k > p && is_space(k[-1]))
			k--;
		if (k - p != 16 || memcmp(p, "install_requires", 16) != 0)
			continue;
		k = p + 16;
		k = skip_space(k, e) + 1;
		k = skip_space(k, e);
		if (k < e)
			consider(src, k, (size_t)(e - k), line);
		in_value = 1;
	}
}

static void
read_requirements(struct source *src, const char *s, size_t len)
{
	const char *b, *e, *p, *c;
	size_t pos = 0, line = 0;

	while (next_line(s, len, &pos, &b, &e)) {
		line++;
		/* a comment starts a line or follows a space */
		for (c = b; c < e; c++)
			if (*c == '#' && (c == b || is_space(c[-1])))
				break;
		e = c;
		p = skip_space(b, e);
		if (p == e || *p == '-')
			continue;
		/* per-requirement options: "torch==2.4 --hash=..." */
		for (c = p; c + 2 < e; c++)
			if (is_space(*c) && c[1] == '-' && c[2] == '-') {
				e = c;
				break;
			}
		consider(src, p, (size_t)(e - p), line);
	}
}

/* dir "/" name, into b. */
static int
join(struct tg_buf *b, const char *dir, const char *name)
{
	size_t n = strlen(dir);

	tg_buf_clear(b);
	tg_buf_adds(b, dir);
	if (n && dir[n - 1] != '/')
		tg_buf_addc(b, '/');
	tg_buf_adds(b, name);
	return tg_buf_error(b);
}

/* Read dir/name with reader into src; 0, or TG_ENOMEM. */
static int
read_one(struct source *src, const char *dir, const char *name,
	 void (*reader)(struct source *, const char *, size_t))
{
	struct tg_buf path = TG_BUF_INIT;
	char *data = NULL;
	size_t len = 0;
	int rc, absent = 0;

	if (join(&path, dir, name)) {
		rc = TG_ENOMEM;
		goto out;
	}
	rc = tg_file_read(path.data, TG_DECLARED_FILE_MAX, &data, &len, &absent,
			  NULL);
	if (rc == TG_ENOMEM)
		goto out;
	rc = 0;
	if (!data)
		goto out;
	src->path = path.data;
	reader(src, data, len);
	src->path = NULL;
	if (src->oom)
		rc = TG_ENOMEM;
out:
	free(data);
	tg_buf_release(&path);
	return rc;
}

static int
cmp_req_name(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	/* requirements.txt first, then the others by name */
	if (strcmp(x, "requirements.txt") == 0)
		return -1;
	if (strcmp(y, "requirements.txt") == 0)
		return 1;
	return strcmp(x, y);
}

/* Every requirements*.txt of dir, as one source. */
static int
read_requirement_files(struct source *src, const char *dir)
{
	char *names[REQ_FILES_MAX];
	size_t n = 0, k, len;
	struct dirent *de;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < REQ_FILES_MAX) {
		len = strlen(de->d_name);
		if (len < 16 || strncmp(de->d_name, "requirements", 12) != 0 ||
		    strcmp(de->d_name + len - 4, ".txt") != 0)
			continue;
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			rc = TG_ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_req_name);
	for (k = 0; k < n && !rc; k++)
		rc = read_one(src, dir, names[k], read_requirements);
	for (k = 0; k < n; k++)
		free(names[k]);
	return rc;
}

int
tg_declared_floor(struct tg_declared *d, const char *dir, struct tg_err *err)
{
	static const char *const files[] = {"pyproject.toml", "setup.cfg"};
	static void (*const readers[])(struct source *, const char *,
				       size_t) = {read_pyproject,
						  read_setup_cfg};
	struct source src;
	size_t k;
	int rc = 0;

	for (k = 0; k < 3; k++) {
		memset(&src, 0, sizeof(src));
		rc = k < 2 ? read_one(&src, dir, files[k], readers[k])
			   : read_requirement_files(&src, dir);
		if (rc || src.named)
			break;
		tg_declared_release(&src.best);
	}
	if (rc) {
		tg_declared_release(&src.best);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	if (!src.named || src.nofloor || !src.have) {
		tg_declared_release(&src.best);
		return tg_err_set(err, TG_ENOENT,
				  "no literal torch floor declared in '%s'",
				  dir);
	}
	*d = src.best;
	return 0;
}

void
tg_declared_release(struct tg_declared *d)
{
	if (!d)
		return;
	tg_version_release(&d->floor);
	free(d->path);
	free(d->requirement);
	memset(d, 0, sizeof(*d));
}
