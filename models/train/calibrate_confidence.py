"""Fit the classifier's softmax temperature so its confidences mean what
they say (a 0.9 right about 9 times in 10), and store it in the manifest.

The fit runs the exported ONNX model through OpenCV, exactly as the Go
recogniser does, on crops of the labelled dev boxes. Temperature scaling does
not change which tile is read, only how sure the reading claims to be.
"""
import json
import os
import sys

import cv2
import numpy as np

from common import CLASSES, CLS_PRE, CROP_H, CROP_W, blob_args, crop_tile, load_split, write_manifest

HERE = os.path.dirname(os.path.abspath(__file__))


def ece(probs, right, bins=10):
    conf = probs.max(1)
    total = 0.0
    for lo in np.linspace(0, 1, bins, endpoint=False):
        m = (conf > lo) & (conf <= lo + 1 / bins)
        if m.any():
            total += m.mean() * abs(conf[m].mean() - right[m].mean())
    return total


def softmax(z, t):
    z = z / t
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def main():
    # the classifier to fit: tile_classifier (default) or broad_classifier
    name = sys.argv[1] if len(sys.argv) > 1 else "tile_classifier"
    if name not in ("tile_classifier", "broad_classifier"):
        raise SystemExit(f"usage: calibrate_confidence.py [tile_classifier|broad_classifier], not {name!r}")
    man_path = os.path.join(HERE, "..", name + ".json")
    man = json.load(open(man_path))
    net = cv2.dnn.readNetFromONNX(os.path.join(HERE, "..", man["file"]))
    crops, ys = [], []
    for _, img, boxes in load_split("dev"):
        for b in boxes:
            c = crop_tile(img, *b[1:])
            if c is not None and b[0] in CLASSES:
                crops.append(c)
                ys.append(CLASSES.index(b[0]))
    ys = np.array(ys)
    def run(cs):
        out = []
        for i in range(0, len(cs), 256):
            scale, mean = blob_args(CLS_PRE)
            blob = cv2.dnn.blobFromImages(cs[i:i + 256], scale, (CROP_W, CROP_H), mean, False, False)
            net.setInput(blob)
            out.append(net.forward(man["output"]["name"]).copy())
        # the labels' logits only: vision/classify.go takes their softmax
        # apart from the not-a-tile and lying-across outputs
        return np.concatenate(out)[:, :len(CLASSES)]
    # The recogniser averages the logits of the crop and the crop turned half
    # round (vision/classify.go); the temperature is fitted to that average.
    plain = run(crops)
    logits = (plain + run([cv2.rotate(c, cv2.ROTATE_180) for c in crops])) / 2
    print(f"dev crop accuracy: one view {(plain.argmax(1) == ys).mean():.4f}, two views {(logits.argmax(1) == ys).mean():.4f}")
    right = (logits.argmax(1) == ys).astype(float)
    best = None
    for t in np.arange(0.5, 4.01, 0.05):
        p = softmax(logits, t)
        nll = -np.log(p[np.arange(len(ys)), ys] + 1e-12).mean()
        if best is None or nll < best[1]:
            best = (float(round(t, 2)), nll)
    t = best[0]
    before, after = ece(softmax(logits, 1.0), right), ece(softmax(logits, t), right)
    man["temperature"] = t
    man["measured"]["dev_crop_accuracy_opencv"] = round(float(right.mean()), 4)
    man["measured"]["calibration"] = {
        "temperature": t, "fitted_on": "dev crops (%d)" % len(ys),
        "expected_calibration_error_before": round(float(before), 4),
        "expected_calibration_error_after": round(float(after), 4)}
    write_manifest(man_path, man)
    print(f"temperature {t}: ECE {before:.4f} -> {after:.4f}, OpenCV dev crop accuracy {right.mean():.4f}")


if __name__ == "__main__":
    main()
