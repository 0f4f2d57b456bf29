#!/usr/bin/env bash
# Checks the deployment files without a cluster and without the internet
# (make deploy-check; part of make test):
#
#   nginx  deploy/nginx.conf passes `nginx -t -c` (Debian's nginx, from
#          scripts/setup.sh) inside a minimal main configuration.
#
#   scripts/deploy-check.sh [nginx]
set -euo pipefail
cd "$(dirname "$0")/.."

WHAT="${1:-all}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_nginx() {
	local nginx
	nginx=$(command -v nginx || true)
	[ -n "$nginx" ] || { [ -x /usr/sbin/nginx ] && nginx=/usr/sbin/nginx; }
	if [ -z "$nginx" ]; then
		echo "deploy-check: nginx is not installed: run scripts/setup.sh (Debian's nginx)" >&2
		return 1
	fi
	# What Debian's /etc/nginx/nginx.conf gives the file (it is included in
	# http {} from conf.d/), with the paths in a folder of our own so that
	# the check needs no root and touches nothing of the system's nginx.
	cat >"$tmp/nginx-main.conf" <<EOF
error_log $tmp/nginx-error.log;
pid $tmp/nginx.pid;
events {}
http {
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path $tmp/nginx-body;
    proxy_temp_path $tmp/nginx-proxy;
    fastcgi_temp_path $tmp/nginx-fastcgi;
    uwsgi_temp_path $tmp/nginx-uwsgi;
    scgi_temp_path $tmp/nginx-scgi;
    include $PWD/deploy/nginx.conf;
}
EOF
	"$nginx" -t -q -p "$tmp/" -e "$tmp/nginx-error.log" -c "$tmp/nginx-main.conf"
	echo "deploy-check: deploy/nginx.conf: nginx -t passed ($("$nginx" -v 2>&1 | sed 's/.*version: //'))"
}

case "$WHAT" in
nginx | all) check_nginx ;;
*)
	echo "usage: scripts/deploy-check.sh [nginx]" >&2
	exit 2
	;;
esac
