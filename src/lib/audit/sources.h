/* sources.h - which files an audit reads, which directories it never
 * enters
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_AUDIT_SOURCES_H
#define TG_LIB_AUDIT_SOURCES_H

#include <stddef.h>

#include "lib/util/walk.h"

/* The directories never entered: version control (.git, .hg, .svn),
 * virtual environments (any directory holding a pyvenv.cfg, .tox, .nox),
 * build output (build, dist, .eggs, *.egg-info), caches (__pycache__),
 * node_modules. */
int tg_sources_skip_dir(const struct tg_walk_entry *e);

/* Whether one of globs[0..n) (fnmatch patterns) matches name (a base
 * name) or rel (the path under the operand walked, or NULL). */
int tg_sources_excluded(const char *const *globs, size_t n, const char *name,
			const char *rel);

#endif
