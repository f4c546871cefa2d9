/* marker_env.c - a PEP 508 marker environment read from JSON
 * SPDX-License-Identifier: MIT
 *
 * The document is an object of marker variables: each value a string,
 * or for "extras" and "dependency_groups" an array of strings (the
 * environment of packaging's Marker.evaluate()).
 *
 * It also holds the default environment, packaging's
 * default_environment() worked out from what the caller read: the
 * interpreter's version (struct tg_marker_python, from its files) and
 * uname(2) (struct tg_marker_uname). Nothing here runs Python or reads
 * a file. Which variable comes from where is tg_marker_env_source().
 */
#include "lib/pep/marker.h"

#include <stdio.h>
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

static const struct {
	const char *name;
	enum tg_marker_source from;
} sources[] = {
    {"implementation_name", TG_MARKER_FROM_PYTHON},
    {"implementation_version", TG_MARKER_FROM_PYTHON},
    {"os_name", TG_MARKER_FROM_SYSTEM},
    {"platform_machine", TG_MARKER_FROM_SYSTEM},
    {"platform_python_implementation", TG_MARKER_FROM_PYTHON},
    {"platform_release", TG_MARKER_FROM_SYSTEM},
    {"platform_system", TG_MARKER_FROM_SYSTEM},
    {"platform_version", TG_MARKER_FROM_SYSTEM},
    {"python_full_version", TG_MARKER_FROM_PYTHON},
    {"python_version", TG_MARKER_FROM_PYTHON},
    {"sys_platform", TG_MARKER_FROM_SYSTEM},
};

enum tg_marker_source
tg_marker_env_source(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof(sources) / sizeof(sources[0]); k++)
		if (strcmp(name, sources[k].name) == 0)
			return sources[k].from;
	return TG_MARKER_FROM_NONE;
}

/* sys.platform: fixed when CPython is built, from the system's name
 * (configure's MACHDEP); NULL where it also holds the release
 * ("freebsd14"), which uname's release does not always give. */
static const char *
sys_platform(const char *sysname)
{
	if (strcmp(sysname, "Linux") == 0)
		return "linux";
	if (strcmp(sysname, "Darwin") == 0)
		return "darwin";
	return NULL;
}

static int
set(struct tg_marker_env *env, const char *name, const char *value, int *rc)
{
	if (!*rc && value)
		*rc = tg_marker_env_set(env, name, value, NULL, 0);
	return *rc;
}

int
tg_marker_env_default(struct tg_marker_env *env,
		      const struct tg_marker_python *py,
		      const struct tg_marker_uname *u, struct tg_err *err)
{
	char xy[32], iver[64];
	int rc = 0;

	if (py) {
		snprintf(xy, sizeof(xy), "%d.%d", py->major, py->minor);
		set(env, "python_version", xy, &rc);
		/* the interpreter was recognised as CPython's files */
		set(env, "implementation_name", "cpython", &rc);
		set(env, "platform_python_implementation", "CPython", &rc);
	}
	if (py && py->full[0]) {
		/* packaging's format_full_version(sys.implementation.version):
		 * the release level's first letter and the serial unless
		 * final ("3.13.0c1" where PY_VERSION says "3.13.0rc1") */
		if (py->releaselevel == 'f')
			snprintf(iver, sizeof(iver), "%d.%d.%d", py->major,
				 py->minor, py->micro);
		else
			snprintf(iver, sizeof(iver), "%d.%d.%d%c%d", py->major,
				 py->minor, py->micro, py->releaselevel,
				 py->serial);
		set(env, "python_full_version", py->full, &rc);
		set(env, "implementation_version", iver, &rc);
	}
	/* os.name: "posix" wherever this C program builds */
	set(env, "os_name", "posix", &rc);
	if (u) {
		set(env, "platform_machine", u->machine, &rc);
		set(env, "platform_release", u->release, &rc);
		set(env, "platform_system", u->sysname, &rc);
		set(env, "platform_version", u->version, &rc);
		set(env, "sys_platform", sys_platform(u->sysname), &rc);
	}
	if (rc)
		tg_err_set(err, rc, "out of memory");
	return rc;
}

int
tg_marker_env_fill(struct tg_marker_env *env, const struct tg_marker_env *from,
		   struct tg_err *err)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < from->n && !rc; k++) {
		const struct tg_marker_var *v = &from->vars[k];

		if (!tg_marker_env_get(env, v->name))
			rc = tg_marker_env_set(env, v->name, v->value,
					       (const char *const *)v->items,
					       v->nitems);
	}
	if (rc)
		tg_err_set(err, rc, "out of memory");
	return rc;
}
