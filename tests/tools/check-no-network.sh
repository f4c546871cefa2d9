#!/bin/bash
# check-no-network.sh - a build without libcurl says why update and
# releases cannot download
# SPDX-License-Identifier: MIT
#
# usage: check-no-network.sh TORCHGATE
# Registered only in a build configured without libcurl (--without-libcurl,
# or libcurl not found): update exits 5 with one line saying the network
# commands are not built; releases falls back to the built-in list and
# says why; update --offline still answers.
set -u
tg=${1:?usage: check-no-network.sh TORCHGATE}
fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp LC_ALL=C
bad() { echo "check-no-network: $*"; fail=1; }

err=$("$tg" update --url http://127.0.0.1:1/apis.json 2>&1 >/dev/null)
rc=$?
[ $rc -eq 5 ] || bad "update: status $rc, want 5"
case $err in
"torchgate: update: the network commands are not built ("*"): configure --with-libcurl") ;;
*) bad "update said: $err" ;;
esac
out=$("$tg" releases --index http://127.0.0.1:1/ 2>"$tmp/err")
rc=$?
[ $rc -eq 0 ] || bad "releases: status $rc, want 0 (the built-in list)"
[ "$(echo "$out" | head -n 1)" = 1.0.0 ] || bad "releases: not the built-in list: $(echo "$out" | head -n 1)"
grep -q "network commands are not built" "$tmp/err" || bad "releases did not say why: $(cat "$tmp/err")"
grep -q "the built-in list" "$tmp/err" || bad "releases did not say which list: $(cat "$tmp/err")"
"$tg" update --offline >/dev/null || bad "update --offline failed"
[ $fail -eq 0 ] && echo "check-no-network: update and releases say the network commands are not built"
exit $fail
