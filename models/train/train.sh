#!/bin/sh
# Rebuild every shipped model from scratch (make train). CPU only, fixed
# seeds; each stage resumes from the one before with a lower learning rate.
# Needs Debian's python3-torch, python3-numpy and python3-opencv, and
# shared/data/photos beside the repository. Writes models/*.onnx and their
# manifests; then run `go test ./vision/ ./models/` and
# `bin/mjscan recognize --eval ../shared/data/photos/dev`.
set -e
cd "$(dirname "$0")"
PY="nice -n 10 /usr/bin/python3 -u"
W=${TMPDIR:-/tmp}/mjscan-train
mkdir -p "$W"
$PY detector.py --epochs 10 --save "$W/det1.pt"
$PY detector.py --resume "$W/det1.pt" --epochs 14 --lr 1e-3 --save "$W/det2.pt"
$PY detector.py --resume "$W/det2.pt" --epochs 10 --lr 5e-4 --save "$W/det3.pt"
$PY detector.py --resume "$W/det3.pt" --epochs 10 --lr 3e-4 --save "$W/det4.pt"
$PY detector.py --resume "$W/det4.pt" --epochs 10 --lr 2e-4 --save "$W/det5.pt"
$PY classifier.py --epochs 6 --save "$W/cls1.pt"
$PY classifier.py --resume "$W/cls1.pt" --epochs 6 --lr 1e-3 --save "$W/cls2.pt"
$PY classifier.py --resume "$W/cls2.pt" --epochs 6 --lr 1e-3 --jitter wide --save "$W/cls3.pt"
$PY classifier.py --resume "$W/cls3.pt" --epochs 8 --lr 5e-4 --jitter wide --save "$W/cls4.pt"
$PY classifier.py --resume "$W/cls4.pt" --epochs 4 --lr 3e-4 --jitter wide --detector-boxes ../tile_detector.onnx --save "$W/cls5.pt"
$PY classifier.py --resume "$W/cls5.pt" --epochs 6 --lr 2e-4 --jitter wide --detector-boxes ../tile_detector.onnx --save "$W/cls6.pt"
$PY calibrate_confidence.py
