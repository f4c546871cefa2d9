#!/bin/bash
# probe.sh - torchgate probe against `import torch` and importlib.metadata
# SPDX-License-Identifier: MIT
#
# usage: bench/probe.sh [TORCHGATE]      (default ./torchgate)
#
# On this machine's Debian torch (python3-torch, seen by /usr/bin/python3)
# times, side by side with hyperfine:
#   torchgate probe --python /usr/bin/python3
#   torchgate probe --python /usr/bin/python3 --field version
#   /usr/bin/python3 -c "import torch; print(torch.__version__)"
#   /usr/bin/python3 -c "import importlib.metadata as m; print(m.version('torch'))"
# and prints each mean, the ratios import/torchgate and importlib/torchgate,
# and each command's peak RSS from GNU time -v. It says whether the targets
# are met (issue 29's): >= 1,500x faster than import torch, >= 50x
# faster than importlib, peak RSS <= 5 MiB.
#
# Environment: PY (default /usr/bin/python3), FAST_RUNS (default 300),
# IMPORTLIB_RUNS (default 50), IMPORT_RUNS (default 10), RSS_RUNS (default 5).
# Exit status: 0 every target met, 1 a target missed, 2 a prerequisite is
# missing or a command failed.
set -u
export LC_ALL=C

TG=${1:-./torchgate}
PY=${PY:-/usr/bin/python3}
FAST_RUNS=${FAST_RUNS:-300}
IMPORTLIB_RUNS=${IMPORTLIB_RUNS:-50}
IMPORT_RUNS=${IMPORT_RUNS:-10}
RSS_RUNS=${RSS_RUNS:-5}
TARGET_IMPORT=1500 TARGET_IMPORTLIB=50 TARGET_RSS_KIB=5120

die() { echo "bench/probe.sh: $*" >&2; exit 2; }

case $TG in */*) ;; *) TG=./$TG ;; esac
[ -x "$TG" ] || die "torchgate binary '$TG' is not executable (give it as the first argument)"
TG=$(cd "$(dirname "$TG")" && pwd)/$(basename "$TG")
command -v hyperfine >/dev/null || die "hyperfine not found: apt-get install hyperfine"
[ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1 ||
	die "GNU time not found at /usr/bin/time (need -v): apt-get install time"
[ -x "$PY" ] || die "$PY not found"
"$PY" -c 'import json' 2>/dev/null || die "$PY cannot import json"

tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# The commands must work before they are timed, and give a version.
v_tg=$("$TG" probe --python "$PY" --field version 2>"$tmp/err") ||
	die "torchgate probe failed: $(cat "$tmp/err")"
"$TG" probe --python "$PY" >/dev/null 2>&1 || die "torchgate probe --python $PY failed"
v_import=$("$PY" -c "import torch; print(torch.__version__)" 2>"$tmp/err") ||
	die "import torch failed under $PY (install python3-torch): $(tail -n 1 "$tmp/err")"
v_meta=$("$PY" -c "import importlib.metadata as m; print(m.version('torch'))" 2>"$tmp/err") ||
	die "importlib.metadata.version('torch') failed: $(tail -n 1 "$tmp/err")"

names=(probe field import importlib)
cmds=(
	"$TG probe --python $PY"
	"$TG probe --python $PY --field version"
	"$PY -c \"import torch; print(torch.__version__)\""
	"$PY -c \"import importlib.metadata as m; print(m.version('torch'))\""
)
labels=(
	"torchgate probe --python $PY"
	"torchgate probe --python $PY --field version"
	"python3 -c 'import torch; print(torch.__version__)'"
	"python3 -c 'import importlib.metadata as m; print(m.version(\"torch\"))'"
)
warm=(20 20 2 5)
runs=("$FAST_RUNS" "$FAST_RUNS" "$IMPORT_RUNS" "$IMPORTLIB_RUNS")

echo "machine: $(nproc) CPU, $(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo | head -n 1)"
echo "torchgate: $("$TG" --version) ($TG)"
echo "python: $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (the ~1 ms figures are sensitive to other load)"
echo "versions: torchgate $v_tg, import torch $v_import, importlib.metadata $v_meta"
echo

# hyperfine without an intermediate shell (-N): the ~1 ms commands would
# otherwise be dominated by the shell's start and its correction.
for i in "${!names[@]}"; do
	hyperfine -N --style basic --output=pipe --warmup "${warm[$i]}" --runs "${runs[$i]}" \
		--export-json "$tmp/${names[$i]}.json" --command-name "${labels[$i]}" "${cmds[$i]}" ||
		die "hyperfine failed on: ${cmds[$i]}"
	echo
done

# Peak RSS: the largest "Maximum resident set size" of RSS_RUNS runs.
peak_rss() {
	local k m=0 v
	for ((k = 0; k < RSS_RUNS; k++)); do
		/usr/bin/time -v -o "$tmp/time.out" "$@" >/dev/null 2>&1 || return 1
		v=$(sed -n 's/^[ \t]*Maximum resident set size (kbytes): //p' "$tmp/time.out")
		[ "${v:-0}" -gt "$m" ] && m=$v
	done
	echo "$m"
}
rss_probe=$(peak_rss "$TG" probe --python "$PY") || die "time -v torchgate probe failed"
rss_field=$(peak_rss "$TG" probe --python "$PY" --field version) || die "time -v torchgate --field failed"
rss_import=$(peak_rss "$PY" -c "import torch; print(torch.__version__)") || die "time -v import torch failed"
rss_importlib=$(peak_rss "$PY" -c "import importlib.metadata as m; print(m.version('torch'))") ||
	die "time -v importlib failed"

"$PY" - "$tmp" "$rss_probe" "$rss_field" "$rss_import" "$rss_importlib" \
	"$TARGET_IMPORT" "$TARGET_IMPORTLIB" "$TARGET_RSS_KIB" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
rss = dict(zip(('probe', 'field', 'import', 'importlib'), map(int, sys.argv[2:6])))
t_import, t_importlib, t_rss = float(sys.argv[6]), float(sys.argv[7]), int(sys.argv[8])
r = {}
for n in ('probe', 'field', 'import', 'importlib'):
    res = json.load(open('%s/%s.json' % (tmp, n)))['results'][0]
    r[n] = res
def ms(s): return '%10.3f ms' % (s * 1e3)
short = {'probe': 'torchgate probe', 'field': 'torchgate probe --field version',
         'import': 'python3 -c "import torch"', 'importlib': 'importlib.metadata.version'}
print('%-32s %13s %13s %13s %6s %12s' % ('command', 'mean', 'stddev', 'median', 'runs', 'peak RSS'))
for n in ('probe', 'field', 'import', 'importlib'):
    x = r[n]
    print('%-32s %s %s %s %6d %8.2f MiB' % (short[n], ms(x['mean']), ms(x['stddev'] or 0),
          ms(x['median']), len(x['times']), rss[n] / 1024))
print()
missed = 0
def verdict(ok):
    global missed
    if not ok: missed += 1
    return 'ok' if ok else 'MISSED'
for n, label in (('probe', 'probe'), ('field', 'probe --field version')):
    a = r['import']['mean'] / r[n]['mean']
    b = r['importlib']['mean'] / r[n]['mean']
    print('import torch / torchgate %-22s %9.1fx  (target >= %gx: %s)' % (label, a, t_import, verdict(a >= t_import)))
    print('importlib    / torchgate %-22s %9.1fx  (target >= %gx: %s)' % (label, b, t_importlib, verdict(b >= t_importlib)))
for n, label in (('probe', 'probe'), ('field', 'probe --field version')):
    print('peak RSS torchgate %-28s %8.2f MiB  (target <= %.0f MiB: %s)' % (label, rss[n] / 1024, t_rss / 1024,
          verdict(rss[n] <= t_rss)))
print('peak RSS ratio import torch / torchgate probe: %.0fx' % (rss['import'] / rss['probe']))
sys.exit(1 if missed else 0)
PYEOF
