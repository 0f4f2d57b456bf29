"""The part reader (models/part_reader.onnx): a small network that reads
the characters on one half of a tile, the numeral over 萬 on a character
tile and the wind under 王 or 后 on a king or queen. vision/parts.go
weighs the classifier's reading of a king or queen by it (characters are
read, not weighed: models/README.md, "Reading half a tile").

It learns from drawn tiles only: character tiles drawn by synth_proc.py in
every training font (AR PL UKai kept out, as for the classifier) and those
of the ten training tile sets, kings and queens drawn here in the same
fonts (their seat as small as a quarter of the tile and, two times in
five, printed pale; half of them inside a frame), each seen at 18-110 px
wide with a loose box, blur and JPEG, and cut into halves as the
recogniser cuts them (halves). The shipped reader is the second: seeds
21-26, 10 epochs (train.sh; models/README.md, "A second part reader").

    /usr/bin/python3 parts.py draw N SEED OUT.npz        # N tiles, 2N halves
    /usr/bin/python3 parts.py train [--epochs E] [--threads T] OUT.pt DATA.npz ...
    /usr/bin/python3 parts.py export OUT.pt ../part_reader.onnx   # and its manifest
"""
import os
import sys

import cv2
import numpy as np

import synth_art as A
import synth_faces as F
import synth_proc as P

PW, PH = 48, 32          # a half tile, the reader's input
EPS = (8 / 255) ** 2     # each crop standardised: a flat crop's spread counts as at least 8 grey levels
NUMS = "一二三四五六七八九"
WINDS = "東南西北"
CLASSES = list(NUMS) + list(WINDS) + ["王", "后", "other"]
OTHER = len(CLASSES) - 1
ART_SETS = ["default", "classic", "jade", "smooth", "postmodern", "dorothys", "dorothys2", "dorwhite", "dorwhite2", "real"]


def king_front(code, rng):
    """A king or queen in a training font, seat on top or under: (front, top class, bottom class)."""
    fnt = P.TRAIN_FONTS[int(rng.integers(len(P.TRAIN_FONTS)))]
    ink = F.TRAIN_INKS_X[int(rng.integers(len(F.TRAIN_INKS_X)))]
    ink2 = ink if rng.random() < 0.5 else F.TRAIN_INKS_X[int(rng.integers(len(F.TRAIN_INKS_X)))]
    n = int(code[0])
    big = "王" if n <= 4 else "后"
    seat = WINDS[(n - 1) % 4]
    fc = F.IVORY if rng.random() < 0.5 else tuple(int(v) for v in rng.integers(170, 256, 3))
    if rng.random() < 0.4:  # a seat printed small and pale beside its 王 or 后
        a = rng.uniform(0.2, 0.6)
        ink2 = tuple(int(i * (1 - a) + f * a) for i, f in zip(ink2, fc))
    bigm = F._scaled(F._weight(P.glyph(fnt, big, P.TRAIN_FONTS[0]), rng), int(200 * rng.uniform(0.7, 1.1)))
    seatm = F._scaled(F._weight(P.glyph(fnt, seat, P.TRAIN_FONTS[0]), rng), int(200 * rng.uniform(0.25, 0.75)))
    parts = [F._ink(seatm, ink2), F._ink(bigm, ink)]
    seat_top = rng.random() < 0.5
    if not seat_top:
        parts = parts[::-1]
    art = F._stack(parts, rng.uniform(0.04, 0.16))
    base = F.blank_front(fc)
    if rng.random() < 0.5:  # a frame around the face, as many sets print one
        frame = F.frame_art(ink)
        frame[:, :, 3] = (frame[:, :, 3].astype(np.float32) * rng.uniform(0.35, 0.8)).astype(np.uint8)
        base = F.place_art(base, frame, rng.uniform(1.0, 1.08))
    out, _ = F.place_art_at(base, art, rng.uniform(0.7, 1.0), rng.uniform(-4, 4), rng.uniform(-5, 5))
    s, b = CLASSES.index(seat), CLASSES.index(big)
    return out, (s, b) if seat_top else (b, s)


def man_front(code, rng):
    """A character tile: drawn (proc) or from a training art set; (front, top, bottom)."""
    n = int(code[0]) or 5
    if rng.random() < 0.7:
        front = P.front(code, rng, P.make_style(rng))
    else:
        s = ART_SETS[int(rng.integers(len(ART_SETS)))]
        front = F.train_front(s, code, rng, F.set_front_colour(s))
    return front, (CLASSES.index(NUMS[n - 1]), OTHER)


def photo_halves(front, rng, edge=(0.12, 0.12), turn=3.0, blur=1.2):
    """The front on a tile body, seen at a random size, blurred and
    compressed, cut into its top half and its bottom half as a loose
    detector box would. edge: the most of the body seen above and below
    the front (a standing tile shows its top), in share of the front's
    height; turn: the spread of its turn in degrees; blur: the most blur."""
    h, w = front.shape[:2]
    body = tuple(int(v) for v in rng.integers(0, 256, 3))
    bg = tuple(int(v) for v in rng.integers(0, 256, 3))
    rgb = front[:, :, :3].astype(np.float32)
    a = front[:, :, 3:4].astype(np.float32) / 255
    img = (rgb * a + np.array(body, np.float32) * (1 - a)).astype(np.uint8)
    # body edges (tile thickness) and table around, in share of the front
    l, r = rng.uniform(0, 0.12), rng.uniform(0, 0.12)
    t, b = rng.uniform(0, edge[0]), rng.uniform(0, edge[1])
    pad = max(0.15, edge[0] + 0.03, edge[1] + 0.03)
    big = cv2.copyMakeBorder(img, int(h * pad), int(h * pad), int(w * pad), int(w * pad), cv2.BORDER_CONSTANT, value=bg)
    oy, ox = int(h * pad), int(w * pad)
    cv2.rectangle(big, (int(ox - w * l), int(oy - h * t)), (int(ox + w * (1 + r)), int(oy + h * (1 + b))), body, -1)
    big[oy:oy + h, ox:ox + w] = img
    # a slight turn and shear
    H, W = big.shape[:2]
    M = cv2.getRotationMatrix2D((W / 2, H / 2), rng.normal(0, turn), 1.0)
    M[0, 1] += rng.normal(0, 0.04)
    big = cv2.warpAffine(big, M, (W, H), borderMode=cv2.BORDER_REPLICATE)
    # the photo's size: the front's width in px
    tw = rng.uniform(18, 110)
    k = tw / w
    small = cv2.resize(big, (max(8, int(W * k)), max(8, int(H * k))), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.4:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, blur))
    if rng.random() < 0.7:
        ok, enc = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        small = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    small = cv2.convertScaleAbs(small, alpha=rng.uniform(0.7, 1.3), beta=rng.uniform(-30, 30))
    # a loose box on the tile: front plus some body, jittered
    x0 = (ox - w * l * rng.uniform(0, 1)) * k + rng.normal(0, 0.04) * tw
    x1 = (ox + w * (1 + r * rng.uniform(0, 1))) * k + rng.normal(0, 0.04) * tw
    y0 = (oy - h * t * rng.uniform(0, 1)) * k + rng.normal(0, 0.04) * tw * 4 / 3
    y1 = (oy + h * (1 + b * rng.uniform(0, 1))) * k + rng.normal(0, 0.04) * tw * 4 / 3
    return halves(small, (x0, y0, x1, y1))


def halves(img, box):
    """The top and the bottom half of box in img, each PW x PH grey."""
    x0, y0, x1, y1 = box
    H, W = img.shape[:2]
    ym = (y0 + y1) / 2
    out = []
    for a, b in ((y0, ym), (ym, y1)):
        ix0, ix1 = max(0, int(round(x0))), min(W, int(round(x1)))
        iy0, iy1 = max(0, int(round(a))), min(H, int(round(b)))
        if ix1 - ix0 < 2 or iy1 - iy0 < 2:
            return None
        c = cv2.cvtColor(img[iy0:iy1, ix0:ix1], cv2.COLOR_BGR2GRAY)
        out.append(cv2.resize(c, (PW, PH), interpolation=cv2.INTER_AREA))
    return out


def draw(n, seed, path):
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    codes = [f"{i}m" for i in range(10)] + [f"{i}k" for i in range(1, 9)]
    while len(xs) < 2 * n:
        code = codes[int(rng.integers(len(codes)))]
        front, (top, bot) = king_front(code, rng) if code[1] == "k" else man_front(code, rng)
        hv = photo_halves(front, rng)
        if hv is None:
            continue
        xs += hv
        ys += [top, bot]
    np.savez_compressed(path, x=np.array(xs, np.uint8), y=np.array(ys, np.int64))


def net(n_classes=len(CLASSES)):
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]
    return nn.Sequential(*block(1, 16), nn.MaxPool2d(2),
                         *block(16, 32), nn.MaxPool2d(2),
                         *block(32, 64), *block(64, 64), nn.MaxPool2d(2),
                         *block(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, n_classes))


def prep(x):
    """uint8 N x PH x PW -> float tensor N x 1 x PH x PW, each crop
    standardised as the exported graph does (export)."""
    import torch
    x = torch.tensor(x, dtype=torch.float32).unsqueeze(1) / 255
    return torch.nn.functional.instance_norm(x, eps=EPS)


def train(out, paths, epochs, threads, n_classes=len(CLASSES), turn_halves=True, script="models/train/parts.py",
          recipe="models/train/train.sh (the part reader)"):
    """Train the reader (or, with n_classes and turn_halves=False, the
    index reader of index_reader.py, whose halves keep their way up)."""
    import time

    import torch
    import torch.nn.functional as Fn
    torch.manual_seed(1)
    torch.set_num_threads(threads)
    xs = np.concatenate([np.load(p)["x"] for p in paths])
    ys = np.concatenate([np.load(p)["y"] for p in paths])
    X, Y = prep(xs), torch.tensor(ys)
    # random 180-degree turns: the reader does not know which way up a half is
    m = net(n_classes)
    opt = torch.optim.AdamW(m.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * (len(X) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 2e-3, total_steps=steps)
    g = torch.Generator().manual_seed(1)
    t0, step = time.time(), 0
    for ep in range(epochs):
        m.train()
        perm = torch.randperm(len(X), generator=g)
        right = seen = 0
        for i in range(0, len(X) - 127, 128):
            idx = perm[i:i + 128]
            xb = X[idx]
            turn = torch.rand(len(xb), generator=g) < 0.5
            if turn_halves:
                xb[turn] = torch.flip(xb[turn], dims=(2, 3))
            lo = m(xb)
            loss = Fn.cross_entropy(lo, Y[idx], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            right += (lo.argmax(1) == Y[idx]).sum().item()
            seen += len(idx)
        print(f"epoch {ep}: train acc {right / seen:.3f}, {time.time() - t0:.0f} s, {seen / (time.time() - t0) * (ep + 1):.0f} crops/s", flush=True)
    torch.save(m.state_dict(), out)
    import json
    with open(os.path.splitext(out)[0] + ".json", "w") as f:
        json.dump({"script": script, "recipe": recipe,
                   "data": [os.path.basename(p) for p in paths], "halves": len(X), "epochs": epochs, "threads": threads,
                   "seconds": round(time.time() - t0), "crops_per_second": round(len(X) * epochs / (time.time() - t0)),
                   "last_epoch_train_accuracy": round(right / seen, 4)}, f, indent=2)


def export(state, out_onnx, training=None, n_classes=len(CLASSES), manifest=None):
    """The reader as the recogniser runs it: BGR pixels times 1/255 in, the
    grey and the crop's own standardisation inside the graph; its manifest
    written by manifest (write_manifest, the part reader's, by default)."""
    import torch
    import torch.nn as nn

    class Reader(nn.Module):
        def __init__(self, body):
            super().__init__()
            self.grey = nn.Conv2d(3, 1, 1, bias=False)
            self.grey.weight.data[:] = torch.tensor([0.114, 0.587, 0.299]).view(1, 3, 1, 1)
            self.norm = nn.InstanceNorm2d(1, eps=EPS)
            self.body = body

        def forward(self, x):
            return self.body(self.norm(self.grey(x)))
    body = net(n_classes)
    body.load_state_dict(torch.load(state))
    m = Reader(body).eval()
    torch.onnx.export(m, torch.zeros(1, 3, PH, PW), out_onnx, input_names=["input"], output_names=["logits"],
                      opset_version=11, dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}})
    (manifest or write_manifest)(out_onnx, training or {})


def write_manifest(onnx_path, training):
    """The manifest beside the exported reader (models.Manifest)."""
    write_reader_manifest(
        onnx_path, training, name="part_reader", labels=CLASSES,
        task="read the characters on one half of a tile: a numeral (character tiles), a wind, 王 or 后 (kings and queens)",
        meaning="the tile's box, turned a quarter clockwise when wider than turn_aspect times its height, "
                "is cut into its top and bottom half; each half is resized to the input; the blob is pixel * scale, BGR; "
                "the graph makes it grey and standardises each half itself",
        licence="drawn faces only, no photos: this project's code (synth_proc.py, synth_faces.py) with the CJK fonts "
                "Debian packages (SIL OFL 1.1 and their own free licences, models/train/SYNTH.md; AR PL UKai kept out), "
                "and the character tiles of ten KMahjongg, gnome-mahjongg and xmahjongg tile sets (GPL v2 or later)")


def write_reader_manifest(onnx_path, training, name, labels, task, meaning, licence):
    """The manifest of a reader of halves (this one, index_reader.py's)."""
    import hashlib
    import json
    with open(onnx_path, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    m = {
        "name": name,
        "file": os.path.basename(onnx_path),
        "sha256": sha,
        "task": task,
        "input": {"name": "input", "shape": [1, 3, PH, PW], "width": PW, "height": PH, "channel_order": "BGR"},
        "preprocess": {"scale": 1 / 255, "mean": [0, 0, 0], "resize": "area", "margin": 0, "turn_aspect": 1.15, "meaning": meaning},
        "output": {"name": "logits", "shape": [1, len(labels)], "activation": "softmax over the labels"},
        "labels": labels,
        "opencv_tested": cv2.__version__,
        "onnx_opset": 11,
        "training": training,
        "licence_of_training_data": licence,
        "attribution": "Tile art: KMahjongg tile sets default (Raquel Ravanini), classic (Robert Buchholz), jade (it-s); gnome-mahjongg "
                       "themes smooth and postmodern (GNOME Mahjongg authors); xmahjongg sheets dorothys, dorwhite (Dorothy Robinson) and "
                       "real (Mark Sanctuary); fonts as in models/train/SYNTH.md",
    }
    with open(os.path.splitext(onnx_path)[0] + ".json", "w") as f:
        json.dump(m, f, indent=2, ensure_ascii=False)
        f.write("\n")


def cli(doc, draw_fn, train_kw=None, export_kw=None):
    """The command line of a reader of halves (this one, index_reader.py's):
    draw, train and export, with the reader's own drawing and the
    arguments of train and export that set it apart."""
    import argparse
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw", help="draw N tiles' halves (seeded) into an .npz")
    d.add_argument("n", type=int)
    d.add_argument("seed", type=int)
    d.add_argument("out")
    t = sub.add_parser("train", help="train the reader on drawn halves")
    t.add_argument("--epochs", type=int, default=8)
    t.add_argument("--threads", type=int, default=1, help="torch threads (the same count gives the same bytes)")
    t.add_argument("out", help="the state dict to write (.pt); its log beside it (.json)")
    t.add_argument("data", nargs="+")
    e = sub.add_parser("export", help="write the ONNX reader and its manifest")
    e.add_argument("state")
    e.add_argument("out")
    a = p.parse_args()
    if a.cmd == "draw":
        draw_fn(a.n, a.seed, a.out)
    elif a.cmd == "train":
        train(a.out, a.data, a.epochs, a.threads, **(train_kw or {}))
    else:
        import json
        log = os.path.splitext(a.state)[0] + ".json"
        training = {}
        if os.path.exists(log):
            with open(log) as f:
                training = json.load(f)
        export(a.state, a.out, training, **(export_kw or {}))


def main():
    cli(__doc__, draw)


if __name__ == "__main__":
    main()
