"""Tile artwork for synth.py: kmahjongg tileset elements and font-drawn faces.

Element rendering: `rsvg-convert -i ID` mis-scales some elements (classic, jade,
egypt), so instead each element is isolated in a copy of the whole document
(every other drawable is moved into a <defs> in place, so it is still
referenceable but not drawn), rendered once small to find its ink box, then
rendered again with the viewBox set to that box at the wanted size.
Results are cached as PNG files (deterministic: same inputs, same bytes).
"""
import copy
import gzip
import hashlib
import os
import subprocess
import xml.etree.ElementTree as ET

import cv2
import numpy as np

TILESET_DIR = "/usr/share/kmahjongglib/tilesets"
CACHE_DIR = os.environ.get("MJSCAN_SYNTH_CACHE", "/tmp/mjscan-synth/cache")
SVG_NS = "http://www.w3.org/2000/svg"
FONT_DIR = "/usr/share/fonts/opentype/noto"

SUITS = "mpsz"
ORDINARY = ([f"{n}m" for n in range(1, 10)] + [f"{n}p" for n in range(1, 10)]
            + [f"{n}s" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)])
FLOWERS = [f"{n}f" for n in range(1, 9)]
REDS = ["0m", "0p", "0s"]
BACK = "0z"
RARE_KJ = [f"{n}k" for n in range(1, 9)] + [f"{n}j" for n in range(1, 10)]


def element_for(code, setname=None):
    """kmahjongg element id for a code drawn from the tileset (None otherwise)."""
    n, s = int(code[0]), code[1]
    if s == "m" and n >= 1:
        return f"CHARACTER_{n}"
    if s == "p" and n >= 1:
        return f"ROD_{n}"
    if s == "s" and n >= 1:
        return f"BAMBOO_{n}"
    if s == "z" and 1 <= n <= 4:
        return f"WIND_{WIND_ORDER[n - 1]}"
    if s == "z" and 5 <= n <= 7:
        return f"DRAGON_{DRAGON_ORDER[n - 5]}"
    if s == "f" and 1 <= n <= 4:
        return f"FLOWER_{FLOWER_SWAP.get(setname, {}).get(n, n)}"
    if s == "f" and 5 <= n <= 8:
        return f"SEASON_{n - 4}"
    return None


# Checked by eye on renders of all sets (letters N/S/E/W drawn on the tiles of
# default, classic, traditional, jade): WIND_1..4 are North, South, East, West;
# DRAGON_1..3 are white, green, red.
WIND_ORDER = [3, 2, 4, 1]      # element number for 1z (E), 2z (S), 3z (W), 4z (N)
DRAGON_ORDER = [1, 2, 3]       # element number for 5z (white), 6z (green), 7z (red)
# classic labels FLOWER_1 "Orchid" and FLOWER_2 "Plum" (other sets: 1 plum, 2 orchid)
FLOWER_SWAP = {"classic": {1: 2, 2: 1}}


_docs = {}


def _load(setname):
    if setname not in _docs:
        ET.register_namespace("", SVG_NS)
        data = gzip.open(os.path.join(TILESET_DIR, setname + ".svgz")).read()
        _docs[setname] = data
    return _docs[setname]


def _register_namespaces(data):
    # keep original prefixes so the written SVG stays readable by rsvg
    import io
    for _, (prefix, uri) in ET.iterparse(io.BytesIO(data), events=["start-ns"]):
        try:
            ET.register_namespace(prefix, uri)
        except ValueError:
            pass


def _isolated_svg(setname, elem_id, viewbox=None, size=None):
    data = _load(setname)
    _register_namespaces(data)
    root = ET.fromstring(data)
    parent = {c: p for p in root.iter() for c in p}
    target = None
    for e in root.iter():
        if e.get("id") == elem_id:
            target = e
            break
    if target is None:
        return None
    path = [target]
    while path[-1] in parent:
        path.append(parent[path[-1]])
    onpath = set(path)
    keep_tags = {"defs", "metadata", "namedview", "style"}
    for node in path[1:]:
        for i, child in enumerate(list(node)):
            if child in onpath:
                continue
            tag = child.tag.split("}")[-1]
            if tag in keep_tags:
                continue
            d = ET.Element(f"{{{SVG_NS}}}defs")
            node.remove(child)
            d.append(child)
            node.insert(i, d)
    if viewbox is not None:
        x, y, w, h = viewbox
        root.set("viewBox", f"{x:.4f} {y:.4f} {w:.4f} {h:.4f}")
        root.set("width", str(size[0]))
        root.set("height", str(size[1]))
        root.set("preserveAspectRatio", "none")
    return ET.tostring(root)


def _doc_user_size(setname):
    root = ET.fromstring(_load(setname))
    w = float(root.get("width").replace("px", ""))
    h = float(root.get("height").replace("px", ""))
    return w, h


def _rsvg(svg_bytes, zoom=None):
    cmd = ["rsvg-convert", "-f", "png"]
    if zoom:
        cmd += ["-z", str(zoom)]
    out = subprocess.run(cmd, input=svg_bytes, capture_output=True, check=True).stdout
    im = cv2.imdecode(np.frombuffer(out, np.uint8), cv2.IMREAD_UNCHANGED)
    if im.ndim == 2:
        im = cv2.cvtColor(im, cv2.COLOR_GRAY2BGRA)
    elif im.shape[2] == 3:
        im = cv2.cvtColor(im, cv2.COLOR_BGR2BGRA)
    return im


def render_element(setname, elem_id, height=256):
    """RGBA (BGRA) image of one element cropped to its ink box, `height` px tall.

    Returns None when the element does not exist, and an all-transparent
    image of the face's nominal size when it has no ink.
    """
    os.makedirs(os.path.join(CACHE_DIR, setname), exist_ok=True)
    cpath = os.path.join(CACHE_DIR, setname, f"{elem_id}_{height}.png")
    if os.path.exists(cpath):
        return cv2.imread(cpath, cv2.IMREAD_UNCHANGED)
    svg = _isolated_svg(setname, elem_id)
    if svg is None:
        return None
    W, H = _doc_user_size(setname)
    z = 2.0
    im = _rsvg(svg, z)
    a = im[:, :, 3]
    ys, xs = np.nonzero(a > 8)
    if len(xs) == 0:
        out = np.zeros((height, int(height * 0.75), 4), np.uint8)
        cv2.imwrite(cpath, out)
        return out
    sx = W / im.shape[1]
    sy = H / im.shape[0]
    pad = 1.0  # image px at zoom 2
    x0, x1 = (xs.min() - pad) * sx, (xs.max() + 1 + pad) * sx
    y0, y1 = (ys.min() - pad) * sy, (ys.max() + 1 + pad) * sy
    w, h = x1 - x0, y1 - y0
    width = max(4, int(round(height * w / h)))
    svg2 = _isolated_svg(setname, elem_id, (x0, y0, w, h), (width, height))
    out = _rsvg(svg2)
    # tighten once more at full resolution
    ys, xs = np.nonzero(out[:, :, 3] > 8)
    if len(xs):
        out = out[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        if out.shape[0] != height:
            s = height / out.shape[0]
            out = cv2.resize(out, (max(4, int(round(out.shape[1] * s))), height),
                             interpolation=cv2.INTER_AREA)
    cv2.imwrite(cpath, out)
    return out


# ---------------------------------------------------------------- fonts
_ft = {}


def font(name):
    """cv2.freetype renderer for a Noto CJK font file name (face 0 of the ttc)."""
    if name not in _ft:
        f = cv2.freetype.createFreeType2()
        f.loadFontData(os.path.join(FONT_DIR, name), 0)
        _ft[name] = f
    return _ft[name]


def text_mask(text, fontname, px=120):
    """Alpha mask (uint8) of `text` cropped to its ink box."""
    return _ink_mask(font(fontname), text, px)


def ink_crop(f, text, px):
    """Alpha mask of `text` drawn with the FreeType font f, cropped to its
    ink, or None when it draws no ink."""
    (tw, th), base = f.getTextSize(text, px, -1)
    pad = px // 2
    scratch = np.zeros((th + base + 2 * pad, tw + 2 * pad, 3), np.uint8)
    f.putText(scratch, text, (pad, pad + th), px, (255, 255, 255), -1, cv2.LINE_AA, True)
    scratch = scratch[:, :, 0]
    ys, xs = np.nonzero(scratch > 20)
    if len(xs) == 0:
        return None
    return scratch[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _ink_mask(f, text, px):
    """Alpha mask of `text` drawn with the FreeType font f, cropped to its ink."""
    m = ink_crop(f, text, px)
    return np.zeros((4, 4), np.uint8) if m is None else m


def stable_seed(*parts):
    h = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:4], "little")


# Training-path variety: other faces of the same .ttc (JP/KR/SC/TC/HK glyph
# shapes differ slightly). Only used by `--rare train`.
_ftf = {}


def text_mask_face(text, fontname, face, px=120):
    """Like text_mask, with face `face` of the .ttc (face 0 = text_mask's)."""
    if face == 0:
        return text_mask(text, fontname, px)
    key = (fontname, face)
    if key not in _ftf:
        f = cv2.freetype.createFreeType2()
        f.loadFontData(os.path.join(FONT_DIR, fontname), face)
        _ftf[key] = f
    return _ink_mask(_ftf[key], text, px)
