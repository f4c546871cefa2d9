/* sources.c - which files an audit reads, which directories it never
 * enters
 * SPDX-License-Identifier: MIT
 *
 * A file is read when a language claims its name (audit/lang); a
 * directory is entered unless it is one no package's own sources live
 * in, or the caller excludes it. One stat per directory (its
 * pyvenv.cfg), none per file.
 */
#include "lib/audit/sources.h"

#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util/buf.h"

int
tg_sources_skip_dir(const struct tg_walk_entry *e)
{
	static const char *const names[] = {
	    ".git",	    ".hg",  ".svn", "__pycache__", "build", "dist",
	    "node_modules", ".tox", ".nox", ".eggs",	   NULL};
	struct tg_buf cfg = TG_BUF_INIT;
	struct stat st;
	size_t k, n = strlen(e->name);
	int venv;

	for (k = 0; names[k]; k++)
		if (strcmp(e->name, names[k]) == 0)
			return 1;
	if (n > 9 && strcmp(e->name + n - 9, ".egg-info") == 0)
		return 1;
	tg_buf_addf(&cfg, "%s/pyvenv.cfg", e->path);
	venv = !tg_buf_error(&cfg) && stat(cfg.data, &st) == 0;
	tg_buf_release(&cfg);
	return venv;
}

int
tg_sources_excluded(const char *const *globs, size_t n, const char *name,
		    const char *rel)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (fnmatch(globs[k], name, 0) == 0 ||
		    (rel && fnmatch(globs[k], rel, 0) == 0))
			return 1;
	return 0;
}
