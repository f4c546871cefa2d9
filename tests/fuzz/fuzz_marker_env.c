/* fuzz_marker_env.c - libFuzzer harness for the marker environment JSON
 * SPDX-License-Identifier: MIT
 *
 * The input is a document for `version marker --env FILE`. When it
 * parses, markers over every variable (strings, versions, the extras
 * set) are evaluated in it, so what the reader stored is used the way
 * the evaluator uses it. An error must say what.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pep/marker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const markers[] = {
    "python_version >= '3.9' and platform_system == 'Linux'",
    "python_full_version < '3.13.1' or implementation_name != 'cpython'",
    "extra == 'dev' or 'test' in extras",
    "sys_platform == 'linux' and platform_machine in 'x86_64 aarch64'",
    "os_name == 'posix' and platform_release >= '6' and "
    "platform_version not in 'x'",
    "implementation_version > '3' and platform_python_implementation == "
    "'CPython'",
    "'g' in dependency_groups",
};
#define NMARKERS (sizeof(markers) / sizeof(markers[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tg_marker *m[NMARKERS];
	struct tg_marker_env env = TG_MARKER_ENV_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t k;
	int r;

	if (!m[0])
		for (k = 0; k < NMARKERS; k++)
			if (tg_marker_parse(&m[k], markers[k],
					    strlen(markers[k]), NULL) != 0)
				abort(); /* the harness is wrong */
	if (tg_marker_env_parse_json(&env, (const char *)data, size, &err) ==
	    0) {
		for (k = 0; k < NMARKERS; k++)
			(void)tg_marker_evaluate(m[k], &env, &r, NULL);
	} else if (!err.msg[0]) {
		__builtin_trap();
	}
	tg_marker_env_release(&env);
	return 0;
}
