/* shim.c - a pyenv shim resolved to the program it would exec
 * SPDX-License-Identifier: MIT
 *
 * A pyenv shim is recognised by its text (a script that execs
 * `libexec/pyenv exec`, the first SHIM_HEAD_MAX bytes read); its
 * PYENV_ROOT is read from the script. The version is pyenv's: from
 * PYENV_VERSION, else the nearest .python-version going up from the
 * working directory, else $PYENV_ROOT/version, else "system"; each name
 * of it is looked up under $PYENV_ROOT/versions (exactly, then as the
 * prefix of the newest installed X.Y.Z), "system" on PATH outside the
 * shims, and "system" is tried last whatever the names are (pyenv-which).
 * Nothing is run. Worst case: one directory listing of
 * $PYENV_ROOT/versions per name, and one file read per directory up to
 * the root.
 */
#include "lib/pyenv/shim.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/buf.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"

#define SHIM_HEAD_MAX 8192
#define VERSION_FILE_MAX ((size_t)64 * 1024)

int
tg_shim_root(const char *path, char **out, struct tg_err *err)
{
	char *text = NULL, *root = NULL;
	size_t len;
	int trunc, rc;
	const char *p, *q;

	*out = NULL;
	/* the caller found path an executable regular file a moment ago:
	 * no stat of it again */
	rc = tg_file_read_head_walked(path, SHIM_HEAD_MAX, &text, &len, &trunc,
				      NULL);
	if (rc == TG_ENOMEM)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (rc || len < 2 || memcmp(text, "#!", 2) != 0 ||
	    !strstr(text, "/libexec/pyenv\" exec")) {
		free(text);
		return 0; /* no shim: read as an interpreter */
	}
	p = strstr(text, "export PYENV_ROOT=\"");
	q = p ? strchr(p += strlen("export PYENV_ROOT=\""), '"') : NULL;
	if (!q) {
		/* "exec "<root>/libexec/pyenv" exec" */
		q = strstr(text, "/libexec/pyenv\" exec");
		for (p = q; p > text && p[-1] != '"'; p--)
			;
	}
	root = tg_str_ndup(p, (size_t)(q - p));
	free(text);
	if (!root)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	*out = root;
	return 0;
}

/* The names of a pyenv version file as pyenv-version-file-read reads
 * them: the first word of each line (bash `read -r version _`: blanks,
 * tabs and CRs separate), lines that are blank or whose first word
 * starts with '#' skipped, joined with ':', into *out; NULL when the
 * file is missing, cannot be read or names nothing. TG_ENOMEM only. */
static int
version_file_words(const char *path, char **out)
{
	char *text = NULL;
	size_t len, i = 0;
	struct tg_buf words = TG_BUF_INIT;
	int rc;

	*out = NULL;
	rc = tg_file_read(path, VERSION_FILE_MAX, &text, &len, NULL, NULL);
	if (rc)
		return rc == TG_ENOMEM ? TG_ENOMEM : 0;
	while (i < len) {
		size_t e = i, j, w;

		while (e < len && text[e] != '\n')
			e++;
		j = i;
		while (j < e && strchr(" \t\r", text[j]))
			j++;
		w = j;
		while (w < e && !strchr(" \t\r", text[w]))
			w++;
		if (w > j && text[j] != '#') {
			if (words.len)
				tg_buf_addc(&words, ':');
			tg_buf_add(&words, text + j, w - j);
		}
		i = e + 1;
	}
	free(text);
	if (tg_buf_error(&words)) {
		tg_buf_release(&words);
		return TG_ENOMEM;
	}
	if (words.len)
		*out = tg_buf_detach(&words);
	tg_buf_release(&words);
	return 0;
}

/* Compare dotted numeric version names ("3.11.7" vs "3.11.10"). */
static int
cmp_dotted(const char *a, const char *b)
{
	while (*a || *b) {
		long x = strtol(a, (char **)&a, 10),
		     y = strtol(b, (char **)&b, 10);

		if (x != y)
			return x < y ? -1 : 1;
		if (*a == '.')
			a++;
		if (*b == '.')
			b++;
		if ((*a && (*a < '0' || *a > '9')) ||
		    (*b && (*b < '0' || *b > '9')))
			return strcmp(a, b);
	}
	return 0;
}

/* p, or NULL with TG_ENOMEM in err */
static char *
nomem_if_null(char *p, struct tg_err *err)
{
	if (!p)
		tg_err_set(err, TG_ENOMEM, "out of memory");
	return p;
}

/* The program of pyenv version name: exact, else the newest installed
 * version that starts with "name." (pyenv's prefix resolution). NULL
 * when there is none, or with err set when a path is too long. */
static char *
pyenv_program(const char *root, const char *name, const char *program,
	      struct tg_err *err)
{
	char path[4096], best[256] = "";
	DIR *d;
	struct dirent *de;
	size_t n = strlen(name);

	if (strchr(name, '/') || strcmp(name, "..") == 0 ||
	    strcmp(name, ".") == 0)
		return NULL;
	if (tg_path_fmt(path, sizeof(path), err, "%s/versions/%s/bin/%s", root,
			name, program))
		return NULL;
	if (tg_path_is_executable(path))
		return nomem_if_null(tg_str_ndup(path, strlen(path)), err);
	/* pyenv-version-name: "python-3.11" names 3.11 when no version has
	 * the longer name */
	if (strncmp(name, "python-", 7) == 0 && name[7]) {
		snprintf(path, sizeof(path), "%s/versions/%s", root, name);
		if (!tg_path_is_dir(path))
			return pyenv_program(root, name + 7, program, err);
	}
	/* shorter than the path above, which fitted */
	snprintf(path, sizeof(path), "%s/versions", root);
	d = opendir(path);
	if (!d) {
		if (errno == ENOMEM)
			tg_err_set(err, TG_ENOMEM, "out of memory");
		return NULL;
	}
	while ((de = readdir(d))) {
		const char *v = de->d_name;

		if (strncmp(v, name, n) != 0 || v[n] != '.' ||
		    strlen(v) >= sizeof(best) ||
		    strspn(v, "0123456789.") != strlen(v))
			continue;
		if (tg_path_fmt(path, sizeof(path), err,
				"%s/versions/%s/bin/%s", root, v, program)) {
			closedir(d);
			return NULL;
		}
		if (tg_path_is_executable(path) &&
		    (!best[0] || cmp_dotted(v, best) > 0))
			snprintf(best, sizeof(best), "%s", v);
	}
	closedir(d);
	if (!best[0])
		return NULL;
	/* the same path as in the loop, which fitted */
	snprintf(path, sizeof(path), "%s/versions/%s/bin/%s", root, best,
		 program);
	return nomem_if_null(tg_str_ndup(path, strlen(path)), err);
}

int
tg_shim_resolve(const char *shim, const char *root, const char *pyenv_version,
		const char *pathvar, const char *cwd, char **exe, char **via,
		struct tg_err *err)
{
	const char *program = tg_path_basename(shim);
	char *names = NULL, *source = NULL, *dir = NULL, *shims = NULL;
	char *names_copy = NULL, *p, *tok, *save = NULL;
	struct tg_err e = TG_ERR_INIT;
	int rc = 0;

	if (pyenv_version && pyenv_version[0]) {
		names = tg_str_ndup(pyenv_version, strlen(pyenv_version));
		source = tg_str_ndup("PYENV_VERSION", 13);
	} else {
		dir = tg_str_ndup(cwd, strlen(cwd));
		while (dir && !rc) {
			char *f = tg_path_join(dir, ".python-version"), *up;

			rc = f ? version_file_words(f, &names) : TG_ENOMEM;
			if (names) {
				source = f;
				break;
			}
			free(f);
			if (rc || strcmp(dir, "/") == 0)
				break;
			up = tg_path_dirname(dir);
			free(dir);
			dir = up;
		}
		if (!dir)
			rc = TG_ENOMEM;
		if (!rc && !names) {
			source = tg_path_join(root, "version");
			rc = source ? version_file_words(source, &names)
				    : TG_ENOMEM;
		}
		if (!rc && !names) {
			names = tg_str_ndup("system", 6);
			free(source);
			source = tg_str_ndup("default", 7);
		}
	}
	if (rc || !names || !source) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	shims = tg_path_join(root, "shims");
	names_copy = tg_str_ndup(names, strlen(names));
	if (!shims || !names_copy) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	for (tok = strtok_r(names, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		if (strcmp(tok, "system") == 0) {
			p = tg_path_which(program, pathvar, cwd, shims);
			if (!p && errno == ENOMEM)
				tg_err_set(&e, TG_ENOMEM, "out of memory");
		} else {
			p = pyenv_program(root, tok, program, &e);
		}
		if (!p && e.code) {
			rc = e.code;
			if (err)
				*err = e;
			goto out;
		}
		if (p) {
			char msg[4200];

			snprintf(msg, sizeof(msg),
				 "pyenv shim '%s' -> version '%s' (set by %s)",
				 shim, TG_QUOTE(tok), source);
			*exe = p;
			*via = tg_str_ndup(msg, strlen(msg));
			goto found;
		}
	}
	/* pyenv-which: when no version provides the program, "system" is
	 * tried last whatever the versions are */
	p = tg_path_which(program, pathvar, cwd, shims);
	if (!p && errno == ENOMEM) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	if (p) {
		char msg[4200];

		snprintf(msg, sizeof(msg),
			 "pyenv shim '%s' -> system (no '%s' in version '%s' "
			 "set by %s: pyenv falls back to system)",
			 shim, program, TG_QUOTE(names_copy), source);
		*exe = p;
		*via = tg_str_ndup(msg, strlen(msg));
		goto found;
	}
	rc = tg_err_set(err, TG_ENOENT,
			"pyenv shim '%s': no '%s' in the version set by %s, "
			"nor on PATH outside the shims (system)",
			shim, program, source);
	goto out;
found:
	if (!*via) {
		free(*exe);
		*exe = NULL;
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	}
out:
	free(names);
	free(names_copy);
	free(source);
	free(dir);
	free(shims);
	return rc;
}
