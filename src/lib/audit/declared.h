/* declared.h - the lowest torch a package declares it supports
 * SPDX-License-Identifier: MIT
 *
 * Reads a package directory's literal dependency lists, never runs
 * anything (setup.py is not read): pyproject.toml's [project]
 * dependencies (an array of strings, in TOML only as far as that array
 * needs: basic and literal one-line strings, comments, trailing commas),
 * setup.cfg's [options] install_requires (the line after the key and the
 * indented lines below it), then requirements.txt and every other
 * requirements*.txt in name order (one requirement a line, '#' comments,
 * option lines and --hash options left out). Each entry is parsed as
 * PEP 508 (pep/requirement); entries that do not parse are left out.
 *
 * The first of those sources that names torch decides: its floor is the
 * lowest, over its torch requirements, of each one's highest lower bound
 * (>=, ~=, ==, >); a torch requirement with none (plain "torch", "<3")
 * means that source declares no floor. Files are read to at most
 * TG_DECLARED_FILE_MAX bytes; an unreadable or larger file is left out.
 */
#ifndef TG_LIB_AUDIT_DECLARED_H
#define TG_LIB_AUDIT_DECLARED_H

#include <stddef.h>

#include "lib/pep/version.h"
#include "lib/util/err.h"

#define TG_DECLARED_FILE_MAX ((size_t)1024 * 1024)

struct tg_declared {
	struct tg_version floor;
	char *path;	   /* the file it came from: dir "/" name */
	size_t line;	   /* of the requirement that set it, 1-based */
	char *requirement; /* that requirement's text, "torch>=2.4" */
};

#define TG_DECLARED_INIT                                                       \
	{                                                                      \
		TG_VERSION_INIT, NULL, 0, NULL                                 \
	}

/* Find the floor declared in directory dir into *d. 0 when found,
 * TG_ENOENT when no source declares one, TG_ENOMEM. */
int tg_declared_floor(struct tg_declared *d, const char *dir,
		      struct tg_err *err);
void tg_declared_release(struct tg_declared *d);

#endif
