#!/usr/bin/env bash
# Checks the deployment files without a cluster and without the internet
# (make deploy-check; part of make test):
#
#   nginx  deploy/nginx.conf passes `nginx -t -c` (Debian's nginx, from
#          scripts/setup.sh) inside a minimal main configuration;
#   k8s    deploy/k8s/ passes kubeconform (from the Go module proxy) in
#          strict mode against the JSON schemas of Kubernetes $K8S_VERSION,
#          made by deploy/kubeschema from the OpenAPI description in the
#          k8s.io/kubernetes module (also from the module proxy): kubeconform's
#          default schemas are downloaded from GitHub, which is not reachable
#          here. Broken manifests in testdata/k8s-invalid/ must fail, so a
#          check that passes everything shows.
#
#   scripts/deploy-check.sh [nginx|k8s]   (both when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."

# v0.6.7 builds with Go 1.22, the module's own floor (later ones need a
# newer Go than scripts/setup.sh may install, and GOTOOLCHAIN is local).
KUBECONFORM_VERSION=v0.6.7
K8S_VERSION=1.34.2
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

check_k8s() {
	local swagger schemas
	swagger=$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')/api/openapi-spec/swagger.json
	if [ ! -f "$swagger" ]; then
		echo "deploy-check: no swagger.json in k8s.io/kubernetes@v$K8S_VERSION" >&2
		return 1
	fi
	# The schemas are made once per Kubernetes version and kept with the
	# build outputs.
	schemas="$PWD/bin/kubeschema/v$K8S_VERSION"
	if [ ! -f "$schemas/deployment-apps-v1.json" ]; then
		rm -rf "$schemas"
		go run ./deploy/kubeschema -swagger "$swagger" -out "$schemas"
	fi
	local kc=(go run "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
		-strict -summary -kubernetes-version "$K8S_VERSION"
		-schema-location "$schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json")
	# Every file, every kind: a kind without a schema is an error, never
	# skipped.
	"${kc[@]}" deploy/k8s/
	local bad
	for bad in testdata/k8s-invalid/*.yaml; do
		if "${kc[@]}" "$bad" >"$tmp/invalid.out" 2>&1; then
			echo "deploy-check: $bad passed kubeconform, but it is broken:" >&2
			cat "$tmp/invalid.out" >&2
			return 1
		fi
		grep -q -e "is invalid" -e "could not find schema" "$tmp/invalid.out" || {
			echo "deploy-check: $bad failed for another reason than its mistake:" >&2
			cat "$tmp/invalid.out" >&2
			return 1
		}
	done
	echo "deploy-check: deploy/k8s/: kubeconform $KUBECONFORM_VERSION passed against Kubernetes $K8S_VERSION; the $(ls testdata/k8s-invalid/*.yaml | wc -l) broken manifests failed"
}

case "$WHAT" in
nginx) check_nginx ;;
k8s) check_k8s ;;
all) check_nginx && check_k8s ;;
*)
	echo "usage: scripts/deploy-check.sh [nginx|k8s]" >&2
	exit 2
	;;
esac
