# tg_check_cflag.m4 - TG_CHECK_CFLAG(FLAGS, [IF-OK], [IF-NOT])
# SPDX-License-Identifier: MIT
# Whether $CC compiles and links with FLAGS (and -Werror, so that an
# unknown warning option counts as unsupported). For -fsanitize=fuzzer the
# test program is a fuzz target, since libFuzzer brings its own main().
AC_DEFUN([TG_CHECK_CFLAG], [
	AC_MSG_CHECKING([whether $CC accepts $1])
	tg_save_CFLAGS=$CFLAGS
	tg_save_LDFLAGS=$LDFLAGS
	CFLAGS="$CFLAGS $1 -Werror"
	LDFLAGS="$LDFLAGS $1"
	AS_CASE([$1],
	[*fuzzer*], [AC_LINK_IFELSE([AC_LANG_SOURCE([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
]])], [tg_ok=yes], [tg_ok=no])],
	[AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [tg_ok=yes], [tg_ok=no])])
	CFLAGS=$tg_save_CFLAGS
	LDFLAGS=$tg_save_LDFLAGS
	AC_MSG_RESULT([$tg_ok])
	AS_IF([test "x$tg_ok" = xyes], [$2], [$3])
])
