#!/usr/bin/env bash
# The validation design: one physical set of xmahjongg's "gnome" tile art,
# which no training and none of the reported held-out designs use. A trained
# stage is chosen on it, so that the held-out designs (scripts/designs.sh)
# stay a figure nothing was chosen on (models/README.md, "A validation
# design"). Its scenes are drawn once into a cache outside the repository,
# the same bytes every time (needs scripts/setup.sh --train: xmahjongg):
#
#   make build && bash scripts/validate.sh [BIN]
#
# BIN is the mjscan to measure (default bin/mjscan); prints designs.sh's
# two lines, alone and taught.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=$HOME/.cache/mjscan-validate
dir=$cache/gnome-set
if [ ! -f "$dir/COUNTS.txt" ]; then
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$cache"
	(cd models/train && /usr/bin/python3 synth.py scenes --sets gnome --rare none --one-style --n 60 --seed 11 --quality 85 --out "$dir.tmp" >/dev/null)
	mv "$dir.tmp" "$dir"
fi
MJSCAN_BIN=${1:-bin/mjscan} bash scripts/designs.sh "$dir"
