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

int
tg_json_direct_url(const char *text, size_t len, const char *file, char **url,
		   char **kind, struct tg_err *err)
{
	cJSON *root, *u, *info;
	const char *k = NULL;
	int rc = 0;

	*url = NULL;
	*kind = NULL;
	root = cJSON_ParseWithLength(text, len);
	if (!root || !cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return tg_err_set(err, TG_EINVAL,
				  "cannot parse '%s': not a JSON object", file);
	}
	u = cJSON_GetObjectItemCaseSensitive(root, "url");
	if (!cJSON_IsString(u)) {
		rc = tg_err_set(err, TG_EINVAL,
				"cannot parse '%s': no \"url\" string", file);
		goto out;
	}
	if ((info = cJSON_GetObjectItemCaseSensitive(root, "dir_info")))
		k = cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(info, "editable"))
			? "editable"
			: "directory";
	else if (cJSON_GetObjectItemCaseSensitive(root, "vcs_info"))
		k = "vcs";
	else if (cJSON_GetObjectItemCaseSensitive(root, "archive_info"))
		k = "archive";
	else
		k = "unknown";
	*url = strdup(u->valuestring);
	*kind = strdup(k);
	if (!*url || !*kind) {
		free(*url);
		free(*kind);
		*url = *kind = NULL;
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	}
out:
	cJSON_Delete(root);
	return rc;
}
