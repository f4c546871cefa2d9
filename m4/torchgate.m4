# torchgate.m4 - TORCHGATE_CHECK_TORCH: find torch for a configure script
# SPDX-License-Identifier: MIT
#
# TORCHGATE_CHECK_TORCH([SPEC], [ACTION-IF-FOUND], [ACTION-IF-NOT-FOUND])
#
# In the manner of pkg.m4's PKG_CHECK_MODULES: finds torchgate (the
# precious variable TORCHGATE, else torchgate on PATH), runs
# 'torchgate verify $TORCHGATE_ENV_ARGS SPEC' (without SPEC, 'torchgate
# probe': any torch will do), and sets and AC_SUBSTs
#   TORCH_VERSION       the PEP 440 version (probe --field version)
#   TORCH_CFLAGS        -I torch's include directories, the C++11 ABI define
#   TORCH_LIBS          -L and an rpath for torch/lib, -l for its libraries
#                       (torch_python left out, as in the .pc)
#   TORCH_CUDA_VERSION  the CUDA version torch is built with, or empty
# TORCHGATE_ENV_ARGS holds torchgate's environment options (such as
# "--python /usr/bin/python3"); empty, torchgate's own default is used
# ($VIRTUAL_ENV, $CONDA_PREFIX, python3 on PATH). As with pkg-config's
# override variables, TORCH_CFLAGS and TORCH_LIBS both set by the user
# skip torchgate altogether (TORCH_VERSION and TORCH_CUDA_VERSION are then
# whatever the user set; set alone, they win over torchgate's). A failed
# check leaves the variables as an earlier check set them. The SPEC is
# put in single quotes: it must hold none. TORCHGATE_ENV_ARGS may also
# hold a policy, as one word --policy=NAME (--policy=base, which Debian's
# 1.13.0a0 needs for a SPEC such as >=1.13): it goes to verify only,
# since probe takes no policy. A field probe cannot read (its exit status
# not 0) fails the check with probe's message, as a failed verify does.
# Every command and its output go to config.log.
# Without ACTION-IF-NOT-FOUND, a torch that is missing or does not
# satisfy SPEC stops configure with torchgate's message. The C++ standard
# is not in TORCH_CFLAGS: the project's own must win.
# Installed to $(datadir)/aclocal by torchgate's make install.

# _TORCHGATE_FIELD(VAR, FIELD): VAR = the field's lines, or empty; a
# probe that fails makes the check fail (tg_torch_found=no) with its
# message, and later fields are not read
AC_DEFUN([_TORCHGATE_FIELD],
[AS_IF([test "$tg_torch_found" = yes],
	[AS_ECHO(["$as_me:${as_lineno-$LINENO}: $TORCHGATE probe --quiet$tg_torch_probe_args --field $2"]) >&AS_MESSAGE_LOG_FD
	 $1=`$TORCHGATE probe --quiet $tg_torch_probe_args --field $2 2>conftest.tgerr`
	 tg_torch_status=$?
	 cat conftest.tgerr >&AS_MESSAGE_LOG_FD
	 AS_IF([test "$tg_torch_status" != 0],
		[tg_torch_found=no
		 tg_torch_msg=`cat conftest.tgerr`
		 AS_IF([test -z "$tg_torch_msg"],
			[tg_torch_msg="torchgate probe --field $2 failed (exit status $tg_torch_status)"])])
	 rm -f conftest.tgerr])])

# _TORCHGATE_INIT: once, before the first check, what the user set (a
# later check must not take an earlier check's results for the user's)
AC_DEFUN([_TORCHGATE_INIT],
[tg_torch_user_flags=no
AS_IF([test -n "$TORCH_CFLAGS" && test -n "$TORCH_LIBS"], [tg_torch_user_flags=yes])
tg_torch_user_version=$TORCH_VERSION
tg_torch_user_cuda=$TORCH_CUDA_VERSION
])

AC_DEFUN([TORCHGATE_CHECK_TORCH],
[AC_REQUIRE([_TORCHGATE_INIT])dnl
AC_ARG_VAR([TORCHGATE], [path to torchgate])dnl
AC_ARG_VAR([TORCHGATE_ENV_ARGS],
	[torchgate options naming the Python environment, e.g. --python /usr/bin/python3, and optionally --policy=NAME for verify])dnl
AC_ARG_VAR([TORCH_CFLAGS], [C++ compiler flags for torch, overriding torchgate])dnl
AC_ARG_VAR([TORCH_LIBS], [linker flags for torch, overriding torchgate])dnl
AC_ARG_VAR([TORCH_VERSION], [the torch version (set by torchgate)])dnl
AC_ARG_VAR([TORCH_CUDA_VERSION], [torch's CUDA version (set by torchgate)])dnl
AS_IF([test -z "$TORCHGATE"], [AC_PATH_PROG([TORCHGATE], [torchgate])])
tg_torch_found=no
tg_torch_msg=
# the policy word goes to verify only
tg_torch_probe_args=
tg_torch_verify_args=
for tg_torch_w in $TORCHGATE_ENV_ARGS; do
	AS_CASE([$tg_torch_w],
		[--policy=*], [tg_torch_verify_args="$tg_torch_verify_args $tg_torch_w"],
		[tg_torch_probe_args="$tg_torch_probe_args $tg_torch_w"
		 tg_torch_verify_args="$tg_torch_verify_args $tg_torch_w"])
done
tg_torch_prev_version=$TORCH_VERSION
tg_torch_prev_cuda=$TORCH_CUDA_VERSION
tg_torch_prev_cflags=$TORCH_CFLAGS
tg_torch_prev_libs=$TORCH_LIBS
AC_MSG_CHECKING([for torch m4_ifval([$1], [$1 ])with torchgate])
AS_IF([test "$tg_torch_user_flags" = yes],
	[tg_torch_found=yes
	 AC_MSG_RESULT([yes (TORCH_CFLAGS and TORCH_LIBS given)])],
	[test -z "$TORCHGATE"],
	[tg_torch_msg="torchgate was not found: install it, or set TORCHGATE to its path"
	 AC_MSG_RESULT([no])],
	[m4_ifval([$1],
		[tg_torch_cmd="$TORCHGATE verify --quiet$tg_torch_verify_args '$1'"
		 AS_ECHO(["$as_me:${as_lineno-$LINENO}: $tg_torch_cmd"]) >&AS_MESSAGE_LOG_FD
		 tg_torch_msg=`$TORCHGATE verify --quiet $tg_torch_verify_args '$1' 2>&1`],
		[tg_torch_cmd="$TORCHGATE probe --quiet$tg_torch_probe_args --field version"
		 AS_ECHO(["$as_me:${as_lineno-$LINENO}: $tg_torch_cmd"]) >&AS_MESSAGE_LOG_FD
		 tg_torch_msg=`$TORCHGATE probe --quiet $tg_torch_probe_args --field version 2>&1 >/dev/null`])
	 tg_torch_status=$?
	 AS_ECHO(["$as_me:${as_lineno-$LINENO}: \$? = $tg_torch_status"]) >&AS_MESSAGE_LOG_FD
	 AS_IF([test -n "$tg_torch_msg"], [AS_ECHO(["$tg_torch_msg"]) >&AS_MESSAGE_LOG_FD])
	 AS_IF([test "$tg_torch_status" = 0],
		[tg_torch_found=yes
		 TORCH_VERSION=$tg_torch_user_version
		 TORCH_CUDA_VERSION=$tg_torch_user_cuda
		 AS_IF([test -z "$TORCH_VERSION"], [_TORCHGATE_FIELD([TORCH_VERSION], [version])])
		 AS_IF([test -z "$TORCH_CUDA_VERSION"], [_TORCHGATE_FIELD([TORCH_CUDA_VERSION], [cuda])])
		 TORCH_CFLAGS=
		 TORCH_LIBS=
		 AS_IF([test -z "$TORCH_CFLAGS"],
			[_TORCHGATE_FIELD([tg_torch_v], [include_dirs])
			 TORCH_CFLAGS=`AS_ECHO(["$tg_torch_v"]) | sed -n 's/^./-I&/p' | tr '\n' ' ' | sed 's/ $//'`
			 _TORCHGATE_FIELD([tg_torch_v], [cxx11_abi])
			 AS_IF([test -n "$tg_torch_v"],
				[TORCH_CFLAGS="$TORCH_CFLAGS -D_GLIBCXX_USE_CXX11_ABI=$tg_torch_v"])])
		 AS_IF([test -z "$TORCH_LIBS"],
			[_TORCHGATE_FIELD([tg_torch_v], [library_dir])
			 AS_IF([test -n "$tg_torch_v"],
				[TORCH_LIBS="-L$tg_torch_v -Wl,-rpath,$tg_torch_v"])
			 _TORCHGATE_FIELD([tg_torch_v], [libraries])
			 tg_torch_v=`AS_ECHO(["$tg_torch_v"]) | sed -n '/^torch_python$/d; s/^./-l&/p' | tr '\n' ' ' | sed 's/ $//'`
			 TORCH_LIBS=`AS_ECHO(["$TORCH_LIBS $tg_torch_v"]) | sed 's/^ //'`])
		 AS_ECHO(["$as_me:${as_lineno-$LINENO}: TORCH_VERSION=$TORCH_VERSION TORCH_CUDA_VERSION=$TORCH_CUDA_VERSION"]) >&AS_MESSAGE_LOG_FD
		 AS_ECHO(["$as_me:${as_lineno-$LINENO}: TORCH_CFLAGS=$TORCH_CFLAGS"]) >&AS_MESSAGE_LOG_FD
		 AS_ECHO(["$as_me:${as_lineno-$LINENO}: TORCH_LIBS=$TORCH_LIBS"]) >&AS_MESSAGE_LOG_FD
		 AS_IF([test "$tg_torch_found" = yes],
			[AC_MSG_RESULT([yes ($TORCH_VERSION)])],
			[TORCH_VERSION=$tg_torch_prev_version
			 TORCH_CUDA_VERSION=$tg_torch_prev_cuda
			 TORCH_CFLAGS=$tg_torch_prev_cflags
			 TORCH_LIBS=$tg_torch_prev_libs
			 AC_MSG_RESULT([no])])],
		[AC_MSG_RESULT([no])])])
AC_SUBST([TORCH_VERSION])dnl
AC_SUBST([TORCH_CFLAGS])dnl
AC_SUBST([TORCH_LIBS])dnl
AC_SUBST([TORCH_CUDA_VERSION])dnl
AS_IF([test "$tg_torch_found" = yes],
	[m4_default([$2], [:])],
	[m4_default([$3], [AC_MSG_ERROR([$tg_torch_msg])])])
])
