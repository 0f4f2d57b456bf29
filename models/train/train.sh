#!/bin/sh
# Rebuild every shipped model from scratch (make train). CPU only, fixed
# seeds. Needs Debian's python3-torch, python3-numpy and python3-opencv, and
# shared/data/photos beside the repository. Writes models/*.onnx and their
# manifests; then run `go test ./vision/` and update models/README.md.
set -e
cd "$(dirname "$0")"
PY=/usr/bin/python3
nice -n 10 $PY -u classifier.py
nice -n 10 $PY -u detector.py
nice -n 10 $PY -u calibrate_confidence.py
