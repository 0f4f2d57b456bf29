"""Shared pieces of the training scripts: the photo labels, the tile classes
and the crop geometry the Go recogniser repeats (vision/classify.go)."""
import hashlib
import json
import os

import cv2
import numpy as np

# The classes the classifier learns, every CONTRACT tile code: the 34 tiles
# and the 8 flowers/seasons (present in the labelled photos), then red fives,
# Vietnamese kings/queens, jokers (1j-8j Vietnamese, 9j American) and the
# tile back (taught by the synthetic scenes of synth.py).
CLASSES = ([f"{n}{s}" for s in "mps" for n in range(1, 10)] +
           [f"{n}z" for n in range(1, 8)] + [f"{n}f" for n in range(1, 9)] +
           ["0m", "0p", "0s"] + [f"{n}k" for n in range(1, 9)] +
           [f"{n}j" for n in range(1, 10)] + ["0z"])

# The attribution every model trained on the labelled photos carries.
PHOTO_ATTRIBUTION = ("Photos and labels from Chinese Mahjong Detection v4 (Roboflow Universe, "
                     "riichimahjongdetection/chinese-mahjong-detection, CC BY 4.0); subset selected, "
                     "labels converted to pixel boxes with tile codes and partly corrected.")

CROP_W, CROP_H = 48, 64   # classifier input, portrait
MARGIN = 0.06             # box grown by this share of its size on each side
DET_SIZE = 384            # detector input side
STRIDE = 4                # detector output stride


def photos_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    d = here
    while d != "/":
        cand = os.path.join(os.path.dirname(d), "shared", "data", "photos")
        if os.path.isdir(cand):
            return cand
        d = os.path.dirname(d)
    raise SystemExit("shared/data/photos not found beside the repository")


def load_split(split):
    """Yield (stem, image BGR, [(code, x0, y0, x1, y1)]) for a split of the
    labelled photos."""
    return load_dir(os.path.join(photos_dir(), split))


def load_dir(d):
    """Yield (stem, image BGR, [(code, x0, y0, x1, y1)]) for a labelled folder
    (lines `CODE x0 y0 x1 y1`, an optional 6th field `r` marks a sideways tile)."""
    for name in sorted(os.listdir(d)):
        if not name.endswith(".jpg"):
            continue
        stem = name[:-4]
        boxes = []
        with open(os.path.join(d, stem + ".txt")) as f:
            for line in f:
                p = line.split()
                if len(p) in (5, 6):
                    boxes.append((p[0],) + tuple(int(v) for v in p[1:5]))
        img = cv2.imread(os.path.join(d, name), cv2.IMREAD_COLOR)
        yield stem, img, boxes


def crop_tile(img, x0, y0, x1, y1):
    """Cut a tile out of img, portrait, CROP_W x CROP_H. A box wider than it is
    tall holds a tile lying sideways: it is turned a quarter turn clockwise.
    Must match vision/classify.go."""
    w, h = x1 - x0, y1 - y0
    mx, my = w * MARGIN, h * MARGIN
    x0, x1 = x0 - mx, x1 + mx
    y0, y1 = y0 - my, y1 + my
    H, W = img.shape[:2]
    ix0, iy0 = max(0, int(round(x0))), max(0, int(round(y0)))
    ix1, iy1 = min(W, int(round(x1))), min(H, int(round(y1)))
    if ix1 - ix0 < 2 or iy1 - iy0 < 2:
        return None
    c = img[iy0:iy1, ix0:ix1]
    if (ix1 - ix0) > 1.15 * (iy1 - iy0):
        c = cv2.rotate(c, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(c, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def crop_turned(img, x0, y0, x1, y1, deg):
    """The crop the recogniser would cut if the tile in the box lay turned
    by deg degrees in the photo: the neighbourhood is turned about the box
    centre and the axis-aligned bounds of the turned box are cut, as
    crop_tile cuts a detector box around a tilted tile."""
    if abs(deg) < 0.5:
        return crop_tile(img, x0, y0, x1, y1)
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    a = np.deg2rad(deg)
    bw = w * abs(np.cos(a)) + h * abs(np.sin(a))
    bh = w * abs(np.sin(a)) + h * abs(np.cos(a))
    r = int(np.ceil(max(bw, bh) * (0.5 + MARGIN))) + 2
    M = cv2.getRotationMatrix2D((float(cx), float(cy)), deg, 1.0)
    M[0, 2] += r - cx
    M[1, 2] += r - cy
    patch = cv2.warpAffine(img, M, (2 * r, 2 * r), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return crop_tile(patch, r - bw / 2, r - bh / 2, r + bw / 2, r + bh / 2)


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def write_manifest(path, manifest):
    """Write a model's manifest as the Go loader reads it (models/models.go)."""
    with open(path, "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


def add_features_output(path):
    """Give an exported classifier a second output, "features": the pooled
    vector its last layer reads (one per crop). A taught tile set
    (vision/teach.go) fits its own classifier on these. The logits are
    unchanged: only an Identity node and a graph output are added."""
    import onnx
    from onnx import helper
    m = onnx.load(path)
    g = m.graph
    if any(o.name == "features" for o in g.output):
        return
    gemm = [n for n in g.node if n.op_type == "Gemm" and "logits" in n.output]
    if len(gemm) != 1:
        raise SystemExit(f"{path}: no Gemm node writes the logits")
    g.node.append(helper.make_node("Identity", [gemm[0].input[0]], ["features"], name="features"))
    width = [i for i in g.initializer if i.name == gemm[0].input[1]][0].dims[1]
    g.output.append(helper.make_tensor_value_info("features", onnx.TensorProto.FLOAT, ["batch", width]))
    onnx.checker.check_model(m)
    onnx.save(m, path)
    return width
