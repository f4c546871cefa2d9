/* test_marker.c - unit tests for lib/marker: PEP 508 markers
 * SPDX-License-Identifier: MIT
 *
 * Results checked against packaging 26.3's Marker.evaluate with the same,
 * complete environment; str(Marker) for printing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/pep/marker.h"
#include "lib/pep/name.h"
#include "lib/pyenv/interp.h"

static const struct {
	const char *marker, *env;
	int want;
} evaluate[] = {
    {"python_version >= \"3.8\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"python_version < \"3.10\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     0},
    {"\"3.8\" < python_version",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"python_full_version == \"3.12.*\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"python_version > \"3.12\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     0},
    {"python_version >= \"3.12.0rc1\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"os_name == \"posix\" and sys_platform == \"linux\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"os_name == \"nt\" or sys_platform == \"linux\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"os_name == \"nt\" or sys_platform == \"win32\" and python_version >= "
     "\"3\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     0},
    {"(os_name == \"nt\" or sys_platform == \"linux\") and python_version >= "
     "\"3\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"\"lin\" in sys_platform",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"\"x86\" not in platform_machine",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     0},
    {"platform_release >= \"6\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     0},
    {"platform_version == \"#1 SMP\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"os_name < \"posiz\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     0},
    {"os_name <= \"posix\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"os_name != \"nt\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"extra == \"dev\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     0},
    {"extra == \"Dev_Tools\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\", \"extra\": \"dev.tools\"}",
     1},
    {"extra == \"dev\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\", \"extra\": \"DEV\"}",
     1},
    {"\"gpu\" in extras",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\", \"extras\": [\"GPU\", \"dev\"]}",
     1},
    {"\"cpu\" in extras",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\", \"extras\": [\"gpu\"]}",
     0},
    {"\"grp-a\" in dependency_groups",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\", \"dependency_groups\": [\"Grp_A\"]}",
     1},
    {"python_full_version >= \"3.12\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.0+\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"implementation_name == \"cpython\" and platform_python_implementation == "
     "\"CPython\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"python_implementation == \"CPython\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"platform.machine == \"x86_64\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"os.name == \"posix\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"os_name == 'posix'",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"os_name == \"p\\x6fsix\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"python_version ~= \"3.12\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"python_version === \"3.12\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"python_version in \"3.12 3.13\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     1},
    {"platform_release > \"6.1.0-18-amd64\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}",
     0},
};

/* undefined comparisons and missing variables */
static const struct {
	const char *marker, *env;
} undefined[] = {
    /* UndefinedEnvironmentName */ {
	"python_version == \"3.12\" or \"x\" == \"y\"",
	"{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
	"\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
	"\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
	"\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
	"\"cpython\", \"implementation_version\": \"3.12.3\", "
	"\"platform_python_implementation\": \"CPython\", "
	"\"platform_version\": \"#1 SMP\"}"},
    /* UndefinedComparison */
    {"os_name ~= \"posix\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}"},
    /* UndefinedComparison */
    {"python_version ~= \"x\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\"}"},
    /* UndefinedComparison */
    {"extras == \"a\"",
     "{\"python_version\": \"3.12\", \"python_full_version\": \"3.12.3\", "
     "\"os_name\": \"posix\", \"sys_platform\": \"linux\", "
     "\"platform_machine\": \"x86_64\", \"platform_system\": \"Linux\", "
     "\"platform_release\": \"6.1.0-18-amd64\", \"implementation_name\": "
     "\"cpython\", \"implementation_version\": \"3.12.3\", "
     "\"platform_python_implementation\": \"CPython\", \"platform_version\": "
     "\"#1 SMP\", \"extras\": [\"a\"]}"},
    /* torchgate does not guess the host: a variable must be given */
    {"os_name == \"posix\"", "{}"},
};

static const struct {
	const char *in, *want;
} format[] = {
    {"os_name==\"a\"", "os_name == \"a\""},
    {"(os_name == 'a')", "os_name == \"a\""},
    {"((os_name == 'a')) and (python_version >= '3' or os_name == 'b')",
     "os_name == \"a\" and (python_version >= \"3\" or os_name == \"b\")"},
    {"os_name == 'say \"hi\"'", "os_name == 'say \"hi\"'"},
    {"extra == \"A.B\"", "extra == \"a-b\""},
    {"\"A_B\" in extras", "\"a-b\" in extras"},
};

static int
eval(const char *marker, const char *env, struct tg_err *err)
{
	struct tg_marker *m = NULL;
	struct tg_marker_env e = TG_MARKER_ENV_INIT;
	int r = 0, rc;

	rc = tg_marker_parse(&m, marker, strlen(marker), err);
	if (!rc)
		rc = tg_marker_env_parse_json(&e, env, strlen(env), err);
	if (!rc)
		rc = tg_marker_evaluate(m, &e, &r, err);
	tg_marker_free(m);
	tg_marker_env_release(&e);
	return rc ? rc : r;
}

static const char *
env_str(const struct tg_marker_env *env, const char *name)
{
	const struct tg_marker_var *v = tg_marker_env_get(env, name);

	return v ? v->value : NULL;
}

static void
default_environment(void)
{
	struct tg_marker_python py = {3, 13, 0, 'c', 1, "3.13.0rc1"};
	struct tg_marker_uname u = {"Linux", "6.1.0-18-amd64",
				    "#1 SMP PREEMPT_DYNAMIC", "x86_64"};
	struct tg_marker_env env = TG_MARKER_ENV_INIT,
			     given = TG_MARKER_ENV_INIT;
	struct tg_marker *m = NULL;
	struct tg_err err = TG_ERR_INIT;
	int r = -1;

	CHECK(tg_marker_env_default(&env, &py, &u, &err) == 0, "default");
	CHECK_STR(env_str(&env, "python_version"), "3.13", "python_version");
	CHECK_STR(env_str(&env, "python_full_version"), "3.13.0rc1",
		  "PY_VERSION as written");
	CHECK_STR(env_str(&env, "implementation_version"), "3.13.0c1",
		  "format_full_version");
	CHECK_STR(env_str(&env, "implementation_name"), "cpython", "impl");
	CHECK_STR(env_str(&env, "platform_python_implementation"), "CPython",
		  "platform impl");
	CHECK_STR(env_str(&env, "os_name"), "posix", "os_name");
	CHECK_STR(env_str(&env, "sys_platform"), "linux", "sys_platform");
	CHECK_STR(env_str(&env, "platform_system"), "Linux", "system");
	CHECK_STR(env_str(&env, "platform_release"), "6.1.0-18-amd64",
		  "release");
	CHECK_STR(env_str(&env, "platform_version"), "#1 SMP PREEMPT_DYNAMIC",
		  "version");
	CHECK_STR(env_str(&env, "platform_machine"), "x86_64", "machine");
	CHECK(env_str(&env, "extra") == NULL, "extra left to the evaluator");
	CHECK(env.n == 11, "eleven variables, not %zu", env.n);

	/* given variables win; only the missing ones are filled */
	CHECK(tg_marker_env_set(&given, "python_version", "2.7", NULL, 0) == 0,
	      "set");
	{
		const char *text = "python_version == \"2.7\" and os_name == "
				   "\"posix\" and extra == \"\"";

		CHECK(tg_marker_parse(&m, text, strlen(text), &err) == 0,
		      "parse: %s", err.msg);
	}
	CHECK_STR(tg_marker_missing(m, &given), "os_name", "first missing");
	CHECK(tg_marker_env_fill(&given, &env, &err) == 0, "fill");
	CHECK(tg_marker_missing(m, &given) == NULL, "none missing after fill");
	CHECK_STR(env_str(&given, "python_version"), "2.7", "given wins");
	CHECK(tg_marker_evaluate(m, &given, &r, &err) == 0 && r == 1,
	      "evaluates true: %s", err.msg);
	tg_marker_free(m);
	tg_marker_env_release(&given);
	tg_marker_env_release(&env);

	/* a final release; an unknown micro; no interpreter; another
	 * system */
	py = (struct tg_marker_python){3, 12, 4, 'f', 0, "3.12.4"};
	CHECK(tg_marker_env_default(&env, &py, NULL, &err) == 0, "no uname");
	CHECK_STR(env_str(&env, "implementation_version"), "3.12.4", "final");
	CHECK(env_str(&env, "platform_machine") == NULL, "no machine");
	CHECK_STR(env_str(&env, "os_name"), "posix", "os_name without uname");
	tg_marker_env_release(&env);
	py.full[0] = '\0';
	u.sysname = "SunOS";
	CHECK(tg_marker_env_default(&env, &py, &u, &err) == 0, "no micro");
	CHECK_STR(env_str(&env, "python_version"), "3.12", "X.Y known");
	CHECK(env_str(&env, "python_full_version") == NULL &&
		  env_str(&env, "implementation_version") == NULL,
	      "no full version");
	CHECK(env_str(&env, "sys_platform") == NULL, "no sys_platform");
	tg_marker_env_release(&env);
	u.sysname = "Darwin";
	CHECK(tg_marker_env_default(&env, NULL, &u, &err) == 0, "no python");
	CHECK_STR(env_str(&env, "sys_platform"), "darwin", "darwin");
	CHECK(env_str(&env, "python_version") == NULL &&
		  env_str(&env, "implementation_name") == NULL,
	      "nothing from Python");
	tg_marker_env_release(&env);

	CHECK(tg_marker_env_source("python_full_version") ==
		  TG_MARKER_FROM_PYTHON,
	      "source python");
	CHECK(tg_marker_env_source("platform_release") == TG_MARKER_FROM_SYSTEM,
	      "source system");
	CHECK(tg_marker_env_source("extras") == TG_MARKER_FROM_NONE,
	      "source none");
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* tg_interp_full_version over a fake installation in a temp dir */
static int
full_version(const char *dir, const char *incdir, const char *patchlevel,
	     const char *cfg, struct tg_interp_version *iv, struct tg_err *err)
{
	struct tg_interp in = TG_INTERP_INIT;
	char path[512], cfgpath[512];
	int rc;

	snprintf(path, sizeof(path), "%s/include", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/include/%s", dir, incdir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/include/%s/patchlevel.h", dir, incdir);
	unlink(path);
	if (patchlevel)
		write_file(path, patchlevel);
	snprintf(cfgpath, sizeof(cfgpath), "%s/pyvenv.cfg", dir);
	unlink(cfgpath);
	if (cfg)
		write_file(cfgpath, cfg);
	in.base_prefix = (char *)dir;
	in.pyvenv_cfg = cfg ? cfgpath : NULL;
	in.major = 3;
	in.minor = 7;
	rc = tg_interp_full_version(&in, iv, err);
	unlink(path);
	unlink(cfgpath);
	snprintf(path, sizeof(path), "%s/include/%s", dir, incdir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/include", dir);
	rmdir(path);
	return rc;
}

static void
interp_full_version(void)
{
	char dir[] = "/tmp/tg-test-marker-XXXXXX";
	struct tg_interp_version iv;
	struct tg_err err = TG_ERR_INIT;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	/* as CPython 3.7 writes it, in include/python3.7m */
	CHECK(full_version(dir, "python3.7m",
			   "/* Values for PY_RELEASE_LEVEL */\n"
			   "#define PY_RELEASE_LEVEL_GAMMA  0xC  /* rc */\n"
			   "#define PY_MAJOR_VERSION\t3\n"
			   "#define PY_MINOR_VERSION\t7\n"
			   "#define PY_MICRO_VERSION\t16\n"
			   "#define PY_RELEASE_LEVEL\tPY_RELEASE_LEVEL_FINAL\n"
			   "#define PY_RELEASE_SERIAL\t0\n"
			   "/* Version as a string */\n"
			   "#define PY_VERSION      \t\"3.7.16\"\n",
			   NULL, &iv, &err) == 0,
	      "patchlevel.h: %s", err.msg);
	CHECK(iv.micro == 16 && iv.releaselevel == 'f' && iv.serial == 0,
	      "3.7.16 final");
	CHECK_STR(iv.full, "3.7.16", "PY_VERSION");
	CHECK(full_version(dir, "python3.7",
			   "#define PY_MAJOR_VERSION 3\n"
			   "#define PY_MINOR_VERSION 7\n"
			   "#define PY_MICRO_VERSION 0\n"
			   "# define PY_RELEASE_LEVEL 0xB\n"
			   "#define PY_RELEASE_SERIAL 2\n"
			   "#define PY_VERSION \"3.7.0b2+\"\r\n",
			   "version = 3.7.9\n", &iv, &err) == 0,
	      "hex level: %s", err.msg);
	CHECK(iv.releaselevel == 'b' && iv.serial == 2, "beta 2");
	CHECK_STR(iv.full, "3.7.0b2+", "the header before pyvenv.cfg");
	CHECK(full_version(dir, "python3.7", NULL,
			   "home = /x\nversion_info = 3.7.1.candidate.3\n"
			   "version = 3.7.1\n",
			   &iv, &err) == 0,
	      "virtualenv: %s", err.msg);
	CHECK_STR(iv.full, "3.7.1rc3", "version_info");
	CHECK(full_version(dir, "python3.7", NULL, "version = 3.7.12\n", &iv,
			   &err) == 0 &&
		  iv.releaselevel == 'f' && iv.micro == 12,
	      "venv: %s", err.msg);
	CHECK(full_version(dir, "python3.7", NULL, "version = 3.8.1\n", &iv,
			   &err) == TG_ENOENT,
	      "pyvenv.cfg of another X.Y");
	CHECK(strstr(err.msg, "no X.Y.Z version in") != NULL, "%s", err.msg);
	CHECK(full_version(dir, "python3.7", NULL, NULL, &iv, &err) ==
		  TG_ENOENT,
	      "nothing");
	CHECK(strstr(err.msg, "no file gives the micro version of Python 3.7: "
			      "no '") != NULL &&
		  strstr(err.msg, "/include/python3.7/patchlevel.h'") != NULL,
	      "%s", err.msg);
	CHECK(full_version(dir, "python3.7",
			   "#define PY_MAJOR_VERSION 3\n"
			   "#define PY_MINOR_VERSION 8\n"
			   "#define PY_MICRO_VERSION 1\n"
			   "#define PY_RELEASE_LEVEL 0xF\n"
			   "#define PY_RELEASE_SERIAL 0\n"
			   "#define PY_VERSION \"3.8.1\"\n",
			   NULL, &iv, &err) == TG_EINVAL,
	      "another X.Y");
	CHECK(strstr(err.msg, "says Python 3.8.1, not 3.7") != NULL, "%s",
	      err.msg);
	CHECK(full_version(dir, "python3.7",
			   "#define PY_MAJOR_VERSION 3\n"
			   "#define PY_MINOR_VERSION 7\n"
			   "#define PY_MICRO_VERSION 1\n"
			   "#define PY_RELEASE_LEVEL 0xF\n"
			   "#define PY_RELEASE_SERIAL 0\n"
			   "#define PY_VERSION \"3.7.12\"\n",
			   NULL, &iv, &err) == TG_EINVAL,
	      "PY_VERSION against the numbers");
	CHECK(strstr(err.msg, "says PY_VERSION 3.7.12 but 3.7.1") != NULL, "%s",
	      err.msg);
	CHECK(full_version(dir, "python3.7",
			   "#define PY_MAJOR_VERSION 3\n"
			   "#define PY_MINOR_VERSION 7\n"
			   "#define PY_RELEASE_LEVEL 0xF\n",
			   NULL, &iv, &err) == TG_EINVAL,
	      "no micro");
	CHECK(full_version(dir, "python3.7",
			   "#define PY_MAJOR_VERSION 3\n"
			   "#define PY_MINOR_VERSION 7\n"
			   "#define PY_MICRO_VERSION 1\n"
			   "#define PY_RELEASE_LEVEL 0xD\n"
			   "#define PY_RELEASE_SERIAL 0\n"
			   "#define PY_VERSION \"3.7.1\"\n",
			   NULL, &iv, &err) == TG_EINVAL,
	      "level 0xD");
	CHECK(strstr(err.msg, "no PY_RELEASE_LEVEL of") != NULL, "%s", err.msg);
	rmdir(dir);
}

/* tg_marker_extra_literals: which markers read "extra" only in == and
 * != against strings, and for those the property envcheck relies on:
 * every extra that is none of the literals evaluates as "" does. */
static const struct {
	const char *marker;
	int simple;
	const char *lits; /* space-separated, in order */
} extra_lits[] = {
    {"os_name == \"posix\"", 1, ""},
    {"extra == \"Foo_Bar\"", 1, "foo-bar"},
    {"\"gpu\" == extra or extra != 'cpu'", 1, "gpu cpu"},
    {"(extra == \"a\" and (os_name == \"posix\" or extra == \"b\"))", 1, "a b"},
    {"extra == \"a\" and sys_platform == \"linux\"", 1, "a"},
    {"extra == \"\"", 0, ""},
    {"extra in \"abc\"", 0, ""},
    {"\"a\" not in extra", 0, ""},
    {"extra >= \"a\"", 0, ""},
    {"extra == extra", 0, ""},
    {"extra == os_name", 0, ""},
    {"os_name == \"posix\" or (extra ~= \"1.0\")", 0, ""},
};

static void
test_extra_literals(void)
{
	static const char *const extras[] = {
	    "", "a", "b", "c", "foo-bar", "Foo.Bar", "gpu", "cpu", "x"};
	struct tg_err err = TG_ERR_INIT;
	size_t k, j, n;

	for (k = 0; k < sizeof(extra_lits) / sizeof(extra_lits[0]); k++) {
		struct tg_marker *m = NULL;
		const char *out[8];
		char got[128] = "";
		int simple;

		CHECK(tg_marker_parse(&m, extra_lits[k].marker,
				      strlen(extra_lits[k].marker), &err) == 0,
		      "parse '%s': %s", extra_lits[k].marker, err.msg);
		if (!m)
			continue;
		n = 0;
		simple = tg_marker_extra_literals(m, NULL, &n);
		CHECK(simple == extra_lits[k].simple, "'%s': simple %d",
		      extra_lits[k].marker, simple);
		if (simple) {
			CHECK(n <= 8, "'%s': %zu literals",
			      extra_lits[k].marker, n);
			n = 0;
			tg_marker_extra_literals(m, out, &n);
			for (j = 0; j < n && j < 8; j++) {
				strcat(got, j ? " " : "");
				strncat(got, out[j], 40);
			}
			CHECK_STR(got, extra_lits[k].lits,
				  extra_lits[k].marker);
			/* each extra that is none of them: the value of "" */
			for (j = 0; j < sizeof(extras) / sizeof(extras[0]);
			     j++) {
				struct tg_marker_env env = TG_MARKER_ENV_INIT;
				int r0 = -1, rx = -1;
				size_t l;
				char *c = tg_name_canonicalize(extras[j]);

				for (l = 0; c && l < n; l++)
					if (strcmp(out[l], c) == 0)
						break;
				if (c && l == n &&
				    tg_marker_env_set(&env, "os_name", "posix",
						      NULL, 0) == 0 &&
				    tg_marker_env_set(&env, "sys_platform",
						      "linux", NULL, 0) == 0 &&
				    tg_marker_evaluate(m, &env, &r0, &err) ==
					0 &&
				    tg_marker_env_set(&env, "extra", extras[j],
						      NULL, 0) == 0 &&
				    tg_marker_evaluate(m, &env, &rx, &err) == 0)
					CHECK(r0 == rx,
					      "'%s': extra '%s' gives %d, "
					      "\"\" %d",
					      extra_lits[k].marker, extras[j],
					      rx, r0);
				else
					CHECK(!c || l < n, "'%s' with '%s': %s",
					      extra_lits[k].marker, extras[j],
					      err.msg);
				free(c);
				tg_marker_env_release(&env);
			}
		}
		tg_marker_free(m);
	}
}

int
main(void)
{
	struct tg_err err = TG_ERR_INIT;
	size_t k;

	for (k = 0; k < sizeof(evaluate) / sizeof(evaluate[0]); k++)
		CHECK(eval(evaluate[k].marker, evaluate[k].env, &err) ==
			  evaluate[k].want,
		      "'%s' should be %d (%s)", evaluate[k].marker,
		      evaluate[k].want, err.msg);
	test_extra_literals();
	for (k = 0; k < sizeof(undefined) / sizeof(undefined[0]); k++)
		CHECK(eval(undefined[k].marker, undefined[k].env, &err) ==
			  TG_EUNDEF,
		      "'%s' should be undefined", undefined[k].marker);
	CHECK(eval("os_name == \"a\"", "{}", &err) == TG_EUNDEF, "missing");
	CHECK_STR(err.msg, "the environment has no variable 'os_name'",
		  "missing variable message");
	CHECK(eval("os_name ~= \"a\"", "{\"os_name\": \"a\"}", &err) ==
		  TG_EUNDEF,
	      "~= on strings");
	CHECK_STR(err.msg, "undefined comparison '~=' on 'a' and 'a'",
		  "undefined comparison message");
	CHECK(eval("os_name == \"a\"", "[1]", &err) == TG_EINVAL, "env array");
	CHECK_STR(err.msg, "marker environment must be a JSON object",
		  "env message");
	CHECK(eval("os_name == \"a\"", "{\"os_name\": 3}", &err) == TG_EINVAL,
	      "env number");
	CHECK_STR(err.msg, "marker environment: 'os_name' must be a string",
		  "env value message");
	CHECK(eval("os_name == \"a\"", "{\"os_name\": ", &err) == TG_EINVAL,
	      "env truncated");
	CHECK(eval("os_name == '\\N{DASH}'", "{}", &err) == TG_EINVAL,
	      "named escape");
	CHECK_STR(err.msg, "invalid quoted string", "escape message");
	for (k = 0; k < sizeof(format) / sizeof(format[0]); k++) {
		struct tg_marker *m = NULL;
		struct tg_buf out = TG_BUF_INIT;

		CHECK(tg_marker_parse(&m, format[k].in, strlen(format[k].in),
				      NULL) == 0,
		      "'%s' parses", format[k].in);
		if (!m)
			continue;
		CHECK(tg_marker_format(m, &out, NULL) == 0, "format");
		CHECK_STR(out.data, format[k].want, format[k].in);
		tg_buf_release(&out);
		tg_marker_free(m);
	}
	{
		/* nesting is bounded, not a stack overflow */
		char deep[400];
		struct tg_marker *m = NULL;

		memset(deep, '(', 100);
		strcpy(deep + 100, "os_name == 'a'");
		memset(deep + 114, ')', 100);
		deep[214] = '\0';
		CHECK(tg_marker_parse(&m, deep, strlen(deep), &err) ==
			  TG_EINVAL,
		      "deep nesting");
		CHECK_STR(err.msg, "markers nest deeper than 64",
			  "depth message");
	}
	default_environment();
	interp_full_version();
	return check_result("test_marker");
}
