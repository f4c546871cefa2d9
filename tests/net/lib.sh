# lib.sh - sourced by the cmd of each net case (tests/net/<cmd>/<case>)
# SPDX-License-Identifier: MIT
#
# The loopback server (tests/tools/httpd.py, the CTest fixture net-server)
# wrote its port to $TG_NET_DIR/port. tg runs torchgate and prints what
# it wrote with the servers' URLs as $URL and $TLS (HTTPS, its certificate
# $CERT; and $Q as $Q), then its status; seed puts a
# valid cached table (table_version 2026.12.31, newer than the built-in
# one) and its validators in the case's cache; same says whether the
# cache is byte for byte what seed (or snap) left; meta FILE prints
# FILE.meta with its URL as $URL and its sha256 line said to be FILE's
# or not.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY \
	no_proxy NO_PROXY TORCHGATE_TABLE_URL TORCHGATE_INDEX_URL
port=$(cat "${TG_NET_DIR:?run by ctest, with the net-server fixture}/port") || exit 99
URL=http://127.0.0.1:$port
TLS=https://127.0.0.1:$(cat "$TG_NET_DIR/tls-port") || exit 99
CERT=$TG_NET_DIR/cert.pem
Q=$$-$RANDOM # a query no other case sends, for the server's log
C=.cache/torchgate
MINI=$CASE_DIR/../../../data/apis-mini.json

tg() {
	"$TORCHGATE" "$@" >.tg-out 2>.tg-err
	local rc=$?
	sed "s|$URL|\$URL|g; s|$TLS|\$TLS|g; s|$CERT|\$CERT|g; s|$Q|\$Q|g" .tg-out
	sed "s|$URL|\$URL|g; s|$TLS|\$TLS|g; s|$CERT|\$CERT|g; s|$Q|\$Q|g" .tg-err >&2
	echo "status $rc"
}

snap() { (cd "$C" 2>/dev/null && sha256sum -- * 2>/dev/null) >.snap; }

seed() {
	mkdir -p "$C"
	sed "s/^  \"schema_version\": 1,/&\n  \"table_version\": \"2026.12.31\",/" \
		"$MINI" >"$C/apis.json"
	printf 'etag: "old"\n' >"$C/apis.json.meta"
	snap
}

same() {
	if (cd "$C" 2>/dev/null && sha256sum -- * 2>/dev/null) | cmp -s - .snap; then
		echo "cache unchanged"
	else
		echo "cache changed"
	fi
}

meta() {
	local sum
	sum=$(sha256sum <"$1" | cut -d' ' -f1)
	sed "s|$URL|\$URL|g; s/^sha256: $sum\$/sha256: (the file's)/; s/^sha256: [0-9a-f]\{64\}\$/sha256: (not the file's)/" "$1.meta"
}
