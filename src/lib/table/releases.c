/* releases.c - the final torch releases torchgate knows
 * SPDX-License-Identifier: MIT
 *
 * The "release" gate policy treats a pre or dev build of an already
 * released torch (an NGC "2.4.0a0+3bcc3cd", a distribution "1.13.0a0") as
 * that release. This list says which releases exist. It comes from
 * ../shared/research/torch_api_lifecycle.json ("releases"); 2.15.0, marked
 * unverified there, is left out until it is confirmed.
 */
#include "lib/table/releases.h"

#include <string.h>

static const char *const torch_releases[] = {
    "1.0.0",  "1.0.1",	"1.1.0",  "1.2.0",  "1.3.0",  "1.3.1",	"1.4.0",
    "1.5.0",  "1.5.1",	"1.6.0",  "1.7.0",  "1.7.1",  "1.8.0",	"1.8.1",
    "1.8.2",  "1.9.0",	"1.9.1",  "1.10.0", "1.10.1", "1.10.2", "1.11.0",
    "1.12.0", "1.12.1", "1.13.0", "1.13.1", "2.0.0",  "2.0.1",	"2.1.0",
    "2.1.1",  "2.1.2",	"2.2.0",  "2.2.1",  "2.2.2",  "2.3.0",	"2.3.1",
    "2.4.0",  "2.4.1",	"2.5.0",  "2.5.1",  "2.6.0",  "2.7.0",	"2.7.1",
    "2.8.0",  "2.9.0",	"2.9.1",  "2.10.0", "2.11.0", "2.12.0", "2.13.0",
    "2.14.0",
};

int
tg_releases_is_known(const struct tg_version *v)
{
	size_t k;
	int found = 0;

	for (k = 0;
	     !found && k < sizeof(torch_releases) / sizeof(torch_releases[0]);
	     k++) {
		struct tg_version r;

		if (tg_version_parse(&r, torch_releases[k],
				     strlen(torch_releases[k]), NULL) != 0)
			continue;
		found = tg_version_same_release(v, &r);
		tg_version_release(&r);
	}
	return found;
}
