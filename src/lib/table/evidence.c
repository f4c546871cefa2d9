/* evidence.c - confirm a table entry against an installed torch's files
 * SPDX-License-Identifier: MIT
 *
 * Paths: "torch/include/X" is looked up in the copy's include directory,
 * "torch/share/cmake/Torch/X" in its CMake directory (Debian keeps both
 * outside the package), anything else under the copy's directory. A
 * pattern matches when it matches in any listed file that exists.
 *
 * Expected from the status: the API is present when available or
 * deprecated; the deprecation pattern matches when deprecated; the
 * removal pattern when removed. The verdict is "confirmed" when every
 * look agrees, "contradicted" when one disagrees (the detail says
 * which), "unverifiable" when there was nothing to look at.
 *
 * Cost: a run shares one struct tg_evidence_cache, so each file is read
 * once (keyed by its resolved path) and each distinct pattern searched
 * once per file, in memory, whatever the number of entries that name
 * them. Bounded: at most TG_EVIDENCE_READ_MAX bytes read and
 * TG_EVIDENCE_SEARCH_MAX bytes searched per run; what would pass either
 * is unverifiable, and says which limit it met. Memory: the files read.
 */
#include "lib/table/evidence.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/scan.h"
#include "lib/util/grow.h"

const char *
tg_evidence_name(enum tg_evidence_verdict v)
{
	return v == TG_EVIDENCE_CONFIRMED      ? "confirmed"
	       : v == TG_EVIDENCE_CONTRADICTED ? "contradicted"
					       : "unverifiable";
}

char *
tg_evidence_path(const struct tg_torch *t, const char *rel)
{
	static const char inc[] = "torch/include/";
	static const char cmk[] = "torch/share/cmake/Torch/";

	if (strncmp(rel, inc, sizeof(inc) - 1) == 0 && t->include_dir)
		return tg_path_join(t->include_dir, rel + sizeof(inc) - 1);
	if (strncmp(rel, cmk, sizeof(cmk) - 1) == 0 && t->cmake_dir)
		return tg_path_join(t->cmake_dir, rel + sizeof(cmk) - 1);
	if (strncmp(rel, "torch/", 6) == 0)
		return tg_path_join(t->dir, rel + 6);
	return tg_path_join(t->dir, rel);
}

/* Debian's layout: a link directly in torch/include (name) to the
 * directory of the same name in a directory named include
 * (ATen -> /usr/include/ATen). */
static int
debian_header_link(const char *name, size_t n, const char *target)
{
	const char *base = tg_path_basename(target);
	size_t tn = strlen(target), bn = strlen(base);

	return tg_path_is_dir(target) && bn == n &&
	       memcmp(base, name, n) == 0 && tn > bn + 8 &&
	       memcmp(target + tn - bn - 9, "/include/", 9) == 0;
}

/* Whether the evidence file rel of t stays in t's install: 1, with
 * *within (a new string) the directory it was found inside, which the
 * read checks what it opens against; 0 with the link that leaves in msg;
 * TG_ENOMEM. The bounds: torch's directory (its real path), its include
 * directory (which must itself be inside) with Debian's links out of it
 * (debian_header_link), the CMake directory the probe found. A link
 * elsewhere would make a table's pattern an oracle on any file the user
 * can read. */
static int
stays(const struct tg_torch *t, const char *rel, char *msg, size_t cap,
      char **within)
{
	static const char inc[] = "torch/include/";
	static const char cmk[] = "torch/share/cmake/Torch/";
	const char *root = t->dir, *rest = rel, *slash;
	char *link = NULL, *target = NULL, *sub = NULL;
	size_t n = strlen(t->dir);
	int rc;

	if (strncmp(rel, inc, sizeof(inc) - 1) == 0 && t->include_dir) {
		root = t->include_dir;
		rest = rel + sizeof(inc) - 1;
		if (strncmp(root, t->dir, n) == 0 && root[n] == '/' &&
		    (rc = tg_path_beneath(t->dir, root + n + 1, &link, &target,
					  NULL)) != 1)
			goto out;
	} else if (strncmp(rel, cmk, sizeof(cmk) - 1) == 0 && t->cmake_dir) {
		root = t->cmake_dir;
		rest = rel + sizeof(cmk) - 1;
	} else if (strncmp(rel, "torch/", 6) == 0) {
		rest = rel + 6;
	}
	rc = tg_path_beneath(root, rest, &link, &target, NULL);
	slash = strchr(rest, '/');
	if (rc == 0 && root == t->include_dir && slash && target &&
	    (sub = tg_path_join(root, "")) &&
	    strlen(link) == strlen(sub) + (size_t)(slash - rest) &&
	    debian_header_link(rest, (size_t)(slash - rest), target)) {
		free(sub);
		sub = link;
		free(target);
		link = target = NULL;
		rc = tg_path_beneath(sub, slash + 1, &link, &target, NULL);
		root = sub;
	}
	if (rc == 1 && !(*within = strdup(root)))
		rc = TG_ENOMEM;
out:
	if (rc == 0 &&
	    (size_t)snprintf(msg, cap,
			     "not read '%.150s': a symlink to '%.150s', "
			     "outside the install '%.150s'",
			     link, target ? target : "?", t->dir) >= cap)
		msg[cap - 1] = '\0'; /* cut: the message only */
	free(sub);
	free(link);
	free(target);
	return rc;
}

/* A pattern searched in a file, and whether it matched. */
struct done {
	char *pattern;
	int hit;
};

/* One evidence file as read once: its text (NULL when absent or
 * unreadable, with the reason in msg) and the patterns searched in it. */
struct tg_evidence_file {
	char *key; /* the resolved path, or the path when it has none */
	char *text;
	size_t len;
	int absent;
	int rc; /* 0, or why the file could not be read */
	char msg[TG_ERR_MSG_MAX];
	struct done *done;
	size_t ndone, capdone;
};

void
tg_evidence_cache_release(struct tg_evidence_cache *c)
{
	size_t k, j;

	if (!c)
		return;
	for (k = 0; k < c->n; k++) {
		struct tg_evidence_file *f = &c->files[k];

		for (j = 0; j < f->ndone; j++)
			free(f->done[j].pattern);
		free(f->done);
		free(f->key);
		free(f->text);
	}
	free(c->files);
	memset(c, 0, sizeof(*c));
}

/* The cached file at path, read now if it is new (what is opened must
 * lie inside within); NULL: out of memory. */
static struct tg_evidence_file *
cache_file(struct tg_evidence_cache *c, const char *path, const char *within)
{
	struct tg_evidence_file *f;
	struct tg_err e = TG_ERR_INIT;
	char *key = realpath(path, NULL);
	size_t k;

	if (!key && !(key = strdup(path)))
		return NULL;
	for (k = 0; k < c->n; k++)
		if (strcmp(c->files[k].key, key) == 0) {
			free(key);
			return &c->files[k];
		}
	if (TG_GROW(c->files, c->n + 1, c->cap)) {
		free(key);
		return NULL;
	}
	f = &c->files[c->n];
	memset(f, 0, sizeof(*f));
	f->key = key;
	if (c->read >= TG_EVIDENCE_READ_MAX) {
		f->rc = TG_ELIMIT;
		snprintf(f->msg, sizeof(f->msg),
			 "cannot read '%.200s': this run has read its limit of "
			 "%zu MiB of evidence",
			 path, TG_EVIDENCE_READ_MAX >> 20);
	} else {
		size_t max = TG_EVIDENCE_READ_MAX - c->read;

		if (max > TG_SCAN_FILE_MAX)
			max = TG_SCAN_FILE_MAX;
		f->rc = tg_file_read_inside(path, within, max, &f->text,
					    &f->len, &f->absent, &e);
		if (f->rc == TG_ENOMEM) {
			free(key);
			return NULL;
		}
		if (f->rc == TG_ELIMIT && max < TG_SCAN_FILE_MAX)
			snprintf(f->msg, sizeof(f->msg),
				 "cannot read '%.200s': this run has read its "
				 "limit of %zu MiB of evidence",
				 path, TG_EVIDENCE_READ_MAX >> 20);
		else if (f->rc)
			snprintf(f->msg, sizeof(f->msg), "%s", e.msg);
		c->read += f->len;
	}
	c->n++;
	return f;
}

/* Whether pattern matches in f (searched once per file): 0 with *hit, 1
 * when it cannot be searched (the reason in out), <0 out of memory. */
static int
file_search(struct tg_evidence_cache *c, struct tg_evidence_file *f,
	    const char *path, const char *pattern, int *hit,
	    struct tg_evidence *out, struct tg_err *err)
{
	struct tg_err e = TG_ERR_INIT;
	size_t k;
	int rc;

	for (k = 0; k < f->ndone; k++)
		if (strcmp(f->done[k].pattern, pattern) == 0) {
			*hit = f->done[k].hit;
			return 0;
		}
	if (f->len > TG_EVIDENCE_SEARCH_MAX - c->searched) {
		out->verdict = TG_EVIDENCE_UNVERIFIABLE;
		snprintf(out->detail, sizeof(out->detail),
			 "cannot search '%.200s': this run has searched its "
			 "limit of %zu MiB of evidence",
			 path, TG_EVIDENCE_SEARCH_MAX >> 20);
		return 1;
	}
	c->searched += f->len;
	rc = tg_scan_text(pattern, f->text, f->len, hit, &e);
	if (rc == TG_ENOMEM)
		return tg_err_set(err, rc, "out of memory");
	if (rc) {
		out->verdict = TG_EVIDENCE_UNVERIFIABLE;
		snprintf(out->detail, sizeof(out->detail),
			 "cannot search '%.200s': %s", path, e.msg);
		return 1;
	}
	if (TG_GROW(f->done, f->ndone + 1, f->capdone))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	f->done[f->ndone].pattern = strdup(pattern);
	if (!f->done[f->ndone].pattern)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	f->done[f->ndone++].hit = *hit;
	return 0;
}

/* Search pattern in every existing file: *hit 1/0; *seen files found. */
static int
search(const struct tg_api *a, const struct tg_torch *t, const char *pattern,
       struct tg_evidence_cache *c, int *hit, size_t *seen,
       struct tg_evidence *out, struct tg_err *err)
{
	size_t k;

	*hit = 0;
	*seen = 0;
	for (k = 0; k < a->nfiles && !*hit; k++) {
		char *path = tg_evidence_path(t, a->files[k]), *within = NULL;
		struct tg_evidence_file *f;
		int absent = 0, m = 0, rc = 0;

		if (!path)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		rc = stays(t, a->files[k], out->detail, sizeof(out->detail),
			   &within);
		if (rc != 1) {
			free(path);
			if (rc < 0)
				return tg_err_set(err, rc, "out of memory");
			out->verdict = TG_EVIDENCE_UNVERIFIABLE;
			return 1;
		}
		rc = 0;
		if (pattern) {
			f = cache_file(c, path, within);
			if (!f) {
				free(within);
				free(path);
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory");
			}
			absent = f->absent;
			if (f->rc) {
				out->verdict = TG_EVIDENCE_UNVERIFIABLE;
				snprintf(out->detail, sizeof(out->detail), "%s",
					 f->msg);
				rc = 1;
			} else if (!absent) {
				rc = file_search(c, f, path, pattern, &m, out,
						 err);
			}
		} else {
			absent = !tg_path_is_file(path);
			m = !absent;
		}
		free(within);
		free(path);
		if (rc)
			return rc;
		if (!absent)
			(*seen)++;
		*hit = m;
	}
	return 0;
}

/* A new string, printf-style; NULL: out of memory. */
static char *
fmt(const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

/* The kinds whose id names something a module defines. */
static int
names_something(const char *kind)
{
	static const char *const k[] = {
	    "module",	 "class",	    "function", "method", "attribute",
	    "decorator", "context-manager", "constant", "type",	  "enum",
	};
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(*k); i++)
		if (strcmp(kind, k[i]) == 0)
			return 1;
	return 0;
}

/* Whether the module that defines a Python id torch.M.N defines N
 * anywhere in the tree: N is a submodule (torch/M/N.py or
 * torch/M/N/__init__.py), or torch/M.py or torch/M/__init__.py defines
 * it at the top level (def, class, an assignment) or imports it (a
 * re-export). 1 with what was seen in *where (a new string), 0 not, 2
 * not judged (not torch's, no module file for M), 3 not judged either,
 * a module file leading out of the install (the link in out->detail),
 * <0 out of memory; an unreadable file is passed over. */
static int
defined(const struct tg_api *a, const struct tg_torch *t,
	struct tg_evidence_cache *c, char **where, struct tg_evidence *out,
	struct tg_err *err)
{
	const char *id = a->id, *name = strrchr(id, '.');
	char *mod, *pat = NULL, *rel[4] = {NULL, NULL, NULL, NULL};
	size_t k, n;
	int rc = 2, any = 0;

	*where = NULL;
	if (a->lang != TG_LANG_PYTHON || !names_something(a->kind) ||
	    strncmp(id, "torch.", 6) != 0 || !name)
		return 2;
	name++;
	n = (size_t)(name - 1 - id);
	mod = malloc(n + 1);
	if (!mod)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	memcpy(mod, id, n);
	mod[n] = '\0';
	for (k = 0; k < n; k++)
		if (mod[k] == '.')
			mod[k] = '/';
	if (!(rel[0] = fmt("%s/%s.py", mod, name)) ||
	    !(rel[1] = fmt("%s/%s/__init__.py", mod, name)) ||
	    !(rel[2] = fmt("%s.py", mod)) ||
	    !(rel[3] = fmt("%s/__init__.py", mod)) ||
	    !(pat = fmt(
		  "^(?:async[ \t]+)?(?:def|class)[ \t]+%s\\b"
		  "|^%s[ \t]*(?::[^=\n]*)?=(?!=)"
		  "|^(?:from[ \t]+\\S+[ \t]+)?import[ \t]+[^\n(]*\\b%s\\b"
		  "|^from[ \t]+\\S+[ \t]+import[ \t]*\\([^)]{0,4000}?\\b%s\\b",
		  name, name, name, name))) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < 4 && rc == 2; k++) {
		char *path = tg_evidence_path(t, rel[k]);
		struct tg_evidence_file *f;
		int hit = 0;

		if (!path) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			break;
		}
		if (k < 2) {
			hit = tg_path_is_file(path);
		} else if (tg_path_is_file(path)) {
			struct tg_evidence save = *out;
			char *within = NULL, msg[sizeof(out->detail)];
			int r;

			any = 1;
			/* a module that leads out of the install is not
			 * read, as an evidence file is not */
			r = stays(t, rel[k], msg, sizeof(msg), &within);
			if (r == 0) {
				snprintf(out->detail, sizeof(out->detail), "%s",
					 msg);
				free(path);
				rc = 3;
				break;
			}
			if (r == 1 && !(f = cache_file(c, path, within)))
				r = TG_ENOMEM;
			free(within);
			if (r < 0) {
				free(path);
				rc =
				    tg_err_set(err, TG_ENOMEM, "out of memory");
				break;
			}
			r = f->rc || f->absent
				? 1
				: file_search(c, f, path, pat, &hit, out, err);
			*out = save;
			if (r < 0) {
				free(path);
				rc = r;
				break;
			}
			if (r)
				hit = 0;
		}
		free(path);
		if (hit) {
			*where = k < 2 ? fmt("%s is there", rel[k])
				       : fmt("%s defines '%s'", rel[k], name);
			rc = *where
				 ? 1
				 : tg_err_set(err, TG_ENOMEM, "out of memory");
		}
	}
	if (rc == 2) {
		char *dir = tg_evidence_path(t, mod);

		if (!dir)
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		else
			rc = any || tg_path_is_dir(dir) ? 0 : 2;
		free(dir);
	}
out:
	for (k = 0; k < 4; k++)
		free(rel[k]);
	free(pat);
	free(mod);
	return rc;
}

static int
check(const struct tg_api *a, const struct tg_torch *t,
      enum tg_api_status status, struct tg_evidence_cache *c,
      struct tg_evidence *out, struct tg_err *err)
{
	int want_present =
	    status == TG_API_AVAILABLE || status == TG_API_DEPRECATED;
	size_t seen = 0, seen2, k;
	int hit, rc;

	out->verdict = TG_EVIDENCE_CONFIRMED;
	out->present = out->deprecated = out->removed = -1;
	out->detail[0] = '\0';
	if (a->nfiles == 0) {
		out->verdict = TG_EVIDENCE_UNVERIFIABLE;
		snprintf(out->detail, sizeof(out->detail),
			 "the table names no file to look in");
		return 0;
	}
	for (k = 0; k < a->nfiles; k++) {
		const char *why = NULL;

		if (strncmp(a->files[k], "torch/include/", 14) == 0 &&
		    !t->include_dir)
			why = "this torch has no headers";
		else if (strncmp(a->files[k], "torch/share/cmake/", 18) == 0 &&
			 !t->cmake_dir)
			why = "this torch has no CMake files";
		if (why) {
			out->verdict = TG_EVIDENCE_UNVERIFIABLE;
			snprintf(out->detail, sizeof(out->detail), "%s", why);
			return 0;
		}
	}
	rc = search(a, t, a->presence, c, &hit, &seen, out, err);
	if (rc)
		return rc < 0 ? rc : 0;
	out->present = hit;
	if (seen == 0 && want_present) {
		out->verdict = TG_EVIDENCE_CONTRADICTED;
		snprintf(out->detail, sizeof(out->detail),
			 "the table says it exists, but '%s' is not there",
			 a->files[0]);
		return 0;
	}
	if (hit != want_present) {
		out->verdict = TG_EVIDENCE_CONTRADICTED;
		snprintf(out->detail, sizeof(out->detail),
			 want_present ? "the table says it exists, but its "
					"pattern does not match in %s"
				      : "the table says it is %s, but its "
					"pattern matches in the files",
			 want_present ? a->files[0]
				      : tg_api_status_name(status));
		return 0;
	}
	if (a->deprecation && (want_present || seen)) {
		rc = search(a, t, a->deprecation, c, &hit, &seen2, out, err);
		if (rc)
			return rc < 0 ? rc : 0;
		out->deprecated = hit;
		if (want_present && hit != (status == TG_API_DEPRECATED)) {
			out->verdict = TG_EVIDENCE_CONTRADICTED;
			snprintf(out->detail, sizeof(out->detail),
				 hit ? "the files declare it deprecated, the "
				       "table does not for this version"
				     : "the table says deprecated since %s, "
				       "but the files carry no deprecation",
				 a->deprecated.version ? a->deprecated.version
						       : "?");
			return 0;
		}
	}
	if (a->removal && seen) {
		rc = search(a, t, a->removal, c, &hit, &seen2, out, err);
		if (rc)
			return rc < 0 ? rc : 0;
		out->removed = hit;
		if (hit != (status == TG_API_REMOVED)) {
			out->verdict = TG_EVIDENCE_CONTRADICTED;
			snprintf(out->detail, sizeof(out->detail),
				 hit ? "the files hold its removal stub, the "
				       "table does not say removed"
				     : "the table says removed since %s, but "
				       "no removal stub is in the files",
				 a->removed.version ? a->removed.version : "?");
			return 0;
		}
	}
	/* absent: only when the module that would define it does not */
	if (!want_present && !(status == TG_API_REMOVED && out->removed == 1)) {
		char *where;

		rc = defined(a, t, c, &where, out, err);
		if (rc < 0)
			return rc;
		if (rc == 3) {
			out->verdict = TG_EVIDENCE_UNVERIFIABLE;
			return 0;
		}
		if (rc == 1) {
			out->verdict = TG_EVIDENCE_CONTRADICTED;
			snprintf(out->detail, sizeof(out->detail),
				 "the table says it is %s, but %s",
				 tg_api_status_name(status), where);
			free(where);
			return 0;
		}
	}
	if (!want_present && seen == 0)
		snprintf(out->detail, sizeof(out->detail),
			 "none of its files is there");
	return 0;
}

int
tg_evidence_check(const struct tg_api *a, const struct tg_torch *t,
		  enum tg_api_status status, struct tg_evidence_cache *cache,
		  struct tg_evidence *out, struct tg_err *err)
{
	struct tg_evidence_cache own = TG_EVIDENCE_CACHE_INIT;
	int rc;

	rc = check(a, t, status, cache ? cache : &own, out, err);
	tg_evidence_cache_release(&own);
	return rc;
}
