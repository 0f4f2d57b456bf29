#!/usr/bin/env bash
# The held-out designs (testdata/synth: tile sets no training saw), read by
# the shipped models alone and taught from the fewest of each design's
# photos that show every tile once, then read on the rest:
#
#   make build && bash scripts/designs.sh [design ...]
#
# A design is a folder of testdata/synth, or any labelled folder given by
# its path (scripts/validate.sh passes the validation design's); MJSCAN_BIN
# names another mjscan to measure (default bin/mjscan).
# Prints one line a design (tile F1, photos exactly right, localisation
# recall, class accuracy over found tiles); models/README.md keeps the table.
set -euo pipefail
cd "$(dirname "$0")/.."
designs=("$@")
[ ${#designs[@]} -gt 0 ] || designs=(fluffy fluffy-black heldout egypt proc-set fluffy-set traditional-set)
bin=${MJSCAN_BIN:-bin/mjscan}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pick() { # the report's numbers: F1, exact, localisation, class accuracy
	awk '/^tile F1:/{f=$3} /^image exact:/{e=$3} /^localisation recall/{l=$6} /^class accuracy/{c=$6}
	     END{printf "F1 %s  exact %s  localised %s  read right %s", f, e, l, c}' "$1"
}
for d in "${designs[@]}"; do
	dir=testdata/synth/$d
	case $d in */*) dir=$d d=$(basename "$d") ;; esac
	"$bin" recognize --eval "$dir" > "$tmp/alone"
	"$bin" calibrate --labelled "$dir" --fewest --out "$tmp/$d.mjb" > "$tmp/teach"
	"$bin" recognize --eval "$dir" --bank "$tmp/$d.mjb" > "$tmp/taught"
	n=$(sed -n 's/^taught from \([0-9]*\) photos.*/\1/p' "$tmp/teach")
	printf '%-13s alone:  %s\n' "$d" "$(pick "$tmp/alone")"
	printf '%-13s taught from %s photos, read on the rest:  %s\n' "$d" "$n" "$(pick "$tmp/taught")"
done
