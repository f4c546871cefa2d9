/* env_text.c - torchgate env's report as text
 * SPDX-License-Identifier: MIT
 *
 * One heading per section with its counts, then one line per item
 * ("ok", "BROKEN", "unknown"; the requirements whose marker is false
 * only counted unless verbose), the evidence's file on the next line and
 * the details (missing symbols) under it; a last line sums up.
 */
#include "lib/render/env_format.h"

#include "lib/util/str.h"

static const char *const heading[TG_ENVCHECK_NSECTIONS] = {
    "torch on the path", "who depends on torch",       "what torch requires",
    "the torch family",	 "extensions built for torch",
};

static const char *
label(enum tg_envcheck_status s)
{
	switch (s) {
	case TG_ENVCHECK_OK:
		return "ok";
	case TG_ENVCHECK_BROKEN:
		return "BROKEN";
	case TG_ENVCHECK_INACTIVE:
		return "n/a";
	case TG_ENVCHECK_UNKNOWN:
		break;
	}
	return "unknown";
}

int
tg_env_text_write(const struct tg_envcheck *ec, int verbose, struct tg_buf *out,
		  struct tg_err *err)
{
	size_t s, i, k, broken, inactive;
	int rc;

	for (s = 0; s < TG_ENVCHECK_NSECTIONS; s++) {
		broken = inactive = 0;
		for (i = 0; i < ec->n; i++) {
			if (ec->v[i].section != s)
				continue;
			broken += ec->v[i].status == TG_ENVCHECK_BROKEN;
			inactive += ec->v[i].status == TG_ENVCHECK_INACTIVE;
		}
		if (s)
			tg_buf_addc(out, '\n');
		tg_str_addf(out, "%s: %zu", heading[s],
			    ec->count[s] - inactive);
		if (broken)
			tg_str_addf(out, ", %zu broken", broken);
		if (inactive)
			tg_str_addf(out,
				    " (%zu more whose marker is false here)",
				    inactive);
		if (s == TG_ENVCHECK_EXTENSIONS)
			tg_str_addf(out,
				    " (%zu shared objects checked against "
				    "%zu of torch's libraries)",
				    ec->elf_objects, ec->torch_libraries);
		tg_buf_addc(out, '\n');
		for (i = 0; i < ec->n; i++) {
			const struct tg_envcheck_item *it = &ec->v[i];

			if (it->section != s ||
			    (it->status == TG_ENVCHECK_INACTIVE && !verbose))
				continue;
			tg_str_addf(out, "  %-7s ", label(it->status));
			if (it->dist)
				tg_str_addf(out, "%s: ", it->dist);
			if (it->requirement)
				tg_str_addf(out, "'%s': ", it->requirement);
			tg_str_addf(out, "%s\n", it->message);
			if (it->file && s != TG_ENVCHECK_COPIES)
				tg_str_addf(out, "          in %s\n", it->file);
			for (k = 0; k < it->ndetails; k++)
				tg_str_addf(out, "          %s\n",
					    it->details[k]);
			if (it->more)
				tg_str_addf(out, "          and %zu more\n",
					    it->more);
		}
	}
	if (ec->nbroken)
		tg_str_addf(out, "\n%zu broken\n", ec->nbroken);
	else
		tg_buf_adds(out, "\nnothing broken\n");
	rc = tg_buf_error(out);
	return rc ? tg_err_set(err, rc, "out of memory") : 0;
}
