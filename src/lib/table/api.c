/* api.c - what a table entry means for a torch version
 * SPDX-License-Identifier: MIT
 *
 * The rules that turn a table entry and a torch version into a status.
 * Versions are compared by release only (epoch and release numbers), so
 * 2.4.0a0+git1234567 counts as 2.4: a source build of 2.4 has 2.4's
 * APIs; where it does not, the installed files say so (check's
 * evidence).
 */
#include "lib/table/table.h"

#include <stdlib.h>
#include <string.h>

#include "lib/table/policy.h"

const char *
tg_api_fact_name(enum tg_fact f)
{
	return f == TG_FACT_VERIFIED   ? "verified"
	       : f == TG_FACT_INFERRED ? "inferred"
				       : "unverified";
}

const char *
tg_api_status_name(enum tg_api_status s)
{
	static const char *const names[] = {"available", "deprecated",
					    "removed", "not-yet"};

	return names[s];
}

/* torch (by release) >= v, the parse the table made when it loaded; a
 * version the entry lacks (str NULL) is "never" */
static int
at_least(const struct tg_version *torch, const struct tg_version *v)
{
	struct tg_version base;

	if (!v->str)
		return 0;
	tg_policy_apply(torch, TG_POLICY_BASE, &base);
	base.nlocal = 0;
	return tg_version_cmp(&base, v) >= 0;
}

enum tg_api_status
tg_api_status(const struct tg_api *a, const struct tg_version *torch)
{
	/* "before X": it predates X by an unknown amount, so no torch is
	 * known to lack it; "at-or-before X" counts as X: a gate cannot
	 * rely on it earlier */
	if (a->introduced.version && a->introduced.bound != TG_BOUND_BEFORE &&
	    !at_least(torch, &a->introduced.ver))
		return TG_API_NOT_YET;
	if (at_least(torch, &a->removed.ver))
		return TG_API_REMOVED;
	if (at_least(torch, &a->deprecated.ver) &&
	    !at_least(torch, &a->deprecated.withdrawn_ver))
		return TG_API_DEPRECATED;
	return TG_API_AVAILABLE;
}

int
tg_api_replacement_exists(const struct tg_api *a,
			  const struct tg_version *torch)
{
	return at_least(torch, &a->repl_since_ver);
}

char *
tg_api_macro_name(const char *id)
{
	size_t n = strlen(id), w = 0, k;
	char *out = malloc(2 * n + 1);
	int start = 1; /* at the start of a component */

	if (!out)
		return NULL;
	for (k = 0; k < n; k++) {
		char c = id[k];

		if (c == '.' || c == ':' || c == '~') {
			if (w > 0 && out[w - 1] != '_')
				out[w++] = '_';
			start = 1;
			continue;
		}
		if (c == '_' && start) {
			/* a private component: "_x" -> "P_X", so that
			 * torch._tensor and torch.tensor stay apart and no
			 * "__" (reserved in C++) appears */
			out[w++] = 'P';
			out[w++] = '_';
			while (k + 1 < n && id[k + 1] == '_')
				k++;
			start = 0;
			continue;
		}
		start = 0;
		if (c == '_' && w > 0 && out[w - 1] == '_')
			continue;
		out[w++] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
	}
	while (w > 1 && out[w - 1] == '_')
		w--;
	out[w] = '\0';
	return out;
}
