#!/bin/bash
# autoconf-macro.sh - m4/torchgate.m4's TORCHGATE_CHECK_TORCH in a real configure
# SPDX-License-Identifier: MIT
#
# usage: autoconf-macro.sh TORCHGATE SRCDIR
#
# A small autoconf project (configure.ac calling TORCHGATE_CHECK_TORCH,
# a Makefile.in building a C++ program with @TORCH_CFLAGS@ and
# @TORCH_LIBS@) is autoreconf'd with the macro from SRCDIR/m4 as
# installed ('make install' puts it in $(datadir)/aclocal; here
# aclocal -I) and configured against Debian's torch
# (TORCHGATE_ENV_ARGS="--python /usr/bin/python3"): once passing (the
# program built and run, TORCH_* as torchgate reports them, the commands
# in config.log), once failing (a SPEC the torch does not satisfy stops
# configure with verify's message), once with ACTION-IF-NOT-FOUND (no
# stop), once with --policy=base among the environment arguments
# (verify gets it, probe does not), once with a field probe fails (the
# check fails with its message), once with TORCH_CFLAGS and TORCH_LIBS
# given (torchgate not run,
# nor needed), and once without torchgate (the message says so). It
# fails, never skips, when python3-torch, libtorch-dev, autoconf,
# automake or g++ is missing.
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
need "$SRCDIR/m4/torchgate.m4" "the macro (SRCDIR '$SRCDIR')"
need_deb python3-torch libtorch-dev
need_cmd autoreconf aclocal g++ make

P=$tmp/proj
mkdir -p "$P"
cat >"$P/configure.ac" <<'AC'
AC_INIT([tgm4], [1.0])
AC_PROG_CXX
TORCHGATE_CHECK_TORCH([$TG_SPEC_SUBST])
TORCHGATE_CHECK_TORCH([>=999], [have_999=yes], [have_999=no])
AC_SUBST([have_999])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
AC
cat >"$P/Makefile.in" <<'MK'
CXX = @CXX@
all: prog
prog: main.cpp
	$(CXX) -std=c++17 @TORCH_CFLAGS@ -o prog main.cpp @TORCH_LIBS@
vars:
	@echo 'TORCH_VERSION=@TORCH_VERSION@'
	@echo 'TORCH_CUDA_VERSION=@TORCH_CUDA_VERSION@'
	@echo 'TORCH_CFLAGS=@TORCH_CFLAGS@'
	@echo 'TORCH_LIBS=@TORCH_LIBS@'
	@echo 'have_999=@have_999@'
MK
cat >"$P/main.cpp" <<'CPP'
#include <c10/core/Device.h>
#include <torch/version.h>
#include <iostream>
int main() { std::cout << c10::Device("cpu").str() << " " << TORCH_VERSION << "\n"; }
CPP

# gen SPEC: configure for a SPEC of the first call
gen() {
	rm -rf "$P/autom4te.cache" "$P/configure"
	sed -i "s/^TORCHGATE_CHECK_TORCH(\[[^]]*\])\$/TORCHGATE_CHECK_TORCH([$1])/; s/\$TG_SPEC_SUBST/$1/" "$P/configure.ac"
	(cd "$P" && ACLOCAL="aclocal -I $SRCDIR/m4" autoreconf -fi) >"$tmp/autoreconf.log" 2>&1 ||
		die "autoreconf failed: $(tail -5 "$tmp/autoreconf.log")"
}
run() { (cd "$P" && env -u TORCH_CFLAGS -u TORCH_LIBS -u TORCH_VERSION -u TORCH_CUDA_VERSION "$@"); }

# ---- passing ------------------------------------------------------------
gen ">=1.12"
run ./configure TORCHGATE="$TG" TORCHGATE_ENV_ARGS="--python $PY" >"$tmp/c1.out" 2>&1
check "configure (>=1.12) exit status" "$?" 0
check_has "configure's output" "$(cat "$tmp/c1.out")" "checking for torch >=1.12 with torchgate... yes ("
ver=$("$TG" probe --quiet --python "$PY" --field version)
inc=$("$TG" probe --quiet --python "$PY" --field include_dirs | sed 's/^/-I/' | tr '\n' ' ')
ld=$("$TG" probe --quiet --python "$PY" --field library_dir)
vars=$(run make -s vars)
check_has "TORCH_VERSION" "$vars" "TORCH_VERSION=$ver"$'\n'
check_has "TORCH_CUDA_VERSION (Debian's torch: none)" "$vars" $'TORCH_CUDA_VERSION=\n'
check_has "TORCH_CFLAGS" "$vars" "TORCH_CFLAGS=$inc-D_GLIBCXX_USE_CXX11_ABI="
check_lacks "TORCH_CFLAGS" "$vars" "-std="
check_has "TORCH_LIBS" "$vars" "TORCH_LIBS=-L$ld -Wl,-rpath,$ld -l"
check_lacks "TORCH_LIBS" "$vars" "torch_python"
check_has "ACTION-IF-NOT-FOUND ran for >=999" "$vars" "have_999=no"
log=$(cat "$P/config.log")
check_has "config.log" "$log" "$TG verify --quiet --python $PY '>=1.12'"
check_has "config.log" "$log" "TORCH_LIBS=-L$ld"
check_has "config.log (>=999)" "$log" "is older than this package requires (>=999)"
if run make -s prog >"$tmp/make.log" 2>&1; then
	check "the program built with @TORCH_CFLAGS@ @TORCH_LIBS@" "$(run ./prog)" "cpu $(sed -E 's/^([0-9]+(\.[0-9]+)*).*/\1/' <<<"$ver")"
else
	fail "make prog failed: $(head -5 "$tmp/make.log")"
fi

# ---- failing: verify's message stops configure --------------------------
gen ">=99"
run ./configure TORCHGATE="$TG" TORCHGATE_ENV_ARGS="--python $PY" >"$tmp/c2.out" 2>&1
check "configure (>=99) exit status" "$?" 1
check_has "configure's error" "$(cat "$tmp/c2.out")" "configure: error: torchgate: verify: torch $ver is older than this package requires (>=99)"

# ---- no SPEC, a torch that is not there ---------------------------------
gen ""
mkdir -p "$tmp/empty"
run ./configure TORCHGATE="$TG" TORCHGATE_ENV_ARGS="--site-packages $tmp/empty" >"$tmp/c3.out" 2>&1
check "configure (no torch) exit status" "$?" 1
check_has "configure's error" "$(cat "$tmp/c3.out")" "configure: error: torchgate: probe: no torch found"

# ---- a policy among the environment arguments: verify only -------------
# Debian's 1.13.0a0 needs --policy=base for >=1.13; probe takes no
# policy, and before the macro gave it to probe too, which failed, and
# the check said yes with every variable empty.
gen ">=1.13"
run ./configure TORCHGATE="$TG" TORCHGATE_ENV_ARGS="--python $PY --policy=base" >"$tmp/c6.out" 2>&1
check "configure (>=1.13, --policy=base) exit status" "$?" 0
check_has "configure's output" "$(cat "$tmp/c6.out")" "checking for torch >=1.13 with torchgate... yes ($ver)"
vars=$(run make -s vars)
check_has "TORCH_VERSION (--policy=base)" "$vars" "TORCH_VERSION=$ver"$'\n'
check_has "TORCH_CFLAGS (--policy=base)" "$vars" "TORCH_CFLAGS=$inc-D_GLIBCXX_USE_CXX11_ABI="
check_has "TORCH_LIBS (--policy=base)" "$vars" "TORCH_LIBS=-L$ld -Wl,-rpath,$ld -l"
log=$(cat "$P/config.log")
check_has "config.log: verify got the policy" "$log" "$TG verify --quiet --python $PY --policy=base '>=1.13'"
check_has "config.log: probe did not" "$log" "$TG probe --quiet --python $PY --field include_dirs"
check_lacks "config.log: no probe refused an option" "$log" "unrecognized option"

# ---- a field probe cannot read fails the check with its message ---------
cat >"$tmp/tg-wrap" <<WRAP
#!/bin/bash
for a in "\$@"; do
	if [ "\$a" = include_dirs ]; then
		echo "torchgate: probe: cannot read 'include': injected failure" >&2
		exit 5
	fi
done
exec "$TG" "\$@"
WRAP
chmod +x "$tmp/tg-wrap"
run ./configure TORCHGATE="$tmp/tg-wrap" TORCHGATE_ENV_ARGS="--python $PY --policy=base" >"$tmp/c7.out" 2>&1
check "configure (a field fails) exit status" "$?" 1
check_has "configure's output" "$(cat "$tmp/c7.out")" "checking for torch >=1.13 with torchgate... no"
check_has "configure's error" "$(cat "$tmp/c7.out")" "configure: error: torchgate: probe: cannot read 'include': injected failure"

# ---- overrides: torchgate neither run nor needed ------------------------
run ./configure TORCHGATE=/nonexistent/torchgate TORCH_CFLAGS=-DGIVEN TORCH_LIBS=-lm TORCH_VERSION=9.9 >"$tmp/c4.out" 2>&1
check "configure (TORCH_CFLAGS, TORCH_LIBS given) exit status" "$?" 0
check_has "configure's output" "$(cat "$tmp/c4.out")" "yes (TORCH_CFLAGS and TORCH_LIBS given)"
vars=$(run make -s vars)
check_has "the given values" "$vars" $'TORCH_VERSION=9.9\nTORCH_CUDA_VERSION=\nTORCH_CFLAGS=-DGIVEN\nTORCH_LIBS=-lm'

# ---- no torchgate at all ------------------------------------------------
run env PATH=/usr/bin:/bin ./configure >"$tmp/c5.out" 2>&1
check "configure (no torchgate) exit status" "$?" 1
check_has "configure's error" "$(cat "$tmp/c5.out")" "configure: error: torchgate was not found: install it, or set TORCHGATE to its path"
finish
