#!/bin/bash
# env-real.sh - torchgate env on a real torch install, checked against
# what Python's loader does, and timed
# SPDX-License-Identifier: MIT
#
# usage: bench/env-real.sh TORCHGATE [PYTHON]     (PYTHON default python3)
#
# Needs only the torchgate binary and the environment's python3 (with
# torch, and pip for the pip check timing). It runs
#   TORCHGATE env --python PYTHON --format=json
# and then, as the reference, PYTHON itself (this script may run Python;
# torchgate never does): `import torch`, then every shared object that
# env checked, loaded with ctypes.CDLL (dlopen, RTLD_NOW) in a child
# process each, so a missing symbol shows as the loader's "undefined
# symbol" error. It prints env's findings, each extension's verdict
# beside the loader's, and whether they agree; then the time of env,
# env --no-elf (the difference is the ELF check), pip check, and
# `import torch, torchvision, torchaudio`.
#
# Environment: RUNS (default 20, torchgate), SLOW_RUNS (default 3, the
# Python commands), OUT (a directory: env.json and report.txt are
# written there too).
# Exit status: 0 env and the loader agree on every extension and env
# exits as it reports, 1 they disagree, 2 a prerequisite is missing.
set -u
export LC_ALL=C
TG=${1:?usage: bench/env-real.sh TORCHGATE [PYTHON]}
PY=${2:-python3}
RUNS=${RUNS:-20}
SLOW_RUNS=${SLOW_RUNS:-3}
die() { echo "bench/env-real.sh: $*" >&2; exit 2; }
case $TG in */*) ;; *) TG=./$TG ;; esac
[ -x "$TG" ] || die "torchgate binary '$TG' is not executable"
PY=$(command -v "$PY") || die "no $PY"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

"$TG" env --python "$PY" --format=json >"$tmp/env.json" 2>"$tmp/env.err"
rc=$?
"$TG" env --python "$PY" --all >"$tmp/env.txt" 2>/dev/null
[ -s "$tmp/env.json" ] || { cat "$tmp/env.err" >&2; die "torchgate env printed no JSON (exit $rc)"; }

"$PY" - "$TG" "$PY" "$tmp" "$rc" "$RUNS" "$SLOW_RUNS" <<'PYEOF'
import json, os, subprocess, sys, time
tg, py, tmp, rc, runs, slow = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
d = json.load(open(os.path.join(tmp, 'env.json')))
out = []
def say(s=''):
    print(s)
    out.append(s)
say('python: %s' % py)
say('torchgate env: exit %d, %d broken, %d extension objects checked against %d torch libraries'
    % (rc, d['broken'], d['extension_objects'], d['torch_libraries']))
warn = open(os.path.join(tmp, 'env.err')).read().strip()
if warn:
    say('warnings:\n' + warn)
for sec, items in d['sections'].items():
    st = {}
    for it in items:
        st[it['status']] = st.get(it['status'], 0) + 1
    say('  %-15s %s' % (sec, ', '.join('%d %s' % (v, k) for k, v in sorted(st.items())) or 'none'))
    for it in items:
        if it['status'] == 'broken':
            say('    BROKEN %s: %s (%s)' % (it['distribution'], it['message'], it['file']))
            for x in it['details']:
                say('        %s' % x)
# the reference: the dynamic loader, after import torch
probe = r'''
import sys, ctypes
import torch
try:
    ctypes.CDLL(sys.argv[1])
    print("loaded")
except OSError as e:
    print("failed: %s" % e)
'''
agree = disagree = 0
say()
say('extensions: env against the loader (import torch; ctypes.CDLL)')
for it in d['sections']['extensions']:
    f = it['file']
    if not f or not (f.endswith('.so') or '.so.' in f):
        continue
    p = subprocess.run([py, '-c', probe, f], capture_output=True, text=True)
    res = (p.stdout.strip() or 'failed: ' + p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.stdout.strip())
    loads = res.startswith('loaded')
    ok = it['status'] == 'ok'
    same = (ok == loads) if it['status'] in ('ok', 'broken') else True
    agree += same
    disagree += not same
    say('  %-8s %-7s %s: %s' % ('agree' if same else 'DISAGREE', it['status'], f, res[:300]))
say('%d agree, %d disagree' % (agree, disagree))
def timeit(cmd, n):
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2], sum(ts) / len(ts)
say()
rows = [
    ('torchgate env', [tg, 'env', '--python', py, '-q'], runs),
    ('torchgate env --no-elf', [tg, 'env', '--python', py, '-q', '--no-elf'], runs),
    ('pip check', [py, '-m', 'pip', 'check'], slow),
    ('import torch, torchvision, torchaudio', [py, '-c', 'import torch, torchvision, torchaudio'], slow),
]
res = {}
for name, cmd, n in rows:
    res[name] = timeit(cmd, 2 if n > 5 else 1) and timeit(cmd, n)
    say('%-40s median %10.2f ms  mean %10.2f ms  (%d runs)' % (name, res[name][0] * 1e3, res[name][1] * 1e3, n))
e, ne = res['torchgate env'][0], res['torchgate env --no-elf'][0]
say('ELF check: %.2f ms (median env - median env --no-elf)' % ((e - ne) * 1e3))
say('pip check / torchgate env: %.1fx' % (res['pip check'][0] / e))
say('import / torchgate env: %.1fx' % (res['import torch, torchvision, torchaudio'][0] / e))
# exit 1: something broken, or an advisory (not ignored) affects the
# torch (torchgate-env(1), EXIT STATUS)
adv = len((d.get('advisories') or {}).get('affecting') or [])
ok_rc = (rc == 1) == (d['broken'] > 0 or adv > 0)
if not ok_rc:
    say('exit status %d does not match %d broken and %d advisories'
        % (rc, d['broken'], adv))
o = os.environ.get('OUT')
if o:
    os.makedirs(o, exist_ok=True)
    open(os.path.join(o, 'report.txt'), 'w').write('\n'.join(out) + '\n')
    open(os.path.join(o, 'env.json'), 'w').write(open(os.path.join(tmp, 'env.json')).read())
    open(os.path.join(o, 'env.txt'), 'w').write(open(os.path.join(tmp, 'env.txt')).read())
sys.exit(0 if disagree == 0 and ok_rc else 1)
PYEOF
