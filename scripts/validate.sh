#!/usr/bin/env bash
# The validation designs: xmahjongg's "gnome" tile art, which no training
# and none of the reported held-out designs use, as one physical set
# (gnome-set) and with each scene's colours its own (gnome). A trained
# stage is chosen on it, so that the held-out designs (scripts/designs.sh)
# stay a figure nothing was chosen on (models/README.md, "A validation
# design"). Its scenes are drawn once into a cache outside the repository,
# the same bytes every time (needs scripts/setup.sh --train: xmahjongg):
#
#   make build && bash scripts/validate.sh [BIN]
#
# BIN is the mjscan to measure (default bin/mjscan); prints designs.sh's
# two lines a design, alone and taught.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=$HOME/.cache/mjscan-validate
# draw NAME ARGS: a design's scenes, once
draw() {
	local dir=$cache/$1
	shift
	if [ ! -f "$dir/COUNTS.txt" ]; then
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$cache"
		(cd models/train && /usr/bin/python3 synth.py scenes --sets gnome --rare none --n 60 --quality 85 "$@" --out "$dir.tmp" >/dev/null)
		mv "$dir.tmp" "$dir"
	fi
}
draw gnome-set --one-style --seed 11 # one physical set, as a player's
draw gnome --seed 12                 # each scene's colours its own
MJSCAN_BIN=${1:-${MJSCAN_BIN:-bin/mjscan}} bash scripts/designs.sh "$cache/gnome-set" "$cache/gnome"
