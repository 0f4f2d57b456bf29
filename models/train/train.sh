#!/bin/sh
# Rebuild every shipped model from scratch (make train). CPU only, fixed
# seeds; each stage resumes from the one before with a lower learning rate.
# Needs (scripts/setup.sh --train installs them) Debian's python3-torch, python3-numpy, python3-opencv and
# python3-onnx, librsvg2-bin, kdegames-mahjongg-data-kf5 and fonts-noto-cjk,
# and shared/data/photos beside the repository. Writes models/*.onnx and
# their manifests; then run `go test ./vision/ ./models/` and
# `bin/mjscan recognize --eval ../shared/data/photos/dev`.
# `make train-check` shows on a small slice that a stage run twice gives
# the same bytes.
set -e
cd "$(dirname "$0")"
PY="nice -n 10 /usr/bin/python3 -u"
W=${TMPDIR:-/tmp}/mjscan-train
mkdir -p "$W"
# Synthetic scenes of the three training tile sets (synth.py, SYNTH.md):
# backs, sideways tiles, red fives, kings/queens and jokers, which the
# photos do not have. The held-out set (testdata/synth/heldout) uses another
# tile set and drawing style.
$PY synth.py scenes --sets default,classic,jade --rare train --n 1500 --seed 1 --out "$W/synth"
$PY synth.py scenes --sets default,classic,jade --rare train --variety --n 1500 --seed 1 --out "$W/synth2"
# Detector: five stages on the photos. (A sixth stage with the synthetic
# scenes mixed in, detector.py --init-onnx ../tile_detector.onnx --synthetic,
# found more synthetic tiles but fewer real ones, so it is not shipped.)
$PY detector.py --epochs 10 --save "$W/det1.pt"
$PY detector.py --resume "$W/det1.pt" --epochs 14 --lr 1e-3 --save "$W/det2.pt"
$PY detector.py --resume "$W/det2.pt" --epochs 10 --lr 5e-4 --save "$W/det3.pt"
$PY detector.py --resume "$W/det3.pt" --epochs 10 --lr 3e-4 --save "$W/det4.pt"
$PY detector.py --resume "$W/det4.pt" --epochs 10 --lr 2e-4 --decode-threshold 0.15 --save "$W/det5.pt"
# Classifier: the photos' crops with tilted tiles; then also the boxes the
# detector finds in the photos and the synthetic scenes' crops (every code
# about equally likely).
$PY classifier.py --epochs 10 --lr 3e-3 --jitter wide --turn 0.35 --save "$W/cls1.pt"
$PY classifier.py --resume "$W/cls1.pt" --epochs 4 --lr 1e-3 --jitter wide --turn 0.35 --synthetic "$W/synth" --detector-boxes ../tile_detector.onnx --save "$W/cls2.pt"
$PY classifier.py --resume "$W/cls2.pt" --epochs 4 --lr 4e-4 --jitter wide --turn 0.35 --synthetic "$W/synth" --detector-boxes ../tile_detector.onnx --save "$W/cls3.pt"
$PY classifier.py --resume "$W/cls3.pt" --epochs 5 --lr 6e-4 --jitter wide --turn 0.35 --synthetic "$W/synth2" --synthetic-per-epoch 12000 --detector-boxes ../tile_detector.onnx --save "$W/cls4.pt"
$PY classifier.py --resume "$W/cls4.pt" --epochs 5 --lr 4e-4 --jitter wide --turn 0.35 --synthetic "$W/synth2" --synthetic-per-epoch 12000 --detector-boxes ../tile_detector.onnx --save "$W/cls5.pt"
$PY calibrate_confidence.py
