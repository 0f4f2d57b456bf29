"""How well a classifier's features teach a tile set, on the labels' own
boxes: a quick stand-in for the taught figure (models/README.md, "Held-out
designs and taught sets") that needs no build and takes a minute a design.

For each design, the fewest photos that show every tile once (picked as
vision.FewestCovering picks them) teach a head as vision/teach_fit.go fits
one: a softmax regression, classes balanced, on the unit-length features of
each taught tile's plain cut and 11 cuts shifted, scaled, half turned,
shrunk, blurred and lit differently. The other photos' label boxes are then
read by the network alone, by the head alone, and by the head's probability
times the network's to the power of its share right on the taught tiles
(the product the recogniser reads with). The detector's boxes, the outline
and the colour rules are left out: end-to-end figures come from
`mjscan calibrate --labelled` and `recognize --eval --bank`.

    /usr/bin/python3 taught_probe.py CLASSIFIER.onnx [--tune STEPS] [--input-scale K] [--lda SHRINK] [DESIGN ...]

DESIGN names a folder of testdata/synth (default: traditional-set
fluffy-set proc-set). With --tune, the whole network is also fine-tuned on
the taught cuts (Adam at 1e-3, STEPS steps of 128 cuts, its codes limited
to the taught ones) and read on the rest: what a set could gain if
teaching trained the network itself rather than a head on its features
(models/README.md, "Teaching the whole network"). With --input-scale K
every cut is K times the classifier's input on each side (the network
pools its last map whatever its size), for the head's features and the
network's reading alike. With --lda, a shrinkage linear discriminant is
also read in the head's place: the taught cuts' class means and their
pooled within-class covariance, shrunk by SHRINK toward its mean
variance (models/README.md, "Reading a taught set, five more probes").
The run is deterministic.
"""
import json
import os
import random
import sys

import cv2
import numpy as np
import torch
import torch.nn.functional as F

import common
from common import CLASSES, CLS_PRE, blob_args, crop_tile, load_dir

CROP_W, CROP_H = common.CROP_W, common.CROP_H
INPUT_W, INPUT_H = CROP_W, CROP_H  # the classifier's own input

HERE = os.path.dirname(os.path.abspath(__file__))
VIEWS = 12      # cuts of a taught tile, the plain one first (headViews)
SCALE = 8.0     # unit features times this (headScale)
STEPS, RATE, DECAY = 250, 0.05, 1e-4  # the head's fit (headSteps, headRate, headDecay)


def fewest(photos):
    """The indices of the fewest photos that show every code, greedily, as
    vision.FewestCovering picks them."""
    want = {b[0] for _, _, boxes in photos for b in boxes}
    used, picked = set(), []
    while want:
        best, gain = -1, 0
        for i, (_, _, boxes) in enumerate(photos):
            g = len({b[0] for b in boxes} & want) if i not in used else 0
            if g > gain:
                best, gain = i, g
        if best < 0:
            break
        used.add(best)
        picked.append(best)
        want -= {b[0] for b in photos[best][2]}
    return sorted(picked)


def augmented(img, box, rng):
    """One cut of a taught tile, shifted, scaled, turned, shrunk, blurred
    and lit at random as augmentedCut draws them."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    s = 0.9 + 0.2 * rng.random()
    cx = (x0 + x1) / 2 + w * 0.12 * (rng.random() - 0.5)
    cy = (y0 + y1) / 2 + h * 0.12 * (rng.random() - 0.5)
    c = crop_tile(img, cx - w * s / 2, cy - h * s / 2, cx + w * s / 2, cy + h * s / 2)
    if rng.random() < 0.5:
        c = cv2.rotate(c, cv2.ROTATE_180)
    if rng.random() < 0.25:
        k = 0.35 + 0.3 * rng.random()
        small = cv2.resize(c, (max(4, int(CROP_W * k)), max(4, int(CROP_H * k))), interpolation=cv2.INTER_AREA)
        c = cv2.resize(small, (CROP_W, CROP_H))
    if rng.random() < 0.25:
        c = cv2.GaussianBlur(c, (0, 0), 0.6 + 0.6 * rng.random())
    return cv2.convertScaleAbs(c, alpha=0.75 + 0.5 * rng.random(), beta=40 * (rng.random() - 0.5))


def forward(net, crops):
    """The network's code logits and features of a list of crops."""
    scale, mean = blob_args(CLS_PRE)
    logits, feats = [], []
    for i in range(0, len(crops), 256):
        net.setInput(cv2.dnn.blobFromImages(crops[i:i + 256], scale, (CROP_W, CROP_H), mean, False, False))
        lo, fe = net.forward(["logits", "features"])
        logits.append(lo[:, :len(CLASSES)])
        feats.append(fe.reshape(len(fe), -1))
    return np.concatenate(logits), np.concatenate(feats)


def unit(f):
    return SCALE * f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-9)


def fit_head(x, y, k):
    """A softmax regression on x (classes y of k), balanced, by full-batch Adam."""
    torch.manual_seed(1)
    X, Y = torch.tensor(x), torch.tensor(y)
    weight = (1.0 / (k * torch.bincount(Y, minlength=k).float()))[Y]
    W = torch.zeros(k, X.shape[1], requires_grad=True)
    B = torch.zeros(k, requires_grad=True)
    opt = torch.optim.Adam([W, B], lr=RATE)
    for _ in range(STEPS):
        opt.zero_grad()
        loss = (F.cross_entropy(X @ W.T + B, Y, reduction="none") * weight).sum() + DECAY / 2 * (W ** 2).sum()
        loss.backward()
        opt.step()
    return W.detach(), B.detach()


def set_input_scale(k):
    """Cut tiles at k times the classifier's input on each side."""
    global CROP_W, CROP_H
    CROP_W, CROP_H = INPUT_W * k, INPUT_H * k
    common.CROP_W, common.CROP_H = CROP_W, CROP_H  # crop_tile's size


def lda(tf, ty, qf, shrink):
    """Scores of the query features qf by a linear discriminant fitted on
    tf (classes ty): class means and their pooled within-class covariance
    shrunk toward its mean variance; the codes in order, and the scores."""
    X, Q = unit(tf) / SCALE, unit(qf) / SCALE
    codes = sorted(set(ty.tolist()))
    mu = np.stack([X[ty == c].mean(0) for c in codes])
    R = X - mu[[codes.index(c) for c in ty]]
    S = R.T @ R / len(R)
    S = (1 - shrink) * S + shrink * np.trace(S) / len(S) * np.eye(len(S))
    A = mu @ np.linalg.inv(S)
    return codes, Q @ A.T - 0.5 * np.sum(A * mu, 1)


def probe(net, temperature, design, onnx="", tune=0, shrink=None):
    photos = list(load_dir(os.path.join(HERE, "..", "..", "testdata", "synth", design)))
    taught = set(fewest(photos))
    rng = random.Random(1)
    tx, ty, plain, qx, qy = [], [], [], [], []
    for i, (_, img, boxes) in enumerate(photos):
        for b in boxes:
            box, code = tuple(float(v) for v in b[1:5]), CLASSES.index(b[0])
            if i in taught:
                for v in range(VIEWS):
                    tx.append(crop_tile(img, *box) if v == 0 else augmented(img, box, rng))
                    ty.append(code)
                    plain.append(v == 0)
            else:
                qx.append(crop_tile(img, *box))
                qy.append(code)
    tl, tf = forward(net, tx)
    ql, qf = forward(net, qx)
    ty, qy, plain = np.array(ty), np.array(qy), np.array(plain)
    codes = sorted(set(ty.tolist()))
    W, B = fit_head(unit(tf), [codes.index(c) for c in ty], len(codes))
    prior = float(np.clip((tl[plain].argmax(1) == ty[plain]).mean(), 0.1, 1.0))
    head = torch.softmax(torch.tensor(unit(qf)) @ W.T + B, 1).numpy()
    netp = torch.softmax(torch.tensor(ql) / temperature, 1).numpy()
    both = head * np.maximum(netp[:, codes], 1e-6) ** prior
    codes = np.array(codes)
    whole = (tuned(onnx, tx, ty, qx, tune) == qy).mean() if tune else None
    disc = None
    if shrink is not None:
        # scores at temperature 0.03 beside the network, the best of
        # 0.01-0.3 on traditional-set (models/README.md)
        dc, sc = lda(tf, ty, qf, shrink)
        dc_net = np.log(np.maximum(netp[:, dc], 1e-6)) * prior
        dc = np.array(dc)
        disc = ((dc[sc.argmax(1)] == qy).mean(), (dc[(sc * 0.03 + dc_net).argmax(1)] == qy).mean())
    return (len(taught), len(qy), (ql.argmax(1) == qy).mean(), (codes[head.argmax(1)] == qy).mean(),
            (codes[both.argmax(1)] == qy).mean(), prior, whole, disc)


def tuned(onnx, tx, ty, qx, steps):
    """The share of qx read right by the network of onnx fine-tuned, every
    layer, on the taught cuts tx (codes ty), its reading limited to those
    codes (each BatchNorm stays folded into its convolution, as
    classifier.py --from-onnx trains)."""
    import onnx as onnxlib
    from classifier import TileNet, freeze_bn, load_onnx
    g = onnxlib.load(onnx).graph
    init = {i.name: i.dims for i in g.initializer}
    conv0 = [n for n in g.node if n.op_type == "Conv"][0]
    gemm = [n for n in g.node if n.op_type == "Gemm"][0]
    width, outputs = init[conv0.input[1]][0] // 16, init[gemm.input[1]][0]
    torch.manual_seed(1)
    net = TileNet(len(CLASSES), lying=outputs > len(CLASSES), width=width)
    load_onnx(net, onnx)
    scale, mean = blob_args(CLS_PRE)
    blob = lambda crops: torch.tensor(cv2.dnn.blobFromImages(crops, 1.0 / 255, (CROP_W, CROP_H), (0, 0, 0), False, False))
    assert scale == 1.0 / 255 and not any(mean), "taught_probe --tune assumes the classifier's input is pixels / 255"
    X, Y, Q = blob(tx), torch.tensor(ty), blob(qx)
    mask = torch.full((outputs,), -1e9)
    mask[sorted(set(ty.tolist()))] = 0
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    net.train()
    freeze_bn(net)
    gen = torch.Generator().manual_seed(1)
    for _ in range(steps):
        idx = torch.randint(len(X), (128,), generator=gen)
        loss = F.cross_entropy(net(X[idx]) + mask, Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    with torch.no_grad():
        read = torch.cat([net(Q[i:i + 512]) + mask for i in range(0, len(Q), 512)]).argmax(1).numpy()
    return read


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    onnx = sys.argv[1]
    args = sys.argv[2:]
    tune, shrink = 0, None
    while args[:1] and args[0].startswith("--"):
        flag, value, args = args[0], args[1], args[2:]
        if flag == "--tune":
            tune = int(value)
        elif flag == "--input-scale":
            set_input_scale(int(value))
        elif flag == "--lda":
            shrink = float(value)
        else:
            sys.exit(f"unknown flag {flag}\n" + __doc__)
    designs = args or ["traditional-set", "fluffy-set", "proc-set"]
    manifest = os.path.splitext(onnx)[0] + ".json"
    temperature = 1.0
    if os.path.exists(manifest):
        with open(manifest) as f:
            temperature = json.load(f).get("temperature", 1.0) or 1.0
    net = cv2.dnn.readNetFromONNX(onnx)
    products = []
    for d in designs:
        n_taught, n, alone, head, both, prior, whole, disc = probe(net, temperature, d, onnx, tune, shrink)
        products.append(both)
        print(f"{d:16s} taught from {n_taught} photos, {n} tiles read: network {alone:.3f}  head {head:.3f}  "
              f"head x network {both:.3f}  (power {prior:.2f})"
              + (f"  network fine-tuned {whole:.3f}" if tune else "")
              + (f"  discriminant {disc[0]:.3f}, x network {disc[1]:.3f}" if disc else ""), flush=True)
    print(f"mean of head x network: {np.mean(products):.3f}")


if __name__ == "__main__":
    main()
