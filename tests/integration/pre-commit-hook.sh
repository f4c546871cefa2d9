#!/bin/bash
# pre-commit-hook.sh - .pre-commit-hooks.yaml run by real pre-commit
# SPDX-License-Identifier: MIT
#
# usage: pre-commit-hook.sh TORCHGATE SRCDIR
#
# A git repository whose .pre-commit-config.yaml names the torchgate
# repository (a local clone of SRCDIR's hooks file, as pre-commit clones
# it) with the torchgate-audit hook and --torch-version 2.5, torchgate on
# PATH; 'pre-commit run --all-files' must fail on a C++ file using a
# removed torch API (THC, gone in 1.11), naming the file and the API,
# and pass once it is gone; a file of another type (.txt) is not passed
# to the hook. Offline: language system needs no download. pre-commit
# is optional (the README says why): without it the test is skipped
# (exit status 77, which CTest counts as a skip) and prints why; with
# pre-commit, it fails when git is missing.
# Exit status: 0 all passed, 1 something failed, 2 usage, 77 skipped.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
need "$SRCDIR/.pre-commit-hooks.yaml" "the hooks file (SRCDIR '$SRCDIR')"
# pre-commit is optional (README, "pre-commit"): Debian's brings
# python3-virtualenv, and with virtualenv importable 'python -m build'
# makes its isolated environments with it, which name no interpreter
# that torchgate could follow (integration-isolated-build then fails)
if ! command -v pre-commit >/dev/null; then
	echo "SKIP: pre-commit is not installed (optional, see the README's pre-commit section): apt-get install pre-commit to run this test"
	tg_lib_finished=yes
	exit 77
fi
need_cmd git # pre-commit's own dependency

mkdir -p "$tmp/home" "$tmp/bin" "$tmp/hooks" "$tmp/repo"
ln -s "$TG" "$tmp/bin/torchgate"
run() {
	(cd "$tmp/repo" && env -i HOME="$tmp/home" PATH="$tmp/bin:/usr/bin:/bin" LC_ALL=C.UTF-8 \
		PRE_COMMIT_HOME="$tmp/home/cache" GIT_CONFIG_NOSYSTEM=1 \
		GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t "$@")
}
# the hooks repository: what pre-commit clones from the project
cp "$SRCDIR/.pre-commit-hooks.yaml" "$tmp/hooks/"
(cd "$tmp/hooks" && git init -q && git add . && git -c user.name=t -c user.email=t@t commit -qm hooks) ||
	die "cannot make the hooks repository"
rev=$(git -C "$tmp/hooks" rev-parse HEAD)
run git init -q . || die "git init failed"
cat >"$tmp/repo/.pre-commit-config.yaml" <<YAML
repos:
- repo: $tmp/hooks
  rev: $rev
  hooks:
  - id: torchgate-audit
    args: [--torch-version, "2.5"]
YAML
printf '#include <THC/THC.h>\nint f() { return 0; }\n' >"$tmp/repo/ext.cpp"
printf 'import torch\n' >"$tmp/repo/ok.py"
printf '#include <THC/THC.h>\n' >"$tmp/repo/notes.txt"
run git add -A
out=$(run pre-commit run --all-files 2>&1)
check "pre-commit run (a removed API) exit status" "$?" 1
check_has "pre-commit's output" "$out" "torchgate audit"
check_has "pre-commit's output" "$out" "ext.cpp:1"
check_has "pre-commit's output" "$out" "THC"
check_lacks "pre-commit's output (a .txt is not passed)" "$out" "notes.txt"
printf 'int f() { return 0; }\n' >"$tmp/repo/ext.cpp"
run git add -A
out=$(run pre-commit run --all-files 2>&1)
check "pre-commit run (clean) exit status" "$?" 0
check_has "pre-commit's output" "$out" "Passed"
finish
