/* test_marker.c - unit tests for lib/marker: PEP 508 markers
 * SPDX-License-Identifier: MIT
 *
 * Results checked against packaging 26.3's Marker.evaluate with the same,
 * complete environment; str(Marker) for printing.
 */
#include <string.h>

#include "check.h"
#include "lib/pep/marker.h"

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
	return check_result("test_marker");
}
