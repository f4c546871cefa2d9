/* releases.c - the final torch releases torchgate knows
 * SPDX-License-Identifier: MIT
 *
 * The "release" gate policy treats a pre or dev build of an already
 * released torch (an NGC "2.4.0a0+3bcc3cd", a distribution "1.13.0a0") as
 * that release. This list says which releases exist. It comes from
 * ../shared/research/torch_api_lifecycle.json ("releases"); 2.15.0, marked
 * unverified there, is left out until it is confirmed. When torchgate
 * releases has cached an index, the CLI may put it in the list's place
 * (tg_releases_use).
 */
#include "lib/table/releases.h"

#include <string.h>

#include "lib/table/index.h"

/* The cached index in use instead of the embedded list, or NULL. */
static const struct tg_index *cached;

void
tg_releases_use(const struct tg_index *ix)
{
	cached = ix;
}

const char *
tg_releases_name(void)
{
	return cached ? "the cached release list" : "the embedded release list";
}

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

/* Whether epoch+release of v is r ("X.Y.Z"), trailing zeros aside: r's
 * numbers are read in place, so that the gate policy allocates nothing
 * and cannot fail. */
static int
same_release(const struct tg_version *v, const char *r)
{
	static const struct tg_num zero = {"0", 1};
	size_t k;

	if (tg_version_num_cmp(v->epoch, zero) != 0)
		return 0;
	for (k = 0; *r || k < v->nrelease; k++) {
		struct tg_num x = k < v->nrelease ? v->release[k] : zero;
		struct tg_num y = zero;

		if (*r) {
			y.p = r;
			y.n = strspn(r, "0123456789");
			r += y.n;
			r += *r == '.';
		}
		if (tg_version_num_cmp(x, y) != 0)
			return 0;
	}
	return 1;
}

int
tg_releases_is_known(const struct tg_version *v)
{
	size_t k;

	if (cached)
		return tg_index_has_release(cached, v);
	for (k = 0; k < sizeof(torch_releases) / sizeof(torch_releases[0]); k++)
		if (same_release(v, torch_releases[k]))
			return 1;
	return 0;
}

const char *
tg_releases_at(size_t k)
{
	if (cached)
		return k < cached->n ? cached->v[k].str : NULL;
	return k < sizeof(torch_releases) / sizeof(torch_releases[0])
		   ? torch_releases[k]
		   : NULL;
}
