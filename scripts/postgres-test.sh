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

# give_up prints the logs named, says why, and leaves nothing behind: a
# cluster that did not start is of no use to a later run.
give_up() {
	local why=$1
	shift
	cat "$@" >&2 2>/dev/null || true
	as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
	rm -rf "$DIR"
	echo "postgres-test: $why" >&2
	exit 1
}

rm -rf "$DIR"
mkdir -p "$DIR"
if [ "$(id -u)" = 0 ]; then
	chown postgres:postgres "$DIR"
fi
as_pg "$BIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 ||
	give_up "initdb could not make a cluster in $DIR (its log is above)" "$DIR/initdb.log"
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
		give_up "could not start PostgreSQL on 127.0.0.1 ports $PORT-$port; set MJSCAN_PG_PORT to a free port" "$DIR/server-$port.log"
	fi
	echo "postgres-test: port $port is taken, trying $((port + 1))" >&2
	port=$((port + 1))
done
echo "$port" >"$DIR/port"
as_pg "$BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres "$DB" >&2 ||
	give_up "PostgreSQL started on port $port but could not create the database $DB"
dsn "$port"
