#!/usr/bin/env bash
# Installs what mjscan needs on Debian 12 and is safe to run again:
# Debian packages (OpenCV for gocv, …) and the Go toolchain when it is
# missing, then the Go modules. Everything the project needs is listed here.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the build, the tests and the service need.
APT_PACKAGES=(
  build-essential pkg-config git ca-certificates python3
  libopencv-dev
  postgresql   # the referee record's tests run on PostgreSQL as well as SQLite
  chromium     # the phone page's end-to-end test
  nginx        # make deploy-check validates deploy/nginx.conf with nginx -t
)
# --runtime: only what the built binary needs (the Dockerfile's last stage).
RUNTIME_ONLY=false
[ "${1:-}" = "--runtime" ] && RUNTIME_ONLY=true
$RUNTIME_ONLY && APT_PACKAGES=(ca-certificates libopencv-dev)
# --train: what `make train` and `make train-check` need (models/train/),
# on top of a machine set up for the tests; CI never trains.
TRAIN_ONLY=false
if [ "${1:-}" = "--train" ]; then
  TRAIN_ONLY=true
  APT_PACKAGES=(python3-torch python3-numpy python3-opencv python3-onnx
    librsvg2-bin kdegames-mahjongg-data-kf5 gnome-mahjongg xmahjongg fonts-noto-cjk
    # the CJK fonts of the procedurally drawn faces (models/train/synth_proc.py)
    fonts-arphic-ukai fonts-arphic-uming fonts-wqy-zenhei fonts-wqy-microhei fonts-ipafont-gothic
    fonts-ipafont-mincho fonts-vlgothic fonts-hanazono fonts-takao
    # the digits of the index reader's drawn indices (models/train/index_reader.py)
    fonts-dejavu-core fonts-dejavu-extra)
fi

need=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  log=$(mktemp)
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: apt-get failed (above); fix the cause and run scripts/setup.sh again" >&2
    exit 1
  fi
  rm -f "$log"
fi

$RUNTIME_ONLY && exit 0
$TRAIN_ONLY && exit 0

# Go: the module needs Go >= 1.22. Debian 12's golang-go is 1.19, so when no
# new enough Go is on PATH we install Debian's and let it fetch the toolchain
# module (golang.org/toolchain) from the Go module proxy, as Go itself does.
GO_WANT=1.22.12
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
go_ok() { command -v go >/dev/null && go version | awk '{split($3,v,"go|\\."); exit !(v[2]>1 || (v[2]==1 && v[3]>=22))}'; }
if ! go_ok; then
  if [ ! -x "$HOME/.cache/mjscan-go/go/bin/go" ]; then
    command -v go >/dev/null || { SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"; $SUDO apt-get install -y -qq golang-go >/dev/null; }
    tmp=$(mktemp -d)
    (cd "$tmp" && GOFLAGS=-mod=mod GOPATH="$tmp/gopath" go mod download -json "golang.org/toolchain@v0.0.1-go${GO_WANT}.linux-$(dpkg --print-architecture)" > dl.json)
    dir=$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' "$tmp/dl.json")
    mkdir -p "$HOME/.cache/mjscan-go" && cp -r "$dir" "$HOME/.cache/mjscan-go/go"
    # Module files are stored read-only and without exec bits; Go's own
    # toolchain switch sets them the same way.
    chmod -R u+w "$HOME/.cache/mjscan-go/go" "$tmp"
    find "$HOME/.cache/mjscan-go/go/bin" "$HOME/.cache/mjscan-go/go/pkg/tool" -type f -exec chmod +x {} +
    rm -rf "$tmp"
  fi
  export PATH="$HOME/.cache/mjscan-go/go/bin:$PATH"
fi
go version >&2
go mod download
