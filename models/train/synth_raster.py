"""Raster tile sets for synth.py: the picture sheets of gnome-mahjongg and
xmahjongg (Debian packages, GPL v2 or later), cut into one face per code.

Each sheet is a grid of whole tiles (face, border and drawn thickness). A
face is cut from its cell with an inset that leaves the border and the
drawn thickness out; its background (the median of the cut's edge) is
keyed out, so the result is art like a kmahjongg element: BGRA, cropped to
its ink. The fronts, bodies and colours are then synth_faces' own.

The code order of each sheet was checked by eye on `synth.py sheet` renders.
"""
import os
import subprocess

import cv2
import numpy as np

# gnome-mahjongg theme order: 1p-9p, N W S E, red, green, 1m-9m, 1s-9s, four
# flowers or seasons, white, four more.
_GNOME = ([f"{n}p" for n in range(1, 10)] + ["4z", "3z", "2z", "1z", "7z", "6z"] +
          [f"{n}m" for n in range(1, 10)] + [f"{n}s" for n in range(1, 10)])
# xmahjongg's dorothys/dorwhite: 1p-9p, N W S E, red, green, 1m-9m, 1s-9s,
# spring summer autumn winter, white, bamboo orchid plum chrysanthemum.
_DOROTHY = _GNOME + ["5f", "6f", "7f", "8f", "5z", "4f", "2f", "1f", "3f"]

_REAL = ([f"{n}p" for n in range(1, 10)] + [f"{n}s" for n in range(1, 10)] + [f"{n}m" for n in range(1, 10)] +
         ["5f", "6f", "7f", "8f", "4z", "2z", "1z", "3z", None] + ["1f", "2f", "3f", "4f", "6z", "5z", "7z"])
_SMOOTH = "/usr/share/gnome-mahjongg/themes/smooth.png"
_POSTMODERN = "/usr/share/gnome-mahjongg/themes/postmodern.svg"
_DOROTHYS = "/usr/share/games/xmahjongg/tiles/dorothys.gif"
_DORWHITE = "/usr/share/games/xmahjongg/tiles/dorwhite.gif"
_GNOMEX = "/usr/share/games/xmahjongg/tiles/gnome.gif"

# name: (file, cell width, cell height, columns, first cell, codes from there,
# inset (left, top, right, bottom) as shares of the cell)
SHEETS = {
    # smooth: flowers written 蘭 菊 梅 竹, seasons 春 夏 秋 冬
    "smooth": (_SMOOTH, 96, 132, 43, 0, _GNOME + ["2f", "3f", "1f", "4f", "5z", "5f", "6f", "7f", "8f"],
               (0.17, 0.05, 0.05, 0.13)),
    # postmodern (SVG, drawn at 3x): numbered weather pictures (seasons), a
    # GNOME-foot white dragon, numbered flower pictures
    "postmodern": (_POSTMODERN, 192, 264, 43, 0, _GNOME + ["5f", "6f", "7f", "8f", "5z", "1f", "2f", "3f", "4f"],
                   (0.14, 0.05, 0.05, 0.13)),
    # dorothys and dorwhite have two colourings each: rows 0-1 and rows 2-3
    "dorothys": (_DOROTHYS, 64, 80, 21, 0, _DOROTHY, (0.05, 0.04, 0.21, 0.16)),
    "dorothys2": (_DOROTHYS, 64, 80, 21, 42, _DOROTHY, (0.05, 0.04, 0.21, 0.16)),
    "dorwhite": (_DORWHITE, 64, 80, 21, 0, _DOROTHY, (0.05, 0.04, 0.21, 0.16)),
    "dorwhite2": (_DORWHITE, 64, 80, 21, 42, _DOROTHY, (0.05, 0.04, 0.21, 0.16)),
    # photographed tiles: 1p-9p / 1s-9s / 1m-9m / seasons, N S E W, the
    # author's credit / flowers, green, white, red
    "real": ("/usr/share/games/xmahjongg/tiles/real.gif", 532 / 9, 396 / 5, 9, 0, _REAL, (0.08, 0.07, 0.08, 0.07)),
    # xmahjongg's gnome, its first colouring: the validation design
    # (VALIDATION), never in training. Its bonus tiles (華 花 梅 竹 and
    # winds again) are not the four flowers and seasons, so it has none.
    "gnome": (_GNOMEX, 40, 56, 21, 0, _GNOME + [None] * 4 + ["5z"] + [None] * 4, (0.125, 0.036, 0.05, 0.125)),
}

# VALIDATION: sheets kept out of all training and out of the reported
# designs, to choose between trained stages on (scripts/validate.sh);
# FLOWERLESS: sheets without flowers and seasons (scenes draw none).
VALIDATION = {"gnome"}
FLOWERLESS = {"gnome"}

LICENCE = {
    "smooth": "gnome-mahjongg (GNOME Mahjongg authors), GPL v2 or later",
    "postmodern": "gnome-mahjongg (GNOME Mahjongg authors), GPL v2 or later",
    "dorothys": "xmahjongg, (c) 2000 Dorothy Robinson, GPL v2 or later",
    "dorothys2": "xmahjongg, (c) 2000 Dorothy Robinson, GPL v2 or later",
    "dorwhite": "xmahjongg, (c) 1988 Dorothy Robinson, GPL v2 or later",
    "dorwhite2": "xmahjongg, (c) 1988 Dorothy Robinson, GPL v2 or later",
    "real": "xmahjongg, Real Tiles (c) 1999 Mark Sanctuary, GPL v2 or later",
    "gnome": "xmahjongg, (c) 1993-2000 Eddie Kohler, GPL v2 or later",
}

_sheets = {}


def _sheet(name):
    if name not in _sheets:
        path = SHEETS[name][0]
        if not os.path.exists(path):
            pkg = "gnome-mahjongg" if "gnome" in path else "xmahjongg"
            raise SystemExit(f"{path} is missing: install the Debian package {pkg} (scripts/setup.sh --train)")
        if path.endswith(".svg"):
            png = subprocess.run(["rsvg-convert", "-z", "3", path], check=True, capture_output=True).stdout
            im = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
        elif path.endswith(".gif"):
            ok, im = cv2.VideoCapture(path).read()
            if not ok:
                raise SystemExit(f"{path}: OpenCV cannot read it")
        else:
            im = cv2.imread(path, cv2.IMREAD_UNCHANGED)
        if im.shape[2] == 4:  # transparent outside the tiles: put it on grey
            a = im[:, :, 3:4].astype(np.float32) / 255
            im = (im[:, :, :3] * a + 128 * (1 - a)).astype(np.uint8)
        _sheets[name] = im
    return _sheets[name]


def face(name, code):
    """The face of code cut from the sheet (BGR, border and thickness left out), or None."""
    path, cw, ch, cols, first, order, inset = SHEETS[name]
    if code not in order:
        return None
    i = first + order.index(code)
    r, c = divmod(i, cols)
    im = _sheet(name)
    x0, y0 = c * cw + inset[0] * cw, r * ch + inset[1] * ch
    x1, y1 = (c + 1) * cw - inset[2] * cw, (r + 1) * ch - inset[3] * ch
    return im[int(round(y0)):int(round(y1)), int(round(x0)):int(round(x1))].copy()


def art(name, code, height=256):
    """BGRA art of code: the face with its background keyed out, cropped to its ink."""
    f = face(name, code)
    if f is None:
        return None
    scale = height / f.shape[0]
    f = cv2.resize(f, (max(4, int(round(f.shape[1] * scale))), height), interpolation=cv2.INTER_CUBIC)
    edge = np.concatenate([f[:3].reshape(-1, 3), f[-3:].reshape(-1, 3), f[:, :3].reshape(-1, 3), f[:, -3:].reshape(-1, 3)])
    bg = np.median(edge, axis=0)
    d = np.abs(f.astype(np.float32) - bg[None, None, :]).max(axis=2)
    alpha = np.clip((d - 28) / 40, 0, 1)
    alpha = cv2.GaussianBlur(alpha, (3, 3), 0.7)
    out = np.dstack([f, (alpha * 255).astype(np.uint8)])
    ys, xs = np.nonzero(alpha > 0.3)
    if len(xs) == 0:
        return np.zeros((height, int(height * 0.75), 4), np.uint8)
    out = out[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    s = height / out.shape[0]
    return cv2.resize(out, (max(4, int(round(out.shape[1] * s))), height), interpolation=cv2.INTER_AREA)


# The public-domain riichi tile art of FluffyStuff (shared/art/fluffystuff-riichi-tiles):
# one SVG a face, in a regular (light front) and a black (dark front) variant.
# Riichi sets: no flowers, red fives drawn by the art itself (-Dora), a blank
# white dragon (Haku.svg holds nothing).
FLUFFY = {"fluffy": "Regular", "fluffy-black": "Black"}
FLUFFY_LICENCE = "FluffyStuff riichi-mahjong-tiles, public domain (CC0 1.0)"
_FLUFFY_NAMES = {"m": "Man", "p": "Pin", "s": "Sou"}
_FLUFFY_HONOURS = ["Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun"]


def fluffy_dir():
    from common import shared_dir
    return shared_dir("art", "fluffystuff-riichi-tiles")


def fluffy_file(name, code):
    n, s = code[0], code[1]
    if s == "z":
        base = _FLUFFY_HONOURS[int(n) - 1] if "1" <= n <= "7" else None
    elif s in _FLUFFY_NAMES:
        base = _FLUFFY_NAMES[s] + ("5-Dora" if n == "0" else n)
    else:
        base = None
    if base is None:
        return None
    return os.path.join(fluffy_dir(), FLUFFY[name], base + ".svg")


def fluffy_art(name, code, height=256):
    """BGRA art of code in a FluffyStuff variant, cropped to its ink; a
    blank face (the white dragon) is a 4x4 transparent image; None when the
    set has no such tile."""
    import subprocess
    path = fluffy_file(name, code)
    if path is None or not os.path.exists(path):
        return None
    png = subprocess.run(["rsvg-convert", "-h", str(height), path], check=True, capture_output=True).stdout
    im = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if im is None or im.ndim != 3 or im.shape[2] != 4:
        raise SystemExit(f"{path}: rsvg-convert gave no RGBA image")
    ys, xs = np.nonzero(im[:, :, 3] > 8)
    if len(xs) == 0:
        return np.zeros((4, 4, 4), np.uint8)
    return im[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()
