#!/bin/bash
# check-stdout-faults.sh - every command on a full and on a closed stdout
# SPDX-License-Identifier: MIT
#
# usage: check-stdout-faults.sh TORCHGATE SRCDIR
#
# Runs each command in its main modes three times: with stdout on a pipe
# (what it prints and its status), on /dev/full, and closed (>&-). A
# command that printed something must, on /dev/full and on a closed
# stdout, exit 5 with the one line
#   torchgate: <cmd>: cannot write to standard output: <strerror>
# on stderr after its own messages (torchgate(1) EXIT STATUS); one that
# printed nothing keeps its status and its stderr (GNU close_stdout).
# Prints one line per failed check; exits 1 when one failed.
set -u
[ $# -eq 2 ] || { echo "usage: check-stdout-faults.sh TORCHGATE SRCDIR" >&2; exit 2; }
tg=$1 src=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
export LC_ALL=C
# no cached table or release list but the ones a case makes
export XDG_CACHE_HOME=$tmp/cache
T=$src/tests/data/apis-mini.json
bash "$src/tests/tools/mktorch.sh" sp --version 2.4.1 >/dev/null || exit 2
printf '1.0\n2.0rc1\n0.9\n' >versions
printf '1.0\n2.0x\n' >normalize
printf '>=1.0\t1.5\n' >match
printf 'python_version >= "3"\t{"python_version": "3.11"}\n' >marker
cp -r "$src/tests/data/audit-apex" apex
printf 'x = 1\n' >clean.py

# name|stdin|operands (split on spaces; no operand has one)
cases="
help||help
help-page||help probe
--help||--help
--version||--version
cmd-help||probe --help
probe||probe --site-packages sp
probe-json||probe --site-packages sp --format json
probe-field||probe --site-packages sp --field version --field location
probe-none||probe --site-packages nowhere
verify||verify --site-packages sp torch>=2.0
verify-fails||verify --site-packages sp torch>=3.0
verify-quiet||verify --site-packages sp --quiet torch>=2.0
check||check --site-packages sp --table $T
check-api||check --torch-version 2.4 --table $T torch.amp.custom_fwd
check-json||check --torch-version 2.4 --table $T --format json
emit||emit --site-packages sp --table $T --header h.h --api torch.amp.custom_fwd
emit-quiet||emit --site-packages sp --table $T --header q.h --api torch.amp.custom_fwd --quiet
discover||discover --site-packages sp
discover-json||discover --site-packages sp --format json
normalize||version normalize 1.0 2.0.0rc1
normalize-bad||version normalize 1.0x
normalize-batch|normalize|version normalize --batch
match||version match >=1.0 1.5
match-false||version match >=2.0 1.5
match-batch|match|version match --batch
cmp||version cmp 1.0 2.0
sort|versions|version sort
req||version req torch>=2.0
marker||version marker python_version>='3' {\"python_version\":\"3.11\"}
marker-batch|marker|version marker --batch
audit||audit --torch-version 2.11 apex
audit-json||audit --torch-version 2.11 --format=json apex
audit-sarif||audit --torch-version 2.11 --format=sarif apex
audit-github||audit --torch-version 2.11 --format=github apex
audit-floor||audit --torch-version 2.11 --floor 2.4 apex
audit-clean||audit --torch-version 2.11 clean.py
require||require apex
require-json||require --format=json apex
require-html||require --format=html apex
check-which||check --which-table
update-offline||update --offline
releases-offline||releases --offline
releases-offline-json||releases --offline --format=json
"
fail=0
bad() {
	echo "FAIL $name ($1): $2"
	fail=1
}
while IFS='|' read -r name input args; do
	[ -n "$name" ] || continue
	in=/dev/null
	[ -n "$input" ] && in=$input
	# shellcheck disable=SC2086 # operands are split on purpose
	"$tg" $args <"$in" >out 2>err
	want=$?
	for how in full closed; do
		rm -f h.h q.h
		if [ $how = full ]; then
			# shellcheck disable=SC2086
			"$tg" $args <"$in" >/dev/full 2>err.$how
		else
			# shellcheck disable=SC2086
			"$tg" $args <"$in" >&- 2>err.$how
		fi
		got=$?
		why="No space left on device"
		[ $how = closed ] && why="Bad file descriptor"
		if [ -s out ]; then
			last=$(tail -n 1 err.$how)
			case $last in
			"torchgate: "*"cannot write to standard output: $why") ;;
			*) bad $how "last stderr line '$last', want the write error" ;;
			esac
			[ $got = 5 ] || bad $how "exit $got, want 5"
			[ "$(grep -c 'standard output' err.$how)" = 1 ] ||
				bad $how "the write error is not one line"
		else
			[ $got = $want ] || bad $how "exit $got, want $want (nothing to write)"
			cmp -s err err.$how || bad $how "stderr differs though nothing was written"
		fi
	done
done <<EOF
$cases
EOF
exit $fail
