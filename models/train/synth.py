#!/usr/bin/python3
"""Synthetic mahjong tile data for mjscan (see SYNTH.md).

  synth.py faces  --set NAME --out DIR [--rare none|train|heldout]
  synth.py grid   --set NAME --out grid.jpg [--seed N] [--no-flowers] [--no-extra] [--rare heldout]
  synth.py scenes --sets a,b,c --rare none|train|heldout --n N --seed S --out DIR [--quality Q]
  synth.py sheet  --set NAME --out sheet.png [--rare ...]     (contact sheet, for checking)

Run with Debian's /usr/bin/python3 (needs cv2 with freetype, rsvg-convert,
fonts-noto-cjk and kdegames-mahjongg-data-kf5). Same command, same bytes.
"""
import argparse
import os
import sys
import time

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth_art as A          # noqa: E402
import synth_faces as F        # noqa: E402
import synth_scene as S        # noqa: E402
import synth_raster as R       # noqa: E402
import synth_proc as P         # noqa: E402

cv2.setNumThreads(1)

TRAIN_SETS = ["default", "classic", "jade"]
# procedurally drawn faces (synth_proc): `proc` never draws with the held-out
# font family (AR PL UKai), `proc-heldout` draws only with it
PROC_SETS = {"proc": False, "proc-heldout": True}
RARE_VARIANTS = {"train": 8, "heldout": 4}
GRID_ROWS = [
    [f"{n}m" for n in range(1, 10)],
    [f"{n}p" for n in range(1, 10)],
    [f"{n}s" for n in range(1, 10)],
    [f"{n}z" for n in range(1, 8)],
    [f"{n}f" for n in range(1, 9)],          # optional (--no-flowers)
    ["0m", "0p", "0s", "0z"],                # optional (--no-extra)
    [f"{n}k" for n in range(1, 9)],          # with --rare: kings, queens
    [f"{n}j" for n in range(1, 10)],         # with --rare: jokers
]


def body_rgb(name):
    return F.BODY_COLOURS[name]


def proc_style(setname, *seed):
    """The drawn style of a procedural set (one imagined tile set), or None."""
    if setname not in PROC_SETS:
        return None
    P.check_fonts(PROC_SETS[setname])
    # the held-out set's styles come from a stream of their own, so that no
    # training scene shares a drawing with it (only the font family is new)
    tag = [31337, 1] if PROC_SETS[setname] else [31337]
    return P.make_style(np.random.default_rng(list(seed) + tag), heldout=PROC_SETS[setname])


def front_for(setname, code, rare, rng, back_colour=None, aug=None, style=None, one_set=False):
    """Front image for one tile instance. aug: (rng, front colour) for the
    training-only per-tile augmentation (`--rare train` scenes), else None.
    style: a procedural set's style (proc_style): its faces are drawn afresh,
    each from an RNG seeded by one draw of rng; backs get the varied textures."""
    if style is not None:
        if P.drawable(code):
            return P.front(code, np.random.default_rng(int(rng.integers(1 << 62))), style)
        if code == "0z":
            return F.back_front_train(back_colour if back_colour is not None else body_rgb("green"), rng)
    if aug is not None:
        arng, fcol = aug
        if code == "0z":
            return F.back_front_train(back_colour, arng)
        return F.train_front(setname, code, arng, fcol)
    if code == "0z":
        return F.back_front(back_colour if back_colour is not None else body_rgb("green"), rng)
    if code[1] in "kj":
        nvar = RARE_VARIANTS[rare]
        variant = int(rng.integers(nvar))
        # one set (one_set): one drawing of each rare code, as a real set has
        return F.rare_front(setname, code, rare, 0 if one_set else variant)
    return F.tileset_front(setname, code)


# ----------------------------------------------------------------- faces
def render_single(front, back=False, body=(60, 130, 40), th=256):
    """One tile with a little visible body at the bottom, BGRA (alpha from two backgrounds)."""
    tw = th * F.FW / F.FH
    off = (0.0, th * 0.09)
    W, H = int(tw + 12), int(th + off[1] + 12)
    outs = []
    for bg in (0.0, 255.0):
        c = np.full((H, W, 3), bg, np.float32)
        t = S.Tile("x", front, cx=W / 2, cy=6 + th / 2, th=th, back=back)
        S.draw_tile(c, t, body, off, 0.5, (1, 1, 1))
        outs.append(c)
    black, white = outs
    alpha = np.clip(1 - (white - black).mean(axis=2) / 255.0, 0, 1)
    col = np.where(alpha[:, :, None] > 1e-3, black / np.maximum(alpha[:, :, None], 1e-3), 0)
    return np.dstack([np.clip(col, 0, 255), alpha * 255]).round().astype(np.uint8)


def cmd_faces(args):
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(A.stable_seed("faces", args.set))
    style = proc_style(args.set, 0)
    for code in F.codes_for(args.rare):
        rare = args.rare if code[1] in "kj" else None
        if code[1] in "kj":
            front = F.rare_front(args.set, code, rare, 0)
        else:
            front = front_for(args.set, code, rare, rng, body_rgb("green"), style=style)
        img = render_single(front, back=(code == "0z"))
        cv2.imwrite(os.path.join(args.out, code + ".png"), img)
    print(f"wrote {len(F.codes_for(args.rare))} faces to {args.out}")


def cmd_sheet(args):
    rng = np.random.default_rng(0)
    arng = np.random.default_rng([0, 104729])
    cells = []
    codes = F.codes_for(args.rare)
    for k, code in enumerate(codes * max(1, args.aug)):
        if args.set in PROC_SETS:   # a new drawn style each round
            style = proc_style(args.set, 0, k // len(codes))
            body = F.BACK_COLOURS_X[int(arng.integers(len(F.BACK_COLOURS_X)))]
            if code[1] in "kj":
                front = F.rare_front(args.set, code, args.rare, 0)
            else:
                front = front_for(args.set, code, None, rng, body, style=style)
        elif args.aug:   # training-only per-tile augmentation, as in --rare train scenes
            fcol = F.TRAIN_FRONTS[int(arng.integers(len(F.TRAIN_FRONTS)))]
            back = F.BACK_COLOURS_X[int(arng.integers(len(F.BACK_COLOURS_X)))]
            front = front_for(args.set, code, args.rare, rng, back, (arng, fcol))
        elif code[1] in "kj":
            front = F.rare_front(args.set, code, args.rare, 0)
        else:
            front = front_for(args.set, code, None, rng, body_rgb("green"))
        img = render_single(front, back=(code == "0z"), th=160)
        cell = np.full((200, 140, 3), 170, np.uint8)
        a = img[:, :, 3:4] / 255.0
        h, w = img.shape[:2]
        cell[4:4 + h, 4:4 + w] = (img[:, :, :3] * a + cell[4:4 + h, 4:4 + w] * (1 - a)).astype(np.uint8)
        cv2.putText(cell, code, (4, 196), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 255), 1)
        cells.append(cell)
    per = 10
    while len(cells) % per:
        cells.append(np.full((200, 140, 3), 255, np.uint8))
    sheet = np.vstack([np.hstack(cells[i:i + per]) for i in range(0, len(cells), per)])
    cv2.imwrite(args.out, sheet)


# ----------------------------------------------------------------- labels
def write_labels(path, labels):
    with open(path, "w") as f:
        for code, box, r in labels:
            f.write(f"{code} {box[0]} {box[1]} {box[2]} {box[3]}" + (" r" if r else "") + "\n")


def render(tiles, table, rng, ow, oh, body, offset, ivory_frac, tint, Hm, shadow=True,
           photo_strength=1.0, rack=None):
    """Draw tiles on the table canvas, warp to the output, return (uint8 img, labels)."""
    canvas = table
    if rack is not None:
        pts, col = rack
        S._fill(canvas, pts, col)
    # draw order: far to near along the body offset direction
    od = np.array(offset, np.float32)
    order = sorted(range(len(tiles)), key=lambda i: tiles[i].cx * od[0] + tiles[i].cy * od[1])
    if shadow:
        # shadow footprints: outlines of the tiles (cheap: a rough box per tile)
        polys = []
        for t in tiles:
            w = t.th * (F.FW / F.FH if t.quarter % 2 == 0 else F.FH / F.FW)
            h = t.th if t.quarter % 2 == 0 else t.th * F.FW / F.FH
            a = np.deg2rad(t.angle)
            R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
            c = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32) @ R.T
            c += np.array([t.cx, t.cy], np.float32)
            polys.append(np.vstack([c, c + od]))
        th_mean = float(np.mean([t.th for t in tiles])) if tiles else 50.0
        light = (rng.uniform(-0.15, 0.15) * th_mean, rng.uniform(0.0, 0.2) * th_mean)
        S.shadow_pass(canvas, polys, light, rng.uniform(0.2, 0.5), max(1.0, th_mean * rng.uniform(0.05, 0.15)))
    outlines = [None] * len(tiles)
    for i in order:
        t = tiles[i]
        outlines[i] = S.draw_tile(canvas, t, body, offset, ivory_frac, tint)
    img = cv2.warpPerspective(canvas, Hm, (ow, oh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    img = S.photometric(img, rng, photo_strength)
    labels = []
    for t, pts in zip(tiles, outlines):
        if not t.label:
            continue
        box = S.box_of(S.project(pts, Hm), ow, oh)
        if box is not None:
            labels.append((t.code, box, t.quarter % 2 == 1))
    return img, labels


# ------------------------------------------------------------------ grid
def cmd_grid(args):
    rng = np.random.default_rng(A.stable_seed("grid", args.set, args.seed))
    rows = GRID_ROWS[:4] + ([GRID_ROWS[4]] if not args.no_flowers else []) + ([GRID_ROWS[5]] if not args.no_extra else [])
    if args.rare != "none":
        rows += GRID_ROWS[6:]
    ow, oh = 1280, 960
    cw, ch = ow, oh
    Hm = S.random_homography(rng, cw, ch, ow, oh, strength=0.35)
    inv = np.linalg.inv(Hm)
    vis = S.project(np.float32([[0, 0], [ow, 0], [ow, oh], [0, oh]]), inv)
    x0, x1 = max(vis[0, 0], vis[3, 0]), min(vis[1, 0], vis[2, 0])
    y0, y1 = max(vis[0, 1], vis[1, 1]), min(vis[2, 1], vis[3, 1])
    ncol, nrow = 9, len(rows)
    gapx, gapy = 0.18, 0.32            # in tile heights
    tw_u = F.FW / F.FH
    th = min((x1 - x0) * 0.88 / (ncol * tw_u + (ncol - 1) * gapx),
             (y1 - y0) * 0.88 / (nrow + (nrow - 1) * gapy))
    body_name = ["green", "blue", "yellow", "orange", "darkred", "teal"][int(rng.integers(6))]
    body = body_rgb(body_name)
    offset = (rng.uniform(-0.03, 0.03) * th, rng.uniform(0.1, 0.18) * th)
    gx0 = (x0 + x1) / 2 - (ncol * tw_u + (ncol - 1) * gapx) * th / 2
    gy0 = (y0 + y1) / 2 - (nrow + (nrow - 1) * gapy) * th / 2
    tiles = []
    style = proc_style(args.set, args.seed)
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            cx = gx0 + (c * (tw_u + gapx) + tw_u / 2) * th
            cy = gy0 + (r * (1 + gapy) + 0.5) * th
            if code[1] in "kj":   # one drawing of each, as a real set has
                front = F.rare_front(args.set, code, args.rare, 0)
            else:
                front = front_for(args.set, code, None, rng, body, style=style)
            tiles.append(S.Tile(code, front, 0, rng.uniform(-1.5, 1.5), cx + rng.uniform(-1, 1) * 0.02 * th,
                                cy + rng.uniform(-1, 1) * 0.02 * th, th, back=(code == "0z")))
    table = S.table_texture(rng, ch, cw)
    img, labels = render(tiles, table, rng, ow, oh, body, offset, 0.5, (1, 1, 1), Hm, photo_strength=0.5)
    img = np.clip(img + rng.normal(0, 1.5, img.shape).astype(np.float32), 0, 255).astype(np.uint8)
    cv2.imwrite(args.out, img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    write_labels(os.path.splitext(args.out)[0] + ".txt", labels)
    print(f"wrote {args.out} ({len(labels)} tiles)")


# ---------------------------------------------------------------- scenes
ORD = A.ORDINARY
SUITED = [c for c in ORD if c[1] in "mps"]


class Sampler:
    def __init__(self, rare, flowers=True):
        self.rare = rare
        w_red = 0.45 if rare != "heldout" else 1.0
        w_kj = 0.36 if rare != "heldout" else 0.85
        codes = list(ORD) + ["0m", "0p", "0s"]
        weights = [1.0] * len(ORD) + [w_red] * 3
        if rare in ("train", "heldout"):
            codes += [f"{n}j" for n in range(1, 10)] + [f"{n}k" for n in range(1, 9)]
            weights += [w_kj] * 9 + [w_kj * (0.5 if rare == "train" else 0.8)] * 8
        self.codes = codes
        self.p = np.array(weights) / sum(weights)
        bonus = list(A.FLOWERS) if flowers else []
        bw = [1.0] * len(bonus)
        if rare in ("train", "heldout"):
            bonus += [f"{n}k" for n in range(1, 9)]
            bw += [1.5 if rare == "train" else 2.0] * 8
        self.bonus = bonus
        self.bp = np.array(bw) / sum(bw)

    def tile(self, rng):
        return self.codes[rng.choice(len(self.codes), p=self.p)]

    def bonus_tile(self, rng):
        if not self.bonus:  # a riichi set has no flowers
            return self.tile(rng)
        return self.bonus[rng.choice(len(self.bonus), p=self.bp)]

    def any_tile(self, rng):
        return self.bonus_tile(rng) if self.bonus and rng.random() < 0.2 else self.tile(rng)


def meld(rng, smp):
    """A called meld: list of (code, quarter)."""
    r = rng.random()
    if r < 0.25:      # concealed kong: back face face back
        c = smp.tile(rng)
        return [("0z", 0), (c, 0), (c, 0), ("0z", 0)]
    if r < 0.55:      # chow
        s = "mps"[int(rng.integers(3))]
        n = int(rng.integers(1, 8))
        cs = [f"{n + k}{s}" for k in range(3)]
        cs = ["0" + s if (c[0] == "5" and rng.random() < 0.35) else c for c in cs]
    elif r < 0.85:    # pung
        c = smp.tile(rng)
        cs = [c] * 3
    else:             # open kong
        c = smp.tile(rng)
        cs = [c] * 4
    if smp.rare in ("train", "heldout") and rng.random() < 0.25:
        cs[int(rng.integers(len(cs)))] = f"{int(rng.integers(1, 10))}j"
    side = int(rng.integers(len(cs)))
    q = 1 if rng.random() < 0.5 else 3
    return [(c, q if i == side else 0) for i, c in enumerate(cs)]


# The layouts every scene draws from (build_layout weighs them), and those
# --kinds may ask for besides them: rows of plain backs touching (a wall,
# the dead wall, a concealed kong's row) and close-ups of a few large
# tiles, 60% of them lying across. The
# broad detector boxed both badly: a row of backs as one wide box, a large
# lying tile as two or three square parts (models/README.md, "Doubtful
# backs and blank dragons").
KINDS = ("game", "block", "scatter", "long")
EXTRA_KINDS = ("backs", "close")


def build_layout(rng, smp, kinds=None):
    """Rows of tiles in tile-height units: list of rows, row = list of (code, quarter, gap_before).
    kinds: the layouts to draw from, equally (default: the four, as weighted below)."""
    if kinds:
        kind = kinds[int(rng.integers(len(kinds)))]
    else:
        kind = rng.choice(list(KINDS), p=[0.5, 0.22, 0.16, 0.12])
    rows = []
    g = lambda: rng.uniform(0.01, 0.07)
    if kind == "game":
        if rng.random() < 0.35:   # discards: rows of 6
            for _ in range(int(rng.integers(1, 4))):
                row = [(smp.tile(rng), 0, g()) for _ in range(int(rng.integers(3, 7)))]
                if rng.random() < 0.3:
                    k = int(rng.integers(len(row)))
                    row[k] = (row[k][0], 1, row[k][2])
                rows.append(row)
        if rng.random() < 0.3:    # dora indicators on the dead wall
            n = int(rng.integers(5, 8))
            k = int(rng.integers(1, 4))
            rows.append([(smp.tile(rng) if i in (2, 2 + k - 1) and rng.random() < 0.8 or i == 2 else "0z", 0, g())
                         for i in range(n)])
        hand = [(smp.tile(rng), 0, g()) for _ in range(int(rng.integers(10, 15)))]
        if rng.random() < 0.3:
            hand[-1] = (hand[-1][0], 0, rng.uniform(0.2, 0.5))   # the drawn tile, set apart
        melds = []
        if rng.random() < 0.6:
            for _ in range(int(rng.integers(1, 4))):
                m = meld(rng, smp)
                melds += [(c, q, g() if i else rng.uniform(0.15, 0.4)) for i, (c, q) in enumerate(m)]
        if melds and rng.random() < 0.5 and len(hand) + len(melds) <= 18:
            hand = hand[:max(4, len(hand) - len(melds) + 3)] + melds
        elif melds:
            rows.append(melds)
        rows.append(hand)
        if rng.random() < 0.5:    # flowers set aside
            rows.append([(smp.bonus_tile(rng), 0, g()) for _ in range(int(rng.integers(1, 5)))])
    elif kind == "block":
        nr, nc = int(rng.integers(1, 6)), int(rng.integers(2, 7))
        for _ in range(nr):
            rows.append([(smp.any_tile(rng), 0, g()) for _ in range(nc)])
        if rng.random() < 0.35:
            r = int(rng.integers(len(rows)))
            rows[r] = [("0z", 0, gg) for _, _, gg in rows[r]]
    elif kind == "backs":
        for _ in range(int(rng.integers(1, 5))):
            row = []
            for _ in range(int(rng.integers(1, 4))):
                tight = rng.uniform(0.0, 0.015)
                row += [("0z", 0, tight) for _ in range(int(rng.integers(2, 9)))]
                row += [(smp.any_tile(rng), 0, g()) for _ in range(int(rng.integers(0, 4)))]
            rows.append(row)
    elif kind == "long":
        rows.append([(smp.any_tile(rng), 0, g()) for _ in range(int(rng.integers(14, 22)))])
        if rng.random() < 0.5:
            rows.append([(smp.tile(rng) if rng.random() < 0.6 else "0z", 0, g())
                         for _ in range(int(rng.integers(8, 18)))])
    return kind, rows


def row_geometry(row):
    """x centres (tile-height units) of a row's tiles, and its width."""
    tw = F.FW / F.FH
    xs, x = [], 0.0
    for i, (code, q, gap) in enumerate(row):
        w = tw if q % 2 == 0 else 1.0
        if i:
            x += gap
        xs.append(x + w / 2)
        x += w
    return xs, x


def make_scene(idx, seed, sets, rare, quality=None, variety=False, dark=0.0, one_style=False, kinds=None):
    rng = np.random.default_rng([seed, idx, 7919])
    setname = sets[int(rng.integers(len(sets)))]
    smp = Sampler(rare, flowers=setname not in R.FLUFFY and setname not in R.FLOWERLESS)
    r = rng.random()
    ow, oh = (640, 640) if r < 0.85 else [(800, 800), (960, 720), (720, 960), (1024, 768)][int(rng.integers(4))]
    cw, ch = ow, oh
    Hm = S.random_homography(rng, cw, ch, ow, oh)
    inv = np.linalg.inv(Hm)
    vis = S.project(np.float32([[0, 0], [ow, 0], [ow, oh], [0, oh]]), inv)
    vx0, vx1 = max(vis[0, 0], vis[3, 0]), min(vis[1, 0], vis[2, 0])
    vy0, vy1 = max(vis[0, 1], vis[1, 1]), min(vis[2, 1], vis[3, 1])
    vw, vh = vx1 - vx0, vy1 - vy0
    k_out = ow / vw     # output px per canvas px (about)

    body_name = list(F.BODY_COLOURS)[int(rng.integers(len(F.BODY_COLOURS)))]
    body = np.array(body_rgb(body_name), np.float32) * rng.uniform(0.85, 1.1)
    body = tuple(float(c) for c in np.clip(body, 0, 255))
    if setname in F.FRONT_COLOURS:
        tint = (1, 1, 1)
    else:
        tint = tuple(rng.uniform(0.9, 1.03, 3) * np.array([0.97, 1.0, 1.02]))
    ivory_frac = rng.uniform(0.3, 0.7)
    aug = None
    if rare == "train" and variety:
        # training-only variety from its own RNG: the main rng's draws (and so
        # the held-out and egypt outputs) are untouched by it
        arng = np.random.default_rng([seed, idx, 104729])
        fcol = F.TRAIN_FRONTS[int(arng.integers(len(F.TRAIN_FRONTS)))] if arng.random() < 0.6 else F.IVORY
        if arng.random() < 0.5:
            b = np.array(F.BACK_COLOURS_X[int(arng.integers(len(F.BACK_COLOURS_X)))], np.float32)
            body = tuple(float(c) for c in np.clip(b * arng.uniform(0.8, 1.15, 3), 0, 255))
        if dark > 0 and np.random.default_rng([seed, idx, 7777]).random() < dark:
            # dark-fronted tiles with light art (a set like that is held out:
            # testdata/synth/fluffy-black); its own RNG, so --dark 0 is unchanged
            drng = np.random.default_rng([seed, idx, 7778])
            fcol = F.DARK_FRONTS[int(drng.integers(len(F.DARK_FRONTS)))]
        aug = (arng, fcol)

    # one_style: every scene shows the same drawn set (one player's tiles),
    # not a set of its own each
    style = proc_style(setname, seed) if one_style else proc_style(setname, seed, idx)
    if one_style and style is None and aug is None:
        # one physical set of a tile art: one body (and so back) colour, one
        # tint and one front layer in every scene, and one drawing of each
        # rare code; the light, the pose and the camera still change. From
        # an RNG of its own, after the scene's draws, so the scenes are laid
        # out as without --one-style.
        orng = np.random.default_rng([seed, 6161])
        body_name = list(F.BODY_COLOURS)[int(orng.integers(len(F.BODY_COLOURS)))]
        body = np.array(body_rgb(body_name), np.float32) * orng.uniform(0.85, 1.1)
        body = tuple(float(c) for c in np.clip(body, 0, 255))
        if setname not in F.FRONT_COLOURS:
            tint = tuple(orng.uniform(0.9, 1.03, 3) * np.array([0.97, 1.0, 1.02]))
        ivory_frac = orng.uniform(0.3, 0.7)
    if style is not None:
        # a drawn set: its own body colour, thickness and layers, from an RNG
        # of its own (the other sets' scenes are unchanged)
        prng = np.random.default_rng([seed, 4242] if one_style else [seed, idx, 4242])
        b = np.array(F.BACK_COLOURS_X[int(prng.integers(len(F.BACK_COLOURS_X)))], np.float32)
        body = tuple(float(c) for c in np.clip(b * prng.uniform(0.8, 1.15, 3), 0, 255))
        ivory_frac = prng.uniform(0.15, 0.85)
        thick = prng.uniform(0.6, 1.5)
    kind, rows = build_layout(rng, smp, kinds)
    tiles = []
    # target tile height in output px
    u = rng.random()
    th_out = np.exp(rng.uniform(np.log(35), np.log(150))) if u < 0.85 else np.exp(rng.uniform(np.log(16), np.log(35)))
    off_dir = np.array([rng.uniform(-0.12, 0.12), rng.uniform(0.04, 0.26) * (1 if rng.random() < 0.85 else -0.6)])
    if kind == "close":   # a few tiles photographed from near
        th_out = np.exp(rng.uniform(np.log(80), np.log(260)))
    if kind in ("scatter", "close"):
        n = int(rng.integers(5, 20)) if kind == "scatter" else int(rng.integers(2, 7))
        th = th_out / k_out
        th = min(th, np.sqrt(vw * vh / (n * 2.2 * 0.75)))
        placed = []
        for _ in range(n):
            for _try in range(30):
                cx, cy = rng.uniform(vx0 + th * 0.6, vx1 - th * 0.6), rng.uniform(vy0 + th * 0.6, vy1 - th * 0.6)
                if all((cx - a) ** 2 + (cy - b) ** 2 > (th * 1.25) ** 2 for a, b in placed):
                    break
            else:
                continue
            placed.append((cx, cy))
            code = smp.any_tile(rng) if rng.random() < 0.85 else "0z"
            q = int(rng.choice(4, p=[0.45, 0.2, 0.15, 0.2] if kind == "scatter" else [0.3, 0.3, 0.1, 0.3]))
            tiles.append((code, q, rng.uniform(-25, 25), cx, cy, th, -1))
    else:
        upside = [rng.random() < 0.12 for _ in rows]
        geo = [row_geometry(r) for r in rows]
        width = max(w for _, w in geo)
        row_gap = rng.uniform(0.15, 0.6) + abs(off_dir[1])
        height = len(rows) + (len(rows) - 1) * row_gap
        angle = rng.normal(0, 4) if rng.random() < 0.85 else rng.uniform(-30, 30)
        ca, sa = np.cos(np.deg2rad(angle)), np.sin(np.deg2rad(angle))
        bw = abs(ca) * width + abs(sa) * height
        bh = abs(sa) * width + abs(ca) * height
        th = th_out / k_out
        fit = 0.95 if rng.random() < 0.85 else 1.25   # sometimes a row runs off the edge
        th = min(th, vw * fit / bw, vh * fit / (bh + 0.3))
        cx0 = rng.uniform(vx0 + bw * th / 2, max(vx0 + bw * th / 2, vx1 - bw * th / 2)) if bw * th < vw else (vx0 + vx1) / 2
        cy0 = rng.uniform(vy0 + bh * th / 2, max(vy0 + bh * th / 2, vy1 - bh * th / 2)) if bh * th < vh else (vy0 + vy1) / 2
        jit = 2.0 if rng.random() < 0.8 else 8.0
        for ri, (row, (xs, w)) in enumerate(zip(rows, geo)):
            align = rng.uniform(0, width - w)
            ry = ri * (1 + row_gap) + 0.5 - height / 2
            for (code, q, _), x in zip(row, xs):
                lx = align + x - width / 2
                ly = ry + (0.5 - 0.5 * F.FW / F.FH if q % 2 else 0)   # sideways tiles sit on the row's bottom line
                if upside[ri]:
                    q = (q + 2) % 4
                px = cx0 + (lx * ca - ly * sa) * th
                py = cy0 + (lx * sa + ly * ca) * th
                tiles.append((code, q, angle + rng.uniform(-jit, jit), px, py, th, ri))
    tile_objs = []
    for code, q, ang, px, py, th_, _ in tiles:
        front = front_for(setname, code, rare, rng, body, aug, style, one_set=one_style)
        tile_objs.append(S.Tile(code, front, q, ang, px, py, th_, back=(code == "0z")))
    th_mean = np.mean([t.th for t in tile_objs]) if tile_objs else 40
    offset = tuple(off_dir * th_mean * (thick if style is not None else 1.0))
    rack = None
    if kind == "game" and rng.random() < 0.3 and tiles:
        longest = max(range(len(rows)), key=lambda r: len(rows[r]))
        pts = np.array([[t.cx, t.cy] for t, tt in zip(tile_objs, tiles) if tt[6] == longest], np.float32)
        hull = cv2.convexHull(pts)[:, 0, :]
        c = hull.mean(0)
        rack_pts = c + (hull - c) * 1.0
        rack_pts = cv2.convexHull(np.vstack([rack_pts + np.float32([dx, dy]) for dx in (-th_mean * 0.6, th_mean * 0.6)
                                             for dy in (-th_mean * 0.2, th_mean * 0.85)]))[:, 0, :]
        rack = (rack_pts, tuple(float(v) for v in [(40, 40, 40), (225, 225, 225), (60, 110, 40), (150, 90, 40)][int(rng.integers(4))]))
    table = S.table_texture(rng, ch, cw)
    img, labels = render(tile_objs, table, rng, ow, oh, body, offset, ivory_frac, tint, Hm, rack=rack)
    out = S.degrade(img, rng)
    q = quality if quality else int(rng.integers(50, 96))
    return out, labels, q, setname


def cmd_scenes(args):
    sets = args.sets.split(",")
    kinds = args.kinds.split(",") if args.kinds else None
    unknown = sorted(set(kinds or []) - set(KINDS + EXTRA_KINDS))
    if unknown:
        sys.exit(f"--kinds: no layout {', '.join(unknown)} ({', '.join(KINDS + EXTRA_KINDS)})")
    os.makedirs(args.out, exist_ok=True)
    counts = {}
    t0 = time.time()
    for i in range(args.n):
        img, labels, q, setname = make_scene(i, args.seed, sets, args.rare, args.quality, args.variety, args.dark, args.one_style,
                                             kinds)
        stem = f"synth_{args.seed}_{i:05d}"
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        with open(os.path.join(args.out, stem + ".jpg"), "wb") as f:
            f.write(buf.tobytes())
        write_labels(os.path.join(args.out, stem + ".txt"), labels)
        for code, _, r in labels:
            counts[code] = counts.get(code, 0) + 1
            if r:
                counts["(r)"] = counts.get("(r)", 0) + 1
        if (i + 1) % 100 == 0:
            print(f"{i + 1}/{args.n} scenes, {time.time() - t0:.0f}s", file=sys.stderr)
    order = F.codes_for("train") + ["(r)"]
    with open(os.path.join(args.out, "COUNTS.txt"), "w") as f:
        for c in order:
            if c in counts:
                f.write(f"{c} {counts[c]}\n")
    print(f"wrote {args.n} scenes to {args.out} in {time.time() - t0:.1f}s; "
          f"{sum(v for k, v in counts.items() if k != '(r)')} tiles")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("faces")
    p.add_argument("--set", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--rare", default="none", choices=["none", "train", "heldout"])
    p = sub.add_parser("sheet")
    p.add_argument("--set", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--rare", default="train", choices=["none", "train", "heldout"])
    p.add_argument("--aug", type=int, default=0, help="N rounds of the training-only per-tile augmentation")
    p = sub.add_parser("grid")
    p.add_argument("--set", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-flowers", action="store_true")
    p.add_argument("--no-extra", action="store_true")
    p.add_argument("--rare", default="none", choices=["none", "train", "heldout"], help="also rows of kings/queens and jokers, drawn in this style")
    p = sub.add_parser("scenes")
    p.add_argument("--sets", default=",".join(TRAIN_SETS))
    p.add_argument("--rare", default="train", choices=["none", "train", "heldout"])
    p.add_argument("--n", type=int, default=1500)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quality", type=int, default=None, help="fixed JPEG quality (default: random 50-95)")
    p.add_argument("--dark", type=float, default=0.0, help="with --variety: share of scenes whose tiles have dark fronts and light art")
    p.add_argument("--variety", action="store_true", help="with --rare train: per-tile style variety (hue, strokes, fronts, backs, fonts of the drawn classes)")
    p.add_argument("--one-style", action="store_true", help="every scene shows one set, as a player's photos of their own tiles do: one drawn style (proc, proc-heldout); for a tile art, one body and back colour, one tint and one drawing of each rare code")
    p.add_argument("--kinds", default="", help="layouts to draw from, comma-separated: " + ", ".join(KINDS + EXTRA_KINDS) + " (default: the first four, weighted)")
    p.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    {"faces": cmd_faces, "sheet": cmd_sheet, "grid": cmd_grid, "scenes": cmd_scenes}[args.cmd](args)


if __name__ == "__main__":
    main()
