/* fuzz_advisory.c - libFuzzer harness for the advisories loader
 * (table/advisory)
 * SPDX-License-Identifier: MIT
 *
 * The input is an advisories document, as torchgate update downloads
 * it. A failure has a message and leaves nothing behind; a success
 * holds advisories whose ranges end at or after they start, whose fixed
 * is a fixed end of theirs, and whose every alias names its advisory
 * only; each is then asked about a few versions, which must agree with
 * the floors it admits.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/table/advisory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const versions[] = {"0.4.1", "1.13.0a0", "2.5.1+cu124",
				       "2.6.0", "2.10.0",   "99"};

static void
check(const struct tg_advisories *a)
{
	size_t k, j;

	for (k = 0; k < a->n; k++) {
		const struct tg_advisory *adv = &a->v[k];

		for (j = 0; j < adv->nranges; j++)
			if (adv->ranges[j].kind != TG_ADVISORY_OPEN &&
			    tg_version_cmp(&adv->ranges[j].end,
					   &adv->ranges[j].introduced) < 0)
				__builtin_trap();
		for (j = 0; j < adv->naliases; j++)
			if (!tg_advisory_has_id(adv, adv->aliases[j]))
				__builtin_trap();
		for (j = 0; j < sizeof(versions) / sizeof(versions[0]); j++) {
			struct tg_version v = TG_VERSION_INIT;

			if (tg_version_parse(&v, versions[j],
					     strlen(versions[j]), NULL))
				continue;
			/* affected at v: a floor of v admits it */
			if (tg_advisory_affects(adv, &v) &&
			    !tg_advisory_admits(adv, &v, NULL))
				__builtin_trap();
			tg_version_release(&v);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tg_advisories a = TG_ADVISORIES_INIT;
	struct tg_err err = TG_ERR_INIT;
	char *s = malloc(size + 1);
	int rc;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0'; /* as tg_file_read leaves it */
	rc = tg_advisory_parse(&a, s, size, "f", &err);
	if (rc && (!err.msg[0] || a.n || a.v))
		__builtin_trap();
	if (!rc)
		check(&a);
	tg_advisory_release(&a);
	free(s);
	return 0;
}
