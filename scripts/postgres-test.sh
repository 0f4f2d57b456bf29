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
set -euo pipefail

PORT="${MJSCAN_PG_PORT:-55432}"
DIR="${MJSCAN_PG_DIR:-/tmp/mjscan-pg-test}"
DB=mjscan_test
DSN="postgres://postgres@127.0.0.1:${PORT}/${DB}?sslmode=disable"

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

if [ -d "$DIR/data" ] && as_pg "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
	echo "$DSN"
	exit 0
fi

rm -rf "$DIR"
mkdir -p "$DIR"
if [ "$(id -u)" = 0 ]; then
	chown postgres:postgres "$DIR"
fi
as_pg "$BIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 ||
	{ cat "$DIR/initdb.log" >&2; exit 1; }
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
	-o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=50" start >&2 ||
	{ cat "$DIR/server.log" >&2; exit 1; }
as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB" >&2
echo "$DSN"
