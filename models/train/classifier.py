"""Train the tile classifier on crops of the labelled photos and export it to
ONNX (opset 11) with its manifest.

    /usr/bin/python3 models/train/classifier.py [--epochs N]

CPU, one thread, fixed seeds: the same run gives the same model. With
--device cuda a stage trains on a GPU (models/README.md, "A stage on a GPU
machine"): faster, and not byte for byte what the CPU gives.
"""
import argparse
import math
import multiprocessing
import os
import random
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from common import (CLASSES, CLS_PRE, CLS_RESIZE, CROP_W, CROP_H, PHOTO_ATTRIBUTION, crop_tile, crop_turned, cut_turns, load_dir,
                    load_split, sha256_file, to_input, write_manifest, add_features_output)

torch.set_num_threads(1)
random.seed(7)
np.random.seed(7)
torch.manual_seed(7)


class TileNet(nn.Module):
    """A small VGG-like net: 4 conv blocks (the last one two convs deep),
    global pooling, one linear layer. After the n codes' logits the layer
    may have, in this order: with background, the logit that the crop holds
    no tile at all (one softmax with the codes'); with lying, the logit that
    the tile lies across the crop (turned a quarter from the crop's portrait
    frame)."""

    def __init__(self, n, lying=False, background=False, width=1):
        super().__init__()
        self.width = width
        chans = [3] + [c * width for c in (16, 32, 64, 128)]
        layers = []
        for i in range(4):
            layers += [nn.Conv2d(chans[i], chans[i + 1], 3, padding=1, bias=False),
                       nn.BatchNorm2d(chans[i + 1]), nn.ReLU(inplace=True)]
            if i < 3:
                layers += [nn.MaxPool2d(2)]
        layers += [nn.Conv2d(chans[4], chans[4], 3, padding=1, bias=False),
                   nn.BatchNorm2d(chans[4]), nn.ReLU(inplace=True)]
        self.features = nn.Sequential(*layers)
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(chans[4], n + (1 if background else 0) + (1 if lying else 0))

    def embed(self, x):
        """The pooled vector the last layer reads (the exported features)."""
        x = (x - 0.5) * 4.0  # input is BGR scaled to 0..1
        return F.adaptive_avg_pool2d(self.features(x), 1).flatten(1)

    def forward(self, x):
        x = self.embed(x)
        if self.training:
            x = self.drop(x)
        return self.fc(x)


# How far training crops stray from the labelled box: (shift, scale) as
# shares of the box. The wide setting matches the detector's own boxes on
# dev (5th-95th percentile: width x0.77-1.18, centre +-9%), where the
# narrow-trained classifier went wrong on 29% of boxes with IoU 0.5-0.7.
JITTER = {"narrow": (0.07, 0.10), "wide": (0.12, 0.22)}
jitter_shift, jitter_scale = JITTER["narrow"]


def jitter(box, rng):
    code, x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    dx, dy = rng.uniform(-jitter_shift, jitter_shift) * w, rng.uniform(-jitter_shift, jitter_shift) * h
    sw, sh = rng.uniform(1 - jitter_scale, 1 + jitter_scale), rng.uniform(1 - jitter_scale, 1 + jitter_scale)
    cx, cy = (x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy
    return cx - w * sw / 2, cy - h * sh / 2, cx + w * sw / 2, cy + h * sh / 2


# Share of training crops cut around a tile turned in the photo (uniform
# within +-45 degrees); the others turn by at most 4 degrees. Tilted tiles
# were the commonest misreading on dev (a diagonal tile's box holds it
# corner to corner).
turn_share = 0.0
# Share of training crops that hold a tile lying across them (the
# orientation output's positives; 0: a net without that output).
lying_share = 0.0

# Share of upright training crops cut from a box widened toward square
# (--squeeze): a lying crop is always squeezed into the portrait frame, an
# upright one never was, and the orientation output learned the squeeze
# instead of the face (on unseen designs it calls nearly every near-square
# cut of a lying tile upright: models/README.md, "The broad classifier's
# stages, and sideways tiles").
squeeze_share = 0.0

# --true-lying: each label's lying-across target from its sideways mark
# and whether its cut was turned (see make_crops).
true_lying = False


def lying_crop(c, rng):
    """A portrait crop of a tile lying across it, made from an upright crop:
    turned a quarter either way, cut to a box from as wide as the tile to
    square (a detector box round a lying tile is often near square), and
    squeezed back into the portrait frame."""
    c = cv2.rotate(c, cv2.ROTATE_90_CLOCKWISE if rng.random() < 0.5 else cv2.ROTATE_90_COUNTERCLOCKWISE)
    h, w = c.shape[:2]
    # with --squeeze, down to a cut as narrow as the upright tile's own
    # frame, so that how squeezed a cut is tells nothing
    keep = int(round(w * rng.uniform(0.56 if squeeze_share > 0 else 0.75, 1.0)))
    x0 = (w - keep) // 2
    return cv2.resize(c[:, x0:x0 + keep], (CROP_W, CROP_H), interpolation=CLS_RESIZE)


# The code of a training box that holds no tile (negatives).
NOT_A_TILE = "--"


def negatives(data, n, rng):
    """n boxes where no tile is (table, felt, wood, racks, shadows, glare):
    the size and shape of one of the picture's own tiles, either way round,
    covering at most 15% of any labelled box; grouped by picture for
    make_crops. The photos' labels leave some tiles out (discards, walls of
    backs), so a few of these hold a tile; the synthetic scenes' do not."""
    picked = {}
    count = tries = 0
    while count < n and tries < 30 * n:
        tries += 1
        si = rng.randrange(len(data))
        img, boxes = data[si]
        if not boxes:
            continue
        H, W = img.shape[:2]
        b = boxes[rng.randrange(len(boxes))]
        w, h = (b[3] - b[1]) * rng.uniform(0.8, 1.3), (b[4] - b[2]) * rng.uniform(0.8, 1.3)
        if rng.random() < 0.5:
            w, h = h, w
        if w < 8 or h < 8 or w > W or h > H:
            continue
        x0, y0 = rng.uniform(-0.2 * w, W - 0.8 * w), rng.uniform(-0.2 * h, H - 0.8 * h)
        x1, y1 = min(W, x0 + w), min(H, y0 + h)
        x0, y0 = max(0, x0), max(0, y0)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        area = (x1 - x0) * (y1 - y0)
        if any(max(0, min(x1, l[3]) - max(x0, l[1])) * max(0, min(y1, l[4]) - max(y0, l[2])) > 0.15 * area for l in boxes):
            continue
        picked.setdefault(si, []).append((NOT_A_TILE, x0, y0, x1, y1))
        count += 1
    return [(data[si][0], bs) for si, bs in sorted(picked.items())]


def make_crops(data, rng, augment):
    xs, ys, lie = [], [], []
    for img, boxes in data:
        for b in boxes:
            if b[0] not in CLASSES and b[0] != NOT_A_TILE:
                continue
            coords = jitter(b, rng) if augment else b[1:]
            widened = False
            if augment and squeeze_share > 0 and b[0] != NOT_A_TILE and rng.random() < squeeze_share:
                x0, y0, x1, y1 = coords
                w, h = x1 - x0, y1 - y0
                if 0 < w < h:   # an upright box, widened at most to 1.1 (crop_tile turns a cut above 1.15)
                    k = rng.uniform(1.0, max(1.0, 1.1 * h / w))
                    cx = (x0 + x1) / 2
                    coords, widened = (cx - w * k / 2, y0, cx + w * k / 2, y1), True
            if augment:
                deg = rng.uniform(-45, 45) if rng.random() < turn_share else rng.uniform(-4, 4)
                c = crop_turned(img, *coords, deg)
            else:
                c = crop_tile(img, *coords)
            if c is None:
                continue
            lying = 0.0
            side = getattr(b, "side", False)
            if true_lying and b[0] != NOT_A_TILE:
                # the truth, from the label: a sideways tile whose cut was
                # not turned lies across it, and so does an upright tile
                # whose cut was (without --true-lying every label is taught
                # as not lying across, a third of the scenes' sideways
                # tiles among them)
                lying = float(side != cut_turns(*coords, deg if augment else 0.0))
            if augment and lying_share > 0 and not widened and b[0] != NOT_A_TILE and \
                    (not true_lying or (not side and lying == 0)) and rng.random() < lying_share:
                c, lying = lying_crop(c, rng), 1.0
            if augment:
                if rng.random() < 0.5:
                    c = cv2.rotate(c, cv2.ROTATE_180)  # upside-down tiles keep their class
                if rng.random() < 0.1:
                    g = cv2.cvtColor(c, cv2.COLOR_BGR2GRAY)
                    c = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
                if rng.random() < 0.2:
                    c = cv2.GaussianBlur(c, (3, 3), rng.uniform(0.3, 1.2))
                a, bb = rng.uniform(0.7, 1.3), rng.uniform(-30, 30)
                c = np.clip(c.astype(np.float32) * a + bb, 0, 255).astype(np.uint8)
            xs.append(c)
            ys.append(len(CLASSES) if b[0] == NOT_A_TILE else CLASSES.index(b[0]))
            lie.append(lying)
    x = torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).contiguous()  # uint8; scaled per batch
    return x, torch.tensor(ys), torch.tensor(lie)


def synthetic_sample(scenes, n, rng, rare_boost=1.0):
    """n boxes of the synthetic scenes, drawn so that each tile code is about
    equally likely (kings/queens and jokers rare_boost times as likely as
    the others), grouped back by scene for make_crops."""
    by_code = {}
    for si, (_, boxes) in enumerate(scenes):
        for bi, b in enumerate(boxes):
            by_code.setdefault(b[0], []).append((si, bi))
    codes = sorted(by_code)
    weights = [rare_boost if c[1] in "kj" else 1.0 for c in codes]
    picked = {}
    for _ in range(n):
        code = rng.choice(codes) if rare_boost == 1.0 else rng.choices(codes, weights)[0]
        si, bi = rng.choice(by_code[code])
        picked.setdefault(si, []).append(scenes[si][1][bi])
    return [(scenes[si][0], bs) for si, bs in sorted(picked.items())]


def scene_groups(scenes, steps, per_step, per_scene, rng):
    """Crops for the within-set contrast: for each training step, per_step
    scenes (each scene shows one tile set) and up to per_scene of each
    scene's tiles, every tile cut twice with its own jitter and lighting.
    Gives the crops, their codes and their scene numbers, step after step
    (a step's crops are contiguous; step i's start at offsets[i])."""
    xs, ys, gs, offsets = [], [], [], []
    usable = [i for i, (_, b) in enumerate(scenes) if len(b) >= 4]
    for step in range(steps):
        offsets.append(sum(len(x) for x in xs))
        for k in range(per_step):
            img, boxes = scenes[rng.choice(usable)]
            sel = rng.sample(boxes, min(per_scene, len(boxes)))
            x, y, _ = make_crops([(img, sel + sel)], rng, True)
            if len(x) != 2 * len(sel):
                continue
            xs.append(x)
            ys.append(y)
            gs.append(torch.full((len(x),), step * per_step + k, dtype=torch.long))
    offsets.append(sum(len(x) for x in xs))
    return torch.cat(xs), torch.cat(ys), torch.cat(gs), offsets


def set_contrast(z, y, g, tau=0.1):
    """Supervised contrastive loss within each tile set: a crop's positives
    are the other crops of its code in its own scene (its second cut among
    them), its negatives the other codes of that scene. It rewards features
    that tell a set's own 6 of circles from its 7, which is what a taught
    head needs of them on a set the network never saw."""
    z = F.normalize(z, dim=1)
    sim = z @ z.t() / tau
    same_set = g[:, None] == g[None, :]
    eye = torch.eye(len(z), dtype=torch.bool, device=z.device)
    pos = same_set & (y[:, None] == y[None, :]) & ~eye
    allowed = same_set & ~eye
    sim = sim.masked_fill(~allowed, float("-inf"))
    logp = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    npos = pos.sum(1)
    ok = npos > 0
    loss = -(logp.masked_fill(~pos, 0).sum(1)[ok] / npos[ok])
    return loss.mean()


def add_detector_boxes(train, onnx_path):
    """The recogniser reads the detector's boxes, not the labels': teach the
    classifier those too. Each detected box takes the code of the label box it
    overlaps at IoU >= 0.5; unmatched boxes are left out."""
    from common import DET_PRE, DET_RESIZE, DET_SIZE, blob_args
    from detector import decode, iou
    net = cv2.dnn.readNetFromONNX(onnx_path)
    out = []
    for img, boxes in train:
        H, W = img.shape[:2]
        im = cv2.resize(img, (DET_SIZE, DET_SIZE), interpolation=DET_RESIZE)
        scale, mean = blob_args(DET_PRE)
        net.setInput(cv2.dnn.blobFromImage(im, scale, mean=mean))
        maps = torch.from_numpy(net.forward()[0].copy())
        extra = []
        for x0, y0, x1, y1, _ in decode(maps, 0.3):
            b = (x0 * W / DET_SIZE, y0 * H / DET_SIZE, x1 * W / DET_SIZE, y1 * H / DET_SIZE)
            best = max(boxes, key=lambda l: iou(b, l[1:]), default=None)
            if best is not None and iou(b, best[1:]) >= 0.5:
                extra.append((best[0],) + b)
        out.append((img, list(boxes) + extra))
    return out


DATA = ("shared/data/photos/train crops (22,667 boxes) with shift/scale jitter, tilted-tile crops (35% turned up to 45 degrees), "
        "half turns, greyscale, blur and brightness; later stages also the boxes the shipped detector finds in the train photos "
        "(labelled by the label box they match at IoU >= 0.5) and 8,000 crops an epoch from the synthetic scenes of models/train/synth.py, "
        "every code about equally likely; the last stage also 16,000 crops an epoch from scenes of ten tile sets, 6,000 crops "
        "of places where no tile is (a not-a-tile output used in training only, see export) and 20% of crops turned "
        "a quarter to teach the lying-across output")
LICENCES = ("photos: CC BY 4.0; synthetic scenes: KMahjongg, gnome-mahjongg and xmahjongg tile art GPL v2 or later, "
            "Noto CJK fonts SIL OFL 1.1 (models/train/SYNTH.md)")
SYNTHETIC = ("synth.py scenes --sets default,classic,jade --rare train --n 1500 --seed 1: tile art from the KMahjongg tile sets "
             "default (Raquel Ravanini), classic (Robert Buchholz) and jade (it-s) in Debian's kdegames-mahjongg-data-kf5, GPL v2 or later; "
             "red fives, backs, kings/queens and jokers drawn with Noto Sans CJK (fonts-noto-cjk, SIL OFL 1.1); then (--variety) Noto Sans and "
             "Serif CJK; the last stage also the gnome-mahjongg themes smooth and postmodern (GNOME Mahjongg authors) and the xmahjongg "
             "sheets dorothys, dorwhite (Dorothy Robinson) and real (Mark Sanctuary), GPL v2 or later; see models/train/SYNTH.md")


def evaluate(net, x, y):
    net.eval()
    correct = 0
    d = next(net.parameters()).device
    with torch.no_grad():
        for i in range(0, len(x), 512):
            correct += (net(to_input(x[i:i + 512].to(d), CLS_PRE))[:, :len(CLASSES)].argmax(1).cpu() == y[i:i + 512]).sum().item()
    return correct / len(x)


def widen_fc(state, n, bg, lying):
    """A saved state for a net with the extra outputs asked for: an output
    the saved net lacks starts at zero. A saved net with one extra output has
    the lying one (the not-a-tile output came later)."""
    w, b = state["fc.weight"], state["fc.bias"]
    extra = w.shape[0] - n
    had_bg, had_lying = extra == 2, extra >= 1
    zw, zb = torch.zeros(1, w.shape[1]), torch.zeros(1)
    rows_w, rows_b = [w[:n]], [b[:n]]
    if bg:
        rows_w.append(w[n:n + 1] if had_bg else zw)
        rows_b.append(b[n:n + 1] if had_bg else zb)
    if lying:
        rows_w.append(w[-1:] if had_lying else zw)
        rows_b.append(b[-1:] if had_lying else zb)
    state = dict(state)
    state["fc.weight"], state["fc.bias"] = torch.cat(rows_w), torch.cat(rows_b)
    return state


def widen_state(state, factor, rng):
    """Net2WiderNet: the state of a net `factor` times as wide that computes
    the same function. Every channel of every conv block is copied `factor`
    times (with its batch-norm statistics) and the next layer's weights on
    the copies divided among them. A little noise on the copies' own
    weights (1% of the layer's spread) lets them learn apart."""
    convs = sorted(int(k.split(".")[1]) for k, v in state.items()
                   if k.startswith("features.") and k.endswith(".weight") and v.dim() == 4)
    state = dict(state)
    g = torch.Generator().manual_seed(rng.randrange(1 << 30))
    for i, c in enumerate(convs):
        w = state[f"features.{c}.weight"]
        if i > 0:   # its input channels were widened with the layer before
            w = w.repeat(1, factor, 1, 1) / factor
        w = w.repeat(factor, 1, 1, 1)
        noise = torch.randn(w.shape, generator=g) * w.std() * 0.01
        noise[:w.shape[0] // factor] = 0   # the original channels stay as they were
        state[f"features.{c}.weight"] = w + noise
        for k in ("weight", "bias", "running_mean", "running_var"):
            state[f"features.{c + 1}.{k}"] = state[f"features.{c + 1}.{k}"].repeat(factor)
    state["fc.weight"] = state["fc.weight"].repeat(1, factor) / factor
    return state


# The structure outputs (--structure): a code's suit, and a suited tile's rank.
SUITS = "mpszfkjb"  # b: a back (0z)


def structure_targets():
    """Per code index (and the not-a-tile index after them): its suit's
    index in SUITS and its rank 0-8 for 1-9 of m, p, s (a red five is a
    5), or -100 (not taught) where it has none."""
    suit, rank = [], []
    for c in CLASSES:
        suit.append(SUITS.index("b" if c == "0z" else c[1]))
        rank.append((5 if c[0] == "0" else int(c[0])) - 1 if c[1] in "mps" else -100)
    suit.append(-100)
    rank.append(-100)
    return torch.tensor(suit), torch.tensor(rank)


def group_accuracy(net, x, y):
    """Crop accuracy per group of codes: ordinary, red fives, backs, kings/queens, jokers."""
    net.eval()
    with torch.no_grad():
        d = next(net.parameters()).device
        pred = torch.cat([net(to_input(x[i:i + 512].to(d), CLS_PRE))[:, :len(CLASSES)].argmax(1).cpu() for i in range(0, len(x), 512)])
    groups = {"ordinary": lambda c: c[1] in "mpszf" and c[0] != "0", "red": lambda c: c in ("0m", "0p", "0s"),
              "backs": lambda c: c == "0z", "kings": lambda c: c[1] == "k", "jokers": lambda c: c[1] == "j"}
    out = []
    for name, f in groups.items():
        m = torch.tensor([f(CLASSES[int(v)]) for v in y])
        if m.any():
            out.append(f"{name} {(pred[m] == y[m]).float().mean().item():.3f}")
    return ", ".join(out)


def epoch_data(train, synth, args, bg, rng, t0):
    """One epoch's crops: the photos', the scenes' sample, the negatives and
    the within-set contrast groups (None without --set-contrast)."""
    x, y, lie = make_crops(train, rng, True)
    extra = []
    if synth:
        extra.append(synthetic_sample(synth, args.synthetic_per_epoch, rng, args.rare_boost))
    if bg:   # half from the scenes when there are scenes, the rest from the photos
        from_scenes = args.negatives // 2 if synth else 0
        extra.append(negatives(train, args.negatives - from_scenes, rng))
        if synth:
            extra.append(negatives(synth, from_scenes, rng))
    for data in extra:
        sx, sy, slie = make_crops(data, rng, True)
        x, y, lie = torch.cat([x, sx]), torch.cat([y, sy]), torch.cat([lie, slie])
    groups = None
    if args.set_contrast > 0 and synth:
        groups = scene_groups(synth, (len(x) + 127) // 128, args.contrast_scenes, args.contrast_tiles, rng)
        print(f"  within-set contrast: {len(groups[0])} crops of {len(groups[3]) - 1} steps ({time.time()-t0:.0f}s)", flush=True)
    return x, y, lie, groups


_POOL = None


def _epoch_job(seed):
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    train, synth, args, bg, t0 = _POOL
    x, y, lie, groups = epoch_data(train, synth, args, bg, random.Random(seed), t0)
    return x.numpy(), y.numpy(), lie.numpy(), None if groups is None else tuple(
        g.numpy() if torch.is_tensor(g) else g for g in groups)


WORKER_WAIT = 900   # seconds: an epoch takes a worker one minute on the GPU machine, ten here


class EpochPool:
    """Epochs cut ahead by worker processes (forked before the network
    touches the GPU), each from its own seed: a lent machine's cores keep
    its GPU busy. Not make train's order, so not its bytes."""

    def __init__(self, train, synth, args, bg, workers, t0):
        global _POOL
        _POOL = (train, synth, args, bg, t0)
        self.workers = workers
        self.pool = multiprocessing.get_context("fork").Pool(workers)
        self.seed = 1000
        self.ahead = [self._submit() for _ in range(workers + 1)]

    def _submit(self):
        self.seed += 1
        return self.pool.apply_async(_epoch_job, (self.seed,))

    def next(self):
        try:
            x, y, lie, groups = self.ahead.pop(0).get(timeout=WORKER_WAIT)
        except multiprocessing.TimeoutError:
            self.pool.terminate()
            raise SystemExit(f"no epoch from the {self.workers} workers in {WORKER_WAIT} s: they hang (an OpenCV built "
                             "with its own thread pool, as pip's is, needs OPENCV_FOR_THREADS_NUM=1 before a fork)")
        self.ahead.append(self._submit())
        if groups is not None:
            groups = tuple(torch.from_numpy(g) if isinstance(g, np.ndarray) else g for g in groups)
        return torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(lie), groups

    def close(self):
        self.pool.terminate()


class Budget:
    """The rate over a fixed time instead of fixed steps: warmed up over the
    first 5%, then cosine-annealed to 2% of the peak by the end."""

    def __init__(self, seconds, peaks):
        self.seconds, self.peaks, self.start = seconds, peaks, time.time()

    def frac(self):
        return (time.time() - self.start) / self.seconds

    def spent(self):
        return self.frac() >= 1

    def step(self, opt):
        f = self.frac()
        k = f / 0.05 if f < 0.05 else 0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1.0, (f - 0.05) / 0.95)))
        for g, peak in zip(opt.param_groups, self.peaks):
            g["lr"] = peak * k
        return f >= 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--from-onnx", default="", help="continue from this exported classifier (its BatchNorm folded into the convolutions, so it stays frozen: the shipped model, whose state dict is not kept)")
    ap.add_argument("--resume", default="", help="continue from this state dict (a second, lower-rate stage)")
    ap.add_argument("--lr", type=float, default=0.0, help="peak learning rate (default: the first stage's)")
    ap.add_argument("--save", default="/tmp/mjv_classifier.pt", help="where the state dict is kept between stages")
    ap.add_argument("--jitter", choices=sorted(JITTER), default="narrow")
    ap.add_argument("--detector-boxes", default="", help="also train on the boxes this ONNX detector finds in the train photos, labelled by the label box they match")
    ap.add_argument("--turn", type=float, default=0.0, help="share of crops cut around a tile turned up to 45 degrees")
    ap.add_argument("--synthetic", default="", help="a folder of synthetic scenes (synth.py scenes) to draw extra crops from")
    ap.add_argument("--synthetic-per-epoch", type=int, default=8000, help="synthetic crops per epoch, every code about equally likely")
    ap.add_argument("--rare-boost", type=float, default=1.0, help="kings/queens and jokers this many times as likely as other codes among the synthetic crops")
    ap.add_argument("--train-dir", default="", help="train photos from this labelled folder instead of shared/data/photos/train (a subset, as the GPU stage carried)")
    ap.add_argument("--limit", type=int, default=0, help="use only the first N train photos (the reproducibility check)")
    ap.add_argument("--negatives", type=int, default=0, help="crops an epoch of places where no tile is, to teach the extra not-a-tile output (half from the photos, half from the synthetic scenes)")
    ap.add_argument("--lying", type=float, default=0.0, help="share of crops turned a quarter to teach the extra output that says a tile lies across its crop")
    ap.add_argument("--squeeze", type=float, default=0.0, help="share of upright crops cut from a box widened toward square (and lying crops cut narrower): the orientation output learns the face, not the squeeze")
    ap.add_argument("--true-lying", action="store_true", help="teach each label's lying-across output from its sideways mark and whether its cut was turned (without it, every label is taught as not lying across)")
    ap.add_argument("--width", type=int, default=1, help="channels times this many in every conv block (1: 16-32-64-128)")
    ap.add_argument("--widen", type=int, default=1, help="the --resume state is of a net this many times narrower: widen it first (Net2WiderNet)")
    ap.add_argument("--set-contrast", type=float, default=0.0, help="weight of the within-set contrastive loss on the features (scenes of --synthetic, each one tile set)")
    ap.add_argument("--contrast-scenes", type=int, default=4, help="scenes a step for --set-contrast")
    ap.add_argument("--contrast-tiles", type=int, default=12, help="tiles of a scene a step for --set-contrast (each cut twice)")
    ap.add_argument("--name", default="tile_classifier", choices=["tile_classifier", "broad_classifier"],
                    help="the model written: the classifier every photo is read with, or the one a taught set is read with")
    ap.add_argument("--structure", type=float, default=0.0, help="weight of two outputs that carry the tiles' structure, trained beside the codes on the features and not exported: the suit (m p s z f k j, or a back) and the rank of a suited tile (1-9, a red five a 5)")
    ap.add_argument("--device", default="cpu", help="where the network trains: cpu (make train's, deterministic) or cuda (a machine with a GPU: faster, not byte for byte the CPU's)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: make train's; more only where determinism does not matter)")
    ap.add_argument("--workers", type=int, default=1, help="processes that cut each epoch's crops ahead of training (1: make train's, in order; more on a lent machine: not the same bytes)")
    ap.add_argument("--time-budget", type=float, default=0.0, help="train for this many seconds instead of --epochs, the rate warmed up then cosine-annealed over the time (a lent machine), the state saved after each epoch")
    ap.add_argument("--no-export", action="store_true", help="keep only the state dict (--save); export it later with --resume STATE --epochs 0 (a lent machine's torch exports another ONNX)")
    ap.add_argument("--heldout", default="", help="also print the crop accuracy per group on this labelled folder after each epoch (a check only: never trained on)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)  # at once: a stage runs for an hour before it exports
    if args.threads != 1:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    global jitter_shift, jitter_scale, turn_share, lying_share, squeeze_share, true_lying
    jitter_shift, jitter_scale = JITTER[args.jitter]
    turn_share = args.turn
    t0 = time.time()
    photos = load_dir(args.train_dir, args.workers) if args.train_dir else load_split("train", args.workers)
    train = [(img, boxes) for _, img, boxes in photos]
    if args.limit:
        train = train[:args.limit]
    dev = [(img, boxes) for _, img, boxes in load_split("dev")]
    print(f"loaded {len(train)} train / {len(dev)} dev photos in {time.time()-t0:.0f}s", flush=True)
    if args.detector_boxes:
        train = add_detector_boxes(train, args.detector_boxes)
        print(f"train boxes with the detector's: {sum(len(b) for _, b in train)} ({time.time()-t0:.0f}s)", flush=True)
    synth = []
    if args.synthetic:
        synth = [(img, boxes) for d in args.synthetic.split(",") for _, img, boxes in load_dir(d, args.workers) if boxes]
        print(f"synthetic scenes: {len(synth)} ({time.time()-t0:.0f}s)", flush=True)
    rng = random.Random(11)
    dx, dy, _ = make_crops(dev, rng, False)
    held = None
    if args.heldout:
        held = make_crops([(img, boxes) for _, img, boxes in load_dir(args.heldout)], random.Random(0), False)
    lying_share = args.lying
    squeeze_share = args.squeeze
    true_lying = args.true_lying
    n = len(CLASSES)
    bg = args.negatives > 0
    # forked before the network touches the GPU
    epochs = EpochPool(train, synth, args, bg, args.workers, t0) if args.workers > 1 else None
    net = TileNet(n, lying=lying_share > 0, background=bg, width=args.width)
    lying_col = n + (1 if bg else 0)   # the codes' (and not-a-tile) logits come first
    if args.from_onnx:
        load_onnx(net, args.from_onnx)
    elif args.resume:
        state = widen_fc(torch.load(args.resume, map_location="cpu"), n, bg, lying_share > 0)
        rng = random.Random(19)
        if args.widen > 1:
            state = widen_state(state, args.widen, rng)
        net.load_state_dict(state)
    # A state saved by a stage that began --from-onnx holds its BatchNorms
    # folded (the identity): it trains on only with them frozen, as that
    # stage did (trained on batch statistics, it starts from a broken net:
    # loss 14 where the stage ended near 3).
    frozen = bool(args.from_onnx) or folded(net)
    net.to(device)
    lr = args.lr or 3e-3
    groups_lr = [{"params": list(net.parameters()), "lr": lr}]
    structure = None
    if args.structure > 0:
        # A new layer on trained features: it learns at a first stage's rate.
        structure = nn.Linear(net.fc.in_features, len(SUITS) + 9).to(device)
        groups_lr.append({"params": list(structure.parameters()), "lr": max(lr, 3e-3)})
        suit_of, rank_of = (t.to(device) for t in structure_targets())
    opt = torch.optim.AdamW(groups_lr, lr=lr, weight_decay=1e-4)
    steps_per_epoch = None
    sched = None
    budget = Budget(args.time_budget, [g["lr"] for g in groups_lr]) if args.time_budget > 0 else None
    epoch = 0
    while epoch < args.epochs if budget is None else not budget.spent():
        if epochs is not None:
            x, y, lie, groups = epochs.next()
        else:
            x, y, lie, groups = epoch_data(train, synth, args, bg, rng, t0)
        if budget is not None and epoch == 0:
            budget.start = time.time()   # the clock runs from the first epoch's crops
        if sched is None and budget is None:
            steps_per_epoch = (len(x) + 127) // 128
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, [g["lr"] for g in groups_lr], total_steps=steps_per_epoch * args.epochs)
        net.train()
        if frozen:
            freeze_bn(net)
        perm = torch.randperm(len(x))
        tot, closs = 0.0, torch.zeros(())
        for i in range(0, len(x), 128):
            idx = perm[i:i + 128]
            yb = y[idx].to(device)
            e = net.drop(net.embed(to_input(x[idx].to(device), CLS_PRE)))  # net's forward in training, features kept
            out = net.fc(e)
            loss = F.cross_entropy(out[:, :lying_col], yb, label_smoothing=0.05)
            if structure is not None:
                st = structure(e)
                loss = loss + args.structure * (F.cross_entropy(st[:, :len(SUITS)], suit_of[yb], ignore_index=-100) +
                                                F.cross_entropy(st[:, len(SUITS):], rank_of[yb], ignore_index=-100))
            if lying_share > 0:
                loss = loss + F.binary_cross_entropy_with_logits(out[:, lying_col], lie[idx].to(device))
            if groups is not None:
                gx, gy, gg, off = groups
                a, b = off[i // 128], off[i // 128 + 1]
                if b - a > 1:
                    closs = set_contrast(net.embed(to_input(gx[a:b].to(device), CLS_PRE)), gy[a:b].to(device), gg[a:b].to(device))
                    loss = loss + args.set_contrast * closs
            opt.zero_grad()
            loss.backward()
            opt.step()
            if budget is None:
                sched.step()
            elif budget.step(opt):
                break
            tot += loss.item() * len(idx)
            if (i // 128) % 40 == 0:
                print(f"  step {i // 128} loss {loss.item():.3f}" + (f" within-set {closs.item():.3f}" if groups is not None else "") + f" ({time.time()-t0:.0f}s)", flush=True)
        acc = evaluate(net, dx, dy)
        print(f"epoch {epoch+1}/{args.epochs if budget is None else '-'} loss {tot/len(x):.4f} dev crop accuracy {acc:.4f} "
              f"({time.time()-t0:.0f}s)", flush=True)
        if held is not None:
            print("  held-out crops: " + group_accuracy(net, *held[:2]), flush=True)
        if budget is not None:   # a run on a lent machine can be cut off: keep each epoch's state
            torch.save({k: v.detach().cpu() for k, v in net.state_dict().items()}, args.save)
        epoch += 1
    if epochs is not None:
        epochs.close()
    net.cpu()
    torch.save(net.state_dict(), args.save)
    if not args.no_export:
        export(net, args, dx, dy)


def load_onnx(net, path):
    """Load an exported classifier back into net. The export folded each
    BatchNorm into the convolution before it: each BatchNorm becomes the
    identity (mean 0, variance 1 - eps, scale 1) holding the folded bias,
    and training keeps it frozen (freeze_bn) so that stays true."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [nd for nd in model.graph.node if nd.op_type == "Conv"]
    mods = list(net.features)
    pairs = [(mods[i], mods[i + 1]) for i in range(len(mods) - 1)
             if isinstance(mods[i], nn.Conv2d) and isinstance(mods[i + 1], nn.BatchNorm2d)]
    if len(convs) != len(pairs):
        raise SystemExit(f"{path}: {len(convs)} convolutions, the network has {len(pairs)}")
    gemm = [nd for nd in model.graph.node if nd.op_type == "Gemm"][0]
    with torch.no_grad():
        for nd, (conv, bn) in zip(convs, pairs):
            w = torch.from_numpy(init[nd.input[1]].copy())
            if w.shape != conv.weight.shape:
                raise SystemExit(f"{path}: convolution {nd.name} has shape {tuple(w.shape)}, want {tuple(conv.weight.shape)}")
            conv.weight.copy_(w)
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(init[nd.input[2]].copy()))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        fw, fb = init[gemm.input[1]], init[gemm.input[2]]
        if fw.shape != tuple(net.fc.weight.shape):
            raise SystemExit(f"{path}: the last layer is {fw.shape}, the network's {tuple(net.fc.weight.shape)}")
        net.fc.weight.copy_(torch.from_numpy(fw.copy()))
        net.fc.bias.copy_(torch.from_numpy(fb.copy()))


def folded(net):
    """Whether every BatchNorm of net is the identity load_onnx leaves: a
    state saved by a stage that began from an exported network."""
    bns = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    return bool(bns) and all(
        int(m.num_batches_tracked) == 0 and bool((m.running_mean == 0).all())
        and torch.equal(m.running_var, torch.full_like(m.running_var, 1 - m.eps)) for m in bns)


def freeze_bn(net):
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def export(net, args, dx, dy):
    """Write the ONNX model and its manifest. A net trained with negatives
    leaves its not-a-tile output behind here: that output taught the
    features what is not a tile, but read as a verdict it cut real tiles
    (dev: 70% of photos exactly right fell to 47-65% at any threshold; on
    a run in which the lying loss, by a bug since fixed, was put on that
    output too), and the photos' labels, which leave walls and discards
    out, make it noisy."""
    n = len(CLASSES)
    if net.fc.out_features == n + (1 if lying_share > 0 else 0) + 1:
        out = TileNet(n, lying=lying_share > 0, width=net.width)
        state = dict(net.state_dict())
        keep = list(range(n)) + ([n + 1] if lying_share > 0 else [])
        state["fc.weight"], state["fc.bias"] = state["fc.weight"][keep], state["fc.bias"][keep]
        out.load_state_dict(state)
        net = out
    net.eval()
    path = os.path.join(args.out, args.name + ".onnx")
    torch.onnx.export(net, torch.zeros(1, 3, CROP_H, CROP_W), path, opset_version=11,
                      input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}})
    width = add_features_output(path)
    acc = evaluate(net, dx, dy)
    sha = sha256_file(path)
    manifest = {
        "name": args.name,
        "file": args.name + ".onnx",
        "sha256": sha,
        "task": "classify one tile crop into a CONTRACT tile code" +
                (" (a player's taught set: its features feed the set's own head)" if args.name == "broad_classifier" else ""),
        "input": {"name": "input", "shape": [1, 3, CROP_H, CROP_W], "width": CROP_W, "height": CROP_H,
                  "channel_order": "BGR"},
        "preprocess": CLS_PRE,
        "output": {"name": "logits", "shape": [1, n + (1 if lying_share > 0 else 0)],
                   "activation": f"softmax over the first {n} logits (one per label)"},
        "labels": CLASSES,
        "opencv_tested": "4.6.0",
        "onnx_opset": 11,
        "training": {"script": "models/train/classifier.py", "recipe": "models/train/train.sh (all stages)", "last_stage": {k: v for k, v in vars(args).items() if k != "out"}, "seed": 7,
                     "data": DATA},
        "measured": {"dev_crop_accuracy": round(acc, 4), "dev_crops": len(dx),
                     "note": "accuracy on crops of the labelled dev boxes; end-to-end numbers are in models/README.md"},
        "licence_of_training_data": LICENCES,
        "attribution": PHOTO_ATTRIBUTION,
        "synthetic_data": SYNTHETIC,
    }
    manifest["features"] = {"name": "features", "size": width,
                            "meaning": "the pooled vector the last layer reads; taught tile sets fit their own classifier on it"}
    if lying_share > 0:
        manifest["lying_output"] = {"index": n, "activation": "sigmoid",
                                    "meaning": "the tile lies across the crop: turned a quarter from the crop's portrait frame"}
    write_manifest(os.path.join(args.out, args.name + ".json"), manifest)
    print(f"wrote {path} ({os.path.getsize(path)} bytes) dev crop accuracy {acc:.4f}", flush=True)


if __name__ == "__main__":
    main()
