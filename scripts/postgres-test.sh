#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the referee-record tests and
# prints its DSN on stdout (everything else goes to stderr):
#
#   export MJSCAN_TEST_POSTGRES_DSN="$(scripts/postgres-test.sh)"
#   scripts/postgres-test.sh stop
#
# Debian's postgresql is installed when no initdb is found. The cluster lives
# under /tmp, listens on loopback only, trusts local connections (it holds
# test data only) and runs as the postgres user when started by root.
#
# MJSCAN_PG_PORT is the first port tried. The default lies below Linux's
# ephemeral range (32768-60999), where any outgoing connection may hold a
# port for a while; should the port still be taken, the next ones are
# tried, and the DSN printed names the one the cluster listens on.
set -euo pipefail

PORT="${MJSCAN_PG_PORT:-25432}"
DIR="${MJSCAN_PG_DIR:-/tmp/mjscan-pg-test}"
DB=mjscan_test
TRIES=20

dsn() { echo "postgres://postgres@127.0.0.1:$1/${DB}?sslmode=disable"; }

find_bin() {
	ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

BIN="$(find_bin)"
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
	echo "postgres-test: installing Debian's postgresql" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq --no-install-recommends postgresql >&2
	BIN="$(find_bin)"
fi

# as_pg runs a command as the cluster's owner: postgres when we are root
# (PostgreSQL refuses to run as root), ourselves otherwise.
as_pg() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

if [ "${1:-start}" = stop ]; then
	if [ -d "$DIR/data" ]; then
		as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >&2 || true
	fi
	rm -rf "$DIR"
	exit 0
fi

if [ -d "$DIR/data" ] && [ -f "$DIR/port" ] && as_pg "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
	dsn "$(cat "$DIR/port")"
	exit 0
fi

rm -rf "$DIR"
mkdir -p "$DIR"
if [ "$(id -u)" = 0 ]; then
	chown postgres:postgres "$DIR"
fi
as_pg "$BIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 ||
	{ cat "$DIR/initdb.log" >&2; exit 1; }
# start tries one port; it fails fast when the port is taken, as PostgreSQL
# exits at once when it cannot listen.
start() {
	as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server-$1.log" -w -t 60 \
		-o "-p $1 -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=50" start >&2
}
port="$PORT"
until start "$port"; do
	if ! grep -q "Address already in use" "$DIR/server-$port.log" 2>/dev/null ||
		[ "$port" -ge $((PORT + TRIES - 1)) ]; then
		cat "$DIR/server-$port.log" >&2
		echo "postgres-test: could not start PostgreSQL on 127.0.0.1 ports $PORT-$port; set MJSCAN_PG_PORT to a free port" >&2
		exit 1
	fi
	echo "postgres-test: port $port is taken, trying $((port + 1))" >&2
	port=$((port + 1))
done
echo "$port" >"$DIR/port"
as_pg "$BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres "$DB" >&2
dsn "$port"
