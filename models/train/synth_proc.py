"""Procedurally drawn tile faces for synth.py (the `proc` and `proc-heldout`
sets): every face is drawn from scratch, no tile set's art, for domain
randomisation across tile designs (issue 17, section 1).

A *style* is one imagined tile set (front colour, pip and stick designs,
palette, fonts, stroke weight, which variant of each tile); a scene draws
one style (`make_style`, from the scene's own RNG) and each tile's face
from an RNG of its own (`front`), with small per-tile jitter (pip size and
position, glyph warp, art scale and offset). Drawn at 3x and shrunk to the
FW x FH front of synth_faces, then shaded and masked like its fronts.

Codes drawn: 1m-9m (a CJK numeral, 五 or 伍, above 萬 or 万), 1p-9p (pips of
eight designs in the standard arrangements and their variants), 1s-9s (sticks
of five designs; the 1 as a bird or a single stick), 1z-4z (東南西北, with or
without a small Latin letter), 5z (blank, framed, or blue-framed), 6z (發/发),
7z (中), 0m/0p/0s (the five all red), 1f-8f (梅蘭菊竹 春夏秋冬 with a corner
numeral, as a big character or a small picture with the character). Kings,
queens, jokers and backs are left to synth_faces (font-drawn fronts and
body-coloured backs).

Fonts: every CJK font Debian packages here (scripts/setup.sh --train), see
TRAIN_FONTS; AR PL UKai (a brush style) is kept out of `proc`: only
`proc-heldout` draws with it (testdata/synth/proc-heldout).
"""
import os

import cv2
import numpy as np

import synth_art as A
import synth_faces as F

SS = 3                                   # supersampling of the drawing
CW, CH = F.FW * SS, F.FH * SS            # drawing canvas
MARGIN = 0.11                            # art box margin, share of FW

# (file, face index of a .ttc) -- a fixed list, so the same command gives the
# same bytes; faces of one family count as one family for the held-out rule.
_N = "/usr/share/fonts/opentype/noto/"
TRAIN_FONTS = [
    (_N + "NotoSansCJK-Regular.ttc", 0), (_N + "NotoSansCJK-Regular.ttc", 3),
    (_N + "NotoSansCJK-Bold.ttc", 0), (_N + "NotoSansCJK-Bold.ttc", 2),
    (_N + "NotoSerifCJK-Regular.ttc", 0), (_N + "NotoSerifCJK-Regular.ttc", 3),
    (_N + "NotoSerifCJK-Bold.ttc", 0), (_N + "NotoSerifCJK-Bold.ttc", 2),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0), ("/usr/share/fonts/truetype/arphic/uming.ttc", 2),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
    ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", 0),
    ("/usr/share/fonts/truetype/takao-gothic/TakaoGothic.ttf", 0),
    ("/usr/share/fonts/truetype/takao-mincho/TakaoMincho.ttf", 0),
    ("/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf", 0),
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0),
]
# the held-out family: never drawn by `proc`
HELDOUT_FONTS = [("/usr/share/fonts/truetype/arphic/ukai.ttc", 0), ("/usr/share/fonts/truetype/arphic/ukai.ttc", 2)]
LATIN_FONT = (_N + "NotoSansCJK-Bold.ttc", 0)

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWER_CHARS = "梅蘭菊竹春夏秋冬"

# palettes (BGR)
BLUES = [(150, 70, 20), (120, 50, 10), (190, 110, 30), (110, 60, 40), (160, 90, 60)]
GREENS = [(40, 120, 30), (30, 90, 20), (60, 140, 60), (70, 120, 0), (40, 100, 60)]
REDS = [(30, 30, 190), (25, 25, 150), (40, 40, 220), (50, 20, 170), (20, 40, 180)]
DARKS = [(25, 25, 25), (40, 30, 30), (60, 30, 20), (20, 40, 20), (50, 50, 60)]
LIGHT_FRONTS = [F.IVORY, (238, 240, 240), (246, 248, 248), (205, 232, 212), (232, 222, 200),
                (225, 236, 244), (215, 235, 225), (200, 225, 235), (240, 235, 225), (220, 220, 220)]
DARK_FRONTS = [(30, 30, 30), (60, 30, 20), (25, 55, 25), (30, 30, 90), (70, 60, 60), (45, 25, 55)]

PIP_DESIGNS = ["filled", "ring", "concentric", "target", "flower", "coin", "wheel", "dotring"]
STICK_DESIGNS = ["segmented", "outline", "double", "leaf", "bead"]


def _missing(paths):
    return [p for p, _ in paths if not os.path.exists(p)]


def check_fonts(heldout=False):
    miss = _missing(HELDOUT_FONTS if heldout else TRAIN_FONTS + [LATIN_FONT])
    if miss:
        raise SystemExit("missing fonts (install them with scripts/setup.sh --train): " + ", ".join(sorted(set(miss))))


# ------------------------------------------------------------------ glyphs
_ft = {}
_masks = {}
TOFU = "\U000F0000"    # a code point no font here has: its drawing is the font's "missing" box


def _font(key):
    if key not in _ft:
        f = cv2.freetype.createFreeType2()
        f.loadFontData(key[0], key[1])
        _ft[key] = f
    return _ft[key]


def _raw_mask(key, text, px=160):
    k = (key, text, px)
    if k not in _masks:
        _masks[k] = A.ink_crop(_font(key), text, px)
    return _masks[k]


def has_glyph(key, ch):
    m = _raw_mask(key, ch)
    if m is None:
        return False
    t = _raw_mask(key, TOFU)
    return t is None or m.shape != t.shape or not np.array_equal(m, t)


def glyph(key, text, fallback):
    """Mask of text in font key, or in the fallback font where key lacks a glyph."""
    if all(has_glyph(key, ch) for ch in text):
        return _raw_mask(key, text)
    return _raw_mask(fallback, text)


def warp_mask(mask, rng, amount):
    """Jittered strokes: a smooth random displacement of the glyph."""
    if amount <= 0:
        return mask
    h, w = mask.shape
    g = rng.normal(0, 1, (2, 4, 4)).astype(np.float32)
    dx = cv2.resize(g[0], (w, h), interpolation=cv2.INTER_CUBIC) * amount * max(h, w) / 100
    dy = cv2.resize(g[1], (w, h), interpolation=cv2.INTER_CUBIC) * amount * max(h, w) / 100
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return cv2.remap(mask, xx + dx, yy + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def weigh(mask, k):
    """Stroke weight: grow (k > 0) or shrink (k < 0) by |k| px at 160 px."""
    if k == 0:
        return mask
    e = np.ones((2 * abs(k) + 1, 2 * abs(k) + 1), np.uint8)
    return cv2.dilate(mask, e) if k > 0 else cv2.erode(mask, e)


def put_mask(canvas, mask, box, colour, align="centre"):
    """Blend mask (uint8) into canvas inside box (x0, y0, x1, y1), aspect kept."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    h, w = mask.shape
    s = min(bw / w, bh / h)
    nw, nh = max(1, int(round(w * s))), max(1, int(round(h * s)))
    m = cv2.resize(mask, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    x = int(round(x0 + (bw - nw) / 2))
    y = int(round(y0 + (bh - nh) / 2)) if align == "centre" else int(round(y0 if align == "top" else y1 - nh))
    x, y = max(0, min(CW - nw, x)), max(0, min(CH - nh, y))
    a = m.astype(np.float32)[:, :, None] / 255
    roi = canvas[y:y + nh, x:x + nw].astype(np.float32)
    canvas[y:y + nh, x:x + nw] = np.clip(roi * (1 - a) + np.array(colour, np.float32) * a + 0.5, 0, 255).astype(np.uint8)


# ------------------------------------------------------------------- style
class Style:
    pass


def _pick(rng, xs):
    return xs[int(rng.integers(len(xs)))]


def make_style(rng, heldout=False):
    """One imagined tile set."""
    s = Style()
    s.dark = rng.random() < 0.1
    s.front = _pick(rng, DARK_FRONTS if s.dark else LIGHT_FRONTS)
    fonts = HELDOUT_FONTS if heldout else TRAIN_FONTS
    s.font = _pick(rng, fonts)
    s.font2 = s.font if rng.random() < 0.7 else _pick(rng, fonts)     # honours
    s.fallback = fonts[0]
    s.weight = int(rng.choice([-2, -1, 0, 0, 0, 1, 2, 4]))
    s.warp = float(rng.choice([0, 0, 0.6, 1.2, 2.0]))
    s.blue, s.green, s.red, s.ink = _pick(rng, BLUES), _pick(rng, GREENS), _pick(rng, REDS), _pick(rng, DARKS)
    if rng.random() < 0.3:
        s.ink = s.blue
    s.pip = _pick(rng, PIP_DESIGNS)
    s.pip_mode = _pick(rng, ["classic", "classic", "classic", "mono", "random"])
    s.pip_mono = _pick(rng, [s.blue, s.green, s.ink])
    s.pip_outline = rng.random() < 0.3
    s.pip_size = rng.uniform(0.85, 1.08)
    s.alt6 = rng.random() < 0.3           # 6p in three even rows
    s.flip3 = rng.random() < 0.3          # 3p/3s diagonal the other way
    s.stick = _pick(rng, STICK_DESIGNS)
    s.stick_w = rng.uniform(0.75, 1.3)
    s.stick_mode = _pick(rng, ["classic", "classic", "mono", "two"])
    s.alt8 = rng.random() < 0.3           # 8s as two plain rows
    s.bird = _pick(rng, ["bird", "bird", "peacock", "stick"])
    s.man = "萬" if rng.random() < 0.6 else "万"
    s.five = "伍" if rng.random() < 0.25 else "五"
    s.num_ink = _pick(rng, [s.ink, s.ink, s.blue, s.green])
    s.man_ink = s.red if rng.random() < 0.85 else s.ink
    s.wind_ink = _pick(rng, [s.ink, s.ink, s.blue, s.green])
    s.wind_letter = rng.random() < 0.35
    s.fa = "發" if rng.random() < 0.7 else "发"
    s.white = _pick(rng, ["blank", "frame", "frame", "double", "corners", "thin"])
    s.white_ink = s.blue if rng.random() < 0.75 else _pick(rng, [s.ink, s.green, s.red])
    s.flower = _pick(rng, ["char", "picture"])
    s.flower_num = _pick(rng, ["arabic", "cjk"])
    s.flower_corner = _pick(rng, ["tl", "tr", "bl", "br"])
    if s.dark:   # light ink on a dark front
        lift = lambda c: tuple(int(255 - (255 - v) * 0.35) for v in c)
        for k in ("blue", "green", "red", "ink", "pip_mono", "num_ink", "man_ink", "wind_ink", "white_ink"):
            setattr(s, k, lift(getattr(s, k)))
    return s


# ---------------------------------------------------------------- drawing
def _art_box():
    m = MARGIN * CW
    return m, m, CW - m, CH - m


def _u(box, x, y):
    x0, y0, x1, y1 = box
    return x0 + x * (x1 - x0), y0 + y * (y1 - y0)


def _i(p):
    return (int(round(p[0] * 16)), int(round(p[1] * 16)))


def _circle(c, centre, r, col, th=-1):
    cv2.circle(c, _i(centre), max(1, int(round(r * 16))), col, th if th < 0 else max(1, int(round(th))), cv2.LINE_AA, 4)


def _darker(col, k=0.6):
    return tuple(float(v) * k for v in col)


def draw_pip(c, centre, r, col, col2, design, front, outline):
    cx, cy = centre
    if design == "filled":
        _circle(c, centre, r, col)
        _circle(c, centre, r * 0.35, _darker(col, 0.55))
    elif design == "ring":
        _circle(c, centre, r * 0.85, col, r * 0.3)
        _circle(c, centre, r * 0.22, col)
    elif design == "concentric":
        _circle(c, centre, r * 0.9, col, r * 0.2)
        _circle(c, centre, r * 0.5, col2)
    elif design == "target":
        for k, rr in enumerate((0.9, 0.6, 0.3)):
            _circle(c, centre, r * rr, col if k % 2 == 0 else col2, r * 0.14)
        _circle(c, centre, r * 0.1, col)
    elif design == "flower":
        for k in range(8):
            a = 2 * np.pi * k / 8
            _circle(c, (cx + 0.62 * r * np.cos(a), cy + 0.62 * r * np.sin(a)), r * 0.32, col)
        _circle(c, centre, r * 0.36, col2)
    elif design == "coin":
        _circle(c, centre, r, col)
        h = r * 0.3
        pts = np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]])
        cv2.fillPoly(c, [np.round(pts * 16).astype(np.int32)], front, cv2.LINE_AA, 4)
        _circle(c, centre, r * 0.72, front, r * 0.06)
    elif design == "wheel":
        _circle(c, centre, r * 0.88, col, r * 0.22)
        for k in range(8):
            a = np.pi * k / 4
            cv2.line(c, _i(centre), _i((cx + 0.8 * r * np.cos(a), cy + 0.8 * r * np.sin(a))), col,
                     max(1, int(r * 0.1)), cv2.LINE_AA, 4)
        _circle(c, centre, r * 0.25, col2)
    else:  # dotring
        for k in range(12):
            a = 2 * np.pi * k / 12
            _circle(c, (cx + 0.8 * r * np.cos(a), cy + 0.8 * r * np.sin(a)), r * 0.17, col)
        _circle(c, centre, r * 0.42, col2)
    if outline:
        _circle(c, centre, r * 1.02, _darker(col, 0.5), max(2, r * 0.06))


B, G, R = "b", "g", "r"
PIP_LAYOUT = {   # (x, y) in the art box, radius as share of its width
    1: ([(0.5, 0.5)], 0.46),
    2: ([(0.5, 0.25), (0.5, 0.75)], 0.27),
    3: ([(0.2, 0.15), (0.5, 0.5), (0.8, 0.85)], 0.2),
    4: ([(0.26, 0.26), (0.74, 0.26), (0.26, 0.74), (0.74, 0.74)], 0.22),
    5: ([(0.23, 0.2), (0.77, 0.2), (0.23, 0.8), (0.77, 0.8), (0.5, 0.5)], 0.2),
    6: ([(0.27, 0.15), (0.73, 0.15), (0.27, 0.56), (0.73, 0.56), (0.27, 0.85), (0.73, 0.85)], 0.19),
    7: ([(0.18, 0.1), (0.5, 0.22), (0.82, 0.34), (0.27, 0.62), (0.73, 0.62), (0.27, 0.88), (0.73, 0.88)], 0.155),
    8: ([(0.28, 0.12), (0.72, 0.12), (0.28, 0.37), (0.72, 0.37), (0.28, 0.63), (0.72, 0.63),
         (0.28, 0.88), (0.72, 0.88)], 0.16),
    9: ([(x, y) for y in (0.15, 0.5, 0.85) for x in (0.18, 0.5, 0.82)], 0.155),
}
PIP_CLASSIC = {1: [B], 2: [G, B], 3: [B, R, G], 4: [B, G, G, B], 5: [B, G, G, B, R], 6: [G, G, R, R, R, R],
               7: [G, G, G, R, R, R, R], 8: [B] * 8, 9: [B, B, B, R, R, R, G, G, G]}


def draw_dots(c, s, n, red, rng):
    box = _art_box()
    pts, rad = PIP_LAYOUT[n]
    if n == 6 and s.alt6:
        pts = [(x, y) for y in (0.17, 0.5, 0.83) for x in (0.27, 0.73)]
    if n == 3 and s.flip3:
        pts = [(1 - x, y) for x, y in pts]
    cols = {B: s.blue, G: s.green, R: s.red}
    if s.pip_mode == "classic":
        names = PIP_CLASSIC[n]
    elif s.pip_mode == "mono":
        names = [None] * n
    else:
        names = [_pick(rng, [B, G, R]) for _ in range(n)]
        if n == 5:   # an ordinary five must not look like a red one
            names = [B if k == R else k for k in names[:4]] + [names[4]]
    wpx = box[2] - box[0]
    for k, (x, y) in enumerate(pts):
        col = s.red if red else (s.pip_mono if names[k] is None else cols[names[k]])
        col2 = s.red if (n == 1 and not red and rng.random() < 0.7) else _darker(col, 0.7) if red else col
        if s.pip_mode == "mono" and not red:
            col2 = s.red if n in (1, 5) and (n == 1 or k == 4) else col
        r = rad * wpx * s.pip_size * rng.uniform(0.95, 1.05)
        jx, jy = rng.normal(0, 0.008, 2) * wpx
        design = s.pip
        if n == 1 and rng.random() < 0.5:
            design = _pick(rng, ["flower", "target", "wheel", "dotring"])
        draw_pip(c, _u(box, x, y) + np.array([jx, jy]), r, col, col2, design, s.front, s.pip_outline)
        if n == 1 and design in ("target", "concentric", "ring", "filled"):
            for k2 in range(16):   # scalloped rim of the one of dots
                a = 2 * np.pi * k2 / 16
                cx, cy = _u(box, x, y)
                _circle(c, (cx + 1.08 * r * np.cos(a), cy + 1.08 * r * np.sin(a)), r * 0.1, s.green if not red else s.red)


def _poly(c, pts, col):
    cv2.fillPoly(c, [np.round(np.asarray(pts) * 16).astype(np.int32)], col, cv2.LINE_AA, 4)


def draw_stick(c, centre, length, width, angle, col, design, front):
    """One bamboo stick: local y along the stick."""
    ca, sa = np.cos(np.deg2rad(angle)), np.sin(np.deg2rad(angle))
    T = lambda x, y: (centre[0] + x * ca - y * sa, centre[1] + x * sa + y * ca)
    L, W = length / 2, width / 2
    dark = _darker(col, 0.55)
    rect = lambda x0, y0, x1, y1: [T(x0, y0), T(x1, y0), T(x1, y1), T(x0, y1)]
    if design == "segmented":
        _poly(c, rect(-W, -L, W, L), col)
        for y in (-L, 0, L):
            _poly(c, rect(-W * 1.35, y - width * 0.22, W * 1.35, y + width * 0.22), dark)
        _poly(c, rect(-W * 0.18, -L * 0.8, W * 0.18, -L * 0.15), _darker(col, 0.8))
    elif design == "outline":
        _poly(c, rect(-W, -L, W, L), dark)
        _poly(c, rect(-W * 0.55, -L + width * 0.3, W * 0.55, L - width * 0.3), col)
        _poly(c, rect(-W, -width * 0.15, W, width * 0.15), dark)
    elif design == "double":
        for x in (-W * 0.55, W * 0.55):
            _poly(c, rect(x - W * 0.35, -L, x + W * 0.35, L), col)
        for y in (-L * 0.95, 0, L * 0.95):
            _poly(c, rect(-W * 1.2, y - width * 0.15, W * 1.2, y + width * 0.15), dark)
    elif design == "leaf":
        pts = [T(W * 1.1 * np.sin(np.pi * t), -L + 2 * L * t) for t in np.linspace(0, 1, 12)]
        pts += [T(-W * 1.1 * np.sin(np.pi * t), L - 2 * L * t) for t in np.linspace(0, 1, 12)]
        _poly(c, pts, col)
        cv2.line(c, _i(T(0, -L)), _i(T(0, L)), dark, max(1, int(width * 0.12)), cv2.LINE_AA, 4)
        _poly(c, rect(-W * 1.2, -width * 0.12, W * 1.2, width * 0.12), dark)
    else:  # bead: three stacked lozenges
        for k in range(3):
            y = -L + L * (2 * k + 1) / 3
            pts = [T(W * 1.05 * np.sin(np.pi * t), y - L / 3 + 2 * L / 3 * t) for t in np.linspace(0, 1, 10)]
            pts += [T(-W * 1.05 * np.sin(np.pi * t), y + L / 3 - 2 * L / 3 * t) for t in np.linspace(0, 1, 10)]
            _poly(c, pts, col)
            _poly(c, rect(-W * 0.9, y - L / 3 - width * 0.08, W * 0.9, y - L / 3 + width * 0.08), dark)


STICK_LAYOUT = {   # (x, y, angle) in the art box; stick length as share of its height
    2: ([(0.5, 0.26, 0), (0.5, 0.74, 0)], 0.42),
    3: ([(0.5, 0.26, 0), (0.27, 0.74, 0), (0.73, 0.74, 0)], 0.42),
    4: ([(0.27, 0.26, 0), (0.73, 0.26, 0), (0.27, 0.74, 0), (0.73, 0.74, 0)], 0.42),
    5: ([(0.2, 0.26, 0), (0.8, 0.26, 0), (0.2, 0.74, 0), (0.8, 0.74, 0), (0.5, 0.5, 0)], 0.42),
    6: ([(x, y, 0) for y in (0.26, 0.74) for x in (0.18, 0.5, 0.82)], 0.42),
    7: ([(0.5, 0.16, 0)] + [(x, y, 0) for y in (0.5, 0.84) for x in (0.18, 0.5, 0.82)], 0.29),
    8: ([(0.12, 0.26, 0), (0.38, 0.26, 22), (0.62, 0.26, -22), (0.88, 0.26, 0),
         (0.12, 0.74, 0), (0.38, 0.74, -22), (0.62, 0.74, 22), (0.88, 0.74, 0)], 0.4),
    9: ([(x, y, 0) for y in (0.16, 0.5, 0.84) for x in (0.18, 0.5, 0.82)], 0.29),
}
STICK_CLASSIC = {2: [B, G], 3: [B, G, G], 4: [G, B, B, G], 5: [G, B, B, G, R], 6: [G] * 3 + [B] * 3,
                 7: [R] + [G] * 6, 8: [G] * 4 + [B] * 4, 9: [R, B, G] * 3}


def draw_bird(c, s, red, rng, peacock=False):
    box = _art_box()
    bw, bh = box[2] - box[0], box[3] - box[1]
    body = s.red if red else s.green
    acc = s.red if not red else _darker(s.red, 0.6)
    wing = s.blue if not red else s.red
    cx, cy = _u(box, 0.5 + rng.uniform(-0.04, 0.04), 0.55)
    facing = 1 if rng.random() < 0.5 else -1
    if peacock:   # a fan of tail feathers behind
        for k in range(7):
            a = np.deg2rad(-150 + 20 * k)
            tip = (cx - facing * 0.05 * bw + 0.42 * bw * np.cos(a), cy + 0.1 * bh + 0.42 * bw * np.sin(a))
            cv2.line(c, _i((cx, cy + 0.1 * bh)), _i(tip), _darker(body, 0.7), max(2, int(bw * 0.025)), cv2.LINE_AA, 4)
            _circle(c, tip, bw * 0.07, wing)
            _circle(c, tip, bw * 0.03, acc)
    else:         # tail feathers
        for k in range(4):
            a = np.deg2rad(100 + 18 * k) if facing > 0 else np.deg2rad(80 - 18 * k)
            p0 = (cx - facing * 0.1 * bw, cy + 0.12 * bh)
            tip = (p0[0] + 0.45 * bw * np.cos(a), p0[1] + 0.35 * bh * np.sin(a))
            cv2.line(c, _i(p0), _i(tip), [body, wing, acc, body][k], max(2, int(bw * 0.04)), cv2.LINE_AA, 4)
    cv2.ellipse(c, _i((cx, cy)), (int(bw * 0.26 * 16), int(bh * 0.16 * 16)), -25 * facing, 0, 360, body, -1, cv2.LINE_AA, 4)
    cv2.ellipse(c, _i((cx - facing * 0.02 * bw, cy)), (int(bw * 0.17 * 16), int(bh * 0.08 * 16)), -35 * facing, 0, 360,
                wing, -1, cv2.LINE_AA, 4)
    hx, hy = cx + facing * 0.2 * bw, cy - 0.22 * bh
    cv2.line(c, _i((cx + facing * 0.12 * bw, cy - 0.05 * bh)), _i((hx, hy)), body, max(2, int(bw * 0.1)), cv2.LINE_AA, 4)
    _circle(c, (hx, hy), bw * 0.1, body)
    _poly(c, [(hx + facing * 0.08 * bw, hy - 0.02 * bh), (hx + facing * 0.22 * bw, hy + 0.01 * bh),
              (hx + facing * 0.08 * bw, hy + 0.04 * bh)], acc)
    _circle(c, (hx + facing * 0.03 * bw, hy - 0.01 * bh), bw * 0.025, s.front)
    _circle(c, (hx + facing * 0.03 * bw, hy - 0.01 * bh), bw * 0.012, s.ink)
    for dx in (-0.05, 0.05):   # legs
        p = (cx + dx * bw, cy + 0.14 * bh)
        cv2.line(c, _i(p), _i((p[0], p[1] + 0.16 * bh)), acc, max(2, int(bw * 0.025)), cv2.LINE_AA, 4)


def draw_bamboo(c, s, n, red, rng):
    box = _art_box()
    bw, bh = box[2] - box[0], box[3] - box[1]
    if n == 1:
        if s.bird == "stick":
            col = s.red if red else s.green
            draw_stick(c, _u(box, 0.5, 0.5), bh * 0.9, bw * 0.2 * s.stick_w, 0, col, s.stick, s.front)
        else:
            draw_bird(c, s, red, rng, peacock=s.bird == "peacock")
        return
    pts, ln = STICK_LAYOUT[n]
    if n == 8 and s.alt8:
        pts = [(x, y, 0) for y in (0.26, 0.74) for x in (0.12, 0.38, 0.62, 0.88)]
    if n == 3 and s.flip3:
        pts = [(0.27, 0.26, 0), (0.73, 0.26, 0), (0.5, 0.74, 0)]
    cols = {B: s.blue, G: s.green, R: s.red}
    if s.stick_mode == "classic":
        names = STICK_CLASSIC[n]
    elif s.stick_mode == "mono":
        names = [G] * n
        if n in (5, 7, 9):
            names = list(names)
            names[{5: 4, 7: 0, 9: 1}[n]] = R
    else:
        names = [G if k % 2 == 0 else B for k in range(n)]
    width = bw * (0.13 if n >= 6 else 0.16) * s.stick_w
    for k, (x, y, a) in enumerate(pts):
        col = s.red if red else cols[names[k]]
        jx, jy = rng.normal(0, 0.008, 2) * bw
        draw_stick(c, np.array(_u(box, x, y)) + [jx, jy], bh * ln * rng.uniform(0.96, 1.02), width, a + rng.normal(0, 1.2),
                   col, s.stick, s.front)


def _glyph(s, text, honour=False, rng=None):
    key = s.font2 if honour else s.font
    m = weigh(glyph(key, text, s.fallback), s.weight)
    return warp_mask(m, rng, s.warp) if rng is not None else m


def draw_chars(c, s, n, red, rng):
    x0, y0, x1, y1 = _art_box()
    h = y1 - y0
    split = y0 + h * rng.uniform(0.4, 0.47)
    num = s.five if n == 5 else NUMERALS[n - 1]
    nm = _glyph(s, num, rng=rng)
    mm = _glyph(s, s.man, rng=rng)
    num_ink = s.red if red else s.num_ink
    man_ink = s.red if red else s.man_ink
    if n == 5 and not red and man_ink == s.red and num_ink == s.red:
        num_ink = s.ink
    inset = (x1 - x0) * 0.08
    put_mask(c, nm, (x0 + inset, y0, x1 - inset, split - h * 0.03), num_ink)
    put_mask(c, mm, (x0, split + h * 0.03, x1, y1), man_ink)


def draw_honour(c, s, n, rng):
    x0, y0, x1, y1 = _art_box()
    w, h = x1 - x0, y1 - y0
    if n <= 4:
        m = _glyph(s, WINDS[n - 1], True, rng)
        if s.wind_letter:
            put_mask(c, m, (x0 + w * 0.12, y0 + h * 0.14, x1, y1), s.wind_ink)
            lm = _raw_mask(LATIN_FONT, "ESWN"[n - 1])
            put_mask(c, lm, (x0 - w * 0.04, y0 - h * 0.03, x0 + w * 0.26, y0 + h * 0.2), s.red, "top")
        else:
            put_mask(c, m, (x0, y0 + h * 0.05, x1, y1 - h * 0.05), s.wind_ink)
    elif n == 5:
        col = s.white_ink
        t = w * 0.07
        if s.white == "blank":
            return
        if s.white in ("frame", "double"):
            cv2.rectangle(c, _i((x0 + t / 2, y0 + t / 2)), _i((x1 - t / 2, y1 - t / 2)), col, int(t), cv2.LINE_AA, 4)
            if s.white == "double":
                cv2.rectangle(c, _i((x0 + 2.6 * t, y0 + 2.6 * t)), _i((x1 - 2.6 * t, y1 - 2.6 * t)), col, int(t * 0.45),
                              cv2.LINE_AA, 4)
        elif s.white == "thin":
            cv2.rectangle(c, _i((x0 + w * 0.08, y0 + w * 0.08)), _i((x1 - w * 0.08, y1 - w * 0.08)), col,
                          max(2, int(t * 0.4)), cv2.LINE_AA, 4)
        else:  # corners: a frame with square corners
            cv2.rectangle(c, _i((x0 + w * 0.1, y0 + w * 0.1)), _i((x1 - w * 0.1, y1 - w * 0.1)), col, int(t * 0.6),
                          cv2.LINE_AA, 4)
            q = w * 0.2
            for cx, cy in ((x0, y0), (x1 - q, y0), (x0, y1 - q), (x1 - q, y1 - q)):
                cv2.rectangle(c, _i((cx, cy)), _i((cx + q, cy + q)), col, -1, cv2.LINE_AA, 4)
    else:
        ch, col = (s.fa, s.green) if n == 6 else ("中", s.red)
        m = _glyph(s, ch, True, rng)
        put_mask(c, m, (x0, y0 + h * 0.03, x1, y1 - h * 0.03), col)


def draw_flower_picture(c, s, k, box, rng):
    """A small picture of plum, orchid, chrysanthemum, bamboo (k 0-3), or a
    generic spray for a season."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    stem = s.green
    cx = (x0 + x1) / 2
    if k == 3:   # bamboo: two stalks with leaves
        for dx in (-0.15, 0.12):
            draw_stick(c, (cx + dx * w, (y0 + y1) / 2), h * 0.95, w * 0.08, dx * 30, s.green, "segmented", s.front)
        for j in range(4):
            a = rng.uniform(-60, 60)
            p = (cx + rng.uniform(-0.3, 0.3) * w, y0 + rng.uniform(0.1, 0.8) * h)
            cv2.ellipse(c, _i(p), (int(w * 0.18 * 16), int(w * 0.04 * 16)), a, 0, 360, _darker(s.green, 0.8), -1, cv2.LINE_AA, 4)
        return
    cv2.line(c, _i((cx, y1)), _i((cx + w * 0.1, y0 + h * 0.3)), stem, max(2, int(w * 0.04)), cv2.LINE_AA, 4)
    if k == 1:   # orchid: long leaves
        for a in (-50, -20, 20, 55):
            cv2.ellipse(c, _i((cx + np.sin(np.deg2rad(a)) * w * 0.22, y1 - h * 0.3)), (int(w * 0.05 * 16), int(h * 0.3 * 16)),
                        a, 0, 360, stem, -1, cv2.LINE_AA, 4)
    heads = [(cx + w * 0.1, y0 + h * 0.3), (cx - w * 0.22, y0 + h * 0.5), (cx + w * 0.25, y0 + h * 0.62)]
    petal = s.red if k != 2 else _pick(rng, [s.red, (40, 180, 230), s.blue])
    for hx, hy in heads[:2 if k == 1 else 3]:
        cv2.line(c, _i((cx, y1 - h * 0.2)), _i((hx, hy)), stem, max(2, int(w * 0.03)), cv2.LINE_AA, 4)
        if k == 2:   # chrysanthemum: many thin petals
            for j in range(14):
                a = 2 * np.pi * j / 14
                cv2.line(c, _i((hx, hy)), _i((hx + w * 0.14 * np.cos(a), hy + w * 0.14 * np.sin(a))), petal,
                         max(2, int(w * 0.03)), cv2.LINE_AA, 4)
        else:        # plum (and the season spray): five round petals
            for j in range(5):
                a = 2 * np.pi * j / 5 + 0.3
                _circle(c, (hx + w * 0.07 * np.cos(a), hy + w * 0.07 * np.sin(a)), w * 0.06, petal)
        _circle(c, (hx, hy), w * 0.035, (40, 190, 230))


def draw_flower(c, s, n, rng):
    x0, y0, x1, y1 = _art_box()
    w, h = x1 - x0, y1 - y0
    k = (n - 1) % 4
    ch = FLOWER_CHARS[n - 1]
    num_ink = s.red if n <= 4 else s.blue
    if s.flower_num == "arabic":
        nm = _raw_mask(LATIN_FONT, str(k + 1))
    else:
        nm = _glyph(s, NUMERALS[k])
    q = s.flower_corner
    nb = (x0 if "l" in q else x1 - w * 0.28, y0 if "t" in q else y1 - h * 0.2,
          x0 + w * 0.28 if "l" in q else x1, y0 + h * 0.2 if "t" in q else y1)
    put_mask(c, nm, nb, num_ink)
    cm = _glyph(s, ch, True, rng)
    ink = s.ink if n <= 4 else s.green
    if s.flower == "char":
        put_mask(c, cm, (x0 + w * 0.1, y0 + h * 0.22, x1 - w * 0.1, y1 - h * 0.22) if "t" in q else
                 (x0 + w * 0.1, y0 + h * 0.02, x1 - w * 0.1, y1 - h * 0.24), ink)
    else:
        top = "t" in q
        pic = (x0 + w * 0.05, y0 + h * (0.22 if top else 0.0), x1 - w * 0.05, y0 + h * (0.72 if top else 0.5))
        draw_flower_picture(c, s, k if n <= 4 else 0, pic, rng)
        put_mask(c, cm, (x0 + w * 0.25, y0 + h * (0.74 if top else 0.52), x1 - w * 0.25, y0 + h * (0.98 if top else 0.78)), ink)


def drawable(code):
    """Whether this module draws the code (k/j and 0z are synth_faces')."""
    return code[1] in "mpsf" or (code[1] == "z" and code[0] != "0")


_SHADE = None


def _shade():
    """Shading as synth_faces.blank_front: soft light from the top left, edge bevel."""
    global _SHADE
    if _SHADE is None:
        yy, xx = np.mgrid[0:F.FH, 0:F.FW].astype(np.float32)
        g = 1.0 + 0.05 * (1 - yy / F.FH) + 0.02 * (1 - xx / F.FW)
        m = F.front_mask().astype(np.float32) / 255
        er = cv2.erode(m, np.ones((5, 5), np.uint8))
        band = np.clip(m - cv2.GaussianBlur(er, (0, 0), 2.0), 0, 1)
        _SHADE = (g * (1 - 0.18 * band))[:, :, None]
    return _SHADE


def front(code, rng, style):
    """BGRA front (F.FH x F.FW) of code in style, with per-tile jitter from rng."""
    c = np.empty((CH, CW, 3), np.uint8)
    c[:] = np.array(style.front, np.uint8)
    n, suit = int(code[0]), code[1]
    red = n == 0
    if red:
        n = 5
    if suit == "p":
        draw_dots(c, style, n, red, rng)
    elif suit == "s":
        draw_bamboo(c, style, n, red, rng)
    elif suit == "m":
        draw_chars(c, style, n, red, rng)
    elif suit == "z":
        draw_honour(c, style, n, rng)
    elif suit == "f":
        draw_flower(c, style, n, rng)
    else:
        raise ValueError(f"synth_proc draws no {code}")
    img = cv2.resize(c, (F.FW, F.FH), interpolation=cv2.INTER_AREA)
    # per-tile: art scale and offset, a hair of rotation
    sc = rng.uniform(0.93, 1.03)
    M = cv2.getRotationMatrix2D((F.FW / 2, F.FH / 2), rng.normal(0, 0.8), sc)
    M[:, 2] += rng.uniform(-3, 3, 2)
    img = cv2.warpAffine(img, M, (F.FW, F.FH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=tuple(float(v) for v in style.front))
    img = img.astype(np.float32) * _shade()
    return np.dstack([np.clip(img, 0, 255).astype(np.uint8), F.front_mask()])
