#!/bin/bash
# check-require-html-chromium.sh - render torchgate require --format=html
# in headless Chromium and fail on a blank or an error page
# SPDX-License-Identifier: MIT
#
# usage: check-require-html-chromium.sh TORCHGATE SRCDIR
#
# The page of tests/data/require-html (check-require-html.py checks its
# structure in the cli case require/html) is opened from file:// in
# headless Chromium, which writes a screenshot and the DOM it built. The
# screenshot is decoded (python3's zlib and struct, no PIL) and must hold
# the picture: not one colour, and each colour the page draws with (a
# state, a band) in enough pixels; the DOM must hold the rows. A blank
# page is rendered the same way first and must be refused, so that the
# check is known to fail when nothing is drawn.
#
# Without Chromium the test exits 77 (CTest: skipped, with this reason),
# unless TORCHGATE_REQUIRE_CHROMIUM=1, which .ci/run sets after installing
# Debian's chromium: then its absence fails. CTest test
# chromium-require-html, label chromium.
set -u
[ $# -eq 2 ] || { echo "usage: check-require-html-chromium.sh TORCHGATE SRCDIR" >&2; exit 2; }
tg=$1 src=$2
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	if [ "${TORCHGATE_REQUIRE_CHROMIUM:-}" = 1 ]; then
		echo "FAIL: TORCHGATE_REQUIRE_CHROMIUM=1 but no chromium on PATH (apt-get install chromium)" >&2
		exit 1
	fi
	echo "skipped: chromium is not installed (apt-get install chromium; .ci/run installs it and requires this test)"
	exit 77
fi
command -v python3 >/dev/null || { echo "FAIL: python3 not found" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sandbox=()
[ "$(id -u)" = 0 ] && sandbox=(--no-sandbox)

# render FILE NAME: NAME.png and NAME.dom from file://FILE
render() {
	HOME=$tmp timeout 120 "$chromium" --headless "${sandbox[@]}" \
		--disable-gpu --no-first-run --disable-dev-shm-usage \
		--hide-scrollbars --user-data-dir="$tmp/profile" \
		--window-size=1400,1000 --screenshot="$tmp/$2.png" \
		"file://$1" >"$tmp/$2.log" 2>&1 ||
		{ echo "FAIL: chromium --screenshot failed on $1:" >&2; cat "$tmp/$2.log" >&2; exit 1; }
	HOME=$tmp timeout 120 "$chromium" --headless "${sandbox[@]}" \
		--disable-gpu --no-first-run --disable-dev-shm-usage \
		--user-data-dir="$tmp/profile" --dump-dom \
		"file://$1" >"$tmp/$2.dom" 2>>"$tmp/$2.log" ||
		{ echo "FAIL: chromium --dump-dom failed on $1:" >&2; cat "$tmp/$2.log" >&2; exit 1; }
}

# judge NAME: 0 when NAME.png shows the picture and NAME.dom its rows
judge() {
	python3 - "$tmp/$1.png" "$tmp/$1.dom" <<'PY'
import struct, sys, zlib

def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit(f"unexpected PNG depth {depth} colour type {ctype}")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows

w, h, bpp, rows = decode(sys.argv[1])
counts = {}
for line in rows:
    for i in range(0, len(line), bpp * 2):  # every other pixel
        px = line[i:i + 3]
        counts[px] = counts.get(px, 0) + 1
faults = []
if len(counts) < 2:
    faults.append(f"the screenshot is one colour ({len(counts)} colours)")
# the colours the page draws with: available, deprecated, removed, the
# declared band, the code's band
want = {"available": (0x16, 0xa3, 0x4a), "deprecated": (0xf5, 0x9e, 0x0b),
        "removed": (0xdc, 0x26, 0x26), "declared band": (0x25, 0x63, 0xeb),
        "code band": (0x7c, 0x3a, 0xed)}
for name, rgb in want.items():
    n = sum(c for px, c in counts.items()
            if all(abs(px[k] - rgb[k]) <= 6 for k in range(3)))
    if n < 50:
        faults.append(f"{name} #{bytes(rgb).hex()}: {n} pixels")
dom = open(sys.argv[2], encoding="utf-8", errors="replace").read()
if dom.count('class="row"') < 3 or "The torch range of" not in dom:
    faults.append("the DOM holds no rows or no heading")
if faults:
    print("; ".join(faults))
    sys.exit(1)
print(f"{w}x{h}, {len(counts)} colours sampled")
PY
}

# the check refuses a blank page
printf '<!DOCTYPE html>\n<title>blank</title>\n' >"$tmp/blank.html"
render "$tmp/blank.html" blank
if out=$(judge blank); then
	echo "FAIL: a blank page passed the check: $out" >&2
	exit 1
fi
echo "a blank page is refused: $out"

pkg=$src/tests/data/require-html
cp -r "$pkg/pkg" "$tmp/pkg"
(cd "$tmp" && "$tg" require --table "$pkg/apis.json" \
	--advisories "$pkg/advisories-none.json" --check-declared \
	--format=html pkg >page.html)
[ $? -eq 1 ] || { echo "FAIL: require --format=html did not exit 1 (its declarations have problems)" >&2; exit 1; }
render "$tmp/page.html" page
out=$(judge page) || { echo "FAIL: the page did not render: $out" >&2; exit 1; }
echo "the page renders: $out"
