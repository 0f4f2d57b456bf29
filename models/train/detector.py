"""Train the tile detector: a small fully convolutional CenterNet-style
network that marks every tile centre on a heatmap at 1/4 resolution and
regresses the tile's width and height there. Exported to ONNX (opset 11)
with its manifest.

    /usr/bin/python3 models/train/detector.py [--epochs N]

CPU only, one thread, fixed seeds.
"""
import argparse
import math
import os
import random
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from common import (DET_PRE, DET_RESIZE, DET_SIZE, PHOTO_ATTRIBUTION, STRIDE, load_dir, load_split, sha256_file, to_input,
                    write_manifest)

torch.set_num_threads(1)
random.seed(5)
np.random.seed(5)
torch.manual_seed(5)
CROP = 192


def cbr(i, o, s=1, d=1):
    return nn.Sequential(nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False),
                         nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class TileDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.s4 = nn.Sequential(cbr(3, 16, 2), cbr(16, 24, 2), cbr(24, 24))
        self.s8 = nn.Sequential(cbr(24, 48, 2), cbr(48, 48))
        self.s16 = nn.Sequential(cbr(48, 64, 2), cbr(64, 64, d=2), cbr(64, 64, d=4))
        self.lat16 = nn.Conv2d(64, 48, 1)
        self.fuse8 = cbr(48, 48)
        self.lat8 = nn.Conv2d(48, 24, 1)
        self.fuse4 = cbr(24, 24)
        self.head = cbr(24, 24)
        self.heat = nn.Conv2d(24, 1, 1)
        self.box = nn.Conv2d(24, 4, 1)  # log(w/stride), log(h/stride), dx, dy
        self.heat.bias.data.fill_(-2.2)

    def forward(self, x):
        x = (x - 0.5) * 4.0  # BGR scaled to 0..1
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        u = F.interpolate(self.lat16(f16), scale_factor=2.0, mode="nearest") + f8
        u = self.fuse8(u)
        u = F.interpolate(self.lat8(u), scale_factor=2.0, mode="nearest") + f4
        h = self.head(self.fuse4(u))
        return torch.cat([torch.sigmoid(self.heat(h)), self.box(h)], 1)


def load_onnx(net, path):
    """Load an exported detector back into net. The export folded each
    BatchNorm into the convolution before it, so every BatchNorm becomes the
    identity (mean 0, variance 1 - eps, scale 1) and takes the folded bias;
    fine-tuning then keeps BatchNorm frozen (freeze_bn) so that stays true."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    mods = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    if len(convs) != len(mods):
        raise SystemExit(f"{path}: {len(convs)} convolutions, the network has {len(mods)}")
    bns = {}
    for name, m in net.named_modules():
        if isinstance(m, nn.Sequential) and len(m) == 3 and isinstance(m[1], nn.BatchNorm2d):
            bns[id(m[0])] = m[1]
    with torch.no_grad():
        for node, conv in zip(convs, mods):
            w = torch.from_numpy(init[node.input[1]].copy())
            b = torch.from_numpy(init[node.input[2]].copy())
            if w.shape != conv.weight.shape:
                raise SystemExit(f"{path}: convolution {node.name} has shape {tuple(w.shape)}, want {tuple(conv.weight.shape)}")
            conv.weight.copy_(w)
            bn = bns.get(id(conv))
            if bn is None:
                conv.bias.copy_(b)
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(b)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)


def freeze_bn(net):
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def targets(boxes, size):
    n = size // STRIDE
    heat = np.zeros((n, n), np.float32)
    reg = np.zeros((4, n, n), np.float32)
    mask = np.zeros((n, n), np.float32)
    ys, xs = np.mgrid[0:n, 0:n]
    for x0, y0, x1, y1 in boxes:
        w, h = x1 - x0, y1 - y0
        if w < 3 or h < 3:
            continue
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < n and 0 <= iy < n):
            continue
        sig = max(0.6, min(w, h) / STRIDE / 6)
        g = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sig * sig))
        np.maximum(heat, g, out=heat)
        reg[:, iy, ix] = (math.log(w / STRIDE), math.log(h / STRIDE), cx - ix, cy - iy)
        mask[iy, ix] = 1
    return heat, reg, mask


# Range of the random scale of a training window (relative to a 640 px
# photo squashed to DET_SIZE). Lower bounds teach tiles larger than the
# photos' usual ones (close-ups of a few tiles were missed on dev).
scale_range = (0.7, 1.5)


def drop_cut(img, boxes):
    """The boxes of a synthetic scene less those its edge cuts: the scenes
    label a tile down to 30% inside the picture, the photos leave such tiles
    out, and a detector taught both ways finds the cut tiles at the edge of
    real photos, where the labels have none."""
    H, W = img.shape[:2]
    return [b for b in boxes if b[1] > 1 and b[2] > 1 and b[3] < W - 1 and b[4] < H - 1]


def sample(img, boxes, rng):
    """A random training window: scale, stretch, crop, quarter turns, flips, colour."""
    H, W = img.shape[:2]
    s = DET_SIZE / max(H, W) * rng.uniform(*scale_range)
    sx, sy = s * rng.uniform(0.85, 1.15), s * rng.uniform(0.85, 1.15)
    nw, nh = max(8, int(W * sx)), max(8, int(H * sy))
    im = cv2.resize(img, (nw, nh), interpolation=DET_RESIZE)
    bs = [(b[1] * nw / W, b[2] * nh / H, b[3] * nw / W, b[4] * nh / H) for b in boxes]
    canvas = np.full((CROP, CROP, 3), rng.randint(0, 255), np.uint8)
    ox = rng.randint(min(0, nw - CROP), max(0, nw - CROP))
    oy = rng.randint(min(0, nh - CROP), max(0, nh - CROP))
    sx0, sy0 = max(0, ox), max(0, oy)
    dx0, dy0 = max(0, -ox), max(0, -oy)
    cw, ch = min(nw - sx0, CROP - dx0), min(nh - sy0, CROP - dy0)
    canvas[dy0:dy0 + ch, dx0:dx0 + cw] = im[sy0:sy0 + ch, sx0:sx0 + cw]
    out = []
    for x0, y0, x1, y1 in bs:
        x0, x1, y0, y1 = x0 - ox, x1 - ox, y0 - oy, y1 - oy
        area = (x1 - x0) * (y1 - y0)
        cx0, cy0, cx1, cy1 = max(x0, dx0), max(y0, dy0), min(x1, dx0 + cw), min(y1, dy0 + ch)
        if cx1 <= cx0 or cy1 <= cy0:
            continue
        if (cx1 - cx0) * (cy1 - cy0) < 0.6 * area:
            continue  # mostly cut off by the window: taught as background
        out.append((cx0, cy0, cx1, cy1))
    k = rng.randint(0, 3)
    for _ in range(k):
        canvas = cv2.rotate(canvas, cv2.ROTATE_90_CLOCKWISE)
        out = [(CROP - y1, x0, CROP - y0, x1) for x0, y0, x1, y1 in out]
    if rng.random() < 0.5:
        canvas = canvas[:, ::-1]
        out = [(CROP - x1, y0, CROP - x0, y1) for x0, y0, x1, y1 in out]
    c = canvas.astype(np.float32)
    c = c * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30)
    c = c * np.array([rng.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    if rng.random() < 0.15:
        c = cv2.GaussianBlur(c, (5, 5), rng.uniform(0.5, 1.5))
    c = np.clip(c, 0, 255)
    return c, out


def focal(pred, gt):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pl = torch.log(pred) * (1 - pred) ** 2 * pos
    nl = torch.log(1 - pred) * pred ** 2 * (1 - gt) ** 4 * neg
    npos = pos.sum().clamp(min=1)
    return -(pl.sum() + nl.sum()) / npos


def decode(out, thr):
    """Boxes (x0,y0,x1,y1,score) from one network output (5,h,w); vision/detect.go repeats this."""
    heat = out[0:1]
    peak = F.max_pool2d(heat[None], 3, 1, 1)[0]
    keep = (heat == peak) & (heat >= thr)
    ys, xs = torch.nonzero(keep[0], as_tuple=True)
    res = []
    for y, x in zip(ys.tolist(), xs.tolist()):
        w, h = math.exp(out[1, y, x]) * STRIDE, math.exp(out[2, y, x]) * STRIDE
        cx, cy = (x + out[3, y, x].item()) * STRIDE, (y + out[4, y, x].item()) * STRIDE
        res.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, out[0, y, x].item()))
    return nms(res, 0.5)


def iou(a, b):
    ix = min(a[2], b[2]) - max(a[0], b[0])
    iy = min(a[3], b[3]) - max(a[1], b[1])
    if ix <= 0 or iy <= 0:
        return 0.0
    i = ix * iy
    return i / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i)


def nms(res, thr):
    res = sorted(res, key=lambda r: -r[4])
    out = []
    for r in res:
        if all(iou(r, o) < thr for o in out):
            out.append(r)
    return out


def evaluate(net, dev, thr=0.3):
    net.eval()
    tp = npred = ngt = 0
    with torch.no_grad():
        for img, boxes in dev:
            im = cv2.resize(img, (DET_SIZE, DET_SIZE), interpolation=DET_RESIZE)
            x = to_input(torch.from_numpy(im).permute(2, 0, 1)[None], DET_PRE)
            out = net(x)[0]
            k = 640 / DET_SIZE
            pred = [(a * k, b * k, c * k, d * k, s) for a, b, c, d, s in decode(out, thr)]
            gts = [b[1:] for b in boxes]
            used = set()
            for p in pred:
                best, bj = 0.5, -1
                for j, g in enumerate(gts):
                    if j not in used and iou(p, g) >= best:
                        best, bj = iou(p, g), j
                if bj >= 0:
                    used.add(bj)
                    tp += 1
            npred += len(pred)
            ngt += len(gts)
    p, r = tp / max(1, npred), tp / max(1, ngt)
    return p, r, 2 * p * r / max(1e-9, p + r)


DATA = ("shared/data/photos/train (1,350 photos, 22,667 boxes): random 192 px windows, scale 0.7-1.5, stretch, "
        "quarter turns, flips, colour")
SYNTH_DATA = ("; the last stages also synthetic scenes (models/train/synth.py, 4,500 scenes of ten tile sets: "
              "40%, then 10% and 5% of each batch), their tiles cut by the picture's edge taught as background")
SYNTH_LICENCES = ("photos: CC BY 4.0; synthetic scenes: KMahjongg, gnome-mahjongg and xmahjongg tile art GPL v2 or later, "
                  "Noto CJK fonts SIL OFL 1.1 (models/train/SYNTH.md)")


# The broad detector (--name broad_detector): the shipped one trained on
# with drawn and dark-fronted sets, which a taught set reads with (train.sh).
BROAD = {"task": 'find every tile in a photo of a tile set the photos never showed: the detector a taught set (vision Bank) reads with',
         "data": 'the shipped tile_detector (shared/data/photos/train, 1,350 photos, and synthetic scenes of ten tile sets), then 8 epochs at 3e-4 with 40% of each batch from 4,050 synthetic scenes: 1,800 of procedurally drawn tile sets (synth.py --sets proc, seeds 31 and 32), 750 of the ten tile sets (seed 3) and 1,500 with dark-fronted tiles in a third of them (--dark 0.35, seeds 21 and 22), windows scaled 0.5-1.6; the held-out designs of testdata/synth never',
         "licence": 'photos: CC BY 4.0; synthetic scenes: KMahjongg, gnome-mahjongg and xmahjongg tile art GPL v2 or later, Noto CJK fonts SIL OFL 1.1, and the Debian CJK fonts of the procedurally drawn faces (models/train/synth_proc.py: SIL OFL 1.1, Arphic Public License, IPA Font License, GPL with font exception and their other free licences; models/train/SYNTH.md)'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--resume", default="", help="continue from this state dict (a second, lower-rate stage)")
    ap.add_argument("--lr", type=float, default=0.0, help="peak learning rate (default: the first stage's)")
    ap.add_argument("--save", default="/tmp/mjv_detector.pt", help="where the state dict is kept between stages")
    ap.add_argument("--scale", default="0.7,1.5", help="range of the random window scale")
    ap.add_argument("--decode-threshold", type=float, default=0.0, help="write this centre-score threshold to the manifest instead of the one best on dev")
    ap.add_argument("--init-onnx", default="", help="start from this exported detector (BatchNorm folded, kept frozen)")
    ap.add_argument("--synthetic", default="", help="folders of synthetic scenes (synth.py scenes), comma-separated, mixed into every epoch")
    ap.add_argument("--synthetic-share", type=float, default=0.5, help="share of each batch drawn from the synthetic scenes")
    ap.add_argument("--limit", type=int, default=0, help="use only the first N train photos (the reproducibility check)")
    ap.add_argument("--name", default="tile_detector", choices=["tile_detector", "broad_detector"],
                    help="the model written: the shipped detector, or the broad one a taught set reads with (BROAD below)")
    args = ap.parse_args()
    t0 = time.time()
    train = [(img, boxes) for _, img, boxes in load_split("train") if boxes]
    if args.limit:
        train = train[:args.limit]
    global scale_range
    scale_range = tuple(float(v) for v in args.scale.split(","))
    dev = [(img, boxes) for _, img, boxes in load_split("dev")]
    print(f"loaded {len(train)} train / {len(dev)} dev photos in {time.time()-t0:.0f}s", flush=True)
    synth = []
    if args.synthetic:
        synth = [(img, drop_cut(img, boxes)) for d in args.synthetic.split(",") for _, img, boxes in load_dir(d) if boxes]
        print(f"synthetic scenes: {len(synth)} ({time.time()-t0:.0f}s)", flush=True)
    rng = random.Random(13)
    net = TileDetector()
    if args.resume:
        net.load_state_dict(torch.load(args.resume))
        rng = random.Random(17)
    if args.init_onnx:
        load_onnx(net, args.init_onnx)
        rng = random.Random(23)
    lr = args.lr or 2e-3
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    bs = 16
    steps = (len(train) + bs - 1) // bs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps * args.epochs, pct_start=0.15)
    for epoch in range(args.epochs):
        net.train()
        if args.init_onnx:
            freeze_bn(net)
        order = list(range(len(train)))
        rng.shuffle(order)
        tot = 0.0
        for i in range(0, len(order), bs):
            xs, hs, rs, ms = [], [], [], []
            for j in order[i:i + bs]:
                src = train[j]
                if synth and rng.random() < args.synthetic_share:
                    src = synth[rng.randrange(len(synth))]
                c, bx = sample(*src, rng)
                h, r, m = targets(bx, CROP)
                xs.append(c)
                hs.append(h)
                rs.append(r)
                ms.append(m)
            x = to_input(torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2), DET_PRE)
            hm = torch.from_numpy(np.stack(hs))[:, None]
            rg = torch.from_numpy(np.stack(rs))
            mk = torch.from_numpy(np.stack(ms))[:, None]
            out = net(x)
            lh = focal(out[:, :1], hm)
            lreg = (F.l1_loss(out[:, 1:], rg, reduction="none") * mk).sum() / mk.sum().clamp(min=1)
            loss = lh + lreg
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
        msg = f"epoch {epoch+1}/{args.epochs} loss {tot/steps:.4f}"
        if (epoch + 1) % 3 == 0 or epoch + 1 == args.epochs:
            p, r, f = evaluate(net, dev)
            msg += f" dev localisation P {p:.4f} R {r:.4f} F1 {f:.4f}"
        print(msg + f" ({time.time()-t0:.0f}s)", flush=True)
        torch.save(net.state_dict(), args.save)
    net.eval()
    best = max(((t,) + evaluate(net, dev, t) for t in (0.2, 0.25, 0.3, 0.35, 0.4, 0.5)), key=lambda v: v[3])
    print(f"best threshold {best[0]} P {best[1]:.4f} R {best[2]:.4f} F1 {best[3]:.4f}", flush=True)
    path = os.path.join(args.out, args.name + ".onnx")
    torch.onnx.export(net, torch.zeros(1, 3, DET_SIZE, DET_SIZE), path, opset_version=11,
                      input_names=["input"], output_names=["maps"])
    sha = sha256_file(path)
    broad = args.name == "broad_detector"
    manifest = {
        "name": args.name,
        "file": args.name + ".onnx",
        "sha256": sha,
        "task": BROAD["task"] if broad else "find every face-up tile: centre heatmap and box size at 1/4 resolution (CenterNet-style)",
        "input": {"name": "input", "shape": [1, 3, DET_SIZE, DET_SIZE], "width": DET_SIZE, "height": DET_SIZE,
                  "channel_order": "BGR"},
        "preprocess": DET_PRE,
        "output": {"name": "maps", "shape": [1, 5, DET_SIZE // STRIDE, DET_SIZE // STRIDE], "stride": STRIDE,
                   "channels": ["centre score (sigmoid)", "log(width/stride)", "log(height/stride)", "x offset", "y offset"]},
        "decode": {"peak": "3x3 local maximum", "threshold": args.decode_threshold or best[0], "nms_iou": 0.5},
        "opencv_tested": "4.6.0",
        "onnx_opset": 11,
        "training": {"script": "models/train/detector.py", "recipe": "models/train/train.sh (all stages)", "last_stage": {k: v for k, v in vars(args).items() if k != "out"}, "seed": 5,
                     "data": BROAD["data"] if broad else DATA + (SYNTH_DATA if args.synthetic else "")},
        "measured": {"dev_localisation_precision": round(best[1], 4), "dev_localisation_recall": round(best[2], 4),
                     "dev_localisation_f1": round(best[3], 4), "note": "IoU >= 0.5 whatever the code, dev photos squashed to 384x384"},
        "licence_of_training_data": BROAD["licence"] if broad else SYNTH_LICENCES if args.synthetic else "CC BY 4.0",
        "attribution": PHOTO_ATTRIBUTION,
    }
    write_manifest(os.path.join(args.out, args.name + ".json"), manifest)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)", flush=True)


if __name__ == "__main__":
    main()
