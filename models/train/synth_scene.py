"""Scene drawing for synth.py: table textures, tiles with visible body,
perspective and photometric effects, and label boxes."""
import cv2
import numpy as np

import synth_faces as F


# ------------------------------------------------------------------ textures
def smooth_noise(rng, h, w, cells):
    """Low-frequency noise in about [-1, 1]: random grid upsampled (cubic)."""
    gh = max(2, int(round(cells * h / max(h, w)))) + 1
    gw = max(2, int(round(cells * w / max(h, w)))) + 1
    g = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


FELTS = [(40, 110, 30), (50, 125, 45), (30, 85, 25), (120, 70, 25), (140, 95, 40), (45, 45, 130),
         (60, 60, 150), (90, 90, 90), (130, 120, 70), (70, 110, 150)]      # BGR
WOODS = [(60, 110, 165), (45, 85, 135), (90, 150, 200), (35, 60, 95), (110, 170, 215)]
PLAINS = [(225, 228, 230), (200, 205, 210), (60, 60, 62), (180, 195, 205), (235, 235, 235)]


def table_texture(rng, h, w):
    kind = rng.choice(["felt", "wood", "mat", "plain"], p=[0.42, 0.3, 0.16, 0.12])
    if kind == "felt":
        base = np.array(FELTS[rng.integers(len(FELTS))], np.float32) * rng.uniform(0.8, 1.15)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        img *= (1 + 0.06 * smooth_noise(rng, h, w, 6))[:, :, None]
        img += rng.normal(0, rng.uniform(3, 9), (h, w, 1)).astype(np.float32)
    elif kind == "wood":
        base = np.array(WOODS[rng.integers(len(WOODS))], np.float32) * rng.uniform(0.85, 1.1)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        vertical = rng.random() < 0.5
        a, b = (xx, yy) if vertical else (yy, xx)
        warp = smooth_noise(rng, h, w, 5) * rng.uniform(4, 15)
        freq = rng.uniform(0.05, 0.16)
        grain = np.sin((a + warp + 0.02 * b) * freq) * 0.5 + 0.5
        fine = smooth_noise(rng, h, w, 60)
        shade = 1 - rng.uniform(0.08, 0.2) * grain + 0.04 * fine
        img = base[None, None, :] * shade[:, :, None]
        plank = int(rng.integers(90, 260))
        lines = (((a + rng.uniform(0, plank)) % plank) < 2.0)
        img[lines] *= 0.6
    elif kind == "mat":
        base = np.array(FELTS[rng.integers(len(FELTS))], np.float32) * rng.uniform(0.7, 1.2)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(3, 7)
        weave = np.sin(xx * 2 * np.pi / p) * np.sin(yy * 2 * np.pi / p)
        img = base[None, None, :] * (1 + 0.07 * weave + 0.05 * smooth_noise(rng, h, w, 8))[:, :, None]
        if rng.random() < 0.4:   # printed border line of a mahjong mat
            m = int(rng.integers(20, 80))
            col = np.array([200, 200, 200], np.float32) if rng.random() < 0.5 else base * 0.5
            cv2.rectangle(img, (m, m), (w - m, h - m), tuple(float(c) for c in col), int(rng.integers(2, 6)))
    else:
        base = np.array(PLAINS[rng.integers(len(PLAINS))], np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        img *= (1 + 0.04 * smooth_noise(rng, h, w, 4))[:, :, None]
        img += rng.normal(0, 2, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.float32)


# --------------------------------------------------------------------- tiles
class Tile:
    """One tile to draw: code, front image (BGRA, FW x FH), pose, body."""
    __slots__ = ("code", "front", "quarter", "angle", "cx", "cy", "th", "back", "label")

    def __init__(self, code, front, quarter=0, angle=0.0, cx=0.0, cy=0.0, th=100.0, back=False, label=True):
        self.code, self.front, self.quarter, self.angle = code, front, quarter, angle
        self.cx, self.cy, self.th, self.back, self.label = cx, cy, th, back, label


_OUTLINE = None


def _outline():
    global _OUTLINE
    if _OUTLINE is None:
        _OUTLINE = F.rounded_rect_points(F.FW, F.FH, F.FW * F.RADIUS, 5)
    return _OUTLINE


def tile_matrix(t, sprite_w, sprite_h, s):
    """2x3 affine: sprite px -> canvas px (rotate t.angle deg about centre)."""
    a = np.deg2rad(t.angle)
    c, si = np.cos(a) * s, np.sin(a) * s
    M = np.array([[c, -si, 0], [si, c, 0]], np.float32)
    M[:, 2] = np.array([t.cx, t.cy], np.float32) - M[:, :2] @ np.array([sprite_w / 2, sprite_h / 2], np.float32)
    return M


def _rot_points(pts, k, w, h):
    """Rotate sprite-space points like np.rot90(img, k) (counter-clockwise)."""
    p = pts.copy()
    for _ in range(k % 4):
        x, y = p[:, 0].copy(), p[:, 1].copy()
        p[:, 0], p[:, 1] = y, w - x
        w, h = h, w
    return p


def _fill(canvas, pts, colour):
    cv2.fillPoly(canvas, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def draw_tile(canvas, t, body, offset, ivory_frac, tint):
    """Draw tile `t` on float32 BGR `canvas`; return its visible outline points.

    body: BGR body colour; offset: (dx, dy) px of the visible thickness;
    ivory_frac: share of the thickness that is the ivory front layer.
    """
    k = t.quarter % 4
    spr = np.rot90(t.front, k) if k else t.front
    sh, sw = spr.shape[:2]
    s = t.th / F.FH
    if s < 0.75:   # pre-shrink with area averaging to avoid aliasing
        nw, nh = max(2, int(round(sw * s * 1.2))), max(2, int(round(sh * s * 1.2)))
        small = cv2.resize(spr, (nw, nh), interpolation=cv2.INTER_AREA)
        fx, fy = nw / sw, nh / sh
        spr, s_eff = small, s / fx
    else:
        fx = fy = 1.0
        s_eff = s
    M = tile_matrix(t, spr.shape[1], spr.shape[0], s_eff)
    outline = _rot_points(_outline(), k, F.FW, F.FH) * np.array([fx, fy], np.float32)
    poly = outline @ M[:, :2].T + M[:, 2]
    off = np.array(offset, np.float32)
    side_shade = 0.72
    ivory_side = np.array(F.IVORY, np.float32) * side_shade * np.asarray(tint, np.float32)
    body_side = np.array(body, np.float32) * side_shade
    if np.abs(off).max() > 0.3:
        first, second = (body_side, ivory_side) if not t.back else (ivory_side, body_side)
        hull = cv2.convexHull(np.vstack([poly, poly + off]))[:, 0, :]
        _fill(canvas, hull, tuple(float(c) for c in first))
        hull2 = cv2.convexHull(np.vstack([poly, poly + off * ivory_frac]))[:, 0, :]
        _fill(canvas, hull2, tuple(float(c) for c in second))
        # seam line between the two layers
        seam = poly + off * ivory_frac
        cv2.polylines(canvas, [np.round(seam * 16).astype(np.int32)], True,
                      tuple(float(c) * 0.8 for c in second), 1, cv2.LINE_AA, shift=4)
    # front
    x0, y0 = np.floor(poly.min(0)).astype(int) - 1
    x1, y1 = np.ceil(poly.max(0)).astype(int) + 2
    H, W = canvas.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if cx1 > cx0 and cy1 > cy0:
        M2 = M.copy()
        M2[:, 2] -= np.array([cx0, cy0], np.float32)
        warped = cv2.warpAffine(spr, M2, (cx1 - cx0, cy1 - cy0), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)).astype(np.float32)
        a = warped[:, :, 3:4] / 255.0
        col = warped[:, :, :3]
        if not t.back:
            col = col * np.asarray(tint, np.float32)
        roi = canvas[cy0:cy1, cx0:cx1]
        canvas[cy0:cy1, cx0:cx1] = col * a + roi * (1 - a)
    pts = np.vstack([poly, poly + off])
    return pts


def shadow_pass(canvas, tiles_polys, light, strength, blur):
    """Darken the table under a set of (outline) polygons shifted by `light`."""
    H, W = canvas.shape[:2]
    m = np.zeros((H, W), np.float32)
    for pts in tiles_polys:
        hull = cv2.convexHull(pts + np.array(light, np.float32))[:, 0, :]
        _fill(m, hull, 1.0)
    m = cv2.GaussianBlur(m, (0, 0), blur)
    canvas *= (1 - strength * m)[:, :, None]


# -------------------------------------------------------------- photometric
def photometric(img, rng, strength=1.0):
    """img: float32 BGR. Lighting gradient, shadows, glare, colour cast."""
    H, W = img.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    grad = ((xx / W - 0.5) * np.cos(ang) + (yy / H - 0.5) * np.sin(ang))
    light = 1 + rng.uniform(0, 0.35) * strength * grad
    if rng.random() < 0.5:   # vignette
        r2 = ((xx / W - 0.5) ** 2 + (yy / H - 0.5) ** 2)
        light *= 1 - rng.uniform(0, 0.35) * r2
    light *= rng.uniform(0.75, 1.15)
    if rng.random() < 0.25:  # a big soft shadow (hand, phone, lamp)
        sh = np.zeros((H, W), np.float32)
        c = (int(rng.uniform(0, W)), int(rng.uniform(0, H)))
        ax = (int(rng.uniform(0.1, 0.4) * W), int(rng.uniform(0.1, 0.4) * H))
        cv2.ellipse(sh, c, ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
        sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(10, 40))
        light *= 1 - rng.uniform(0.15, 0.45) * sh
    img *= light[:, :, None]
    if rng.random() < 0.35:  # glare spots
        for _ in range(int(rng.integers(1, 4))):
            g = np.zeros((H, W), np.float32)
            c = (int(rng.uniform(0, W)), int(rng.uniform(0, H)))
            ax = (int(rng.uniform(0.02, 0.12) * W), int(rng.uniform(0.01, 0.06) * H))
            cv2.ellipse(g, c, ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
            g = cv2.GaussianBlur(g, (0, 0), rng.uniform(3, 15))
            img += (g * rng.uniform(40, 140))[:, :, None]
    gains = 1 + rng.normal(0, 0.05, 3) * strength
    img *= gains[None, None, :].astype(np.float32)
    return img


def degrade(img, rng):
    """Blur, noise, greyscale; returns uint8 BGR."""
    r = rng.random()
    if r < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.4))
    elif r < 0.38:   # motion blur
        k = int(rng.integers(3, 8))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        Mr = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        ker = cv2.warpAffine(ker, Mr, (k, k))
        ker /= max(ker.sum(), 1e-6)
        img = cv2.filter2D(img, -1, ker)
    sigma = rng.uniform(0, 6)
    if sigma > 0.5:
        img = img + rng.normal(0, sigma, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.05:
        g = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)
        out = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    return out


def random_homography(rng, cw, ch, ow, oh, strength=1.0):
    """Canvas (cw x ch) -> output (ow x oh); the canvas covers the whole output.

    A trapezoid: the far (top) edge shorter than the near (bottom) edge, as
    seen slightly from the front; sometimes the reverse, mildly.
    """
    m = 0.03
    t = rng.uniform(0, 0.3) * strength
    if rng.random() < 0.2:
        t = -0.4 * t
    j = lambda: rng.uniform(0, 0.05) * strength
    tt, bt = max(-t, 0), max(t, 0)
    tl = (-(m + tt + j()) * ow, -(m + j()) * oh)
    tr = ((1 + m + tt + j()) * ow, -(m + j()) * oh)
    br = ((1 + m + bt + j()) * ow, (1 + m + j()) * oh)
    bl = (-(m + bt + j()) * ow, (1 + m + j()) * oh)
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    dst = np.float32([tl, tr, br, bl])
    return cv2.getPerspectiveTransform(src, dst)


def project(pts, Hm):
    p = np.hstack([pts, np.ones((len(pts), 1), np.float32)]) @ Hm.T
    return p[:, :2] / p[:, 2:3]


def box_of(pts, ow, oh, min_visible=0.3):
    """Axis-aligned box of pts clipped to the image, or None if mostly outside."""
    x0, y0 = pts.min(0)
    x1, y1 = pts.max(0)
    area = max(1e-6, (x1 - x0) * (y1 - y0))
    cx0, cy0 = max(0.0, x0), max(0.0, y0)
    cx1, cy1 = min(float(ow), x1), min(float(oh), y1)
    if cx1 - cx0 < 3 or cy1 - cy0 < 3:
        return None
    if (cx1 - cx0) * (cy1 - cy0) / area < min_visible:
        return None
    return (int(round(cx0)), int(round(cy0)), int(round(cx1)), int(round(cy1)))
