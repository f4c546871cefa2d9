/* interp.c - a Python interpreter described from its files, never run
 * SPDX-License-Identifier: MIT
 *
 * Mirrors CPython's getpath for POSIX: a pyvenv.cfg beside the
 * executable or one directory up makes a venv whose prefix is that
 * directory's parent and whose base is found from the cfg's `home`; the
 * base prefix is the first directory, going up from the real executable's
 * directory, that holds lib/pythonX.Y/os.py. X.Y comes from the real
 * executable's name (python3.11), else pyvenv.cfg, else the only
 * lib/python3.* directory. PYTHONHOME overrides the base prefix.
 *
 * A pyenv shim is resolved first, by shim.c.
 */
#include "lib/pyenv/interp.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pyenv/dpkg.h"
#include "lib/pyenv/shim.h"
#include "lib/util/buf.h"
#include "lib/util/dirlist.h"
#include "lib/util/file.h"
#include "lib/util/str.h"
#include "lib/util/path.h"

#define CFG_MAX ((size_t)64 * 1024)
#define SITE_PY_MAX ((size_t)1024 * 1024)
#define SYSCONFIG_HEAD ((size_t)16 * 1024)
#define BINARY_MAX ((size_t)256 * 1024 * 1024)

void
tg_interp_release(struct tg_interp *in)
{
	free(in->executable);
	free(in->via);
	free(in->prefix);
	free(in->base_prefix);
	free(in->pyvenv_cfg);
	free(in->ext_suffix);
	free(in->warning);
	free(in->venv_command);
	memset(in, 0, sizeof(*in));
}

/* p; a NULL p sets *nomem */
static char *
kept(char *p, int *nomem)
{
	if (!p)
		*nomem = 1;
	return p;
}

/* "python3.11" -> 3, 11 */
static int
version_from_name(const char *base, int *major, int *minor)
{
	int a, b, n = 0;

	if (sscanf(base, "python%d.%d%n", &a, &b, &n) == 2 &&
	    (base[n] == '\0' || base[n] == 'd' || base[n] == 'm' ||
	     base[n] == 't') &&
	    a >= 2 && b >= 0 && b < 1000) {
		*major = a;
		*minor = b;
		return 0;
	}
	return -1;
}

/* Key = value lines of pyvenv.cfg (site.py's reading of it): NULL when
 * there is no key, or out of memory (*nomem set). */
static char *
cfg_value(const char *text, size_t len, const char *key, int *nomem)
{
	size_t i = 0, n = strlen(key);

	while (i < len) {
		size_t e = i, k, ke, v, ve;

		while (e < len && text[e] != '\n')
			e++;
		for (k = i; k < e && text[k] != '='; k++)
			;
		if (k < e) {
			size_t ks = i;

			while (ks < k && (text[ks] == ' ' || text[ks] == '\t'))
				ks++;
			ke = k;
			while (ke > ks &&
			       (text[ke - 1] == ' ' || text[ke - 1] == '\t'))
				ke--;
			if (ke - ks == n &&
			    strncasecmp(text + ks, key, n) == 0) {
				v = k + 1;
				ve = e;
				while (v < ve &&
				       (text[v] == ' ' || text[v] == '\t'))
					v++;
				while (ve > v && (text[ve - 1] == ' ' ||
						  text[ve - 1] == '\t' ||
						  text[ve - 1] == '\r'))
					ve--;
				return kept(tg_str_ndup(text + v, ve - v),
					    nomem);
			}
		}
		i = e + 1;
	}
	return NULL;
}

/* The one X.Y with DIR/lib/pythonX.Y/os.py or site-packages: 0, 1 when
 * none or several, a TG_E* code (err set) when a path is too long. */
static int
scan_lib_version(const char *prefix, int *major, int *minor, struct tg_err *err)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	int found = 0, rc;

	if ((rc = tg_path_fmt(path, sizeof(path), err, "%s/lib", prefix)))
		return rc;
	d = opendir(path);
	if (!d)
		return errno == ENOMEM
			   ? tg_err_set(err, TG_ENOMEM, "out of memory")
			   : 1;
	while ((de = readdir(d))) {
		int a, b;
		char probe[4096 + 300];

		if (version_from_name(de->d_name, &a, &b))
			continue;
		if ((rc = tg_path_fmt(probe, sizeof(probe), err, "%s/%s/os.py",
				      path, de->d_name)))
			break;
		if (!tg_path_is_file(probe)) {
			if ((rc = tg_path_fmt(probe, sizeof(probe), err,
					      "%s/%s/site-packages", path,
					      de->d_name)))
				break;
			if (!tg_path_is_dir(probe))
				continue;
		}
		if (found && (a != *major || b != *minor)) {
			found = 2;
			continue;
		}
		*major = a;
		*minor = b;
		if (!found)
			found = 1;
	}
	closedir(d);
	if (rc)
		return rc;
	return found == 1 ? 0 : 1;
}

/* Going up from dir, the first directory holding lib/pythonX.Y/os.py;
 * NULL when none, or with err set when a path is too long. The root
 * itself is never one: getpath's search stops below it (its dirname of
 * "/x" ends the walk), and falls back to the prefix compiled in. */
static char *
search_landmark(const char *dir, int major, int minor, struct tg_err *err)
{
	char *d = tg_str_ndup(dir, strlen(dir));

	if (!d)
		tg_err_set(err, TG_ENOMEM, "out of memory");
	while (d) {
		char probe[4200], *up;

		if (strcmp(d, "/") == 0)
			break;
		if (tg_path_fmt(probe, sizeof(probe), err,
				"%s/lib/python%d.%d/os.py", d, major, minor))
			break;
		if (tg_path_is_file(probe))
			return d;
		if (strcmp(d, "/") == 0)
			break;
		up = tg_path_dirname(d);
		if (!up)
			tg_err_set(err, TG_ENOMEM, "out of memory");
		free(d);
		d = up;
	}
	free(d);
	return NULL;
}

/* The quick answer for Debian's own interpreter: dpkg lists the program
 * as a file of python3.X-minimal (/var/lib/dpkg/info, at most 64 KiB
 * read). 1 listed, 0 not (or no such list), -1 out of memory. */
static int
dpkg_lists_interpreter(const struct tg_interp *in, const char *real_exe)
{
	struct tg_err e = TG_ERR_INIT;
	char path[4200], line[4200], *text = NULL;
	size_t len;
	int yes = 0;

	if (tg_path_fmt(path, sizeof(path), NULL,
			TG_DPKG_ADMINDIR "/info/python%d.%d-minimal.list",
			in->major, in->minor) ||
	    tg_path_fmt(line, sizeof(line), NULL, "\n%s\n", real_exe))
		return 0;
	if (tg_file_read(path, CFG_MAX, &text, &len, NULL, &e))
		return e.code == TG_ENOMEM ? -1 : 0;
	yes = text && (memmem(text, len, line, strlen(line)) ||
		       (len > strlen(line) - 1 &&
			memcmp(text, line + 1, strlen(line) - 1) == 0));
	free(text);
	return yes;
}

/* Whether the file at path holds the bytes "dist-packages": 1 yes, 0 no,
 * -1 when it cannot be read (not a regular file, over BINARY_MAX, not
 * mappable). Mapped, not read: a 7 MiB interpreter is searched without
 * being copied. */
static int
binary_mentions_dist_packages(const char *path)
{
	static const char needle[] = "dist-packages";
	size_t size;
	int fd = -1, found;
	void *map;

	if (tg_file_open(path, BINARY_MAX, NULL, &fd, &size, NULL, NULL))
		return -1;
	if (size == 0) {
		close(fd);
		return 0;
	}
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	found = memmem(map, size, needle, sizeof(needle) - 1) != NULL;
	munmap(map, size);
	return found;
}

/* Whether site.py adds Debian's dist-packages directories. From 3.11
 * site is frozen into the interpreter (the copy on disk is not run), so
 * the rules are the binary's: Debian's build holds "dist-packages" (its
 * patched site.py's strings), an upstream build does not; PYTHONHOME
 * cannot change that. dpkg's list of python3.X-minimal answers first for
 * Debian's own program, which is then not read. A binary that cannot be
 * read, before 3.11, and without a program (a --prefix without
 * bin/python3): the site.py of the base prefix. real_exe: the program,
 * its own links followed, or NULL. */
static int
check_debian_site(struct tg_interp *in, const char *real_exe,
		  struct tg_err *err)
{
	char path[4200], *text = NULL;
	size_t len;
	int rc;

	if (real_exe && (in->major > 3 || in->minor >= 11)) {
		int r = dpkg_lists_interpreter(in, real_exe);

		if (r < 0)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (r) {
			in->debian = 1;
			return 0;
		}
		r = binary_mentions_dist_packages(real_exe);

		if (r >= 0) {
			in->debian = r;
			return 0;
		}
	}
	if ((rc = tg_path_fmt(path, sizeof(path), err,
			      "%s/lib/python%d.%d/site.py", in->base_prefix,
			      in->major, in->minor)))
		return rc;
	{
		struct tg_err e = TG_ERR_INIT;

		if (tg_file_read(path, SITE_PY_MAX, &text, &len, NULL, &e) ==
			0 &&
		    text)
			in->debian = strstr(text, "\"dist-packages\"") != NULL;
		else if (e.code == TG_ENOMEM)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	free(text);
	return 0;
}

/* EXT_SUFFIX from the _sysconfigdata_*.py at path into in->ext_suffix,
 * left NULL when the file cannot be read or does not say it: its first
 * 'EXT_SUFFIX': '...' (a value of 1 to 79 bytes). The key comes early
 * (some 5 KiB into 40), so the first SYSCONFIG_HEAD bytes are read, and
 * the whole file only when the first complete occurrence is not among
 * them: the same answer, a fifth of the bytes and fresh pages. 0, or
 * TG_ENOMEM. */
static int
sysconfig_ext_suffix(struct tg_interp *in, const char *path)
{
	static const char key[] = "'EXT_SUFFIX': '";
	struct tg_err e = TG_ERR_INIT;
	char *text = NULL;
	const char *p = NULL, *q = NULL;
	size_t len;
	int truncated = 0, found = 0, rc = 0;

	/* the value ends at the next quote: the first occurrence of the
	 * key, and its value, whole in the head, or else in the file */
	if (tg_file_read_head(path, SYSCONFIG_HEAD, &text, &len, &truncated,
			      NULL, &e) == 0) {
		found = (p = strstr(text, key)) &&
			(q = strchr(p + sizeof(key) - 1, '\''));
		if (!found && truncated) {
			free(text);
			text = NULL;
			if (tg_file_read(path, SITE_PY_MAX, &text, &len, NULL,
					 &e) == 0)
				found = (p = strstr(text, key)) &&
					(q = strchr(p + sizeof(key) - 1, '\''));
		}
	}
	if (found && q - p > (long)sizeof(key) - 1 && q - p < 80) {
		p += sizeof(key) - 1;
		in->ext_suffix = tg_str_ndup(p, (size_t)(q - p));
		rc = in->ext_suffix ? 0 : TG_ENOMEM;
	} else if (e.code == TG_ENOMEM) {
		rc = TG_ENOMEM;
	}
	free(text);
	return rc;
}

/* The first of importlib.machinery.EXTENSION_SUFFIXES, which CPython
 * compiles in: the build's EXT_SUFFIX as its _sysconfigdata_*.py says it
 * (the first such file in name order that has it), else the suffix of
 * the first extension module of lib-dynload named NAME.cpython-*.so.
 * Unknown (NULL) is no error. */
static int
read_ext_suffix(struct tg_interp *in, struct tg_dirlist *dirs,
		struct tg_err *err)
{
	char dir[4200], *best = NULL;
	const struct tg_dirlist_dir *d;
	struct tg_dirlist_dir *own = NULL;
	size_t k;
	int rc = 0;

	if (tg_path_fmt(dir, sizeof(dir), NULL, "%s/lib/python%d.%d",
			in->base_prefix, in->major, in->minor))
		return 0;
	/* pass 0: _sysconfigdata_*.py, pass 1: lib-dynload */
	for (int pass = 0; pass < 2 && !in->ext_suffix && !rc; pass++) {
		if (pass == 1 &&
		    tg_path_fmt(dir + strlen(dir), sizeof(dir) - strlen(dir),
				NULL, "/lib-dynload"))
			break;
		/* no such directory is no error; no memory is */
		if ((rc = tg_dirlist_get(dirs, dir, &d, &own)))
			break;
		for (k = 0; k < d->n && !rc; k++) {
			const char *n = tg_dirlist_name(d, k), *c;
			size_t l = strlen(n);

			if (pass == 0 && (strncmp(n, "_sysconfigdata_", 15) ||
					  l < 3 || strcmp(n + l - 3, ".py")))
				continue;
			if (pass == 1 && (!(c = strstr(n, ".cpython-")) ||
					  l < 3 || strcmp(n + l - 3, ".so") ||
					  strchr(c + 1, '.') != n + l - 3))
				continue;
			if (!best || strcmp(n, best) < 0) {
				free(best);
				if (!(best = tg_str_ndup(n, l)))
					rc = TG_ENOMEM;
			}
		}
		tg_dirlist_dir_free(own);
		own = NULL;
		if (rc)
			break;
		if (!best)
			continue; /* no _sysconfigdata_: lib-dynload */
		if (pass == 1) {
			in->ext_suffix = tg_str_ndup(strchr(best, '.'),
						     strlen(strchr(best, '.')));
			rc = in->ext_suffix ? 0 : TG_ENOMEM;
		} else {
			char file[4400];

			if (tg_path_fmt(file, sizeof(file), NULL, "%s/%s", dir,
					best) == 0)
				rc = sysconfig_ext_suffix(in, file);
		}
		free(best);
		best = NULL;
	}
	free(best);
	return rc ? tg_err_set(err, rc, "out of memory") : 0;
}

/* getpath's realpath(): the executable's own chain of symbolic links
 * followed (a relative target joined to the link's directory), the
 * directories on the way kept as they are spelt, so that a prefix
 * reached through a symlinked directory keeps its name (sys.prefix).
 * NULL with errno set when a link in the chain is dangling (ENOENT),
 * there are more than 40 (ELOOP), or memory runs out (ENOMEM). */
static char *
link_chain(const char *exe)
{
	char *p = tg_str_ndup(exe, strlen(exe)), target[4096];
	int hops;

	for (hops = 0; p; hops++) {
		struct stat st;
		ssize_t n;
		char *dir, *joined, *next;

		if (lstat(p, &st) != 0) {
			free(p);
			return NULL;
		}
		/* not a link: lstat said what stat would */
		if (!S_ISLNK(st.st_mode))
			return p;
		if (hops == 40) {
			free(p);
			errno = ELOOP;
			return NULL;
		}
		n = readlink(p, target, sizeof(target) - 1);
		if (n < 0) {
			free(p);
			return NULL;
		}
		target[n] = '\0';
		dir = tg_path_dirname(p);
		joined = dir ? tg_path_join(dir, target) : NULL;
		next = joined ? tg_path_abs(joined, "/") : NULL;
		free(dir);
		free(joined);
		free(p);
		p = next;
	}
	errno = ENOMEM;
	return NULL;
}

/* pyvenv.cfg's home holds no interpreter (the base Python moved or was
 * removed). getpath then takes the venv's own executable: when it is a
 * symbolic link, its link chain names the base interpreter; when it is
 * a copy, the prefix compiled into it, which only the binary knows:
 * pyvenv.cfg's "executable" (written by venv since 3.11) names the
 * interpreter it was copied from. *base_exe is replaced; in->warning
 * says what was done. TG_ENOENT, saying what in pyvenv.cfg is wrong,
 * when neither works. */
static int
stale_home(struct tg_interp *in, const char *home, const char *text, size_t len,
	   char **base_exe, struct tg_err *err)
{
	struct stat st;
	char *cfg_exe = NULL, msg[TG_ERR_MSG_MAX];
	int nomem = 0, rc = 0;

	free(*base_exe);
	*base_exe = NULL;
	if (lstat(in->executable, &st) == 0 && S_ISLNK(st.st_mode)) {
		*base_exe = tg_str_ndup(in->executable, strlen(in->executable));
		snprintf(msg, sizeof(msg),
			 "'%s': home '%s' holds no python3; Python finds its "
			 "base through the link '%s', and so does torchgate",
			 in->pyvenv_cfg, home, in->executable);
	} else {
		cfg_exe = cfg_value(text, len, "executable", &nomem);
		if (cfg_exe && tg_path_is_file(cfg_exe)) {
			*base_exe = cfg_exe;
			cfg_exe = NULL;
			snprintf(msg, sizeof(msg),
				 "'%s': home '%s' holds no python3; Python "
				 "uses the prefix compiled into '%s', which "
				 "torchgate takes from its executable '%s'",
				 in->pyvenv_cfg, home, in->executable,
				 *base_exe);
		} else if (!nomem) {
			rc = tg_err_set(
			    err, TG_ENOENT,
			    "'%s': home '%s' holds no python3, '%s' is a copy "
			    "(not a link) and %s%s%s: cannot tell the base "
			    "Python; set home in pyvenv.cfg to the directory "
			    "of the Python the venv was made from",
			    in->pyvenv_cfg, home, in->executable,
			    cfg_exe ? "its executable '"
				    : "it names no executable",
			    cfg_exe ? cfg_exe : "",
			    cfg_exe ? "' does not exist" : "");
			free(cfg_exe);
			return rc;
		}
	}
	free(cfg_exe);
	if (!*base_exe || nomem)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	in->warning = tg_str_ndup(msg, strlen(msg));
	return in->warning ? 0 : tg_err_set(err, TG_ENOMEM, "out of memory");
}

/* pyvenv.cfg at path into *text, or *text NULL when there is none there:
 * the read says absent, or it fails where stat sees nothing (a link
 * loop), which is what a look with stat first said. One stat, not two,
 * for a venv's. */
static int
read_cfg(const char *path, char **text, size_t *len, struct tg_err *err)
{
	struct tg_err e = TG_ERR_INIT;
	int absent = 0, rc;

	rc = tg_file_read_as(path, CFG_MAX, "pyvenv.cfg", text, len, &absent,
			     &e);
	if (rc && rc != TG_ENOMEM && !tg_path_exists(path))
		return 0;
	if (rc && err)
		*err = e;
	return rc;
}

static int
describe(struct tg_interp *in, const struct tg_interp_env *env,
	 struct tg_err *err)
{
	char *exe_dir = NULL, *real = NULL, *cfg = NULL, *text = NULL;
	char *home = NULL, *v = NULL, *base_exe = NULL, *base_dir = NULL;
	size_t len = 0;
	int rc = 0, have_version = 0, nomem = 0;

	exe_dir = tg_path_dirname(in->executable);
	if (!exe_dir)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	/* pyvenv.cfg beside the executable or one level up */
	/* whatever is there is read: a FIFO or a device named pyvenv.cfg is
	 * an error naming it, not taken for "no venv" (which would blame a
	 * missing os.py instead) */
	cfg = kept(tg_path_join(exe_dir, "pyvenv.cfg"), &nomem);
	if (cfg && (rc = read_cfg(cfg, &text, &len, err)))
		goto out;
	if (cfg && !text) {
		char *up = kept(tg_path_dirname(exe_dir), &nomem);

		free(cfg);
		cfg = up ? kept(tg_path_join(up, "pyvenv.cfg"), &nomem) : NULL;
		free(up);
		if (cfg && (rc = read_cfg(cfg, &text, &len, err)))
			goto out;
		if (cfg && !text) {
			free(cfg);
			cfg = NULL;
		}
	}
	if (nomem) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	if (cfg) {
		in->venv = 1;
		in->pyvenv_cfg = cfg;
		cfg = NULL;
		in->prefix = tg_path_dirname(exe_dir);
		v = cfg_value(text, len, "include-system-site-packages",
			      &nomem);
		in->system_site = !v || strcasecmp(v, "true") == 0;
		free(v);
		home = cfg_value(text, len, "home", &nomem);
		in->venv_command = cfg_value(text, len, "command", &nomem);
		v = cfg_value(text, len, "version", &nomem);
		if (!v)
			v = cfg_value(text, len, "version_info", &nomem);
		if (!in->prefix)
			nomem = 1;
		if (v && sscanf(v, "%d.%d", &in->major, &in->minor) == 2)
			have_version = 1;
		free(v);
		v = NULL;
		if (nomem) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			goto out;
		}
	}
	/* the base interpreter: the venv's home, else the executable */
	if (home) {
		int there;

		base_exe = tg_path_join(home, tg_path_basename(in->executable));
		there = base_exe && tg_path_exists(base_exe);
		if (base_exe && !there) {
			free(base_exe);
			base_exe = tg_path_join(home, "python3");
			there = base_exe && tg_path_exists(base_exe);
		}
		if (base_exe && !there &&
		    (rc = stale_home(in, home, text, len, &base_exe, err)))
			goto out;
	} else {
		base_exe = tg_str_ndup(in->executable, strlen(in->executable));
	}
	if (!base_exe) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	real = link_chain(base_exe);
	if (!real) {
		rc = errno == ENOMEM
			 ? tg_err_set(err, TG_ENOMEM, "out of memory")
			 : tg_err_set(err, TG_ENOENT, "cannot resolve '%s': %s",
				      base_exe, strerror(errno));
		goto out;
	}
	if (strncmp(tg_path_basename(real), "python", 6) != 0) {
		rc = tg_err_set(err, TG_ENOENT,
				"'%s' is not a Python interpreter ('%s' is "
				"not named python*)",
				in->executable, real);
		goto out;
	}
	if (!version_from_name(tg_path_basename(real), &in->major, &in->minor))
		have_version = 1;
	base_dir = tg_path_dirname(real);
	if (!base_dir) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	if (env->pythonhome && env->pythonhome[0]) {
		const char *colon = strchr(env->pythonhome, ':');

		in->base_prefix = tg_str_ndup(
		    env->pythonhome, colon ? (size_t)(colon - env->pythonhome)
					   : strlen(env->pythonhome));
		if (!in->base_prefix) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			goto out;
		}
		if (!have_version &&
		    (rc = scan_lib_version(in->base_prefix, &in->major,
					   &in->minor, err)) <= 0) {
			if (rc)
				goto out;
			have_version = 1;
		}
	} else if (have_version) {
		struct tg_err e = TG_ERR_INIT;

		in->base_prefix =
		    search_landmark(base_dir, in->major, in->minor, &e);
		if (!in->base_prefix && !e.code) {
			/* getpath then takes the prefix compiled in, which
			 * only the binary holds: the one the real program's
			 * whole path, every link resolved, stands for (so
			 * /bin/python3 through a merged /bin is /usr's) */
			char *full = tg_path_realpath(real), *fdir = NULL;

			if (!full && errno == ENOMEM)
				tg_err_set(&e, TG_ENOMEM, "out of memory");
			else if (full && !(fdir = tg_path_dirname(full)))
				tg_err_set(&e, TG_ENOMEM, "out of memory");
			if (fdir)
				in->base_prefix = search_landmark(
				    fdir, in->major, in->minor, &e);
			free(full);
			free(fdir);
		}
		if (!in->base_prefix && e.code) {
			rc = e.code;
			if (err)
				*err = e;
			goto out;
		}
	} else {
		/* no version in any name: try the prefix one level up */
		char *up = tg_path_dirname(base_dir);

		if (!up) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			goto out;
		}
		if (up && (rc = scan_lib_version(up, &in->major, &in->minor,
						 err)) <= 0) {
			if (rc) {
				free(up);
				goto out;
			}
			have_version = 1;
			in->base_prefix = up;
			up = NULL;
		}
		free(up);
	}
	rc = 0;
	if (!have_version || !in->base_prefix) {
		rc = tg_err_set(err, TG_EINVAL,
				"cannot tell the Python version and prefix of "
				"'%s': no lib/pythonX.Y/os.py above '%s'",
				in->executable, base_dir);
		goto out;
	}
	if (!in->prefix)
		in->prefix =
		    tg_str_ndup(in->base_prefix, strlen(in->base_prefix));
	if (!in->prefix) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	rc = check_debian_site(in, real, err);
	if (!rc)
		rc = read_ext_suffix(in, env->dirs, err);
out:
	free(exe_dir);
	free(real);
	free(cfg);
	free(text);
	free(home);
	free(base_exe);
	free(base_dir);
	return rc;
}

int
tg_interp_find(struct tg_interp *in, const char *python,
	       const struct tg_interp_env *env, struct tg_err *err)
{
	char *found = NULL, *root = NULL;
	int rc;

	memset(in, 0, sizeof(*in));
	if (!python || !strchr(python, '/')) {
		const char *name = python ? python : "python3";

		found = tg_path_which(name, env->path, env->cwd, NULL);
		if (!found && errno == ENOMEM)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (!found)
			return tg_err_set(err, TG_ENOENT,
					  "no '%s' on PATH (%s)", name,
					  env->path ? env->path : "unset");
	} else {
		found = tg_path_abs(python, env->cwd);
		if (!found)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (!tg_path_is_executable(found)) {
			rc = tg_err_set(
			    err, TG_ENOENT, "no Python interpreter at '%s': %s",
			    found,
			    tg_path_exists(found) ? "not an executable file"
						  : strerror(ENOENT));
			free(found);
			return rc;
		}
	}
	if ((rc = tg_shim_root(found, &root, err))) {
		free(found);
		return rc;
	}
	if (root) {
		char *exe = NULL;

		rc = tg_shim_resolve(found, root, env->pyenv_version, env->path,
				     env->cwd, &exe, &in->via, err);
		free(found);
		free(root);
		if (rc) {
			tg_interp_release(in);
			return rc;
		}
		found = exe;
	}
	in->executable = found;
	rc = describe(in, env, err);
	if (rc)
		tg_interp_release(in);
	return rc;
}

int
tg_interp_from_prefix(struct tg_interp *in, const char *dir,
		      const struct tg_interp_env *env, struct tg_err *err)
{
	char *abs = tg_path_abs(dir, env->cwd), *py;
	int rc = 0;

	memset(in, 0, sizeof(*in));
	if (!abs)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (!tg_path_is_dir(abs)) {
		rc = tg_err_set(
		    err, TG_ENOENT, "no environment at '%s': %s", abs,
		    tg_path_exists(abs) ? "not a directory" : strerror(ENOENT));
		free(abs);
		return rc;
	}
	py = tg_path_join(abs, "bin/python3");
	if (!py) {
		free(abs);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	if (tg_path_is_executable(py)) {
		rc = tg_interp_find(in, py, env, err);
		free(py);
		free(abs);
		return rc;
	}
	free(py);
	if ((rc = scan_lib_version(abs, &in->major, &in->minor, err))) {
		if (rc < 0) {
			free(abs);
			return rc;
		}
		rc = tg_err_set(err, TG_ENOENT,
				"no environment at '%s': no bin/python3 and "
				"not exactly one lib/pythonX.Y",
				abs);
		free(abs);
		return rc;
	}
	in->prefix = abs;
	in->base_prefix = tg_str_ndup(abs, strlen(abs));
	if (!in->base_prefix)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	rc = check_debian_site(in, NULL, err);
	return rc ? rc : read_ext_suffix(in, env->dirs, err);
}

/* ---- the full version ----
 *
 * The X.Y above comes from names; the micro version only from a file
 * that holds it: CPython's patchlevel.h (installed with the headers:
 * Debian's libpython3.X-dev, every pyenv and conda Python) or pyvenv.cfg.
 * The stdlib's directory and _sysconfigdata_*.py give X.Y only. */

#define PATCHLEVEL_MAX ((size_t)64 * 1024)

/* The text after "#define NAME" on its line, trimmed, a trailing
 * comment dropped; NULL when text defines no NAME or out of memory
 * (*nomem set). */
static char *
define_value(const char *text, size_t len, const char *name, int *nomem)
{
	size_t i = 0, n = strlen(name);

	while (i < len) {
		size_t e = i, p = i, v;
		const char *c;

		while (e < len && text[e] != '\n')
			e++;
		while (p < e && (text[p] == ' ' || text[p] == '\t'))
			p++;
		if (p < e && text[p] == '#') {
			for (p++; p < e && (text[p] == ' ' || text[p] == '\t');
			     p++)
				;
			if (e - p > 6 + n &&
			    memcmp(text + p, "define", 6) == 0 &&
			    (text[p + 6] == ' ' || text[p + 6] == '\t')) {
				for (p += 6; p < e && (text[p] == ' ' ||
						       text[p] == '\t');
				     p++)
					;
				if (e - p >= n &&
				    memcmp(text + p, name, n) == 0 &&
				    (p + n == e || text[p + n] == ' ' ||
				     text[p + n] == '\t')) {
					for (v = p + n;
					     v < e && (text[v] == ' ' ||
						       text[v] == '\t');
					     v++)
						;
					c = memchr(text + v, '/', e - v);
					if (c && c + 1 < text + e &&
					    c[1] == '*')
						e = (size_t)(c - text);
					while (e > v && (text[e - 1] == ' ' ||
							 text[e - 1] == '\t' ||
							 text[e - 1] == '\r'))
						e--;
					return kept(
					    tg_str_ndup(text + v, e - v),
					    nomem);
				}
			}
		}
		i = e + 1;
	}
	return NULL;
}

/* A macro's number (decimal or 0x hex, as the header writes them). */
static int
define_int(const char *text, size_t len, const char *name, int *out, int *nomem)
{
	char *v = define_value(text, len, name, nomem), *end = NULL;
	long x = v ? strtol(v, &end, 0) : -1;
	int ok = v && end != v && *end == '\0' && x >= 0 && x < 100000;

	free(v);
	if (ok)
		*out = (int)x;
	return ok ? 0 : -1;
}

static char
level_letter(const char *v)
{
	static const char *const names[] = {"ALPHA", "BETA", "GAMMA", "FINAL"};
	static const char letters[] = "abcf";
	long x;
	char *end;
	int k;

	for (k = 0; k < 4; k++)
		if (strncmp(v, "PY_RELEASE_LEVEL_", 17) == 0 &&
		    strcmp(v + 17, names[k]) == 0)
			return letters[k];
	x = strtol(v, &end, 0);
	if (end != v && *end == '\0' && x >= 0xA && x <= 0xF && x != 0xD &&
	    x != 0xE)
		return letters[x == 0xF ? 3 : x - 0xA];
	return 0;
}

/* PY_VERSION's text: a quoted string of version characters. */
static int
py_version_string(const char *v, char *out, size_t size)
{
	size_t n = v ? strlen(v) : 0;

	if (n < 3 || v[0] != '"' || v[n - 1] != '"' || n - 2 >= size ||
	    strspn(v + 1, "0123456789.abcr+") != n - 2)
		return -1;
	memcpy(out, v + 1, n - 2);
	out[n - 2] = '\0';
	return 0;
}

static int
from_patchlevel(const char *path, const char *text, size_t len, int major,
		int minor, struct tg_interp_version *out, struct tg_err *err)
{
	int rc, nomem = 0;
	char *v = define_value(text, len, "PYPY_VERSION", &nomem), *lv;
	char prefix[32];

	if (nomem)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (v) {
		free(v);
		return tg_err_set(err, TG_EINVAL,
				  "'%s' is PyPy's (it defines PYPY_VERSION)",
				  path);
	}
	rc = define_int(text, len, "PY_MAJOR_VERSION", &out->major, &nomem) ||
	     define_int(text, len, "PY_MINOR_VERSION", &out->minor, &nomem) ||
	     define_int(text, len, "PY_MICRO_VERSION", &out->micro, &nomem) ||
	     define_int(text, len, "PY_RELEASE_SERIAL", &out->serial, &nomem);
	if (nomem)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (rc)
		return tg_err_set(err, TG_EINVAL,
				  "cannot read '%s': no PY_MAJOR_VERSION, "
				  "PY_MINOR_VERSION, PY_MICRO_VERSION and "
				  "PY_RELEASE_SERIAL numbers",
				  path);
	lv = define_value(text, len, "PY_RELEASE_LEVEL", &nomem);
	out->releaselevel = lv ? level_letter(lv) : 0;
	free(lv);
	if (nomem)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (!out->releaselevel)
		return tg_err_set(err, TG_EINVAL,
				  "cannot read '%s': no PY_RELEASE_LEVEL of "
				  "ALPHA, BETA, GAMMA or FINAL",
				  path);
	v = define_value(text, len, "PY_VERSION", &nomem);
	rc = py_version_string(v, out->full, sizeof(out->full));
	free(v);
	if (nomem)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (rc)
		return tg_err_set(err, TG_EINVAL,
				  "cannot read '%s': no PY_VERSION string of "
				  "version characters",
				  path);
	if (out->major != major || out->minor != minor)
		return tg_err_set(
		    err, TG_EINVAL, "'%s' says Python %d.%d.%d, not %d.%d",
		    path, out->major, out->minor, out->micro, major, minor);
	snprintf(prefix, sizeof(prefix), "%d.%d.%d", out->major, out->minor,
		 out->micro);
	if (strncmp(out->full, prefix, strlen(prefix)) != 0 ||
	    (out->full[strlen(prefix)] >= '0' &&
	     out->full[strlen(prefix)] <= '9'))
		return tg_err_set(err, TG_EINVAL,
				  "'%s' says PY_VERSION %s but %s in its "
				  "numbers",
				  path, out->full, prefix);
	return 0;
}

/* pyvenv.cfg's "3.11.2" or "3.11.2.final.0". */
static int
from_cfg_value(const char *v, int major, int minor,
	       struct tg_interp_version *out)
{
	char level[16] = "final";
	int n = 0, m = 0;

	if (!v ||
	    sscanf(v, "%d.%d.%d%n", &out->major, &out->minor, &out->micro,
		   &n) != 3 ||
	    out->major != major || out->minor != minor || out->micro < 0)
		return -1;
	out->serial = 0;
	if (v[n] == '.' &&
	    (sscanf(v + n, ".%15[a-z].%d%n", level, &out->serial, &m) != 2 ||
	     v[n + m] != '\0'))
		return -1;
	if (v[n] != '\0' && v[n] != '.')
		return -1;
	out->releaselevel = strcmp(level, "final") == 0	      ? 'f'
			    : strcmp(level, "alpha") == 0     ? 'a'
			    : strcmp(level, "beta") == 0      ? 'b'
			    : strcmp(level, "candidate") == 0 ? 'c'
							      : 0;
	if (!out->releaselevel)
		return -1;
	/* PY_VERSION as CPython spells it ("3.13.0rc1") */
	if (out->releaselevel == 'f')
		snprintf(out->full, sizeof(out->full), "%d.%d.%d", out->major,
			 out->minor, out->micro);
	else
		snprintf(out->full, sizeof(out->full), "%d.%d.%d%s%d",
			 out->major, out->minor, out->micro,
			 out->releaselevel == 'c'   ? "rc"
			 : out->releaselevel == 'b' ? "b"
						    : "a",
			 out->serial);
	return 0;
}

int
tg_interp_full_version(const struct tg_interp *in,
		       struct tg_interp_version *out, struct tg_err *err)
{
	/* the ABI flags CPython puts after X.Y: pymalloc (m, before
	 * 3.8), free-threading (t), debug (d) */
	static const char *const suffixes[] = {"", "m", "t", "d", "dm", "td"};
	char path[4200], first[4200] = "", *text = NULL, *v;
	size_t len, k;
	int rc, absent;

	memset(out, 0, sizeof(*out));
	for (k = 0;
	     in->base_prefix && k < sizeof(suffixes) / sizeof(suffixes[0]);
	     k++) {
		if ((rc = tg_path_fmt(path, sizeof(path), err,
				      "%s/include/python%d.%d%s/patchlevel.h",
				      in->base_prefix, in->major, in->minor,
				      suffixes[k])))
			return rc;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", path);
		rc = tg_file_read(path, PATCHLEVEL_MAX, &text, &len, &absent,
				  err);
		if (rc)
			return rc;
		if (absent)
			continue;
		rc = from_patchlevel(path, text, len, in->major, in->minor, out,
				     err);
		free(text);
		return rc;
	}
	if (in->pyvenv_cfg) {
		rc = tg_file_read(in->pyvenv_cfg, CFG_MAX, &text, &len, NULL,
				  err);
		if (rc)
			return rc;
		int nomem = 0;

		v = cfg_value(text, len, "version_info", &nomem);
		rc = from_cfg_value(v, in->major, in->minor, out);
		free(v);
		if (rc && !nomem) {
			v = cfg_value(text, len, "version", &nomem);
			rc = from_cfg_value(v, in->major, in->minor, out);
			free(v);
		}
		free(text);
		if (nomem)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (!rc)
			return 0;
	}
	memset(out, 0, sizeof(*out));
	return tg_err_set(err, TG_ENOENT,
			  "no file gives the micro version of Python %d.%d: "
			  "no '%s'%s%s%s",
			  in->major, in->minor,
			  first[0] ? first : "include/pythonX.Y/patchlevel.h",
			  in->pyvenv_cfg ? " and no X.Y.Z version in '" : "",
			  in->pyvenv_cfg ? in->pyvenv_cfg : "",
			  in->pyvenv_cfg ? "'" : "");
}
