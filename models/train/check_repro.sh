#!/bin/sh
# Shows that training is deterministic: each training script runs twice on
# the same small slice of the photos (one epoch) and the two exported ONNX
# files must be byte for byte the same. The full recipe (train.sh) is the
# same code with more photos and epochs, so the same seeds give the same
# shipped models. Run with `make train-check` (a few minutes on one core).
set -e
cd "$(dirname "$0")"
PY="nice -n 10 /usr/bin/python3 -u"
W=$(mktemp -d "${TMPDIR:-/tmp}/mjscan-repro.XXXXXX")
trap 'rm -rf "$W"' EXIT
for run in a b; do
	mkdir -p "$W/$run"
	$PY detector.py --limit 40 --epochs 1 --out "$W/$run" --save "$W/$run/det.pt" > "$W/$run/det.log"
	$PY classifier.py --limit 40 --epochs 1 --turn 0.35 --out "$W/$run" --save "$W/$run/cls.pt" > "$W/$run/cls.log"
done
status=0
for m in tile_detector tile_classifier; do
	a=$(sha256sum < "$W/a/$m.onnx" | cut -c1-64)
	b=$(sha256sum < "$W/b/$m.onnx" | cut -c1-64)
	if [ "$a" = "$b" ]; then
		echo "$m: both runs gave $a"
	else
		echo "$m: runs differ ($a vs $b): training is not deterministic" >&2
		status=1
	fi
done
exit $status
