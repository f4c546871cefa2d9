/* test_dists.c - unit tests for lib/pyenv/dists: distributions and their
 * top-level names
 * SPDX-License-Identifier: MIT
 *
 * A site-packages made here: a distribution without top_level.txt, whose
 * RECORD gives the names when asked (tg_dists_record_tops: the first
 * component of each path, a module file's name up to its first dot;
 * .dist-info, .egg-info, .data, __pycache__ and .pth entries and ".."
 * are no names), with the lines RECORD's readers meet: quoted paths, one
 * directory's files together and apart, a directory whose name another
 * starts with, no newline at the end; one with top_level.txt, whose
 * names load with it; one with neither. Then three sys.path entries of
 * many distributions: the first on the path wins, each keeps its entry,
 * and the warnings of those left out come in path order, each entry's
 * in name order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "lib/pyenv/dists.h"

/* names v[0..nv), joined by spaces */
static void
join(char *const *v, size_t nv, char *out, size_t size)
{
	size_t k, n = 0;

	out[0] = '\0';
	for (k = 0; k < nv && n < size; k++)
		n += (size_t)snprintf(out + n, size - n, "%s%s", k ? " " : "",
				      v[k]);
}

/* Entries a and b of NMANY distributions each, b's named as a's from
 * the middle on (p20 to p39 in both: a's win), and c, which holds none;
 * in a and b one without Version and one without METADATA. */
#define NMANY 40

static void
many(const char *dir)
{
	struct tg_path_entry e[3];
	struct tg_syspath sp = TG_SYSPATH_INIT;
	struct tg_dists ds = TG_DISTS_INIT;
	struct tg_err err = TG_ERR_INIT;
	const struct tg_dist *d;
	char rel[256], text[256], name[32], got[512], paths[3][4200];
	const char *sub[3] = {"a", "b", "c"};
	size_t k, i;
	int rc;

	for (i = 0; i < 2; i++)
		for (k = 0; k < NMANY; k++) {
			snprintf(rel, sizeof(rel),
				 "%s/p%02zu-1.%zu.dist-info/METADATA", sub[i],
				 k + 20 * i, i);
			snprintf(text, sizeof(text),
				 "Name: p%02zu\nVersion: 1.%zu\n", k + 20 * i,
				 i);
			check_put(dir, rel, text);
		}
	check_put(dir, "a/nov-1.0.dist-info/METADATA", "Name: nov\n");
	check_put(dir, "b/nov-1.0.dist-info/METADATA", "Name: nov\n");
	check_put(dir, "a/nometa-1.0.dist-info/RECORD", "");
	check_put(dir, "b/nometa-1.0.dist-info/RECORD", "");
	check_put(dir, "c/README", "");
	for (i = 0; i < 3; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, sub[i]);
		e[i].dir = paths[i];
		e[i].origin = TG_ORIGIN_SITE;
		e[i].pth = NULL;
		e[i].pth_line = 0;
	}
	sp.e = e;
	sp.n = 3;
	rc = tg_dists_load(&ds, &sp, &err);
	CHECK(rc == 0, "many: load: %s", err.msg);
	CHECK(ds.n == NMANY + 20, "many: %zu distributions, want %d", ds.n,
	      NMANY + 20);
	for (k = 0; k < NMANY + 20; k++) {
		snprintf(name, sizeof(name), "p%02zu", k);
		d = tg_dists_find(&ds, name);
		CHECK(d != NULL, "many: %s found", name);
		if (!d)
			continue;
		CHECK(d->entry == (k < NMANY ? 0u : 1u) &&
			  strcmp(d->version, k < NMANY ? "1.0" : "1.1") == 0,
		      "many: %s from entry %zu, version %s", name, d->entry,
		      d->version);
	}
	/* each warning's path as ENTRY/NAME */
	got[0] = '\0';
	for (k = 0; k < ds.problems.n; k++) {
		const char *p = ds.problems.v[k].path;
		size_t n = strlen(dir);

		if (!p || strncmp(p, dir, n) != 0 || p[n] != '/') {
			CHECK(0, "many: warning %zu's path '%s'", k,
			      p ? p : "");
			continue;
		}
		p += n + 1;
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%.*s ",
			 (int)strcspn(p, "-"), p);
	}
	CHECK_STR(got, "a/nometa a/nov b/nometa b/nov ",
		  "many: the warnings in path order, each entry's in name "
		  "order");
	tg_dists_release(&ds);
}

int
main(void)
{
	char dir[] = "/tmp/tg-test-dists-XXXXXX", got[512], cmd[4200];
	struct tg_path_entry e;
	struct tg_syspath sp = TG_SYSPATH_INIT;
	struct tg_dists ds = TG_DISTS_INIT;
	struct tg_err err = TG_ERR_INIT;
	const struct tg_dist *d;
	char **v = NULL;
	size_t nv = 0;
	int rc;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return check_result("test_dists");
	}
	check_put(dir, "rec-1.0.dist-info/METADATA",
		  "Name: rec\nVersion: 1.0\n");
	check_put(dir, "rec-1.0.dist-info/RECORD",
		  "pkg/__init__.py,sha256=x,1\n"
		  "pkg/sub/a.py,sha256=x,1\n"
		  "pkg/sub/b.py,sha256=x,1\n"
		  "pkgx/c.py,sha256=x,1\n" /* pkg's name is a prefix of it */
		  "\"pkg y/d.py\",sha256=x,1\n"
		  "\"pkg y/e,f.py\",sha256=x,1\n"
		  "pkg/late.py,sha256=x,1\n" /* pkg again, apart */
		  "six.py,sha256=x,1\n"
		  "_cffi.cpython-312-x86_64-linux-gnu.so,sha256=x,1\n"
		  "__pycache__/six.cpython-312.pyc,,\n"
		  "rec-1.0.dist-info/METADATA,sha256=x,1\n"
		  "rec-1.0.dist-info/RECORD,,\n"
		  "rec-1.0.data/scripts/tool,sha256=x,1\n"
		  "extra.pth,sha256=x,1\n"
		  "../../../bin/tool,sha256=x,1\n" /* no name: ".." */
		  "last/z.py,sha256=x,1");
	check_put(dir, "top-2.0.dist-info/METADATA",
		  "Name: top\nVersion: 2.0\n");
	check_put(dir, "top-2.0.dist-info/top_level.txt",
		  "alpha\n beta \r\n\n");
	check_put(dir, "top-2.0.dist-info/RECORD", "gamma/x.py,sha256=x,1\n");
	check_put(dir, "bare-3.0.dist-info/METADATA",
		  "Name: bare\nVersion: 3.0\n");

	e.dir = dir;
	e.origin = TG_ORIGIN_SITE;
	e.pth = NULL;
	e.pth_line = 0;
	sp.e = &e;
	sp.n = 1;
	rc = tg_dists_load(&ds, &sp, &err);
	CHECK(rc == 0, "load: %s", err.msg);
	CHECK(ds.n == 3, "%zu distributions, want 3", ds.n);

	d = tg_dists_find(&ds, "rec");
	CHECK(d != NULL, "rec found");
	if (d) {
		CHECK(!d->top_level && d->ntop == 0,
		      "rec: no top_level.txt, no names loaded");
		rc = tg_dists_record_tops(d, &v, &nv, &err);
		CHECK(rc == 0, "rec's RECORD: %s", err.msg);
		join(v, nv, got, sizeof(got));
		CHECK_STR(got, "pkg pkgx pkg y six _cffi last",
			  "rec's names from RECORD");
		tg_dists_names_free(v, nv);
	}
	d = tg_dists_find(&ds, "top");
	CHECK(d != NULL, "top found");
	if (d) {
		CHECK(d->top_level, "top has top_level.txt");
		join(d->top, d->ntop, got, sizeof(got));
		CHECK_STR(got, "alpha beta", "top_level.txt's names");
	}
	d = tg_dists_find(&ds, "bare");
	CHECK(d != NULL, "bare found");
	if (d) {
		rc = tg_dists_record_tops(d, &v, &nv, &err);
		CHECK(rc == 0 && v == NULL && nv == 0,
		      "no RECORD: no names (%d, %zu)", rc, nv);
	}
	tg_dists_release(&ds);
	many(dir);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "rm -rf %s", dir);
	return check_result("test_dists");
}
