/* dpkg.h - the Debian package version of an installed file
 * SPDX-License-Identifier: MIT
 *
 * Debian's Python policy names the package of module M "python3-M". This
 * module confirms that dpkg lists a given file as that package's (the
 * package's .list file in <admindir>/info) and returns the Version of its
 * stanza in <admindir>/status, when the package is installed.
 */
#ifndef TG_LIB_PYENV_DPKG_H
#define TG_LIB_PYENV_DPKG_H

#include "lib/util/err.h"

#define TG_DPKG_ADMINDIR "/var/lib/dpkg"

/* *version (a new string) is the installed version of package pkg when
 * dpkg lists file as one of pkg's files; NULL when it does not (no error).
 * Errors only for unreadable or malformed dpkg files. */
int tg_dpkg_version_of(const char *admindir, const char *pkg, const char *file,
		       char **version, struct tg_err *err);

#endif
