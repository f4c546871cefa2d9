#!/bin/bash
# debian-torch-chroot.sh - torchgate on another Debian suite's real torch
# SPDX-License-Identifier: MIT
#
# usage: debian-torch-chroot.sh SUITE TORCHGATE [CMD...]
# e.g.   sudo tests/tools/debian-torch-chroot.sh trixie ./torchgate
#        sudo tests/tools/debian-torch-chroot.sh sid ./torchgate
#
# Builds (once, cached) a minimal debootstrap chroot of Debian SUITE
# (trixie: python3-torch 2.6.0; sid: 2.14.1, as of December 2026) with
# python3-torch, libtorch-dev and the libraries torchgate links to
# (libpcre2-8-0, libcjson1), copies TORCHGATE, data/ and tests/tools/
# into it, and runs there, on /usr/bin/python3's torch:
#
#   torchgate probe, torchgate check (all entries; JSON), the gate of
#   tests/tools/discover-gate.sh, tests/tools/import-check.py
#   (--torchgate, --files with check's report) and
#   tests/tools/warn-check.py (the table's warnings, touched)
#
# or, with CMDs, each CMD instead (in /work/tg, the copy). Reports go to
# DIR/SUITE-out/ (probe.json, check.json, discover.json, gate.txt,
# import.txt, import.json, warn.txt, warn.json) and are summed up on
# stdout. Exit 0 every step passed, 1 one failed (the others still
# run), 2 usage, 3 the chroot could not be built. Needs root
# (debootstrap, chroot, mounts) and the network the first time; not
# part of `make check`. The cache is DIR/SUITE.tar (DIR/SUITE-base.tar
# before the install), DIR ${TG_CHROOT_DIR:-/var/tmp/torchgate-chroot};
# remove them to rebuild (the suite moves on). TORCHGATE must run on
# SUITE's libc: a binary built on an older Debian does.
set -u
if [ $# -lt 2 ]; then
	echo "usage: debian-torch-chroot.sh SUITE TORCHGATE [CMD...]" >&2
	exit 2
fi
suite=$1 tg=$2
shift 2
case $suite in *[!a-z0-9-]* | "") echo "debian-torch-chroot.sh: bad suite '$suite'" >&2; exit 2 ;; esac
[ -x "$tg" ] || { echo "debian-torch-chroot.sh: '$tg' is not an executable" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "debian-torch-chroot.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${TG_CHROOT_DIR:-/var/tmp/torchgate-chroot}
mirror=${TG_DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$dir" || exit 3
root=$dir/$suite
out=$dir/$suite-out
cleanup() { for m in dev sys proc; do umount -l "$root/$m" 2>/dev/null; done; }
if [ ! -f "$dir/$suite.tar" ]; then
	command -v debootstrap >/dev/null || { echo "debian-torch-chroot.sh: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 3; }
	cleanup
	rm -rf "$root"
	if [ ! -f "$dir/$suite-base.tar" ]; then
		echo "=== debootstrap $suite (log: $dir/$suite.log)"
		debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$dir/$suite.log" 2>&1 ||
			{ echo "debian-torch-chroot.sh: debootstrap failed, see $dir/$suite.log" >&2; exit 3; }
		tar -C "$root" -cf "$dir/$suite-base.tar.new" . && mv "$dir/$suite-base.tar.new" "$dir/$suite-base.tar" || exit 3
	else
		mkdir -p "$root" && tar -C "$root" -xf "$dir/$suite-base.tar" || exit 3
	fi
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	echo "=== apt-get install python3-torch libtorch-dev (log: $dir/$suite.log)"
	# a mirror's Release of a moving suite can be past its Valid-Until
	chroot "$root" /bin/sh -c 'apt-get -o Acquire::Check-Valid-Until=false update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-torch libtorch-dev libpcre2-8-0 libcjson1 && apt-get clean' >>"$dir/$suite.log" 2>&1 ||
		{ echo "debian-torch-chroot.sh: apt-get install failed, see $dir/$suite.log" >&2; exit 3; }
	tar -C "$root" -cf "$dir/$suite.tar.new" . && mv "$dir/$suite.tar.new" "$dir/$suite.tar" || exit 3
else
	cleanup
	rm -rf "$root" && mkdir -p "$root" && tar -C "$root" -xf "$dir/$suite.tar" || exit 3
fi
trap cleanup EXIT
mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" && mount --rbind /dev "$root/dev" || exit 3
rm -rf "$root/work/tg" && mkdir -p "$root/work/tg/tests" || exit 3
cp "$tg" "$root/work/tg/torchgate" && cp -r "$srcdir/data" "$root/work/tg/" &&
	cp -r "$srcdir/tests/tools" "$root/work/tg/tests/" || exit 3
deb=$(chroot "$root" dpkg-query -W -f '${Version}' python3-torch 2>/dev/null)
echo "=== $suite: python3-torch $deb"
run() { chroot "$root" /bin/bash -c "cd /work/tg && $1"; }
if [ $# -gt 0 ]; then
	rc=0
	for c in "$@"; do
		echo "=== $c"
		run "$c" || rc=1
	done
	exit $rc
fi
rm -rf "$out" && mkdir -p "$out" || exit 3
rc=0
step() { # NAME CMD: run CMD in the chroot, its output in $out/NAME
	local name=$1
	run "$2" >"$out/$name" 2>"$out/$name.err"
	local r=$?
	echo "=== $name: exit $r"
	return $r
}
step probe.json "./torchgate probe --python /usr/bin/python3 --format=json" || rc=1
step check.json "./torchgate check --quiet --python /usr/bin/python3 --format=json"
[ $? -le 1 ] || rc=1
python3 - "$out/check.json" <<'PY' || rc=1
import collections, json, sys
d = json.load(open(sys.argv[1]))
c = collections.Counter(a["evidence"]["verdict"] for a in d["apis"])
print("check: torch %s: %s" % (d["torch"]["version"], ", ".join("%s %d" % kv for kv in sorted(c.items()))))
for a in d["apis"]:
    if a["evidence"]["verdict"] != "confirmed":
        print("  %s %s: %s" % (a["evidence"]["verdict"], a["id"], a["evidence"]["detail"]))
PY
step discover.json "./torchgate discover --quiet --python /usr/bin/python3 --format=json"
[ $? -le 1 ] || rc=1
step gate.txt "bash tests/tools/discover-gate.sh ./torchgate --python /usr/bin/python3" || rc=1
tail -n 12 "$out/gate.txt"
cp "$out/check.json" "$root/work/tg/check.json"
step import.txt "/usr/bin/python3 tests/tools/import-check.py --torchgate ./torchgate --files /work/tg/check.json --json /work/tg/import.json" || rc=1
cp "$root/work/tg/import.json" "$out/" 2>/dev/null
grep -v '^agree\|^proved' "$out/import.txt" | head -40
grep '^agree\|^proved' "$out/import.txt"
step warn.txt "/usr/bin/python3 tests/tools/warn-check.py --json /work/tg/warn.json" || rc=1
cp "$root/work/tg/warn.json" "$out/" 2>/dev/null
grep -v '^ok\|^skipped' "$out/warn.txt" | head -40
echo "=== reports in $out"
exit $rc
