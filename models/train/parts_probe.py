"""How the part reader (parts.py) reads a design's kings, queens and
character tiles on the labels' own boxes, beside the classifier: the
scratch measure behind models/README.md, "Reading half a tile".

For each design the fewest photos that show every tile once teach a head
as taught_probe.py fits one; the other photos' labelled kings and queens
(k) and characters (m) are then read within their kind by the part reader
alone, by the network, by the network times the reader's share of each
code (partShare in vision/parts.go) to the power w, by the taught head
times the network (the product the recogniser reads a taught set with),
and by that product times the reader's share.

    /usr/bin/python3 parts_probe.py DESIGN ...

DESIGN names a folder of testdata/synth, or a labelled folder by its path
(the validation designs: ~/.cache/mjscan-validate/gnome-set, .../gnome).
The shipped models are read: ../tile_classifier.onnx and
../part_reader.onnx, the halves cut grey and resized (the recogniser
resizes in colour and the graph makes them grey: the same to a few
thousandths).
"""
import os
import random
import sys

import cv2
import numpy as np
import torch

import common
import parts
import taught_probe as tp
from common import CLASSES, load_dir

HERE = os.path.dirname(os.path.abspath(__file__))


def halves_of(img, box):
    """The box's halves as the recogniser cuts them (cutHalves)."""
    x0, y0, x1, y1 = box
    if (x1 - x0) > 1.15 * (y1 - y0):   # lying: turned a quarter first
        sub = img[max(0, int(y0)):int(y1), max(0, int(x0)):int(x1)]
        sub = cv2.rotate(sub, cv2.ROTATE_90_CLOCKWISE)
        return parts.halves(sub, (0, 0, sub.shape[1], sub.shape[0]))
    return parts.halves(img, box)


def share(codes, pt, pb):
    """partShare of each code from two halves' glyph probabilities."""
    s = pt + pb
    out = np.zeros(len(codes))
    for j, c in enumerate(codes):
        c = CLASSES[c]
        if c[1] == "m":
            n = int(c[0]) or 5
            out[j] = s[n - 1] / s[:9].sum()
        else:
            n = int(c[0])
            big = 13 if n <= 4 else 14
            out[j] = s[9 + (n - 1) % 4] / s[9:13].sum() * s[big] / s[13:15].sum()
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    net = cv2.dnn.readNetFromONNX(os.path.join(HERE, "..", "tile_classifier.onnx"))
    temperature = 0.75
    reader = cv2.dnn.readNetFromONNX(os.path.join(HERE, "..", "part_reader.onnx"))
    for d in sys.argv[1:]:
        root = d if "/" in d else os.path.join(HERE, "..", "..", "testdata", "synth", d)
        photos = list(load_dir(root))
        taught = set(tp.fewest(photos))
        rng = random.Random(1)
        tx, ty, plain, qx, qy, qh = [], [], [], [], [], []
        for i, (_, img, boxes) in enumerate(photos):
            for b in boxes:
                box, code = tuple(float(v) for v in b[1:5]), CLASSES.index(b[0])
                if i in taught:
                    for v in range(tp.VIEWS):
                        tx.append(common.crop_tile(img, *box) if v == 0 else tp.augmented(img, box, rng))
                        ty.append(code)
                        plain.append(v == 0)
                    continue
                h = halves_of(img, box) if b[0][1] in "mk" else None
                if b[0][1] in "mk" and h is None:
                    continue
                qx.append(common.crop_tile(img, *box))
                qy.append(code)
                qh.append(h)
        tl, tf = tp.forward(net, tx)
        ql, qf = tp.forward(net, qx)
        ty, qy, plain = np.array(ty), np.array(qy), np.array(plain)
        codes = sorted(set(ty.tolist()))
        carr = np.array(codes)
        W, B = tp.fit_head(tp.unit(tf), [codes.index(c) for c in ty], len(codes))
        prior = float(np.clip((tl[plain].argmax(1) == ty[plain]).mean(), 0.1, 1.0))
        head = torch.softmax(torch.tensor(tp.unit(qf)) @ W.T + B, 1).numpy()
        netp = torch.softmax(torch.tensor(ql) / temperature, 1).numpy()[:, codes]
        both = head * np.maximum(netp, 1e-6) ** prior
        at = [i for i, h in enumerate(qh) if h is not None]
        if not at:
            continue
        bgr = [cv2.cvtColor(h, cv2.COLOR_GRAY2BGR) for i in at for h in qh[i]]
        reader.setInput(cv2.dnn.blobFromImages(bgr, 1 / 255, (parts.PW, parts.PH), (0, 0, 0), False, False))
        pr = torch.softmax(torch.tensor(reader.forward()), 1).numpy()
        for fam in "km":
            members = np.array([j for j, c in enumerate(codes) if CLASSES[c][1] == fam])
            rows = [k for k, i in enumerate(at) if CLASSES[qy[i]][1] == fam]
            if len(members) == 0 or not rows:
                continue
            Q = np.array([share(carr[members], pr[2 * k], pr[2 * k + 1]) for k in rows])
            idx = np.array([at[k] for k in rows])
            truth = qy[idx]

            def right(p):
                return (carr[members[p.argmax(1)]] == truth).mean()
            line = f"{os.path.basename(d):16s} {fam} ({len(idx):3d}): reader {right(Q):.3f} | network {right(netp[idx][:, members]):.3f}"
            for w in (0.5, 1, 2):
                line += f" x q^{w:g} {right(netp[idx][:, members] * Q ** w):.3f}"
            line += f" | taught {right(both[idx][:, members]):.3f}"
            for w in (0.5, 1, 2):
                line += f" x q^{w:g} {right(both[idx][:, members] * Q ** w):.3f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
