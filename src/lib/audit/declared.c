/* declared.c - the torch requirements a package declares
 * SPDX-License-Identifier: MIT
 *
 * One reader per kind of file (pyproject.toml through util/toml,
 * setup.cfg, requirements*.txt, PKG-INFO/METADATA, setup.py's literal
 * lists) hands each dependency string, with its file, line and field, to
 * tg_declared_add, which keeps the torch ones with their lower bound.
 * audit's tg_declared_floor picks its sources from that list. No reader
 * goes past its file's bytes; each file is read whole (bounded) and freed
 * before the next. See declared.h for what is read and what is not.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/declared.h"
#include "lib/lex/pylex.h"
#include "lib/pep/name.h"
#include "lib/util/buf.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/util/toml.h"
#include "lib/util/grow.h"

/* Requirement files looked at, at most (requirements*.txt). */
#define REQ_FILES_MAX 64
/* The strings of one setup.py list read. */
#define PY_LIST_MAX 256

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

struct rd {
	struct tg_declared_list *l;
	const char *path; /* the file being read */
	struct tg_err *err;
	int oom;
};

void
tg_declared_list_release(struct tg_declared_list *l)
{
	size_t k;

	if (!l)
		return;
	for (k = 0; k < l->n; k++) {
		struct tg_declaration *d = &l->v[k];

		free(d->path);
		free(d->field);
		free(d->text);
		free(d->spec);
		tg_requirement_release(&d->req);
		tg_version_release(&d->floor);
	}
	free(l->v);
	tg_diag_list_release(&l->notes);
	memset(l, 0, sizeof(*l));
}

int
tg_declared_add(struct tg_declared_list *l, const char *s, size_t len,
		const char *path, size_t line, const char *field,
		struct tg_err *err)
{
	struct tg_declaration d;
	struct tg_buf spec = TG_BUF_INIT;
	const struct tg_version *lb = NULL;
	char *name = NULL;
	size_t k;
	int rc;

	memset(&d, 0, sizeof(d));
	while (len && is_space(*s)) {
		s++;
		len--;
	}
	while (len && is_space(s[len - 1]))
		len--;
	if (!len)
		return 0;
	rc = tg_requirement_parse(&d.req, s, len, err);
	if (rc)
		goto out;
	name = tg_name_canonicalize(d.req.name);
	if (!name) {
		rc = TG_ENOMEM;
		goto out;
	}
	if (strcmp(name, "torch") != 0)
		goto out;
	for (k = 0; k < d.req.spec.n; k++) {
		const struct tg_spec *sp = &d.req.spec.specs[k];

		if (sp->op == TG_OP_LT || sp->op == TG_OP_LE ||
		    sp->op == TG_OP_COMPATIBLE || sp->op == TG_OP_EQ ||
		    sp->op == TG_OP_ARBITRARY)
			d.has_ceiling = 1;
		if (sp->op != TG_OP_GE && sp->op != TG_OP_COMPATIBLE &&
		    sp->op != TG_OP_EQ && sp->op != TG_OP_GT)
			continue;
		if (!sp->v.str)
			continue;
		if (!lb || tg_version_cmp(&sp->v, lb) > 0)
			lb = &sp->v;
	}
	if (lb && tg_version_dup(&d.floor, lb)) {
		rc = TG_ENOMEM;
		goto out;
	}
	d.has_floor = lb != NULL;
	tg_spec_set_format(&d.req.spec, &spec);
	if (TG_GROW(l->v, l->n + 1, l->cap)) {
		rc = TG_ENOMEM;
		goto out;
	}
	d.path = strdup(path);
	d.field = strdup(field);
	d.text = malloc(len + 1);
	d.spec = tg_buf_error(&spec) ? NULL : tg_buf_detach(&spec);
	if (!d.path || !d.field || !d.text || !d.spec) {
		rc = TG_ENOMEM;
		goto out;
	}
	memcpy(d.text, s, len);
	d.text[len] = '\0';
	d.line = line;
	l->v[l->n++] = d;
	free(name);
	return 1;
out:
	tg_buf_release(&spec);
	free(name);
	free(d.path);
	free(d.field);
	free(d.text);
	free(d.spec);
	tg_requirement_release(&d.req);
	tg_version_release(&d.floor);
	if (rc == TG_ENOMEM)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	return rc;
}

/* Add one dependency string; what does not parse is left out. */
static void
consider(struct rd *r, const char *s, size_t len, size_t line,
	 const char *field)
{
	if (tg_declared_add(r->l, s, len, r->path, line, field, NULL) ==
	    TG_ENOMEM)
		r->oom = 1;
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

/* An array of strings in a TOML table, each a requirement. */
static int
toml_list(struct rd *r, const struct tg_toml_value *a, const char *field,
	  const char *what)
{
	size_t k;

	if (!a)
		return 0;
	if (a->type != TG_TOML_ARRAY)
		goto bad;
	for (k = 0; k < a->n; k++)
		if (a->items[k]->type != TG_TOML_STRING)
			goto bad;
	for (k = 0; k < a->n && !r->oom; k++)
		consider(r, a->items[k]->str, a->items[k]->len,
			 a->items[k]->line, field);
	return 0;
bad:
	return tg_err_set(r->err, TG_EINVAL,
			  "cannot read '%s': line %zu: %s is not an array of "
			  "strings",
			  r->path, a->line, what);
}

static int
read_pyproject(struct rd *r, const char *s, size_t len)
{
	struct tg_toml_value *doc = NULL;
	const struct tg_toml_value *project, *opt, *bs;
	struct tg_buf field = TG_BUF_INIT;
	size_t k;
	int rc;

	/* [project] dynamic = ["dependencies"]: a file fills them at build
	 * time (the text is enough to say "maybe") */
	if (memmem(s, len, "dynamic", 7) &&
	    (memmem(s, len, "\"dependencies\"", 14) ||
	     memmem(s, len, "'dependencies'", 14)))
		r->l->computed = 1;
	/* [tool.poetry.dependencies]: metadata pip enforces (poetry-core
	 * writes it), which this reader does not read */
	if (memmem(s, len, "tool.poetry", 11))
		r->l->computed = 1;
	rc = tg_toml_parse(&doc, s, len, r->path, r->err);
	if (rc == TG_ENOMEM)
		r->oom = 1;
	if (rc)
		return rc;
	project = tg_toml_get(doc, "project");
	rc = toml_list(r, tg_toml_get(project, "dependencies"),
		       "[project] dependencies", "[project] dependencies");
	opt = tg_toml_get(project, "optional-dependencies");
	if (!rc && opt && opt->type != TG_TOML_TABLE)
		rc = tg_err_set(r->err, TG_EINVAL,
				"cannot read '%s': line %zu: [project] "
				"optional-dependencies is not a table",
				r->path, opt->line);
	for (k = 0; !rc && opt && k < opt->n; k++) {
		tg_buf_clear(&field);
		tg_buf_addf(&field, "[project.optional-dependencies] %s",
			    opt->keys[k]);
		if (tg_buf_error(&field)) {
			r->oom = 1;
			break;
		}
		rc = toml_list(r, opt->items[k], field.data, field.data);
	}
	bs = tg_toml_get(doc, "build-system");
	if (!rc)
		rc = toml_list(r, tg_toml_get(bs, "requires"),
			       "[build-system] requires",
			       "[build-system] requires");
	tg_buf_release(&field);
	tg_toml_free(doc);
	return rc;
}

/* setup.cfg: [options] install_requires and setup_requires, each key of
 * [options.extras_require]: the rest of the key's line, then the
 * indented lines below it. */
static int
read_setup_cfg(struct rd *r, const char *s, size_t len)
{
	struct tg_buf field = TG_BUF_INIT;
	const char *b, *e, *p, *k;
	size_t pos = 0, line = 0;
	int section = 0, in_value = 0; /* 1 [options], 2 extras_require */

	while (next_line(s, len, &pos, &b, &e) && !r->oom) {
		line++;
		p = skip_space(b, e);
		if (in_value) {
			if (p == e)
				continue;
			if (p == b) {
				in_value = 0; /* the next key or section */
			} else {
				if (*p != '#' && *p != ';')
					consider(r, p, (size_t)(e - p), line,
						 field.data);
				continue;
			}
		}
		if (p < e && *p == '[') {
			section = (size_t)(e - p) >= 9 &&
					  memcmp(p, "[options]", 9) == 0
				      ? 1
				  : (size_t)(e - p) >= 24 &&
					  memcmp(p, "[options.extras_require]",
						 24) == 0
				      ? 2
				      : 0;
			continue;
		}
		if (!section || p != b || p == e || *p == '#' || *p == ';')
			continue;
		for (k = p; k < e && *k != '=' && *k != ':'; k++)
			;
		if (k == e)
			continue;
		while (k > p && is_space(k[-1]))
			k--;
		tg_buf_clear(&field);
		if (section == 2) {
			tg_buf_adds(&field, "extras_require ");
			tg_buf_add(&field, p, (size_t)(k - p));
		} else if ((k - p == 16 &&
			    memcmp(p, "install_requires", 16) == 0) ||
			   (k - p == 14 &&
			    memcmp(p, "setup_requires", 14) == 0)) {
			tg_buf_add(&field, p, (size_t)(k - p));
		} else {
			continue;
		}
		if (tg_buf_error(&field)) {
			r->oom = 1;
			break;
		}
		k = skip_space(k, e) + 1;
		k = skip_space(k, e);
		if (k < e)
			consider(r, k, (size_t)(e - k), line, field.data);
		in_value = 1;
	}
	tg_buf_release(&field);
	return 0;
}

static int
read_requirements(struct rd *r, const char *s, size_t len)
{
	const char *b, *e, *p, *c;
	size_t pos = 0, line = 0;

	while (next_line(s, len, &pos, &b, &e) && !r->oom) {
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
		consider(r, p, (size_t)(e - p), line, "requirements");
	}
	return 0;
}

/* PKG-INFO / METADATA: the Requires-Dist headers, up to the body. */
static int
read_metadata(struct rd *r, const char *s, size_t len)
{
	const char *b, *e, *p;
	size_t pos = 0, line = 0;

	while (next_line(s, len, &pos, &b, &e) && !r->oom) {
		line++;
		if (e > b && e[-1] == '\r')
			e--;
		if (b == e)
			break;
		if ((size_t)(e - b) < 14 ||
		    strncmp(b, "Requires-Dist:", 14) != 0)
			continue;
		p = skip_space(b + 14, e);
		consider(r, p, (size_t)(e - p), line, "Requires-Dist");
	}
	return 0;
}

/* A plain Python string literal at s + *i ('...' or "...", one line, the
 * escapes \\ \' \" only, no prefix) into out; 0 when it is not one. */
static int
py_literal(const char *s, size_t len, size_t *i, struct tg_buf *out)
{
	char q = s[*i];
	size_t k;

	if (*i + 2 < len && s[*i + 1] == q && s[*i + 2] == q)
		return 0;
	tg_buf_clear(out);
	for (k = *i + 1; k < len && s[k] != q; k++) {
		if (s[k] == '\n')
			return 0;
		if (s[k] == '\\') {
			if (k + 1 >= len ||
			    (s[k + 1] != '\\' && s[k + 1] != '\'' &&
			     s[k + 1] != '"'))
				return 0;
			k++;
		}
		tg_buf_addc(out, s[k]);
	}
	if (k >= len)
		return 0;
	*i = k + 1;
	return 1;
}

/* Whether the code after a list's ']' at s + i goes on with + or *
 * (blanks and a line continuation between): the list is extended. */
static int
py_extended(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\\' ||
			   s[i] == '\r' || s[i] == '\n'))
		i++;
	return i < len && (s[i] == '+' || s[i] == '*');
}

/* The list after "KEY = [" at s + at, when it holds only plain string
 * literals, commas, comments and spaces: each added. */
static void
py_list(struct rd *r, const char *s, size_t len, size_t at, size_t line,
	const char *field)
{
	struct tg_buf str = TG_BUF_INIT;
	struct {
		size_t off, len, line;
	} items[PY_LIST_MAX];
	size_t n = 0, i = at, k, first = line;
	char *texts = NULL;
	int over = 0, plain = 0;

	for (;;) {
		if (i >= len)
			goto out;
		if (s[i] == '\n') {
			line++;
			i++;
		} else if (is_space(s[i]) || s[i] == ',') {
			i++;
		} else if (s[i] == '#') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (s[i] == ']') {
			plain = 1;
			break;
		} else if ((s[i] == '"' || s[i] == '\'') && n == PY_LIST_MAX) {
			struct tg_buf one = TG_BUF_INIT;
			int lit = py_literal(s, len, &i, &one);
			int oom = tg_buf_error(&one);

			/* past the cap: still a literal list, but said */
			tg_buf_release(&one);
			if (oom)
				r->oom = 1;
			if (!lit || oom)
				goto out;
			over = 1;
		} else if (s[i] == '"' || s[i] == '\'') {
			size_t before = str.len;

			/* collect into one buffer: "a\0b\0..." */
			{
				struct tg_buf one = TG_BUF_INIT;

				if (!py_literal(s, len, &i, &one) ||
				    tg_buf_error(&one)) {
					/* a string cut short by out of
					 * memory is not read as it */
					if (tg_buf_error(&one))
						r->oom = 1;
					tg_buf_release(&one);
					goto out;
				}
				tg_buf_add(&str, one.data ? one.data : "",
					   one.len);
				tg_buf_addc(&str, '\0');
				tg_buf_release(&one);
			}
			items[n].off = before;
			items[n].len = str.len - before - 1;
			items[n].line = line;
			n++;
		} else {
			goto out; /* not a plain literal list */
		}
	}
	if (tg_buf_error(&str)) {
		r->oom = 1;
		goto out;
	}
	texts = str.data;
	for (k = 0; k < n && !r->oom; k++)
		consider(r, texts + items[k].off, items[k].len, items[k].line,
			 field);
	if (over && !r->oom &&
	    tg_diag_add(&r->l->notes, TG_SEV_WARNING, 0, r->path, first, 0,
			"declared-skipped", NULL,
			"'%s' line %zu: %s holds more than %d strings: only "
			"the first %d are read",
			r->path, first, field, PY_LIST_MAX, PY_LIST_MAX))
		r->oom = 1;
out:
	/* install_requires that this list does not show whole (a
	 * comprehension or another expression in it, strings past the cap,
	 * the list extended: ["a"] + read(), ["a"] * 2): what pip enforces
	 * is computed */
	if (strcmp(field, "install_requires") == 0 &&
	    (!plain || over || py_extended(s, len, i + 1)))
		r->l->computed = 1;
	tg_buf_release(&str);
}

/* Whether token t is the one-byte operator c. */
static int
op_is(const char *s, const struct tg_pylex_tok *t, char c)
{
	return t->kind == TG_PYLEX_OP && t->len == 1 && s[t->off] == c;
}

/* setup.py, never run: the code tokens install_requires = [ and
 * setup_requires = [ (a keyword argument or an assignment; never in a
 * comment or a string, lex/pylex tells) with a literal list. */
static int
read_setup_py(struct rd *r, const char *s, size_t len)
{
	static const char *const keys[] = {"install_requires",
					   "setup_requires"};
	struct tg_pylex lx;
	struct tg_pylex_tok a, b, c; /* the last three tokens, c the newest */
	size_t k;

	memset(&a, 0, sizeof(a));
	a.kind = TG_PYLEX_END;
	b = a;
	tg_pylex_init(&lx, s, len);
	while (!r->oom && tg_pylex_next(&lx, &c) && c.kind != TG_PYLEX_END) {
		if (c.kind == TG_PYLEX_COMMENT || c.kind == TG_PYLEX_NL)
			continue;
		if (a.kind == TG_PYLEX_NAME && op_is(s, &b, '=') &&
		    !op_is(s, &c, '[') && a.len == 16 &&
		    memcmp(s + a.off, "install_requires", 16) == 0)
			r->l->computed = 1;
		/* a string naming it: a dict's key (**{"install_requires":
		 * reqs}), setattr: not a list this reader sees */
		if (c.kind == TG_PYLEX_STRING && c.len == 18 &&
		    memcmp(s + c.off + 1, "install_requires", 16) == 0)
			r->l->computed = 1;
		if (a.kind == TG_PYLEX_NAME && op_is(s, &b, '=') &&
		    op_is(s, &c, '['))
			for (k = 0; k < 2; k++)
				if (a.len == strlen(keys[k]) &&
				    memcmp(s + a.off, keys[k], a.len) == 0)
					py_list(r, s, len, c.off + 1, c.line,
						keys[k]);
		a = b;
		b = c;
	}
	return 0;
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

/* Read dir/name with reader; 0, TG_EINVAL (err set, from the reader),
 * or TG_ENOMEM. */
static int
read_one(struct rd *r, const char *dir, const char *name,
	 int (*reader)(struct rd *, const char *, size_t))
{
	struct tg_buf path = TG_BUF_INIT;
	struct tg_err ferr = TG_ERR_INIT;
	char *data = NULL, *link = NULL, *target = NULL, *lf = NULL;
	size_t len = 0;
	int rc, absent = 0;

	if (join(&path, dir, name)) {
		rc = TG_ENOMEM;
		goto out;
	}
	rc = tg_path_beneath(dir, name, &link, &target, NULL);
	if (rc == 0 &&
	    tg_diag_add(&r->l->notes, TG_SEV_WARNING, 0, link, 0, 0,
			"declared-outside", NULL,
			"skipped '%s': a symlink to '%s', outside '%s'", link,
			target ? target : "?", dir))
		rc = TG_ENOMEM;
	if (rc != 1) {
		rc = rc < 0 ? TG_ENOMEM : 0;
		goto out;
	}
	rc = tg_file_read_inside(path.data, dir, TG_DECLARED_FILE_MAX, &data,
				 &len, &absent, &ferr);
	if (rc == TG_ENOMEM)
		goto out;
	if (rc && !absent &&
	    tg_diag_add(&r->l->notes, TG_SEV_WARNING, 0, path.data, 0, 0,
			"declared-skipped", NULL, "skipped: %s", ferr.msg)) {
		rc = TG_ENOMEM;
		goto out;
	}
	rc = 0;
	if (!data)
		goto out;
	/* a lone CR ends a line for pip, configparser, the email parser
	 * and Python's tokenizer (TOML does not take one) */
	if (reader != read_pyproject) {
		if (tg_str_lone_cr(data, len, &lf)) {
			rc = TG_ENOMEM;
			goto out;
		}
		if (lf) {
			free(data);
			data = lf;
		}
	}
	r->path = path.data;
	rc = reader(r, data, len);
	r->path = NULL;
	if (r->oom)
		rc = TG_ENOMEM;
out:
	free(target);
	free(link);
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

/* Every requirements*.txt of dir, in name order; and the *.egg-info
 * directories' PKG-INFO. All names are collected and sorted first, so
 * that the REQ_FILES_MAX read are the same whatever the directory's
 * order; each one past them is a warning naming it. */
static int
read_dir_files(struct rd *r, const char *dir, int egg)
{
	char **names = NULL;
	size_t n = 0, cap = 0, k, len;
	struct dirent *de;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (egg ? len < 10 || strcmp(de->d_name + len - 9, ".egg-info")
			: len < 16 ||
			      strncmp(de->d_name, "requirements", 12) != 0 ||
			      strcmp(de->d_name + len - 4, ".txt") != 0)
			continue;
		if (TG_GROW(names, n + 1, cap)) {
			rc = TG_ENOMEM;
			break;
		}
		names[n] = egg ? malloc(len + 10) : strdup(de->d_name);
		if (!names[n]) {
			rc = TG_ENOMEM;
			break;
		}
		if (egg) {
			memcpy(names[n], de->d_name, len);
			memcpy(names[n] + len, "/PKG-INFO", 10);
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_req_name);
	for (k = 0; k < n && k < REQ_FILES_MAX && !rc; k++)
		rc = read_one(r, dir, names[k],
			      egg ? read_metadata : read_requirements);
	for (; k < n && !rc; k++) {
		struct tg_buf path = TG_BUF_INIT;

		rc = join(&path, dir, names[k]) ||
			     tg_diag_add(&r->l->notes, TG_SEV_WARNING, 0,
					 path.data, 0, 0, "declared-skipped",
					 NULL,
					 "skipped '%s': only the first %d %s "
					 "are read, in name order",
					 path.data, REQ_FILES_MAX,
					 egg ? "*.egg-info/PKG-INFO"
					     : "requirements*.txt")
			 ? TG_ENOMEM
			 : 0;
		tg_buf_release(&path);
	}
	for (k = 0; k < n; k++)
		free(names[k]);
	free(names);
	return rc;
}

int
tg_declared_read(struct tg_declared_list *l, const char *dir,
		 struct tg_err *err)
{
	struct rd r;
	struct tg_err first = TG_ERR_INIT;
	int rc, bad = 0;

	memset(&r, 0, sizeof(r));
	r.l = l;
	r.err = &first;
	rc = read_one(&r, dir, "pyproject.toml", read_pyproject);
	if (rc == TG_EINVAL || rc == TG_ELIMIT)
		bad = 1, rc = 0;
	if (!rc)
		rc = read_one(&r, dir, "setup.cfg", read_setup_cfg);
	if (!rc)
		rc = read_dir_files(&r, dir, 0);
	if (!rc)
		rc = read_one(&r, dir, "setup.py", read_setup_py);
	if (!rc)
		rc = read_one(&r, dir, "PKG-INFO", read_metadata);
	if (!rc)
		rc = read_one(&r, dir, "METADATA", read_metadata);
	if (!rc)
		rc = read_dir_files(&r, dir, 1);
	if (rc)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (bad) {
		if (err)
			*err = first;
		return TG_EINVAL;
	}
	return 0;
}

int
tg_declared_enforced(const struct tg_declaration *d)
{
	static const char *const fields[] = {
	    "[project] dependencies", "[project.optional-dependencies] ",
	    "install_requires", "extras_require ", "Requires-Dist"};
	size_t k, n;

	for (k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
		n = strlen(fields[k]);
		if (fields[k][n - 1] == ' '
			? strncmp(d->field, fields[k], n) == 0
			: strcmp(d->field, fields[k]) == 0)
			return 1;
	}
	return 0;
}

int
tg_declared_floor(struct tg_declared *d, const char *dir, struct tg_err *err)
{
	static const char *const sources[] = {
	    "[project] dependencies", "install_requires", "requirements"};
	struct tg_declared_list l = TG_DECLARED_LIST_INIT;
	const struct tg_declaration *best = NULL;
	size_t s, k;
	int rc, named = 0, nofloor = 0;

	memset(d, 0, sizeof(*d));
	rc = tg_declared_read(&l, dir, NULL);
	if (rc == TG_ENOMEM) {
		tg_declared_list_release(&l);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	d->notes = l.notes; /* the caller's, found or not */
	memset(&l.notes, 0, sizeof(l.notes));
	for (s = 0; s < 3 && !named; s++)
		for (k = 0; k < l.n; k++) {
			const struct tg_declaration *x = &l.v[k];

			if (strcmp(x->field, sources[s]) != 0)
				continue;
			named = 1;
			if (!x->has_floor)
				nofloor = 1;
			else if (!best ||
				 tg_version_cmp(&x->floor, &best->floor) < 0)
				best = x;
		}
	if (!named || nofloor || !best) {
		tg_declared_list_release(&l);
		return tg_err_set(err, TG_ENOENT,
				  "no literal torch floor declared in '%s'",
				  dir);
	}
	d->path = strdup(best->path);
	d->requirement = strdup(best->text);
	d->line = best->line;
	rc = !d->path || !d->requirement ||
	     tg_version_dup(&d->floor, &best->floor);
	tg_declared_list_release(&l);
	if (rc) {
		tg_declared_release(d);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
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
	tg_diag_list_release(&d->notes);
	memset(d, 0, sizeof(*d));
}
