/* discover.c - the deprecations an installed torch declares about itself
 * SPDX-License-Identifier: MIT
 *
 * The driver: the walk over the torch tree and the include directory,
 * one file at a time, the declarations and notes it collects, and each
 * file's budget. The languages live in harvest_py.c and harvest_cxx.c,
 * each a row of the table of struct harvester below, which the driver
 * iterates; a site records its declaration through decl.c, the messages
 * and replacements are message.c's (internal.h says what they share
 * and which way the calls go).
 *
 * Each file is read whole (at most TG_DISCOVER_FILE_MAX bytes) and
 * masked: a copy of the same length in which comments, the bodies of
 * string literals and, in C++, preprocessor directives are blanked, with
 * every newline kept. Offsets in the copy are offsets in the file, so
 * one PCRE2 pattern per language finds the sites in code only, brackets
 * balance without a string in the way, and the literals are then read
 * from the original text at the same offsets.
 *
 * Limits: the walk (util/walk) goes TG_DISCOVER_DEPTH_MAX deep, looks
 * at TG_DISCOVER_FILES_MAX directory entries, never follows a symlink
 * out of the tree, and notes a loop; a directory reached twice is
 * walked once. A file that cannot hold a
 * site (no "deprecated" or "warnings" in Python, no "deprecat" or
 * "DEPRECAT" in C++) is not masked at all, and most cannot. A
 * call's arguments are looked for within SPAN_MAX bytes of its '(';
 * messages keep MESSAGE_MAX bytes; scopes nest SCOPE_MAX deep; the sites
 * of one file may re-read WORK_PER_BYTE bytes per byte of it and make
 * DECLS_PER_FILE_MAX declarations, then the file stops with a note. The
 * worst case is thus linear in the bytes read, plus scan.c's regex limits
 * per match; Debian's 1.13 (15 MB of Python, 45 MB of headers) takes
 * about 0.2 s.
 */
#include "lib/discover/discover.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/discover/internal.h"
#include "lib/util/buf.h"
#include "lib/util/diag.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/scan.h"
#include "lib/util/str.h"
#include "lib/util/walk.h"

/* ---- declarations and notes ---------------------------------------- */

static void
decl_release(struct tg_decl *d)
{
	free(d->symbol);
	free(d->file);
	free(d->message);
	free(d->replacement);
}

void
tg_discover_release(struct tg_decls *d)
{
	size_t k;

	for (k = 0; k < d->n; k++)
		decl_release(&d->v[k]);
	free(d->v);
	tg_diag_list_release(&d->notes);
	memset(d, 0, sizeof(*d));
}

static int note(struct tg_decls *d, struct tg_err *err, const char *rule,
		const char *path, size_t line, const char *fmt, ...)
    TG_PRINTF(6, 7);

/* A warning in d->notes. */
static int
note(struct tg_decls *d, struct tg_err *err, const char *rule, const char *path,
     size_t line, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = tg_diag_addv(&d->notes, TG_SEV_WARNING, 0, path, line, 0, rule,
			  NULL, fmt, ap);
	va_end(ap);
	return rc ? tg_err_set(err, TG_ENOMEM, "out of memory") : 0;
}

/* ---- small text helpers -------------------------------------------- */

static int
src_lines(struct src *x)
{
	size_t i, n = 1;

	for (i = 0; i < x->len; i++)
		n += x->s[i] == '\n';
	x->loff = malloc((n + 1) * sizeof(*x->loff));
	x->lstart = calloc(n + 1, 1);
	x->m = malloc(x->len + 1);
	if (!x->loff || !x->lstart || !x->m)
		return TG_ENOMEM;
	x->nlines = n;
	x->loff[0] = 0;
	for (i = 0, n = 1; i < x->len; i++)
		if (x->s[i] == '\n')
			x->loff[n++] = i + 1;
	x->loff[n] = x->len + 1;
	memcpy(x->m, x->s, x->len);
	x->m[x->len] = '\0';
	return 0;
}

static void
src_release(struct src *x)
{
	free(x->m);
	free(x->loff);
	free(x->lstart);
}

/* Blank m[a..e), newlines kept. */
/* The harvesters, in the order tg_discover walks their files. */
static const struct harvester *const harvesters[] = {
    &tg_harvest_py_ops,
    &tg_harvest_cxx_ops,
};

#define NHARVESTERS (sizeof(harvesters) / sizeof(harvesters[0]))

static void
ctx_release(struct ctx *cx)
{
	size_t k;

	for (k = 0; k < NHARVESTERS; k++)
		tg_scan_re_free(cx->re[k]);
	tg_scan_re_free(cx->repl);
}

static int
ctx_init(struct ctx *cx, struct tg_err *err)
{
	size_t k;
	int rc = 0;

	assert(NHARVESTERS <= HARVESTERS_MAX);
	memset(cx, 0, sizeof(*cx));
	for (k = 0; k < NHARVESTERS && !rc; k++)
		rc = tg_scan_compile(&cx->re[k], harvesters[k]->pattern, err);
	if (!rc)
		rc = tg_scan_compile(&cx->repl, tg_message_repl_pattern, err);
	if (rc)
		ctx_release(cx);
	return rc;
}

/* Harvest one text with harvester k; a regex past its limits is a note,
 * not an error. */
static int
harvest(const struct ctx *cx, struct tg_decls *out, const char *text,
	size_t len, size_t k, const char *module, const char *file,
	struct tg_err *err)
{
	struct src x = {text, NULL, len, NULL, NULL, 0};
	struct cxxtrack *ct = NULL;
	struct run *r = NULL;
	struct tg_err e = TG_ERR_INIT;
	int rc = 0;

	if (!harvesters[k]->may_declare(text, len))
		goto out;
	r = calloc(1, sizeof(*r));
	ct = calloc(1, sizeof(*ct));
	if (!r || !ct || src_lines(&x)) {
		rc = tg_err_set(&e, TG_ENOMEM, "out of memory");
		goto out;
	}
	harvesters[k]->mask(&x);
	r->cx = cx;
	r->x = &x;
	r->module = module ? module : "";
	r->file = file;
	r->out = out;
	r->err = &e;
	r->ct = ct;
	r->work_max = len > (SIZE_MAX - WORK_MIN) / WORK_PER_BYTE
			  ? SIZE_MAX
			  : WORK_PER_BYTE * len + WORK_MIN;
	rc = tg_scan_re_each(cx->re[k], x.m, x.len, harvesters[k]->site, r, &e);
	if (!rc && r->stopped)
		rc = note(out, err, TG_DISCOVER_RULE_LIMIT, file, r->stopped,
			  "'%s': stopped at line %zu: %s", file, r->stopped,
			  r->why);
out:
	if (rc == TG_ELIMIT)
		rc = note(out, err, TG_DISCOVER_RULE_LIMIT, file, 0, "'%s': %s",
			  file, e.msg);
	else if (rc)
		tg_err_set(err, rc, "%s", e.msg);
	free(ct);
	free(r);
	src_release(&x);
	return rc;
}

/* The row of the harvester of language id; every language has one. */
static size_t
row_of(enum tg_lang_id id)
{
	size_t k;

	for (k = 0; k < NHARVESTERS; k++)
		if (harvesters[k]->lang == id)
			return k;
	assert(!"a language without a harvester");
	return 0;
}

int
tg_discover_text(struct tg_decls *out, const char *text, size_t len,
		 enum tg_lang_id lang, const char *module, const char *file,
		 struct tg_err *err)
{
	struct ctx cx;
	int rc = ctx_init(&cx, err);

	if (rc)
		return rc;
	rc = harvest(&cx, out, text, len, row_of(lang), module, file, err);
	ctx_release(&cx);
	return rc;
}

int
tg_discover_replacement(const char *message, char **out, struct tg_err *err)
{
	struct ctx cx;
	int rc = ctx_init(&cx, err);

	*out = NULL;
	if (rc)
		return rc;
	rc = tg_message_replacement(&cx, message, out, err);
	ctx_release(&cx);
	return rc;
}

/* ---- the walk ------------------------------------------------------ */

struct walk {
	const struct ctx *cx;
	struct tg_decls *out;
	struct tg_err *err;
	size_t k;	     /* the harvester walked */
	const char *modroot; /* torch_dir's last component */
	int have_skip;
	dev_t skip_dev;
	ino_t skip_ino;
};

static int
has_ext(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);

	return n > e && strcmp(name + n - e, ext) == 0;
}

static int
wanted(const struct walk *w, const char *name)
{
	const char *const *x;

	for (x = harvesters[w->k]->exts; *x; x++)
		if (has_ext(name, *x))
			return 1;
	return 0;
}

/* torch/cuda/amp/autocast_mode.py -> torch.cuda.amp.autocast_mode. */
static char *
module_name(const char *root, const char *rel)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t n = strlen(rel) - 3, k; /* without ".py" */

	tg_buf_adds(&b, root);
	if (n > 0) {
		tg_buf_addc(&b, '.');
		for (k = 0; k < n; k++)
			tg_buf_addc(&b, rel[k] == '/' ? '.' : rel[k]);
	}
	if (b.len >= 9 && strcmp(b.data + b.len - 9, ".__init__") == 0)
		b.len -= 9;
	if (!b.data)
		return NULL;
	b.data[b.len] = '\0';
	return tg_buf_detach(&b);
}

static int
scan_file(void *vw, const struct tg_walk_entry *e)
{
	struct walk *w = vw;
	const char *path = e->path;
	char *text = NULL, *module = NULL;
	size_t len;
	struct tg_err er = TG_ERR_INIT;
	int rc;

	if ((size_t)e->st->st_size > TG_DISCOVER_FILE_MAX)
		return note(w->out, w->err, TG_DISCOVER_RULE_FILE, path, 0,
			    "skipped '%s': larger than 16 MiB", path);
	rc = tg_file_read(path, TG_DISCOVER_FILE_MAX, &text, &len, NULL, &er);
	if (rc == TG_ENOMEM)
		return tg_err_set(w->err, rc, "%s", er.msg);
	if (rc == TG_ELIMIT)
		return note(w->out, w->err, TG_DISCOVER_RULE_FILE, path, 0,
			    "skipped '%s': larger than 16 MiB", path);
	if (rc)
		return note(w->out, w->err, TG_DISCOVER_RULE_FILE, path, 0,
			    "skipped %s", er.msg);
	if (harvesters[w->k]->modules &&
	    !(module = module_name(w->modroot, e->rel))) {
		free(text);
		return tg_err_set(w->err, TG_ENOMEM, "out of memory");
	}
	rc = harvest(w->cx, w->out, text, len, w->k, module, path, w->err);
	free(module);
	free(text);
	return rc;
}

/* The files of the language walked; no __pycache__, and the Python
 * walk leaves the include directory to the header walk. */
static int
want(void *vw, const struct tg_walk_entry *e)
{
	const struct walk *w = vw;

	if (!S_ISDIR(e->st->st_mode))
		return wanted(w, e->name);
	if (harvesters[w->k]->skip_dir &&
	    strcmp(e->name, harvesters[w->k]->skip_dir) == 0)
		return 0;
	return !(w->have_skip && e->st->st_dev == w->skip_dev &&
		 e->st->st_ino == w->skip_ino);
}

/* A note for what the walk left out that a user may want to know of;
 * a dangling link, a directory reached twice, a device or FIFO: none.
 * The limits that stop the walk are its error, not a note. */
static int
skipped(void *vw, const struct tg_walk_entry *e, enum tg_walk_why why,
	const char *msg)
{
	struct walk *w = vw;

	switch (why) {
	case TG_WALK_OUTSIDE:
	case TG_WALK_LOOP:
	case TG_WALK_DEPTH:
	case TG_WALK_UNREADABLE:
		return note(w->out, w->err, TG_DISCOVER_RULE_WALK, e->path, 0,
			    "skipped '%s': %s", e->path, msg);
	default:
		return 0;
	}
}

/* root: the Python tree, or the include directory, whose entries may be
 * links out of it (Debian's torch/include/ATen -> /usr/include/ATen). */
static int
walk_root(struct walk *w, const char *root, struct tg_err *err)
{
	struct tg_walk_opts o;

	memset(&o, 0, sizeof(o));
	o.max_depth = TG_DISCOVER_DEPTH_MAX;
	o.max_entries = TG_DISCOVER_FILES_MAX;
	o.flags = harvesters[w->k]->headers ? TG_WALK_ROOT_LINKS : 0;
	o.want = want;
	o.file = scan_file;
	o.skipped = skipped;
	o.ctx = w;
	return tg_walk(root, &o, err);
}

/* Whether the include directory, when it is torch_dir's own, stays in
 * the install: 0 to walk it; 1 when it is a link out (noted: the walk
 * would take its target, '/' even, as the tree), TG_ENOMEM. Its own
 * entries may lead out (TG_WALK_ROOT_LINKS); it may not. */
static int
include_stays(struct walk *w, const char *torch_dir, const char *include_dir)
{
	size_t n = strlen(torch_dir);
	char *link = NULL, *target = NULL;
	int rc;

	if (strncmp(include_dir, torch_dir, n) != 0 || include_dir[n] != '/')
		return 0; /* given apart from the install: as given */
	rc = tg_path_beneath(torch_dir, include_dir + n + 1, &link, &target,
			     w->err);
	if (rc == 1)
		return 0;
	if (rc == 0)
		rc = note(w->out, w->err, TG_DISCOVER_RULE_WALK, link, 0,
			  "skipped '%s': a symlink to '%s', outside '%s'", link,
			  target ? target : "?", torch_dir);
	free(link);
	free(target);
	return rc < 0 ? rc : 1;
}

static int
cmp_decl(const void *pa, const void *pb)
{
	const struct tg_decl *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if ((c = strcmp(a->kind, b->kind)) != 0)
		return c;
	if ((c = strcmp(a->symbol, b->symbol)) != 0)
		return c;
	if (!a->message || !b->message)
		return !!a->message - !!b->message;
	return strcmp(a->message, b->message);
}

int
tg_discover(struct tg_decls *out, const char *torch_dir,
	    const char *include_dir, struct tg_err *err)
{
	struct ctx cx;
	struct walk w;
	struct stat st;
	char *root = NULL;
	size_t n, k;
	int rc = ctx_init(&cx, err);

	if (rc)
		return rc;
	memset(&w, 0, sizeof(w));
	w.cx = &cx;
	w.out = out;
	w.err = err;
	n = strlen(torch_dir);
	while (n > 1 && torch_dir[n - 1] == '/')
		n--;
	root = tg_str_ndup(torch_dir, n);
	if (!root) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	w.modroot = tg_path_basename(root);
	for (k = 0; k < NHARVESTERS && !rc; k++) {
		const char *dir =
		    harvesters[k]->headers ? include_dir : torch_dir;

		if (!dir)
			continue;
		w.k = k;
		if (harvesters[k]->headers &&
		    (rc = include_stays(&w, root, include_dir)) != 0) {
			rc = rc > 0 ? 0 : rc;
			continue;
		}
		/* the Python walk leaves the include directory to the
		 * headers' */
		w.have_skip = 0;
		if (!harvesters[k]->headers && include_dir &&
		    stat(include_dir, &st) == 0) {
			w.have_skip = 1;
			w.skip_dev = st.st_dev;
			w.skip_ino = st.st_ino;
		}
		rc = walk_root(&w, dir, err);
	}
out:
	if (!rc && out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_decl);
	free(root);
	ctx_release(&cx);
	return rc;
}
