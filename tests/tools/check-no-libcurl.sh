#!/bin/bash
# check-no-libcurl.sh - the torchgate binary does not load libcurl
# SPDX-License-Identifier: MIT
#
# usage: check-no-libcurl.sh TORCHGATE [LIB]
# libcurl is for the network commands, which will live in a module of
# their own; every other command must start without it (it would add 33
# shared libraries and about 4 ms to a 2 ms probe). Fails when a NEEDED
# entry of the binary (readelf -d) names libcurl, or when the dynamic
# loader would load it through another library (ldd). A missing tool is
# a failure, never a skip. LIB checks another library the same way
# (libstdc++: env opens it only when it demangles, configure
# --with-demangler=dlopen).
set -u
tg=${1:?usage: check-no-libcurl.sh TORCHGATE [LIB]}
lib_no=${2:-libcurl}
fail=0
bad() { echo "check-no-libcurl: $*"; fail=1; }

[ -x "$tg" ] || { echo "check-no-libcurl: '$tg' is missing or not executable"; exit 1; }
for t in readelf ldd; do
	command -v "$t" >/dev/null || { echo "check-no-libcurl: '$t' not found (binutils, libc-bin)"; exit 1; }
done

needed=$(LC_ALL=C readelf -d "$tg") || { echo "check-no-libcurl: readelf -d '$tg' failed"; exit 1; }
needed=$(echo "$needed" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
[ -n "$needed" ] || bad "readelf -d '$tg' lists no NEEDED entry: not a dynamic executable?"
while IFS= read -r lib; do
	case $lib in
	"$lib_no"*) bad "'$tg' is linked against $lib (readelf -d: NEEDED)" ;;
	esac
done <<<"$needed"

# The libraries that name LIB in their own NEEDED entries. A sanitizer
# runtime (configure --enable-sanitizers: libasan, libubsan) needs
# libstdc++ itself; that build is the tests', never the product's, so a
# library loaded only for a sanitizer runtime is said, not failed.
needers() {
	local l path
	while read -r l _ path _; do
		[ -f "$path" ] || continue
		LC_ALL=C readelf -d "$path" 2>/dev/null | grep -q "(NEEDED).*\[$1\]" && echo "$l"
	done <<<"$loaded"
}
loaded=$(LC_ALL=C ldd "$tg" 2>&1) || { echo "check-no-libcurl: ldd '$tg' failed: $loaded"; exit 1; }
sanitizer_note=
while read -r lib _; do
	case $lib in
	"$lib_no"*)
		case $'\n'$needed$'\n' in
		*$'\n'$lib$'\n'*) continue ;; # said above
		esac
		by=$(needers "$lib")
		others=$(grep -v -E '^lib(a|ub|l|t|hwa)san\.so' <<<"$by")
		if [ -n "$by" ] && [ -z "$others" ]; then
			sanitizer_note=$(echo "$by" | tr '\n' ' ' | sed 's/ $//')
		else
			bad "'$tg' loads $lib through another library (ldd: ${by:-unknown})"
		fi
		;;
	esac
done <<<"$loaded"

if [ $fail -eq 0 ]; then
	if [ -n "$sanitizer_note" ]; then
		echo "check-no-libcurl: '$tg' needs $(echo "$needed" | tr '\n' ' ')and loads $lib_no only for the sanitizer runtime ($sanitizer_note)"
	else
		echo "check-no-libcurl: '$tg' needs $(echo "$needed" | tr '\n' ' ')and loads no $lib_no"
	fi
fi
exit $fail
