# trees.sh - the bench trees audit.sh and fix.sh time (sourced)
# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# make_trees DIR: DIR/x1 holds a copy of TREE (as torch/) and of each
# directory of HEADERS that exists (under include/), DIR/x4 four copies
# of x1; prints what it used, its size and the CPUs.
make_trees() {
	local d=$1 used=$TREE h k
	mkdir -p "$d/x1/include" "$d/x4"
	cp -r "$TREE" "$d/x1/torch"
	for h in $HEADERS; do
		[ -d "$h" ] && cp -r "$h" "$d/x1/include/" && used="$used $h"
	done
	echo "tree: $used ($(du -sh "$d/x1" | cut -f1)); $(nproc) CPUs"
	for k in 1 2 3 4; do cp -r "$d/x1" "$d/x4/copy$k"; done
}
