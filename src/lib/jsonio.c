/* jsonio.c - the JSON edge: the one module that includes cJSON
 * SPDX-License-Identifier: MIT
 *
 * cJSON stays inside this file; callers get our own structs. Input is
 * bounded by the caller; nesting is bounded by cJSON (CJSON_NESTING_LIMIT).
 */
#include "lib/jsonio.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

int
tg_json_marker_env(struct tg_marker_env *env, const char *text, size_t len,
		   struct tg_err *err)
{
	const char *end = NULL;
	cJSON *root, *it, *el;
	const char **items = NULL;
	size_t n;
	int rc = 0;

	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	while (root && end && end < text + len &&
	       (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
		end++;
	if (root && end != text + len) {
		cJSON_Delete(root);
		root = NULL;
	}
	if (!root)
		return tg_err_set(err, TG_EINVAL,
				  "marker environment is not valid JSON (at "
				  "byte %zu)",
				  end ? (size_t)(end - text) : (size_t)0);
	if (!cJSON_IsObject(root)) {
		rc = tg_err_set(err, TG_EINVAL,
				"marker environment must be a JSON object");
		goto out;
	}
	cJSON_ArrayForEach(it, root) {
		int set = strcmp(it->string, "extras") == 0 ||
			  strcmp(it->string, "dependency_groups") == 0;

		if (cJSON_IsString(it)) {
			rc = tg_marker_env_set(env, it->string, it->valuestring,
					       NULL, 0);
		} else if (cJSON_IsNull(it) &&
			   strcmp(it->string, "extra") == 0) {
			/* packaging reads a None extra as "" */
			rc = tg_marker_env_set(env, it->string, "", NULL, 0);
		} else if (set && cJSON_IsArray(it)) {
			n = 0;
			items = calloc((size_t)cJSON_GetArraySize(it) + 1,
				       sizeof(*items));
			if (!items) {
				rc = TG_ENOMEM;
				break;
			}
			cJSON_ArrayForEach(el, it) {
				if (!cJSON_IsString(el)) {
					rc = tg_err_set(
					    err, TG_EINVAL,
					    "marker environment: '%s' must "
					    "hold only strings",
					    it->string);
					goto out;
				}
				items[n++] = el->valuestring;
			}
			rc = tg_marker_env_set(env, it->string, NULL, items, n);
			free(items);
			items = NULL;
		} else {
			rc = tg_err_set(err, TG_EINVAL,
					"marker environment: '%s' must be a "
					"string%s",
					it->string,
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
	cJSON_Delete(root);
	if (rc)
		tg_marker_env_release(env);
	return rc;
}
