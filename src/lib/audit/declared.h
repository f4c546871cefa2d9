/* declared.h - the lowest torch a package declares it supports
 * SPDX-License-Identifier: MIT
 *
 * Reads a package directory's literal dependency lists, never runs
 * anything: pyproject.toml (util/toml, exactly: [project] dependencies
 * and optional-dependencies, [build-system] requires), setup.cfg
 * ([options] install_requires and setup_requires, [options.extras_require]),
 * requirements.txt and every other requirements*.txt in name order (one
 * requirement a line, '#' comments, option lines and --hash options left
 * out), a built PKG-INFO or METADATA (and *.egg-info/PKG-INFO): its
 * Requires-Dist headers, and setup.py's install_requires= and
 * setup_requires= where the list is a plain literal of strings (anything
 * else in it, and the list is left out). Each entry is parsed as PEP 508
 * (pep/requirement); entries that do not parse, or do not name torch,
 * are left out. Files are read to at most TG_DECLARED_FILE_MAX bytes; an
 * unreadable or larger file (or a directory) is left out, a warning in
 * the list's notes naming it; so is each requirements*.txt (and
 * *.egg-info/PKG-INFO) past the first 64 in name order, and a setup.py
 * list past its 256th string (the first 256 read). A lone CR ends a line
 * (as pip, configparser, the email parser and Python take it) but in
 * pyproject.toml (TOML takes none). A file whose path leads out of
 * the directory given through a symbolic link is not read (a note in the
 * list's notes).
 *
 * tg_declared_floor, audit's default --floor: of the sources
 * pyproject.toml [project] dependencies, setup.cfg's and setup.py's
 * install_requires (together), then all requirements*.txt together, the
 * first that names torch decides: its
 * floor is the lowest, over its torch requirements, of each one's highest
 * lower bound (>=, ~=, ==, >); a torch requirement with none (plain
 * "torch", "<3") means that source declares no floor.
 */
#ifndef TG_LIB_AUDIT_DECLARED_H
#define TG_LIB_AUDIT_DECLARED_H

#include <stddef.h>

#include "lib/pep/requirement.h"
#include "lib/pep/version.h"
#include "lib/util/diag.h"
#include "lib/util/err.h"

#define TG_DECLARED_FILE_MAX ((size_t)1024 * 1024)

struct tg_declared {
	struct tg_version floor;
	char *path;		   /* the file it came from: dir "/" name */
	size_t line;		   /* of the requirement that set it, 1-based */
	char *requirement;	   /* that requirement's text, "torch>=2.4" */
	struct tg_diag_list notes; /* the files not read (see below) */
};

#define TG_DECLARED_INIT                                                       \
	{                                                                      \
		TG_VERSION_INIT, NULL, 0, NULL, TG_DIAG_LIST_INIT              \
	}

/* Find the floor declared in directory dir into *d. 0 when found,
 * TG_ENOENT when no source declares one, TG_ENOMEM. d->notes holds the
 * declaration files left out as links out of dir (also with
 * TG_ENOENT); tg_declared_release frees them. */
int tg_declared_floor(struct tg_declared *d, const char *dir,
		      struct tg_err *err);
void tg_declared_release(struct tg_declared *d);

/* One torch requirement a package declares. */
struct tg_declaration {
	char *path; /* dir "/" name */
	size_t line;
	/* where in the file: "[project] dependencies",
	 * "[project.optional-dependencies] NAME", "[build-system] requires",
	 * "install_requires", "setup_requires", "extras_require NAME",
	 * "Requires-Dist", "requirements"; a new string */
	char *field;
	char *text; /* the requirement as written */
	struct tg_requirement req;
	int has_floor; /* floor: the highest lower bound (>=, ~=, ==, >) */
	struct tg_version floor;
	int has_ceiling; /* an upper bound: <, <=, ==, ~= */
	char *spec;	 /* the specifier set, normalized ("<3,>=2.4") */
};

/* Whether pip enforces declaration d when it installs the package: it
 * is part of the package's metadata ([project] dependencies and
 * optional-dependencies, install_requires and extras_require of
 * setup.cfg or setup.py, Requires-Dist). A requirements*.txt is read
 * only by a user's "pip install -r"; [build-system] requires and
 * setup_requires bound the build's environment, not the installed
 * torch. */
int tg_declared_enforced(const struct tg_declaration *d);

struct tg_declared_list {
	struct tg_declaration *v;
	size_t n, cap;
	/* Declaration files not read, or read in part (above), a warning
	 * each naming it; and a file (or a directory on its way,
	 * x.egg-info) that is a symbolic link leading out of the directory
	 * given, a warning each ("skipped 'dir/pyproject.toml': a symlink
	 * to '/etc/x', outside 'dir'"): what is read stays in the tree, as
	 * audit's walk does. */
	struct tg_diag_list notes;
	/* the metadata may name requirements no file read shows: setup.py
	 * computes install_requires (install_requires=fetch_requirements(),
	 * a name), or pyproject.toml's text says dynamic and
	 * "dependencies" (filled from a file at build time) */
	int computed;
};

#define TG_DECLARED_LIST_INIT                                                  \
	{                                                                      \
		NULL, 0, 0, TG_DIAG_LIST_INIT, 0                               \
	}

/* Judge the requirement text s[0..len) (PEP 508) found at path:line in
 * field and append it to l when it names torch. 1 when appended, 0 when
 * it does not name torch, TG_EINVAL (with err) when it does not parse,
 * TG_ENOMEM. */
int tg_declared_add(struct tg_declared_list *l, const char *s, size_t len,
		    const char *path, size_t line, const char *field,
		    struct tg_err *err);

/* Append every torch requirement dir declares, in the order of the
 * files above. A pyproject.toml that is not TOML, or whose tables have
 * the wrong type, is left out and its reason ("cannot parse
 * 'dir/pyproject.toml': line 3, column 9: an unterminated string") put in
 * err: TG_EINVAL is returned after the other files are read. TG_ENOMEM. */
int tg_declared_read(struct tg_declared_list *l, const char *dir,
		     struct tg_err *err);
void tg_declared_list_release(struct tg_declared_list *l);

#endif
