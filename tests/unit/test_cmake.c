/* test_cmakefile.c - unit tests for lib/cmakefile: CMake facts as text
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/torch/cmake.h"

static const char config[] =
    "# set(TORCH_CXX_FLAGS \"-D_GLIBCXX_USE_CXX11_ABI=0\")\n"
    "if(CMAKE_SYSTEM_NAME STREQUAL \"Linux\")\n"
    "  SET ( TORCH_CXX_FLAGS \"-D_GLIBCXX_USE_CXX11_ABI=1\")\n"
    "endif()\n"
    "set(PACKAGE_VERSION_COMPATIBLE TRUE)\n"
    "set(PACKAGE_VERSION \"2.11.0\")\n"
    "set_target_properties(torch PROPERTIES\n    CXX_STANDARD 17\n)\n";

int
main(void)
{
	size_t len = sizeof(config) - 1;
	char *v;

	v = tg_cmake_set_value(config, len, "TORCH_CXX_FLAGS");
	CHECK(v && strcmp(v, "-D_GLIBCXX_USE_CXX11_ABI=1") == 0,
	      "commented line skipped, SET ( ... ) read: '%s'",
	      v ? v : "(null)");
	free(v);
	v = tg_cmake_set_value(config, len, "PACKAGE_VERSION");
	CHECK(v && strcmp(v, "2.11.0") == 0, "not PACKAGE_VERSION_COMPATIBLE");
	free(v);
	CHECK(tg_cmake_set_value(config, len, "NONE") == NULL, "absent");
	CHECK(tg_cmake_cxx_standard(config, len) == 17, "CXX_STANDARD");
	CHECK(tg_cmake_cxx_standard("CMAKE_CXX_STANDARD 20\n", 22) == 0,
	      "CMAKE_CXX_STANDARD is another variable");
	CHECK(tg_cmake_cxx_standard("# CXX_STANDARD 11 once\n  CXX_STANDARD 17",
				    40) == 17,
	      "comments are skipped");
	{
		static const char two[] =
		    "x CXX_STANDARD 0 CXX_STANDARD 14 "
		    "# CXX_STANDARD 11\n"
		    "a # CXX_STANDARD 11 CXX_STANDARD 11\n"
		    "CXX_STANDARD 20";

		CHECK(tg_cmake_cxx_standard(two, sizeof(two) - 1) == 14,
		      "the first good one of several on a line");
		CHECK(tg_cmake_cxx_standard(two + 33, sizeof(two) - 34) == 20,
		      "a comment holds to its line's end, not further");
	}
	CHECK(tg_cmake_cxx11_abi("-D_GLIBCXX_USE_CXX11_ABI=0") == 0, "abi 0");
	CHECK(tg_cmake_cxx11_abi("-O2 -D_GLIBCXX_USE_CXX11_ABI=1 -g") == 1,
	      "abi 1 among flags");
	CHECK(tg_cmake_cxx11_abi("-D_GLIBCXX_USE_CXX11_ABI=@ABI@") == -1,
	      "unconfigured");
	CHECK(tg_cmake_cxx11_abi("") == -1, "none");
	{
		static const char open_c[] = "set(A \"1\")\n#[==[ x ]] ]=]\n";
		static const char closed[] = "#[=[ a ]] ]=] set(A \"1\")\n";
		static const char nul[] = "set(A \"1\0\")\n";
		struct tg_err err = TG_ERR_INIT;

		CHECK(tg_cmake_check(closed, strlen(closed), "c", &err) == 0,
		      "closed: %s", err.msg);
		CHECK(tg_cmake_check(open_c, strlen(open_c), "c", &err) ==
			  TG_EINVAL,
		      "open bracket comment accepted");
		CHECK_STR(err.msg,
			  "cannot parse 'c': line 2: a bracket comment that "
			  "is never closed",
			  "open bracket comment");
		CHECK(tg_cmake_check(nul, sizeof(nul) - 1, "c", &err) ==
			  TG_EINVAL,
		      "NUL accepted");
	}
	return check_result("test_cmakefile");
}
