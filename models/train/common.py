"""Shared pieces of the training scripts: the photo labels, the tile classes,
and the preprocessing the Go recogniser reads from the same place: each
shipped model's manifest (models/*.json, its "preprocess" block; Go:
models/models.go, vision/classify.go and vision/detect.go)."""
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
DET_SIZE = 384            # detector input side
STRIDE = 4                # detector output stride

MODELS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# OpenCV's interpolation for each resize name a preprocess block may give
# (the same names models/models.go accepts).
INTERPOLATIONS = {"nearest": cv2.INTER_NEAREST, "linear": cv2.INTER_LINEAR, "cubic": cv2.INTER_CUBIC,
                  "area": cv2.INTER_AREA, "lanczos4": cv2.INTER_LANCZOS4}


def check_preprocess(name, pre, detector=False, classifier=False):
    """Refuse a preprocess block as models/models.go refuses it at load: a
    value missing or out of range, naming the field."""
    def bad(field, why):
        raise SystemExit(f"model {name}: manifest field preprocess.{field} {why}")
    need = ["scale", "mean", "resize"] + (["pad"] if detector else []) + (["margin", "turn_aspect"] if classifier else [])
    for k in need:
        if pre.get(k) is None:
            bad(k, "is missing")
    if not 0 < pre["scale"] <= 1:
        bad("scale", f"is {pre['scale']}: want more than 0 and at most 1")
    for field, whole in (("mean", False), ("pad", True)):
        if field not in pre:
            continue
        v = pre[field]
        if len(v) != 3 or not all(0 <= c <= 255 and (not whole or c == int(c)) for c in v):
            bad(field, f"is {v}: want 3 values (blue, green, red) from 0 to 255")
    if pre["resize"] not in INTERPOLATIONS:
        bad("resize", f"is {pre['resize']!r}: want one of {', '.join(INTERPOLATIONS)}")
    if not 0 <= pre.get("margin", 0) <= 0.5:
        bad("margin", f"is {pre['margin']}: want 0 to 0.5")
    if "turn_aspect" in pre and not 1 <= pre["turn_aspect"] <= 4:
        bad("turn_aspect", f"is {pre['turn_aspect']}: want 1 to 4")
    return pre


def read_preprocess(name, **kind):
    """The preprocess block of a shipped model's manifest (models/<name>.json),
    checked. Training cuts, scales and pads as it says, and the export writes
    it back into the new manifest."""
    with open(os.path.join(MODELS, name + ".json")) as f:
        pre = json.load(f).get("preprocess")
    if pre is None:
        raise SystemExit(f"model {name}: manifest has no preprocess block")
    return check_preprocess(name, pre, **kind)


CLS_PRE = read_preprocess("tile_classifier", classifier=True)
DET_PRE = read_preprocess("tile_detector", detector=True)
MARGIN = CLS_PRE["margin"]            # box grown by this share of its size on each side
TURN_ASPECT = CLS_PRE["turn_aspect"]  # a cut wider than this times its height is turned upright
CLS_RESIZE = INTERPOLATIONS[CLS_PRE["resize"]]
DET_RESIZE = INTERPOLATIONS[DET_PRE["resize"]]


def to_input(x, pre):
    """A uint8 BGR batch (N, 3, H, W tensor) as the network reads it:
    (pixel - mean) * scale, as OpenCV's blobFromImage makes it in the Go
    recogniser. Written as a division by 1/scale: for the shipped 1/255 that
    is a division by 255 exactly, the float32 arithmetic the models were
    trained with."""
    import torch
    mean = torch.tensor(pre["mean"], dtype=torch.float32, device=x.device).view(1, 3, 1, 1)
    return (x.float() - mean) / (1 / pre["scale"])


def blob_args(pre):
    """The scale and mean that cv2.dnn.blobFromImage(s) take for a model."""
    return pre["scale"], tuple(float(c) for c in pre["mean"])


def shared_dir(*parts):
    """A folder of shared/ (beside the repository or a folder above it)."""
    d = os.path.dirname(os.path.abspath(__file__))
    while d != "/":
        cand = os.path.join(os.path.dirname(d), "shared", *parts)
        if os.path.isdir(cand):
            return cand
        d = os.path.dirname(d)
    raise SystemExit(f"shared/{'/'.join(parts)} not found beside the repository")


def photos_dir():
    return shared_dir("data", "photos")


def load_split(split, threads=1):
    """Yield (stem, image BGR, [(code, x0, y0, x1, y1)]) for a split of the
    labelled photos."""
    return load_dir(os.path.join(photos_dir(), split), threads)


class Box(tuple):
    """A label, (code, x0, y0, x1, y1); side is its sixth field `r`: the
    tile lies sideways in the photo (a called tile)."""
    side = False


def load_dir(d, threads=1):
    """Yield (stem, image BGR, [Box]) for a labelled folder (lines `CODE x0
    y0 x1 y1`, an optional 6th field `r` marks a sideways tile); with
    threads > 1 the images are decoded that many at a time, in the same order."""
    names = [name for name in sorted(os.listdir(d)) if name.endswith(".jpg")]
    if threads > 1:
        from multiprocessing.pool import ThreadPool
        with ThreadPool(threads) as pool:
            yield from pool.imap(lambda name: _load_one(d, name), names, chunksize=16)
        return
    for name in names:
        yield _load_one(d, name)


def _load_one(d, name):
    stem = name[:-4]
    boxes = []
    with open(os.path.join(d, stem + ".txt")) as f:
        for line in f:
            p = line.split()
            if len(p) in (5, 6):
                b = Box((p[0],) + tuple(int(v) for v in p[1:5]))
                b.side = len(p) == 6 and p[5] == "r"
                boxes.append(b)
    img = cv2.imread(os.path.join(d, name), cv2.IMREAD_COLOR)
    return stem, img, boxes


def crop_tile(img, x0, y0, x1, y1):
    """Cut a tile out of img, portrait, CROP_W x CROP_H, as the classifier's
    preprocess block says: the box grown by MARGIN on each side; a cut wider
    than TURN_ASPECT times its height holds a tile lying sideways and is
    turned a quarter turn clockwise. vision/classify.go cuts the same way."""
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
    if (ix1 - ix0) > TURN_ASPECT * (iy1 - iy0):
        c = cv2.rotate(c, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(c, (CROP_W, CROP_H), interpolation=CLS_RESIZE)


def turned_bounds(w, h, deg):
    """The width and height of the axis-aligned bounds of a w x h box
    turned by deg degrees."""
    a = np.deg2rad(deg)
    return w * abs(np.cos(a)) + h * abs(np.sin(a)), w * abs(np.sin(a)) + h * abs(np.cos(a))


def cut_turns(x0, y0, x1, y1, deg):
    """Whether crop_turned turns the cut of this box, the tile in it turned
    by deg degrees: its bounds wider than TURN_ASPECT times their height."""
    w, h = x1 - x0, y1 - y0
    if abs(deg) >= 0.5:
        w, h = turned_bounds(w, h, deg)
    return w > TURN_ASPECT * h


def crop_turned(img, x0, y0, x1, y1, deg):
    """The crop the recogniser would cut if the tile in the box lay turned
    by deg degrees in the photo: the neighbourhood is turned about the box
    centre and the axis-aligned bounds of the turned box are cut, as
    crop_tile cuts a detector box around a tilted tile."""
    if abs(deg) < 0.5:
        return crop_tile(img, x0, y0, x1, y1)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    bw, bh = turned_bounds(x1 - x0, y1 - y0, deg)
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
