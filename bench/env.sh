#!/bin/bash
# env.sh - torchgate env against pip check on the same 197 distributions
# SPDX-License-Identifier: MIT
#
# usage: bench/env.sh [TORCHGATE [FIXTURE]]
#   TORCHGATE  default ./torchgate
#   FIXTURE    a site-packages directory, default
#              ../shared/fixtures/site-packages/h200-venv-py312 (the
#              real 197-distribution torch 2.11.0+cu130 environment)
#
# The fixture has no RECORD files; RECORDS (default
# bench/data/h200-venv-records.tgz: the 196 RECORDs of that real venv
# but torch's, 57,076 lines, taken on the GPU machine on 5 December;
# RECORDS= for none) is unpacked into the copy, so that env reads what
# it reads there (its objects are absent: env warns of each, which
# pip check does not look at).
#
# Makes a real venv with PY (python3 -m venv --without-pip), copies
# FIXTURE into its site-packages, checks that both tools find nothing
# broken there, then times with hyperfine, side by side:
#   PY -m pip --python VENV/bin/python check
#   torchgate env --python VENV/bin/python IGNORES
#   torchgate env --python VENV/bin/python --no-elf IGNORES
# IGNORES is --ignore-vuln ID for each security advisory that env
# reports against the torch (it exits 1 for one; 2.11.0 has some):
# pip check does not look at advisories, so both then judge the same
# thing, the requirements, and both exit 0 on a sound environment. env
# still reads and matches the advisories: only the verdict changes.
# and prints each mean, the ratio pip/torchgate (goal >= 100x) and the
# cost of the ELF check (env minus env --no-elf). On the fixture, which
# holds metadata and no shared objects, the ELF check costs the walk and
# the mapping of torch's libraries, if any: bench/env-real.sh measures it
# on a real install.
#
# Environment: PY (default python3; its pip must know --python, pip >=
# 22.3), PIP_RUNS (default 10), TG_RUNS (default 200).
# Exit status: 0 the goal met, 1 missed, 2 a prerequisite is missing or a
# command failed.
set -u
export LC_ALL=C
TG=${1:-./torchgate}
FIX=${2:-$(dirname "$0")/../../shared/fixtures/site-packages/h200-venv-py312}
PY=${PY:-python3}
PIP_RUNS=${PIP_RUNS:-10}
TG_RUNS=${TG_RUNS:-200}
GOAL=100

die() { echo "bench/env.sh: $*" >&2; exit 2; }
case $TG in */*) ;; *) TG=./$TG ;; esac
[ -x "$TG" ] || die "torchgate binary '$TG' is not executable (give it as the first argument)"
TG=$(cd "$(dirname "$TG")" && pwd)/$(basename "$TG")
[ -d "$FIX" ] || die "no fixture at '$FIX' (give a site-packages directory as the second argument)"
command -v hyperfine >/dev/null || die "hyperfine not found: apt-get install hyperfine"
command -v "$PY" >/dev/null || die "$PY not found"
"$PY" -m pip --version >/dev/null 2>&1 || die "$PY has no pip"

tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
"$PY" -m venv --without-pip "$tmp/venv" || die "$PY -m venv failed"
VPY=$tmp/venv/bin/python
site=$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') ||
	die "the venv's python does not run"
cp -R "$FIX/." "$site/" || die "cannot copy '$FIX'"
RECORDS=${RECORDS-$(dirname "$0")/data/h200-venv-records.tgz}
if [ -n "$RECORDS" ]; then
	tar -xzf "$RECORDS" -C "$site" || die "cannot unpack '$RECORDS'"
fi
n=$(ls -d "$site"/*.dist-info | wc -l)

"$PY" -m pip --python "$VPY" check >"$tmp/pip.out" 2>&1
pip_rc=$?
"$TG" env --python "$VPY" -q --format=json >"$tmp/adv.json" 2>/dev/null
IGNORES=$("$PY" - "$tmp/adv.json" <<'PYEOF'
import json, sys
try:
    a = json.load(open(sys.argv[1])).get('advisories') or {}
except ValueError:
    a = {}
print(' '.join('--ignore-vuln ' + x['id'] for x in a.get('affecting') or []))
PYEOF
)
"$TG" env --python "$VPY" -q $IGNORES >"$tmp/env.out" 2>&1
env_rc=$?
echo "machine: $(nproc) CPU, $(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo | head -n 1)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "torchgate: $("$TG" --version) ($TG)"
echo "pip: $("$PY" -m pip --version)"
echo "venv: $("$VPY" -c 'import sys; print(sys.version.split()[0])'), $n distributions from $FIX${RECORDS:+, RECORDs from $RECORDS}"
echo "pip check: exit $pip_rc: $(tail -n 1 "$tmp/pip.out")"
echo "torchgate env${IGNORES:+ $IGNORES}: exit $env_rc: $(tail -n 1 "$tmp/env.out")"
[ $pip_rc -eq 0 ] && [ $env_rc -eq 0 ] || echo "note: the two do not both find the environment clean"
echo

hyperfine -N --style basic --output=pipe --warmup 1 --runs "$PIP_RUNS" \
	--export-json "$tmp/pip.json" --command-name "pip check" \
	"$PY -m pip --python $VPY check" || die "hyperfine failed on pip check"
hyperfine -N --style basic --output=pipe --warmup 20 --runs "$TG_RUNS" \
	--export-json "$tmp/env.json" --command-name "torchgate env" \
	"$TG env --python $VPY -q $IGNORES" -i || die "hyperfine failed on torchgate env"
hyperfine -N --style basic --output=pipe --warmup 20 --runs "$TG_RUNS" \
	--export-json "$tmp/noelf.json" --command-name "torchgate env --no-elf" \
	"$TG env --python $VPY -q --no-elf $IGNORES" -i || die "hyperfine failed on torchgate env --no-elf"
echo
"$PY" - "$tmp" "$GOAL" <<'PYEOF'
import json, sys
tmp, goal = sys.argv[1], float(sys.argv[2])
r = {n: json.load(open('%s/%s.json' % (tmp, n)))['results'][0] for n in ('pip', 'env', 'noelf')}
for n, label in (('pip', 'pip check'), ('env', 'torchgate env'), ('noelf', 'torchgate env --no-elf')):
    x = r[n]
    print('%-24s mean %10.3f ms  median %10.3f ms  stddev %8.3f ms  runs %d' % (
        label, x['mean'] * 1e3, x['median'] * 1e3, (x['stddev'] or 0) * 1e3, len(x['times'])))
ratio = r['pip']['mean'] / r['env']['mean']
print('ELF check (env - env --no-elf): %.3f ms' % ((r['env']['mean'] - r['noelf']['mean']) * 1e3))
print('pip check / torchgate env: %.1fx (goal >= %gx: %s)' % (ratio, goal, 'ok' if ratio >= goal else 'MISSED'))
sys.exit(0 if ratio >= goal else 1)
PYEOF
