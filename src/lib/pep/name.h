/* name.h - PEP 503 project name normalisation
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_PEP_NAME_H
#define TG_LIB_PEP_NAME_H

/* PEP 503 name normalisation: lower case, runs of -_. become '-'; a new
 * string, NULL when out of memory. */
char *tg_name_canonicalize(const char *name);
/* The same into out, which holds at least strlen(name) + 1 bytes (the
 * normal form is never longer; out may be name itself); returns out. */
char *tg_name_canonicalize_to(char *out, const char *name);

#endif
