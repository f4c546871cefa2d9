/* source_files.c - which files audit and require read, which directories
 * they never enter
 * SPDX-License-Identifier: MIT
 */
#include <string.h>
#include <sys/stat.h>

#include "cli/source_files.h"
#include "lib/util/buf.h"

enum cli_lang
cli_source_lang(const char *name)
{
	static const char *const cxx[] = {".c",	  ".cc", ".cpp", ".cxx", ".h",
					  ".hpp", ".cu", ".cuh", NULL};
	const char *dot = strrchr(name, '.');
	size_t k;

	if (!dot || dot == name)
		return CLI_LANG_NONE;
	if (strcmp(dot, ".py") == 0 || strcmp(dot, ".pyi") == 0)
		return CLI_LANG_PY;
	for (k = 0; cxx[k]; k++)
		if (strcmp(dot, cxx[k]) == 0)
			return CLI_LANG_CXX;
	return CLI_LANG_NONE;
}

/* The directories an audit never enters: version control, virtual
 * environments, build output, caches. */
int
cli_source_skip_dir(const struct tg_walk_entry *e)
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
