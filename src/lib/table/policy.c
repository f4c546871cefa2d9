/* policy.c - the gate policies: how a candidate torch version is compared
 * SPDX-License-Identifier: MIT
 *
 * strict compares as PEP 440 does; base compares epoch and release only
 * (a source build "2.4.0a0+gitabc" counts as 2.4.0); release is strict,
 * but a pre or dev build of a torch release that exists (releases.c)
 * counts as that release. The result is a shallow view of the version.
 */
#include "lib/table/policy.h"

#include <string.h>

#include "lib/table/releases.h"

static const char zero_digit[] = "0";
static const struct tg_num zero = {zero_digit, 1};

static const char *const policy_names[] = {"strict", "base", "release"};

int
tg_policy_parse(const char *name, enum tg_policy *out)
{
	size_t k;

	for (k = 0; k < sizeof(policy_names) / sizeof(policy_names[0]); k++) {
		if (strcmp(name, policy_names[k]) == 0) {
			*out = (enum tg_policy)k;
			return 0;
		}
	}
	return TG_EINVAL;
}

const char *
tg_policy_name(enum tg_policy p)
{
	return policy_names[p];
}

/* A view of v without its pre, post and dev segments. */
static void
drop_suffixes(struct tg_version *v)
{
	v->pre = TG_PRE_NONE;
	v->pre_n = zero;
	v->has_post = 0;
	v->post_n = zero;
	v->has_dev = 0;
	v->dev_n = zero;
}

void
tg_policy_apply(const struct tg_version *v, enum tg_policy p,
		struct tg_version *out)
{
	*out = *v;
	if (p == TG_POLICY_BASE) {
		drop_suffixes(out);
		out->nlocal = 0;
		out->local = NULL;
	} else if (p == TG_POLICY_RELEASE && tg_version_is_prerelease(v) &&
		   tg_releases_is_known(v)) {
		drop_suffixes(out);
	}
}
