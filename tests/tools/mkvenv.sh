#!/bin/bash
# mkvenv.sh - make a fake Python 3.12 venv for tests (files only)
# SPDX-License-Identifier: MIT
#
# usage: mkvenv.sh DIR [SITE]
# DIR/base is a bare CPython 3.12 installation (an executable that is a
# shell script, lib/python3.12/os.py), DIR/venv a venv on it
# (pyvenv.cfg: version = 3.12.3) whose site-packages,
# DIR/venv/lib/python3.12/site-packages, is a copy of SITE when given.
# torchgate reads these files; nothing here is ever run.
set -eu
dir=$1
mkdir -p "$dir/base/bin" "$dir/base/lib/python3.12" "$dir/venv/bin" \
	"$dir/venv/lib/python3.12/site-packages"
: >"$dir/base/lib/python3.12/os.py"
printf '#!/bin/sh\nexit 1\n' >"$dir/base/bin/python3.12"
chmod +x "$dir/base/bin/python3.12"
ln -sf python3.12 "$dir/base/bin/python3"
base=$(cd "$dir/base" && pwd)
ln -sf "$base/bin/python3.12" "$dir/venv/bin/python3"
printf 'home = %s/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n' \
	"$base" >"$dir/venv/pyvenv.cfg"
if [ $# -gt 1 ]; then
	cp -R "$2/." "$dir/venv/lib/python3.12/site-packages/"
fi
# The fixtures were cut without torch/__init__.py (they keep only the
# files version sources are read from), and a torch/ without it is a
# namespace portion, not torch's package: an install has one.
site=$dir/venv/lib/python3.12/site-packages
if [ -d "$site/torch" ] && [ ! -e "$site/torch/__init__.py" ]; then
	: >"$site/torch/__init__.py"
fi
