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
	mkdir -p "$W/$run/more" "$W/$run/wide"
	$PY detector.py --limit 40 --epochs 1 --out "$W/$run" --save "$W/$run/det.pt" > "$W/$run/det.log"
	$PY classifier.py --limit 40 --epochs 1 --turn 0.35 --out "$W/$run" --save "$W/$run/cls.pt" > "$W/$run/cls.log"
	# the later stages' options: synthetic scenes (two tile sheets), edge-cut
	# tiles, the not-a-tile and lying-across outputs, more kings and jokers
	$PY synth.py scenes --sets smooth,real --rare train --variety --n 6 --seed 9 --out "$W/$run/synth" > /dev/null
	cat "$W/$run/synth"/* | sha256sum | cut -c1-64 > "$W/$run/more/synthetic_scenes.sha256"
	# the procedurally drawn faces (synth_proc.py), both font sets
	$PY synth.py scenes --sets proc,proc-heldout --rare train --variety --n 6 --seed 9 --out "$W/$run/proc" > /dev/null
	$PY synth.py scenes --sets proc-heldout --rare none --one-style --n 3 --seed 7 --out "$W/$run/procone" > /dev/null
	cat "$W/$run/proc"/* "$W/$run/procone"/* | sha256sum | cut -c1-64 > "$W/$run/more/proc_scenes.sha256"
	$PY detector.py --limit 20 --epochs 1 --synthetic "$W/$run/synth" --out "$W/$run/more" --save "$W/$run/det2.pt" > "$W/$run/det2.log"
	$PY classifier.py --limit 20 --epochs 1 --lying 0.2 --negatives 200 --synthetic "$W/$run/synth" --synthetic-per-epoch 200 --rare-boost 2.5 \
		--out "$W/$run/more" --save "$W/$run/cls2.pt" > "$W/$run/cls2.log"
	# ... and a net twice as wide started from that one (--widen), with the
	# within-set contrastive loss of stage S, the squeezed cuts and true
	# lying-across targets of stages S6-S8 and the structure outputs,
	# written as the broad classifier
	$PY classifier.py --limit 20 --epochs 1 --lying 0.2 --negatives 200 --synthetic "$W/$run/synth" --synthetic-per-epoch 200 \
		--set-contrast 0.5 --contrast-scenes 2 --contrast-tiles 6 --squeeze 0.25 --true-lying --structure 0.5 --name broad_classifier \
		--resume "$W/$run/cls2.pt" --widen 2 --width 2 --out "$W/$run/wide" --save "$W/$run/cls3.pt" > "$W/$run/cls3.log"
	# ... and a stage started from that exported net (--from-onnx, as every
	# stage after 9 starts: BatchNorm folded and frozen) with the detector's
	# boxes of the photos, as stages S10 and S11 train
	mkdir -p "$W/$run/onnx"
	$PY classifier.py --from-onnx "$W/$run/wide/broad_classifier.onnx" --width 2 --limit 20 --epochs 1 --lying 0.2 --synthetic "$W/$run/synth" \
		--synthetic-per-epoch 200 --set-contrast 1.0 --contrast-scenes 2 --contrast-tiles 6 --structure 1.0 --detector-boxes "$W/$run/tile_detector.onnx" \
		--out "$W/$run/onnx" --save "$W/$run/cls4.pt" > "$W/$run/cls4.log"
	# the part reader: drawn halves, one epoch, exported with its manifest
	$PY parts.py draw 300 9 "$W/$run/parts.npz" > /dev/null
	$PY -c "import hashlib, sys, numpy as np; d = np.load(sys.argv[1]); print(hashlib.sha256(d['x'].tobytes() + d['y'].tobytes()).hexdigest())" \
		"$W/$run/parts.npz" > "$W/$run/more/part_halves.sha256"
	$PY parts.py train --epochs 1 --threads 2 "$W/$run/parts.pt" "$W/$run/parts.npz" > /dev/null
	$PY parts.py export "$W/$run/parts.pt" "$W/$run/more/part_reader.onnx" > /dev/null 2>&1
	# the index reader the same way
	$PY index_reader.py draw 300 9 "$W/$run/index.npz" > /dev/null
	$PY index_reader.py train --epochs 1 --threads 2 "$W/$run/index.pt" "$W/$run/index.npz" > /dev/null
	$PY index_reader.py export "$W/$run/index.pt" "$W/$run/more/index_reader.onnx" > /dev/null 2>&1
done
# A state saved by a stage that began from an exported network (its
# BatchNorms folded) is told from one that trained its BatchNorms, so that
# --resume keeps the first frozen (classifier.py, folded).
$PY -c "
import sys, torch
from classifier import TileNet, folded, load_onnx, widen_fc
from common import CLASSES
n = len(CLASSES)
net = TileNet(n, lying=True, width=2)
load_onnx(net, sys.argv[1])
again = TileNet(n, lying=True, width=2)
again.load_state_dict(net.state_dict())
trained = TileNet(n, lying=True, width=2)
trained.load_state_dict(widen_fc(torch.load(sys.argv[2]), n, False, True))
assert folded(again) and not folded(trained) and not folded(TileNet(n, lying=True, width=2)), 'folded() cannot tell a folded state'
print('a folded state is told from a trained one')
" "$W/a/wide/broad_classifier.onnx" "$W/a/cls3.pt"
# The GPU stage draws its scenes from what synth_replay.py recorded here
# (that machine has none of Debian's art and fonts): replayed sealed, they
# are synth.py's own bytes.
TEN=default,classic,jade,smooth,postmodern,dorothys,dorothys2,dorwhite,dorwhite2,real
$PY synth_replay.py record "$W/atlas.pkl.gz" -- scenes --sets proc --rare train --variety --n 6 --seed 9 --out "$W/rec" > /dev/null 2>&1
$PY synth_replay.py record "$W/atlas.pkl.gz" -- scenes --sets $TEN --rare train --variety --dark 0.35 --n 6 --seed 9 --out "$W/rec2" > /dev/null 2>&1
$PY synth.py scenes --sets $TEN --rare train --variety --dark 0.35 --n 6 --seed 9 --out "$W/plain" > /dev/null 2>&1
$PY synth_replay.py replay "$W/atlas.pkl.gz" --sealed -- scenes --sets proc --rare train --variety --n 6 --seed 9 --out "$W/rep" > /dev/null 2>&1
$PY synth_replay.py replay "$W/atlas.pkl.gz" --sealed -- scenes --sets $TEN --rare train --variety --dark 0.35 --n 6 --seed 9 --out "$W/rep2" > /dev/null 2>&1
status=0
if diff -r "$W/rec" "$W/rep" > /dev/null && diff -r "$W/rec2" "$W/rep2" > /dev/null && diff -r "$W/plain" "$W/rep2" > /dev/null; then
	echo "synth_replay.py: sealed replays gave synth.py's scenes"
else
	echo "synth_replay.py: a sealed replay differs from synth.py's scenes" >&2
	status=1
fi
for m in tile_detector.onnx tile_classifier.onnx more/tile_detector.onnx more/tile_classifier.onnx wide/broad_classifier.onnx onnx/tile_classifier.onnx more/synthetic_scenes.sha256 more/proc_scenes.sha256 more/part_halves.sha256 more/part_reader.onnx more/index_reader.onnx; do
	a=$(sha256sum < "$W/a/$m" | cut -c1-64)
	b=$(sha256sum < "$W/b/$m" | cut -c1-64)
	if [ "$a" = "$b" ]; then
		echo "$m: both runs gave $a"
	else
		echo "$m: runs differ ($a vs $b): training is not deterministic" >&2
		status=1
	fi
done
exit $status
