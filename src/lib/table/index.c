/* index.c - the torch releases a package index lists
 * SPDX-License-Identifier: MIT
 *
 * Reads what `torchgate releases` downloads (and caches): the PyPI JSON
 * API's /pypi/torch/json or a PEP 691 simple index page, into a sorted
 * list of PEP 440 versions without duplicates. Only the structure this
 * needs is checked; anything else in the document is ignored, as the
 * index adds keys over time. A file is yanked when "yanked" is true or
 * a string (PEP 691: the reason); a missing "yanked" is not yanked.
 * Limits: the document is at most TG_INDEX_MAX bytes (the caller reads
 * it), at most TG_INDEX_VERSIONS_MAX versions are kept. Worst case:
 * n log n comparisons for n files.
 */
#include "lib/table/index.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/json.h"
#include "lib/util/grow.h"

void
tg_index_release(struct tg_index *ix)
{
	size_t k;

	for (k = 0; k < ix->n; k++)
		tg_version_release(&ix->v[k]);
	free(ix->v);
	memset(ix, 0, sizeof(*ix));
}

static int
yanked(const struct tg_json *file)
{
	const struct tg_json *y = tg_json_get(file, "yanked");

	return y && (tg_json_is_true(y) || tg_json_is_string(y));
}

/* Add the version text s (n bytes) unless it is a pre-release and pre
 * is 0; a text that is no PEP 440 version is counted in skipped. */
static int
add(struct tg_index *ix, size_t *cap, const char *s, size_t n, int pre,
    const char *name, struct tg_err *err)
{
	struct tg_version v = TG_VERSION_INIT;
	int rc = tg_version_parse(&v, s, n, NULL);

	if (rc == TG_ENOMEM)
		return tg_err_set(err, rc, "out of memory reading '%s'", name);
	if (rc) {
		ix->skipped++;
		return 0;
	}
	if (!pre && tg_version_is_prerelease(&v)) {
		tg_version_release(&v);
		return 0;
	}
	if (ix->n == *cap && ix->n >= TG_INDEX_VERSIONS_MAX) {
		tg_version_release(&v);
		return tg_err_set(err, TG_ELIMIT,
				  "cannot read '%s': more than %zu versions",
				  name, TG_INDEX_VERSIONS_MAX);
	}
	if (TG_GROW(ix->v, ix->n + 1, *cap)) {
		tg_version_release(&v);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	ix->v[ix->n++] = v;
	return 0;
}

/* The version in a torch distribution file name, or 0: "torch-V-....whl"
 * (a wheel) or "torch-V.tar.gz" / "torch-V.zip" (an sdist). */
static int
file_version(const char *f, const char **s, size_t *n)
{
	size_t len = strlen(f), k;
	static const char *const sdist[] = {".tar.gz", ".zip", NULL};

	if (strncmp(f, "torch-", 6) != 0)
		return 0;
	f += 6;
	len -= 6;
	if (len > 4 && strcmp(f + len - 4, ".whl") == 0) {
		const char *dash = memchr(f, '-', len);

		if (!dash || dash == f)
			return 0;
		*s = f;
		*n = (size_t)(dash - f);
		return 1;
	}
	for (k = 0; sdist[k]; k++) {
		size_t e = strlen(sdist[k]);

		if (len > e && strcmp(f + len - e, sdist[k]) == 0 &&
		    !memchr(f, '-', len - e)) {
			*s = f;
			*n = len - e;
			return 1;
		}
	}
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	return tg_version_cmp(a, b);
}

int
tg_index_parse(struct tg_index *ix, const char *text, size_t len,
	       const char *name, int pre, struct tg_err *err)
{
	struct tg_json *root = NULL;
	const struct tg_json *rel, *files, *it, *f;
	size_t pos = 0, line, col, cap = 0, k, out;
	int rc = 0;

	memset(ix, 0, sizeof(*ix));
	if ((rc = tg_json_parse(&root, text, len, &pos))) {
		if (rc == TG_ENOMEM)
			return tg_err_set(err, rc, "out of memory reading '%s'",
					  name);
		tg_json_line_col(text, len, pos, &line, &col);
		return tg_err_set(err, TG_EINVAL,
				  "cannot parse '%s': line %zu, column %zu: "
				  "not valid JSON",
				  name, line, col);
	}
	rel = tg_json_is_object(root) ? tg_json_get(root, "releases") : NULL;
	files = tg_json_is_object(root) ? tg_json_get(root, "files") : NULL;
	if (tg_json_is_object(rel)) {
		for (it = tg_json_child(rel); it && !rc;
		     it = tg_json_next(it)) {
			int any = 0;

			if (!tg_json_is_array(it)) {
				rc = tg_err_set(err, TG_EINVAL,
						"cannot read '%s': release "
						"\"%.100s\" is not an array "
						"of files",
						name, tg_json_key(it));
				break;
			}
			for (f = tg_json_child(it); f; f = tg_json_next(f))
				any |= tg_json_is_object(f) && !yanked(f);
			if (any)
				rc = add(ix, &cap, tg_json_key(it),
					 strlen(tg_json_key(it)), pre, name,
					 err);
		}
	} else if (tg_json_is_array(files)) {
		ix->pep691 = 1;
		for (f = tg_json_child(files); f && !rc; f = tg_json_next(f)) {
			const struct tg_json *fn = tg_json_get(f, "filename");
			const char *s;
			size_t n;

			if (!tg_json_is_object(f) || !tg_json_is_string(fn)) {
				rc = tg_err_set(err, TG_EINVAL,
						"cannot read '%s': a file "
						"without a \"filename\"",
						name);
				break;
			}
			if (!yanked(f) &&
			    file_version(tg_json_string(fn), &s, &n))
				rc = add(ix, &cap, s, n, pre, name, err);
		}
	} else {
		rc = tg_err_set(err, TG_EINVAL,
				"cannot read '%s': neither a PyPI JSON "
				"document (\"releases\") nor a PEP 691 page "
				"(\"files\")",
				name);
	}
	tg_json_free(root);
	if (rc) {
		tg_index_release(ix);
		return rc;
	}
	if (ix->n > 1)
		qsort(ix->v, ix->n, sizeof(*ix->v), cmp);
	/* equal versions ("2.0" and "2.0.0", a wheel per platform) once */
	for (k = out = 0; k < ix->n; k++) {
		if (out && tg_version_cmp(&ix->v[out - 1], &ix->v[k]) == 0)
			tg_version_release(&ix->v[k]);
		else
			ix->v[out++] = ix->v[k];
	}
	ix->n = out;
	return 0;
}

int
tg_index_has_release(const struct tg_index *ix, const struct tg_version *v)
{
	size_t k;

	for (k = 0; k < ix->n; k++)
		if (!tg_version_is_prerelease(&ix->v[k]) &&
		    tg_version_same_release(&ix->v[k], v))
			return 1;
	return 0;
}
