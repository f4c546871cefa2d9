/* marker_env.c - a PEP 508 marker environment read from JSON
 * SPDX-License-Identifier: MIT
 *
 * The document is an object of marker variables: each value a string,
 * or for "extras" and "dependency_groups" an array of strings (the
 * environment of packaging's Marker.evaluate()).
 */
#include "lib/pep/marker.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/json.h"

int
tg_marker_env_parse_json(struct tg_marker_env *env, const char *text,
			 size_t len, struct tg_err *err)
{
	struct tg_json *root = NULL;
	const struct tg_json *it, *el;
	const char **items = NULL;
	size_t n, pos = 0;
	int rc = 0;

	if ((rc = tg_json_parse(&root, text, len, &pos)) == TG_ENOMEM)
		return tg_err_set(err, rc, "out of memory");
	if (rc)
		return tg_err_set(err, TG_EINVAL,
				  "marker environment is not valid JSON (at "
				  "byte %zu)",
				  pos);
	if (!tg_json_is_object(root)) {
		rc = tg_err_set(err, TG_EINVAL,
				"marker environment must be a JSON object");
		goto out;
	}
	for (it = tg_json_child(root); it; it = tg_json_next(it)) {
		int set = strcmp(tg_json_key(it), "extras") == 0 ||
			  strcmp(tg_json_key(it), "dependency_groups") == 0;

		if (tg_json_is_string(it)) {
			rc = tg_marker_env_set(env, tg_json_key(it),
					       tg_json_string(it), NULL, 0);
		} else if (tg_json_is_null(it) &&
			   strcmp(tg_json_key(it), "extra") == 0) {
			/* packaging reads a None extra as "" */
			rc = tg_marker_env_set(env, tg_json_key(it), "", NULL,
					       0);
		} else if (set && tg_json_is_array(it)) {
			n = 0;
			items = calloc((size_t)tg_json_size(it) + 1,
				       sizeof(*items));
			if (!items) {
				rc = TG_ENOMEM;
				break;
			}
			for (el = tg_json_child(it); el;
			     el = tg_json_next(el)) {
				if (!tg_json_is_string(el)) {
					rc = tg_err_set(
					    err, TG_EINVAL,
					    "marker environment: '%s' must "
					    "hold only strings",
					    tg_json_key(it));
					goto out;
				}
				items[n++] = tg_json_string(el);
			}
			rc = tg_marker_env_set(env, tg_json_key(it), NULL,
					       items, n);
			free(items);
			items = NULL;
		} else {
			rc = tg_err_set(err, TG_EINVAL,
					"marker environment: '%s' must be a "
					"string%s",
					tg_json_key(it),
					set ? " or an array of strings" : "");
			goto out;
		}
		if (rc)
			break;
	}
	if (rc == TG_ENOMEM)
		tg_err_set(err, rc, "out of memory");
out:
	free(items);
	tg_json_free(root);
	if (rc)
		tg_marker_env_release(env);
	return rc;
}
