/* update_advisories.h - torchgate update's second file: the advisories
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_CLI_UPDATE_ADVISORIES_H
#define TG_CLI_UPDATE_ADVISORIES_H

#include "cli/fetch.h"

/* Download the advisories from url (the transfer options of base: its
 * timeout, cacert, insecure) and replace dir's cached advisories.json
 * when they load and their advisories_version is newer than the built-in
 * and the cached one's; else the cache stays byte for byte. Prints one
 * line for what was done; returns the exit status as update's table part
 * does (0, 4 not valid advisories, 5 transfer or cache write). */
int cli_update_advisories(const char *cmd, const char *url,
			  const struct cli_fetch *base, const char *dir);

/* --offline: which advisories are used. Returns CLI_OK or CLI_IO. */
int cli_update_advisories_offline(const char *cmd, const char *dir);

#endif
