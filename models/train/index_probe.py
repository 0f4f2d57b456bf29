"""How the index reader (index_reader.py) reads a design's suit tiles on
the labels' own boxes: the scratch measure behind models/README.md,
"Reading the index".

For each design: how many suit tiles it reads as showing an index (the
larger of one minus each half's "none", at least 0.5), and of those, how
many it reads the right digit for (and, in brackets, of every suit
tile); by the tile's shorter side. A design
whose set prints no index should show few; one that prints them, most.

    /usr/bin/python3 index_probe.py [--reader ../index_reader.onnx] DESIGN ...

DESIGN names a folder of testdata/synth, or a labelled folder by its path.
"""
import argparse
import os

import cv2
import numpy as np

import index_reader as IR
import parts
from common import load_dir
from parts_probe import halves_of

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = ((0, 20), (20, 30), (30, 45), (45, 10 ** 6))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--reader", default=os.path.join(HERE, "..", "index_reader.onnx"))
    p.add_argument("designs", nargs="+")
    a = p.parse_args()
    reader = cv2.dnn.readNetFromONNX(a.reader)
    for d in a.designs:
        root = d if "/" in d else os.path.join(HERE, "..", "..", "testdata", "synth", d)
        cuts, digits, sizes = [], [], []
        for _, img, boxes in load_dir(root):
            for b in boxes:
                code = b[0]
                if len(code) != 2 or code[1] not in "mps" or not code[0].isdigit():
                    continue
                box = tuple(float(v) for v in b[1:5])
                h = halves_of(img, box)
                if h is None:
                    continue
                cuts += [h[0], cv2.rotate(h[1], cv2.ROTATE_180)]
                digits.append(int(code[0]) or 5)
                sizes.append(min(box[2] - box[0], box[3] - box[1]))
        if not digits:
            continue
        pr = []
        for i in range(0, len(cuts), 512):
            bgr = [cv2.cvtColor(c, cv2.COLOR_GRAY2BGR) for c in cuts[i:i + 512]]
            reader.setInput(cv2.dnn.blobFromImages(bgr, 1 / 255, (parts.PW, parts.PH), (0, 0, 0), False, False))
            lo = reader.forward()
            e = np.exp(lo - lo.max(1, keepdims=True))
            pr.append(e / e.sum(1, keepdims=True))
        pr = np.concatenate(pr)
        top, bot = pr[0::2], pr[1::2]
        sure = np.maximum(1 - top[:, IR.NONE], 1 - bot[:, IR.NONE])
        read = (top[:, :IR.NONE] + bot[:, :IR.NONE]).argmax(1) + 1
        digits, sizes = np.array(digits), np.array(sizes)
        line = f"{os.path.basename(d.rstrip('/')):16s} suit tiles {len(digits):4d}:"
        for lo_, hi in SIZES:
            m = (sizes >= lo_) & (sizes < hi)
            if not m.any():
                continue
            shown = m & (sure >= 0.5)
            right = (read[shown] == digits[shown]).mean() if shown.any() else float("nan")
            line += (f" | {lo_}-{hi if hi < 10 ** 6 else ''} px: {m.sum()} tiles, index {shown.sum() / m.sum():.2f}, "
                     f"right {right:.3f} (of all {(read[m] == digits[m]).mean():.3f})")
        print(line, flush=True)


if __name__ == "__main__":
    main()
