/* test_cdefine.c - unit tests for lib/cdefine: #define lines as text
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/torch/cdefine.h"

static const char header[] =
    "#pragma once\n"
    "/// Indicates the major version of LibTorch.\n"
    "#define TORCH_VERSION_MAJOR 2\n"
    "  #  define TORCH_VERSION_MINOR 11 /* minor */\n"
    "#define TORCH_VERSION_PATCH 0U // patch\n"
    "#define TORCH_VERSION \\\n  \"2.11.0\"\n"
    "#define TORCH_VERSION_MAJORX 9\n"
    "#define TORCH_ABI_VERSION ( \\\r\n  ((0ULL + TORCH_VERSION_MAJOR) << "
    "56))\n"
    "#define ODD \"a\\\"b\"\n"
    "#define EXPR (1 + 2)\n";

/* What the compiler would refuse: a NUL byte, a comment never closed */
static void
check_whole(void)
{
	static const char open_comment[] =
	    "#define TORCH_VERSION_MAJOR 2\n/* the rest\n"
	    "#define TORCH_VERSION_MINOR 11\n";
	static const char nul[] = "#define A 1\n#define B 2\0\n";
	static const char fine[] =
	    "/* a \"*/ in a comment\n*/ #define A \"/*\" // /* c\n"
	    "#define B '\\'' /* */\n";
	struct tg_err err = TG_ERR_INIT;

	CHECK(tg_cdefine_check(header, strlen(header), "h", &err) == 0,
	      "header: %s", err.msg);
	CHECK(tg_cdefine_check(fine, strlen(fine), "h", &err) == 0, "fine: %s",
	      err.msg);
	CHECK(tg_cdefine_check(open_comment, strlen(open_comment), "h", &err) ==
		  TG_EINVAL,
	      "open comment accepted");
	CHECK_STR(err.msg,
		  "cannot parse 'h': line 2: a comment that is never closed "
		  "(no */)",
		  "open comment");
	CHECK(tg_cdefine_check(nul, sizeof(nul) - 1, "h", &err) == TG_EINVAL,
	      "NUL accepted");
	CHECK_STR(err.msg, "cannot parse 'h': line 2: a NUL byte (at byte 23)",
		  "NUL");
}

int
main(void)
{
	size_t len = sizeof(header) - 1;
	long v = -1;
	int found;
	char *s;

	CHECK(tg_cdefine_int(header, len, "TORCH_VERSION_MAJOR", &v) == 0 &&
		  v == 2,
	      "major %ld", v);
	CHECK(tg_cdefine_int(header, len, "TORCH_VERSION_MINOR", &v) == 0 &&
		  v == 11,
	      "minor with a comment %ld", v);
	CHECK(tg_cdefine_int(header, len, "TORCH_VERSION_PATCH", &v) == 0 &&
		  v == 0,
	      "patch with U suffix %ld", v);
	CHECK(tg_cdefine_int(header, len, "EXPR", &v) == -1,
	      "an expression is not a number");
	CHECK(tg_cdefine_int(header, len, "NONE", &v) == -1, "absent");
	s = tg_cdefine_string(header, len, "TORCH_VERSION");
	CHECK(s && strcmp(s, "2.11.0") == 0, "continued string '%s'",
	      s ? s : "(null)");
	free(s);
	CHECK(tg_cdefine_string(header, len, "ODD") == NULL,
	      "escapes are refused");
	s = tg_cdefine_get(header, len, "TORCH_ABI_VERSION", &found);
	CHECK(found && s &&
		  strcmp(s, "(   ((0ULL + TORCH_VERSION_MAJOR) << 56))") == 0,
	      "CRLF continuation '%s'", s ? s : "(null)");
	free(s);
	s = tg_cdefine_get(header, len, "TORCH_VERSION_MAJ", &found);
	CHECK(!found && !s, "a prefix of a name does not match");
	check_whole();
	return check_result("test_cdefine");
}
