"""Tile fronts (face art on a tile front) for synth.py.

A front is a BGRA image FH x FW (3:4 portrait) with a rounded-rectangle alpha.
The tile body (thickness) is drawn later, at placement time (synth_scene).
"""
import cv2
import numpy as np

import synth_art as A
import synth_raster as R

FW, FH = 120, 160          # front size in px (sprite resolution)
RADIUS = 0.11              # corner radius as a fraction of FW
ART_MARGIN = 0.10          # margin around the art, fraction of FW

IVORY = (232, 240, 244)    # BGR
FRONT_COLOURS = {          # per set: BGR of the front surface and of its art
    "jade": (52, 78, 38),  # dark jade green: jade's art is white
    "fluffy": (235, 240, 245),      # FluffyStuff regular: #f5f0eb
    "fluffy-black": (30, 30, 30),   # FluffyStuff black: #1e1e1e, white art
}

# body (back) colours, BGR
BODY_COLOURS = {
    "green": (60, 130, 40), "blue": (170, 95, 40), "yellow": (50, 185, 225),
    "orange": (40, 120, 230), "darkred": (35, 35, 135), "black": (32, 30, 30),
    "white": (220, 228, 232), "teal": (130, 125, 30), "lightblue": (215, 170, 110),
    "pink": (170, 150, 235),
}


def rounded_rect_points(w, h, r, per_corner=6):
    """Outline of a w x h rounded rectangle (corner radius r), float (N, 2)."""
    pts = []
    centres = [(w - r, r, -90), (w - r, h - r, 0), (r, h - r, 90), (r, r, 180)]
    for cx, cy, a0 in centres:
        for k in range(per_corner + 1):
            a = np.deg2rad(a0 + 90.0 * k / per_corner)
            pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    return np.array(pts, np.float32)


def rounded_mask(w, h, r, ss=4):
    m = np.zeros((h * ss, w * ss), np.uint8)
    pts = rounded_rect_points(w * ss, h * ss, r * ss, 12)
    cv2.fillPoly(m, [np.round(pts).astype(np.int32)], 255, cv2.LINE_AA)
    return cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA)


_MASK = None


def front_mask():
    global _MASK
    if _MASK is None:
        _MASK = rounded_mask(FW, FH, FW * RADIUS)
    return _MASK


def blank_front(colour, rng=None, shade=True):
    """BGRA front of plain `colour` with a soft top-left light and edge bevel."""
    col = np.array(colour, np.float32)
    yy, xx = np.mgrid[0:FH, 0:FW].astype(np.float32)
    g = 1.0 + 0.05 * (1 - yy / FH) + 0.02 * (1 - xx / FW)
    img = col[None, None, :] * g[:, :, None]
    if shade:
        # bevel: darken a thin band along the edge
        m = front_mask().astype(np.float32) / 255
        er = cv2.erode(m, np.ones((5, 5), np.uint8))
        band = np.clip(m - cv2.GaussianBlur(er, (0, 0), 2.0), 0, 1)
        img *= (1 - 0.18 * band)[:, :, None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    return np.dstack([img, front_mask()])


def alpha_over(dst_bgr, src_bgra, x, y):
    """Composite src (BGRA) onto dst (BGR float or uint8) at (x, y), in place."""
    h, w = src_bgra.shape[:2]
    a = src_bgra[:, :, 3:4].astype(np.float32) / 255
    roi = dst_bgr[y:y + h, x:x + w].astype(np.float32)
    roi = src_bgra[:, :, :3].astype(np.float32) * a + roi * (1 - a)
    dst_bgr[y:y + h, x:x + w] = np.clip(roi, 0, 255).astype(dst_bgr.dtype)


def fit_art(art, box_w, box_h):
    h, w = art.shape[:2]
    s = min(box_w / w, box_h / h)
    nw, nh = max(1, int(round(w * s))), max(1, int(round(h * s)))
    return cv2.resize(art, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)


def place_art(front, art, scale=1.0):
    """Centre `art` (BGRA) in the front's art box."""
    m = int(FW * ART_MARGIN)
    bw, bh = (FW - 2 * m) * scale, (FH - 2 * m) * scale
    a = fit_art(art, bw, bh)
    x = (FW - a.shape[1]) // 2
    y = (FH - a.shape[0]) // 2
    out = front.copy()
    rgb = out[:, :, :3].copy()
    alpha_over(rgb, a, x, y)
    out[:, :, :3] = rgb
    return out


def recolour_red(art, light_art=False):
    """Suit art redrawn in red (red fives): ink hue -> red, keep its shading."""
    out = art.copy()
    bgr = art[:, :, :3].astype(np.float32)
    lum = bgr.mean(axis=2)
    hsv = cv2.cvtColor(art[:, :, :3], cv2.COLOR_BGR2HSV).astype(np.float32)
    sat = hsv[:, :, 1]
    if light_art:
        ink = np.ones_like(lum, bool)
    else:
        ink = (lum < 200) | (sat > 60)
    t = np.clip(lum / 255.0, 0, 1)
    red = np.stack([25 + 45 * t, 25 + 45 * t, 150 + 90 * t], axis=2)
    bgr[ink] = red[ink]
    out[:, :, :3] = np.clip(bgr, 0, 255).astype(np.uint8)
    return out


def frame_art(colour, light=False):
    """A white-dragon frame face (for sets whose white dragon is blank)."""
    w, h = 200, 260
    im = np.zeros((h, w, 4), np.uint8)
    col = tuple(int(c) for c in colour) + (255,)
    cv2.rectangle(im, (6, 6), (w - 7, h - 7), col, 14, cv2.LINE_AA)
    cv2.rectangle(im, (34, 34), (w - 35, h - 35), col, 6, cv2.LINE_AA)
    return im


def art_visible(front, art_front):
    d = np.abs(front[:, :, :3].astype(np.int16) - art_front[:, :, :3].astype(np.int16)).max(axis=2)
    return (d > 40).mean() > 0.04


def set_front_colour(setname):
    return FRONT_COLOURS.get(setname, IVORY)


_front_cache = {}


def set_art(setname, code):
    """BGRA art of an ordinary code in a tile set: a kmahjongg element, or a
    face cut from a gnome-mahjongg/xmahjongg sheet (synth_raster)."""
    if setname in R.SHEETS:
        return R.art(setname, code)
    if setname in R.FLUFFY:
        return R.fluffy_art(setname, code)
    return A.render_element(setname, A.element_for(code, setname), 256)


_art_cache = {}


def tileset_art(setname, code):
    """(art BGRA, scale) of a code drawn from the tileset: red fives are the
    five's art recoloured, a blank white dragon gets a frame face (blue, or
    white on jade); cached in memory."""
    key = (setname, code)
    if key not in _art_cache:
        c = code
        red = c[0] == "0" and c[1] in "mps" and setname not in R.FLUFFY  # FluffyStuff draws its own
        if red:
            c = "5" + c[1]
        light_art = setname in FRONT_COLOURS
        art = set_art(setname, c)
        if art is None:
            raise SystemExit(f"{setname}: no art for {c}")
        if red:
            art = recolour_red(art, light_art)
        scale = 1.0
        if c == "5z" and setname not in R.FLUFFY:  # FluffyStuff's white dragon stays blank
            base = blank_front(set_front_colour(setname))
            if not art_visible(base, place_art(base, art)):
                col = (235, 235, 235) if light_art else (165, 95, 35)
                art, scale = frame_art(col), 0.92
        _art_cache[key] = (art, scale)
    return _art_cache[key]


def tileset_front(setname, code):
    """Front of a code drawn from the tileset (incl. red fives); cached."""
    key = (setname, code)
    if key not in _front_cache:
        art, scale = tileset_art(setname, code)
        _front_cache[key] = place_art(blank_front(set_front_colour(setname)), art, scale)
    return _front_cache[key]


def back_front(colour, rng):
    """Face-down tile: plain body colour with a slight gradient and texture."""
    col = np.array(colour, np.float32)
    yy, xx = np.mgrid[0:FH, 0:FW].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    g = 1.0 + rng.uniform(0.03, 0.12) * ((xx / FW - 0.5) * np.cos(ang) + (yy / FH - 0.5) * np.sin(ang))
    img = col[None, None, :] * g[:, :, None]
    low = cv2.resize(rng.normal(0, 1, (6, 5)).astype(np.float32), (FW, FH), interpolation=cv2.INTER_CUBIC)
    img += (low * rng.uniform(2, 8))[:, :, None]
    img += rng.normal(0, rng.uniform(1, 4), (FH, FW, 1)).astype(np.float32)
    if rng.random() < 0.3:   # fine pattern (embossed back)
        step = int(rng.integers(8, 16))
        img[::step] *= 0.93
        img[:, ::step] *= 0.93
    m = front_mask().astype(np.float32) / 255
    er = cv2.erode(m, np.ones((5, 5), np.uint8))
    band = np.clip(m - cv2.GaussianBlur(er, (0, 0), 2.0), 0, 1)
    img *= (1 - 0.2 * band)[:, :, None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    return np.dstack([img, front_mask()])


# ------------------------------------------------------------ rare k/j faces
SEATS = ["東", "南", "西", "北"]
JOKER_SUIT = {1: "帝", 2: "筒", 3: "索", 4: "萬", 5: "色", 6: "風", 7: "龍", 8: "花"}

TRAIN_FONTS = ["NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc"]
HELDOUT_FONTS = ["NotoSerifCJK-Regular.ttc", "NotoSerifCJK-Bold.ttc"]
TRAIN_INKS = [(30, 30, 190), (25, 25, 25), (150, 70, 20), (40, 120, 30)]   # red black blue green
HELDOUT_INKS = [(120, 30, 110), (30, 70, 120), (90, 90, 20)]             # purple brown teal


def _ink(mask, colour):
    m = mask.astype(np.float32) / 255
    img = np.zeros(mask.shape + (4,), np.uint8)
    img[:, :, :3] = colour
    img[:, :, 3] = mask
    return img


def _stack(parts, gap=0.08):
    """Stack BGRA parts vertically, centred."""
    w = max(p.shape[1] for p in parts)
    g = int(gap * w)
    h = sum(p.shape[0] for p in parts) + g * (len(parts) - 1)
    out = np.zeros((h, w, 4), np.uint8)
    y = 0
    for p in parts:
        x = (w - p.shape[1]) // 2
        out[y:y + p.shape[0], x:x + p.shape[1]] = p
        y += p.shape[0] + g
    return out


def _scaled(mask, width):
    h, w = mask.shape
    s = width / w
    return cv2.resize(mask, (max(1, int(width)), max(1, int(h * s))), interpolation=cv2.INTER_AREA)


def rare_art(code, variant, rng):
    """Art for 1k-8k, 1j-9j. variant: 'train' or 'heldout'."""
    fonts = TRAIN_FONTS if variant == "train" else HELDOUT_FONTS
    inks = TRAIN_INKS if variant == "train" else HELDOUT_INKS
    fnt = fonts[int(rng.integers(len(fonts)))]
    ink = inks[int(rng.integers(len(inks)))]
    ink2 = inks[int(rng.integers(len(inks)))]
    n, s = int(code[0]), code[1]
    if s == "j" and n == 9:
        word = A.text_mask("JOKER", fnt, 110)
        if rng.random() < 0.5 or variant == "heldout":
            # vertical letters, NMJL style, or a horizontal word
            letters = [_scaled(A.text_mask(ch, fnt, 110), 60) for ch in "JOKER"]
            letters = [l if l.shape[1] > 30 else l for l in letters]
            return _stack([_ink(l, ink) for l in letters], 0.12)
        return _ink(word, ink)
    if s == "k":
        big = "王" if n <= 4 else "后"
        seat = SEATS[(n - 1) % 4]
        bigm = _scaled(A.text_mask(big, fnt, 160), 200)
        seatm = _scaled(A.text_mask(seat, fnt, 120), 110)
        parts = [_ink(seatm, ink2), _ink(bigm, ink)]
        if variant == "heldout" or rng.random() < 0.4:
            parts = parts[::-1]
        return _stack(parts, 0.1)
    # jokers 1j-8j: suit glyph over a big 百搭 (emperor: 皇 over 帝)
    top = "皇" if n == 1 else "百搭"
    suit = JOKER_SUIT[n]
    topm = _scaled(A.text_mask(top, fnt, 130), 200 if n != 1 else 170)
    suitm = _scaled(A.text_mask(suit, fnt, 140), 150)
    parts = [_ink(suitm, ink2), _ink(topm, ink)]
    if variant == "heldout" or rng.random() < 0.5:
        parts = parts[::-1]
    return _stack(parts, 0.1)


def rare_front(setname, code, variant, index):
    """Front of a rare k/j code; `index` picks one of several variants."""
    key = (setname, code, variant, index)
    if key in _front_cache:
        return _front_cache[key]
    rng = np.random.default_rng(A.stable_seed("rare", code, variant, index))
    fc = set_front_colour(setname)
    art = rare_art(code, variant, rng)
    if setname in FRONT_COLOURS:   # dark fronts: light ink
        art = art.copy()
        art[:, :, :3] = 255 - (255 - art[:, :, :3]) // 4
    base = blank_front(fc)
    if variant == "heldout" or rng.random() < 0.3:
        # a thin frame around the face
        frame = frame_art(tuple(int(c) for c in art[art[:, :, 3] > 0][0, :3]) if (art[:, :, 3] > 0).any() else (0, 0, 0))
        frame[:, :, 3] = (frame[:, :, 3].astype(np.float32) * 0.5).astype(np.uint8)
        base = place_art(base, frame, 1.08)
    out = place_art(base, art, 0.9)
    _front_cache[key] = out
    return out


def codes_for(rare):
    from synth_art import ORDINARY, FLOWERS, REDS, BACK, RARE_KJ
    cs = ORDINARY + FLOWERS + REDS + [BACK]
    if rare in ("train", "heldout"):
        cs += RARE_KJ
    return cs


# ------------------------------------------------- training-only variety
# Everything below is used only for `--rare train` scenes, with its own RNG
# (see synth.make_scene), so the held-out/egypt outputs are unchanged.
# Never the held-out inks (purple, brown, teal) here.
TRAIN_FONTS_X = TRAIN_FONTS + HELDOUT_FONTS          # Noto Sans + Noto Serif CJK
TRAIN_INKS_X = TRAIN_INKS + [
    (90, 30, 10),     # navy
    (20, 20, 120),    # dark red
    (40, 40, 230),    # bright red
    (25, 80, 20),     # dark green
    (70, 70, 70),     # dark grey
    (190, 120, 40),   # mid blue
]
TRAIN_FRONTS = [IVORY, (238, 240, 240), (246, 248, 248), (205, 232, 212),
                (232, 222, 200), (225, 236, 244), (215, 235, 225)]   # ivory white lightgreen lightblue ...
BACK_COLOURS_X = list(BODY_COLOURS.values()) + [
    (110, 40, 20), (20, 90, 20), (30, 30, 90), (180, 140, 60), (80, 160, 200), (120, 120, 120)]

def _red_share(bgr, alpha):
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    ink = (alpha > 128) & (hsv[:, :, 1] > 90) & (hsv[:, :, 2] > 60)
    if ink.sum() < 20:
        return 0.0
    h = hsv[:, :, 0][ink]
    return float(((h < 10) | (h > 168)).mean())


def hue_rotate(art, deg):
    hsv = cv2.cvtColor(art[:, :, :3], cv2.COLOR_BGR2HSV)
    hsv[:, :, 0] = ((hsv[:, :, 0].astype(np.int32) + int(deg) // 2) % 180).astype(np.uint8)
    out = art.copy()
    out[:, :, :3] = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    return out


def stroke_morph(front, box, thicker, dark_ink):
    """Thicken/thin the art inside box (x0, y0, x1, y1) by 1 px: each pixel takes
    the darkest (or lightest) of its 4-neighbourhood, whole pixels (no colour fringes)."""
    x0, y0, x1, y1 = box
    x0, y0 = max(1, x0 - 1), max(1, y0 - 1)
    x1, y1 = min(FW - 1, x1 + 1), min(FH - 1, y1 + 1)
    reg = front[y0 - 1:y1 + 1, x0 - 1:x1 + 1, :3].astype(np.int32)
    lum = reg.sum(axis=2)
    pick_min = thicker == dark_ink
    shifts = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
    h, w = y1 - y0, x1 - x0
    cands_l = np.stack([lum[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dx, dy in shifts])
    cands_c = np.stack([reg[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dx, dy in shifts])
    k = cands_l.argmin(0) if pick_min else cands_l.argmax(0)
    out = front.copy()
    out[y0:y1, x0:x1, :3] = np.take_along_axis(cands_c, k[None, :, :, None], 0)[0].astype(np.uint8)
    return out


def place_art_at(front, art, scale, dx, dy):
    """place_art with an offset; returns (front, art box)."""
    m = int(FW * ART_MARGIN)
    a = fit_art(art, (FW - 2 * m) * scale, (FH - 2 * m) * scale)
    a = a[:FH - 2, :FW - 2]
    x = int(np.clip((FW - a.shape[1]) // 2 + dx, 1, FW - 1 - a.shape[1]))
    y = int(np.clip((FH - a.shape[0]) // 2 + dy, 1, FH - 1 - a.shape[0]))
    out = front.copy()
    rgb = out[:, :, :3].copy()
    alpha_over(rgb, a, x, y)
    out[:, :, :3] = rgb
    return out, (x, y, x + a.shape[1], y + a.shape[0])


def _weight(mask, rng, thin_ok=True):
    """Simulated font weights: grow or shrink the glyph mask a little."""
    r = rng.random()
    if r < 0.25:
        return cv2.dilate(mask, np.ones((5, 5), np.uint8))
    if r < 0.4:
        return cv2.dilate(mask, np.ones((3, 3), np.uint8))
    if r < 0.6 and thin_ok:
        return cv2.erode(mask, np.ones((3, 3), np.uint8))
    return mask


def rare_art_train(code, rng):
    """1k-8k, 1j-9j art for training: Noto Sans and Serif CJK, faces 0-4 of the
    .ttc, simulated weights, training inks, varied glyph order/size."""
    fnt = TRAIN_FONTS_X[int(rng.integers(len(TRAIN_FONTS_X)))]
    face = int(rng.integers(5))
    ink = TRAIN_INKS_X[int(rng.integers(len(TRAIN_INKS_X)))]
    ink2 = ink if rng.random() < 0.5 else TRAIN_INKS_X[int(rng.integers(len(TRAIN_INKS_X)))]
    tm = lambda t, px: _weight(A.text_mask_face(t, fnt, face, px), rng, thin_ok=len(t) == 1 and t.isascii() is False)
    n, s = int(code[0]), code[1]
    if s == "j" and n == 9:
        if rng.random() < 0.6:
            letters = [_scaled(tm(ch, 110), int(rng.uniform(50, 70))) for ch in "JOKER"]
            return _stack([_ink(l, ink) for l in letters], rng.uniform(0.08, 0.16))
        return _ink(tm("JOKER", 110), ink)
    if s == "k":
        big = "王" if n <= 4 else "后"
        seat = SEATS[(n - 1) % 4]
        bigm = _scaled(tm(big, 160), int(200 * rng.uniform(0.85, 1.1)))
        seatm = _scaled(tm(seat, 120), int(200 * rng.uniform(0.45, 0.7)))
        parts = [_ink(seatm, ink2), _ink(bigm, ink)]
    else:
        top = "皇" if n == 1 else "百搭"
        suit = JOKER_SUIT[n]
        topm = _scaled(tm(top, 130), int((200 if n != 1 else 170) * rng.uniform(0.85, 1.1)))
        suitm = _scaled(tm(suit, 140), int(150 * rng.uniform(0.8, 1.15)))
        parts = [_ink(suitm, ink2), _ink(topm, ink)]
    if rng.random() < 0.5:
        parts = parts[::-1]
    return _stack(parts, rng.uniform(0.05, 0.15))


DARK_FRONTS = [(30, 30, 30), (60, 30, 20), (25, 55, 25), (30, 30, 90), (70, 60, 60), (45, 25, 55)]


def is_dark(colour):
    return float(np.mean(colour)) < 100


def light_art(art):
    """Art for a dark front: lightness turned over (dark ink light), hue kept."""
    out = art.copy()
    lab = cv2.cvtColor(art[:, :, :3], cv2.COLOR_BGR2LAB)
    lab[:, :, 0] = 255 - lab[:, :, 0]
    out[:, :, :3] = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
    return out


def train_front(setname, code, rng, front_colour):
    """Per-instance augmented front for training scenes (not 0z)."""
    dark_front = setname in FRONT_COLOURS or is_dark(front_colour)
    turn_art = is_dark(front_colour) and setname not in FRONT_COLOURS
    fc = FRONT_COLOURS[setname] if setname in FRONT_COLOURS else front_colour
    base = blank_front(fc)
    scale = rng.uniform(0.9, 1.03)
    dx, dy = rng.uniform(-4, 4), rng.uniform(-5, 5)
    if code[1] in "kj":
        art = rare_art_train(code, rng)
        if dark_front:
            art = art.copy()
            art[:, :, :3] = 255 - (255 - art[:, :, :3]) // 4
        if rng.random() < 0.5:
            col = tuple(int(c) for c in art[art[:, :, 3] > 0][0, :3]) if (art[:, :, 3] > 0).any() else (0, 0, 0)
            frame = frame_art(col)
            frame[:, :, 3] = (frame[:, :, 3].astype(np.float32) * rng.uniform(0.35, 0.8)).astype(np.uint8)
            base = place_art(base, frame, rng.uniform(1.0, 1.08))
        scale *= rng.uniform(0.82, 0.95)
    else:
        art, s0 = tileset_art(setname, code)
        if turn_art:
            art = light_art(art)
        scale *= s0
        red = code[0] == "0"
        if not red and not dark_front and rng.random() < 0.5:
            rot = hue_rotate(art, rng.uniform(30, 330))
            # an ordinary five must not turn (mostly) red: that is a red five
            if not (code[0] == "5" and code[1] in "mps" and _red_share(rot[:, :, :3], rot[:, :, 3]) > 0.45):
                art = rot
    out, box = place_art_at(base, art, scale, dx, dy)
    r = rng.random()
    if r < 0.25 or r > 0.75:
        out = stroke_morph(out, box, r < 0.25, not dark_front)
    return out


def back_front_train(colour, rng):
    """Face-down tile for training: back_front plus more textures."""
    out = back_front(colour, rng)
    img = out[:, :, :3].astype(np.float32)
    r = rng.random()
    yy, xx = np.mgrid[0:FH, 0:FW].astype(np.float32)
    if r < 0.15:     # diagonal stripes
        p = rng.uniform(6, 14)
        img *= (1 - 0.06 * (np.sin((xx + yy) * 2 * np.pi / p) > 0))[:, :, None]
    elif r < 0.3:    # dots
        p = int(rng.integers(8, 14))
        m = ((xx % p < 3) & (yy % p < 3))
        img[m] *= 0.9
    elif r < 0.42:   # embossed emblem (ring / inset rectangle)
        col = tuple(float(c) for c in (np.array(colour) * rng.uniform(0.75, 0.9)))
        if rng.random() < 0.5:
            cv2.circle(img, (FW // 2, FH // 2), int(rng.uniform(20, 40)), col, int(rng.integers(2, 5)), cv2.LINE_AA)
        else:
            m = int(rng.uniform(10, 22))
            cv2.rectangle(img, (m, m), (FW - m, FH - m), col, int(rng.integers(2, 4)), cv2.LINE_AA)
    elif r < 0.55:   # glossy highlight band
        g = np.exp(-((yy - rng.uniform(0.1, 0.5) * FH) / rng.uniform(8, 20)) ** 2)
        img += (g * rng.uniform(15, 45))[:, :, None]
    out[:, :, :3] = np.clip(img, 0, 255).astype(np.uint8)
    return out
