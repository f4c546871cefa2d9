/* direct_url.c - PEP 610 direct_url.json: where a distribution came from
 * SPDX-License-Identifier: MIT
 */
#include "lib/pyenv/direct_url.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/json.h"

int
tg_direct_url_parse(const char *text, size_t len, const char *file, char **url,
		    char **kind, struct tg_err *err)
{
	struct tg_json *root = NULL;
	const struct tg_json *u, *info;
	const char *k = NULL;
	int rc = 0;

	*url = NULL;
	*kind = NULL;
	if ((rc = tg_json_parse(&root, text, len, NULL)) == TG_ENOMEM)
		return tg_err_set(err, rc, "out of memory reading '%s'", file);
	if (rc || !tg_json_is_object(root)) {
		tg_json_free(root);
		return tg_err_set(err, TG_EINVAL,
				  "cannot parse '%s': not a JSON object", file);
	}
	u = tg_json_get(root, "url");
	if (!tg_json_is_string(u)) {
		rc = tg_err_set(err, TG_EINVAL,
				"cannot parse '%s': no \"url\" string", file);
		goto out;
	}
	if ((info = tg_json_get(root, "dir_info")))
		k = tg_json_is_true(tg_json_get(info, "editable"))
			? "editable"
			: "directory";
	else if (tg_json_get(root, "vcs_info"))
		k = "vcs";
	else if (tg_json_get(root, "archive_info"))
		k = "archive";
	else
		k = "unknown";
	*url = strdup(tg_json_string(u));
	*kind = strdup(k);
	if (!*url || !*kind) {
		free(*url);
		free(*kind);
		*url = *kind = NULL;
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	}
out:
	tg_json_free(root);
	return rc;
}
