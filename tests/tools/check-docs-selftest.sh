#!/bin/bash
# check-docs-selftest.sh - check-docs.sh finds what it is meant to find
# SPDX-License-Identifier: MIT
#
# usage: check-docs-selftest.sh SRCDIR TORCHGATE
#
# The real pages pass; a page that lacks an option of --help, a page that
# documents one --help does not list, and a command without a page each
# fail, with a message naming the option or the page. A stand-in
# torchgate, a script with a fixed --help, shows that both spellings of an
# option line ('-x, --long' and '--long') are read, and that the
# descriptions are not; that its usage lines must name every option, by
# its long name or in a cluster of short ones ([-ab]), and a page's
# SYNOPSIS too when it has one.
set -u
srcdir=${1:?usage: check-docs-selftest.sh SRCDIR TORCHGATE}
tg=${2:?usage: check-docs-selftest.sh SRCDIR TORCHGATE}
check=$srcdir/tests/tools/check-docs.sh
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect STATUS PATTERN SRCDIR TORCHGATE: check-docs.sh exits STATUS and
# its stderr matches PATTERN (a grep -E pattern; empty: stderr is empty).
expect() {
	local want=$1 pat=$2 got
	bash "$check" "$3" "$4" 2>"$tmp/err" >/dev/null
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: check-docs.sh $3 $4: exit $got, want $want" >&2
		cat "$tmp/err" >&2
		fail=1
	elif [ -z "$pat" ] && [ -s "$tmp/err" ]; then
		echo "FAIL: check-docs.sh $3 $4: unexpected messages" >&2
		cat "$tmp/err" >&2
		fail=1
	elif [ -n "$pat" ] && ! grep -qE -- "$pat" "$tmp/err"; then
		echo "FAIL: check-docs.sh $3 $4: no message matching '$pat'" >&2
		cat "$tmp/err" >&2
		fail=1
	fi
}

# A copy of the real pages, changed one way at a time.
fresh() {
	rm -rf "$tmp/src" && mkdir -p "$tmp/src/tests/tools" &&
		cp -R "$srcdir/doc" "$tmp/src/doc"
}

fresh
expect 0 "" "$tmp/src" "$tg"

# A missing option: probe's page loses --quiet.
fresh
sed -i 's/^\.BR \\-q ", " \\-\\-quiet$/.BR \\-q/' "$tmp/src/doc/torchgate-probe.1"
expect 1 "probe: --quiet is in 'probe --help' but not in OPTIONS" "$tmp/src" "$tg"

# An extra option: verify's page documents --bogus.
fresh
sed -i 's/^\.SH OPTIONS$/.SH OPTIONS\n.TP\n.B \\-\\-bogus\nNot an option./' "$tmp/src/doc/torchgate-verify.1"
expect 1 "verify: --bogus is in OPTIONS of doc/torchgate-verify.1 but not in 'verify --help'" "$tmp/src" "$tg"

# An option outside OPTIONS does not count.
fresh
sed -i 's/^\.SH "EXIT STATUS"$/.SH "EXIT STATUS"\n.TP\n.B \\-\\-bogus\nNot an option./' "$tmp/src/doc/torchgate-check.1"
expect 0 "" "$tmp/src" "$tg"

# A page's SYNOPSIS that lacks an option of --help, or names one --help
# does not list.
fresh
sed -i '/^\.SH SYNOPSIS$/,/^\.SH/{/^\.RB \[ \\-\\-pre \]$/d}' "$tmp/src/doc/torchgate-releases.1"
expect 1 "releases: --pre is in 'releases --help' but not in SYNOPSIS of doc/torchgate-releases.1" "$tmp/src" "$tg"
fresh
sed -i 's/^\.SH SYNOPSIS$/.SH SYNOPSIS\n.RB [ \\-\\-bogus ]/' "$tmp/src/doc/torchgate-verify.1"
expect 1 "verify: --bogus is in SYNOPSIS of doc/torchgate-verify.1 but not in 'verify --help'" "$tmp/src" "$tg"

# A command without a page.
fresh
rm "$tmp/src/doc/torchgate-emit.1"
expect 1 "emit: no page doc/torchgate-emit.1" "$tmp/src" "$tg"

# A stand-in torchgate with --help in the generated layout: both option
# spellings, a description line that mentions an option, a name too long
# for its column.
cat >"$tmp/tg" <<'EOS'
#!/bin/bash
case "$*" in
--help) printf 'usage: tg <command>\n\ncommands:\n  foo   a\n  bar   b\n\nexit status: 0.\n' ;;
"foo --help") printf 'usage: tg foo [-az] [--beta=B]\n           [--gamma-is-a-long-name G]\n\nText.\n\n  -a, --alpha           one\n      --beta=B          two\n                        --not-an-option in a description\n      --gamma-is-a-long-name G\n                        three\n  -z, --zeta            four\n' ;;
"bar --help") printf "usage: tg bar [--one] ${TG_BAR_TWO-[--two=X]}\\n\\nText.\\n\\n      --one             one\\n      --two X           two\\n" ;;
*) exit 2 ;;
esac
EOS
chmod +x "$tmp/tg"
page() {
	printf '.TH X 1\n.SH NAME\nx\n.SH OPTIONS\n'
	for o in "$@"; do printf '.TP\n.BR \\-\\-%s " x"\nText.\n' "$o"; done
	printf '.TP\n.BR \\-h ", " \\-\\-help\nHelp.\n.SH "SEE ALSO"\n.TP\n.B \\-\\-seealso\n'
}
rm -rf "$tmp/fake" && mkdir -p "$tmp/fake/doc"
page alpha beta gamma-is-a-long-name zeta >"$tmp/fake/doc/torchgate-foo.1"
page one two >"$tmp/fake/doc/torchgate-bar.1"
expect 0 "" "$tmp/fake" "$tmp/tg"
TG_BAR_TWO='' expect 1 "bar: --two is in 'bar --help' but not in its usage synopsis" "$tmp/fake" "$tmp/tg"
# a SYNOPSIS naming -z (its short name) and the rest long is complete;
# one without --beta is not
syn() { printf '.TH X 1\n.SH SYNOPSIS\n.B tg foo\n.RB [ \\-z ]\n%s\n' "$1"; page alpha beta gamma-is-a-long-name zeta | sed 1d; }
syn '.RB [ \-\-alpha " | " \-\-beta=B ] [ \-\-gamma\-is\-a\-long\-name ]' >"$tmp/fake/doc/torchgate-foo.1"
expect 0 "" "$tmp/fake" "$tmp/tg"
syn '.RB [ \-\-alpha ] [ \-\-gamma\-is\-a\-long\-name ]' >"$tmp/fake/doc/torchgate-foo.1"
expect 1 "foo: --beta is in 'foo --help' but not in SYNOPSIS of doc/torchgate-foo.1" "$tmp/fake" "$tmp/tg"
page alpha beta zeta >"$tmp/fake/doc/torchgate-foo.1"
expect 1 "foo: --gamma-is-a-long-name is in 'foo --help' but not in OPTIONS" "$tmp/fake" "$tmp/tg"
page one two three >"$tmp/fake/doc/torchgate-bar.1"
expect 1 "bar: --three is in OPTIONS of doc/torchgate-bar.1 but not in 'bar --help'" "$tmp/fake" "$tmp/tg"

exit $fail
