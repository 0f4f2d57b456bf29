"""The index reader (models/index_reader.onnx): reads the small Arabic
numeral many sets print in a corner of their suit tiles (the "index":
Western and American sets, many Chinese and Vietnamese ones), or says
there is none. vision/index.go weighs the classifier's reading of a
character, dot or bamboo tile by it, within the tile's suit: an index
tells 2 from 3 and 4 from 6 where the art is drawn in a hand the
classifier never saw (models/README.md, "Reading the index").

It reads one half of a tile as the part reader does (parts.py: 48x32,
grey), but keeps the way up: the top half as it is, the bottom half
turned half round, so that a tile lying upside down shows its index
upright in the turned bottom half and a 6 is never a 9. Labels: 1-9 and
"none" (a half with no index: the other half of an indexed tile, a tile
with none, an honour with a Latin letter in its corner, a king, a joker).

Faces are drawn as parts.py draws them: suit tiles by synth_proc.py in
every training style (60%) or cut from the three training tile sets that
print no index of their own (40%), three in five given an index of a
digit drawn at random (not the tile's own: the reader must read the
index, and cannot learn to count the dots or read the numeral instead); honours, kings and jokers as the
"none" they must read. The index is a digit in DejaVu or the Latin
digits of a training CJK font (AR PL UKai kept out), 9-22% of the face's
height, in a corner along the top, in red, a dark ink or the art's
colour, two times in five printed pale. Each face is seen as parts.photo_halves sees it (body, table,
turn, 18-110 px, blur, JPEG, a loose box), half of them as a table's photo
shows a standing or slanted tile (seen: the face squeezed, the tile's top
above it, turned and blurred more).

    /usr/bin/python3 index_reader.py draw N SEED OUT.npz       # N tiles, 2N halves
    /usr/bin/python3 index_reader.py train [--epochs E] [--threads T] OUT.pt DATA.npz ...
    /usr/bin/python3 index_reader.py export OUT.pt ../index_reader.onnx   # and its manifest
"""
import os

import cv2
import numpy as np

import parts
import synth_faces as F
import synth_proc as P

CLASSES = [str(d) for d in range(1, 10)] + ["none"]
NONE = len(CLASSES) - 1
_D = "/usr/share/fonts/truetype/dejavu/"
DIGIT_FONTS = [(_D + f, 0) for f in (
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf",
    "DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
    "DejaVuSerif-Italic.ttf", "DejaVuSerifCondensed-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf",
    "DejaVuSans-ExtraLight.ttf")] + P.TRAIN_FONTS
# the training tile sets whose suit tiles carry no index of their own (the
# others print one on some or all of them, in their own corner)
UNINDEXED_SETS = ["smooth", "postmodern", "real"]
INDEX_INKS = [(30, 30, 190), (40, 40, 220), (25, 25, 150), (20, 20, 20), (60, 40, 30), (120, 50, 10),
              (40, 110, 30), (90, 30, 10)]


def check_fonts():
    miss = [p for p, _ in DIGIT_FONTS if not os.path.exists(p)]
    if miss:
        raise SystemExit("missing fonts (install them with scripts/setup.sh --train): " + ", ".join(sorted(set(miss))))


def plain_front(code, rng):
    """A face with no index: drawn (proc) or from a training art set (for
    a suit tile, one of the sets that print no index of their own)."""
    if code[1] in "mpsz" and rng.random() < 0.6:
        return P.front(code, rng, P.make_style(rng))
    sets = UNINDEXED_SETS if code[1] in "mps" else parts.ART_SETS
    s = sets[int(rng.integers(len(sets)))]
    return F.train_front(s, code, rng, F.set_front_colour(s))


def stamp_index(front, digit, rng):
    """front (BGRA, F.FH x F.FW) with digit printed in a corner along its top."""
    key = DIGIT_FONTS[int(rng.integers(len(DIGIT_FONTS)))]
    mask = P.glyph(key, digit, DIGIT_FONTS[0])
    if rng.random() < 0.3:
        mask = P.weigh(mask, int(rng.integers(-2, 5)))
    h = int(F.FH * rng.uniform(0.09, 0.22))
    w = max(1, int(mask.shape[1] * h / mask.shape[0]))
    m = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    ink = INDEX_INKS[int(rng.integers(len(INDEX_INKS)))]
    face = front[:, :, :3].reshape(-1, 3)[front[:, :, 3].reshape(-1) > 0]
    if rng.random() < 0.25 and len(face):  # the art's own colour: its darkest pixels on the face
        ink = tuple(int(v) for v in face[np.argmin(face.astype(np.int32).sum(1))])
    if rng.random() < 0.4 and len(face):  # printed pale: the ink mixed toward the face
        fc = np.median(face, 0)
        k = rng.uniform(0.2, 0.65)
        ink = tuple(int(i * (1 - k) + f * k) for i, f in zip(ink, fc))
    mx, my = int(F.FW * rng.uniform(0.04, 0.12)), int(F.FH * rng.uniform(0.03, 0.1))
    where = rng.random()
    if where < 0.55:  # top right
        x = F.FW - mx - w
    elif where < 0.9:  # top left
        x = mx
    else:  # along the top, off the middle
        x = int(rng.uniform(mx, F.FW - mx - w))
    x, y = max(0, min(F.FW - w, x)), max(0, min(F.FH - h, my))
    out = front.copy()
    roi = out[y:y + h, x:x + w, :3].astype(np.float32)
    a = m[:, :, None] * rng.uniform(0.5, 1.0)
    out[y:y + h, x:x + w, :3] = np.clip(roi * (1 - a) + np.array(ink, np.float32) * a + 0.5, 0, 255).astype(np.uint8)
    return out


def tile(rng):
    """A drawn face and the index it shows (NONE for none)."""
    if rng.random() < 0.75:
        n = int(rng.integers(0, 10))
        code = f"{n}{'mps'[int(rng.integers(3))]}"
        front = plain_front(code, rng)
        if rng.random() < 0.6:
            # a digit drawn at random, not the tile's own: the reader must
            # read the index, and cannot learn to count the art instead
            d = int(rng.integers(1, 10))
            return stamp_index(front, str(d), rng), d - 1
        return front, NONE
    r = rng.random()
    if r < 0.6:
        code = f"{int(rng.integers(1, 8))}z"
    elif r < 0.8:
        code = f"{int(rng.integers(1, 9))}k"
    else:
        code = f"{int(rng.integers(1, 10))}j"
    return plain_front(code, rng), NONE


def seen(front, rng):
    """front's two halves as parts.photo_halves cuts them; half the time
    as a table's photo shows a standing or slanted tile: its face squeezed
    by the camera's slant, up to 0.45 of its height of the tile's top seen
    above it (the detector boxes the whole visible tile), turned more,
    and blurred more (models/README.md, "A wider look at the index")."""
    if rng.random() < 0.5:
        return parts.photo_halves(front, rng)
    h, w = front.shape[:2]
    front = cv2.resize(front, (w, max(8, int(h * rng.uniform(0.6, 1.0)))), interpolation=cv2.INTER_AREA)
    hv = parts.photo_halves(front, rng, edge=(0.45, 0.25), turn=7.0, blur=2.0)
    if hv is not None and rng.random() < 0.3:
        s = rng.uniform(0.5, 1.4)
        hv = tuple(cv2.GaussianBlur(v, (0, 0), s) for v in hv)
    return hv


def draw(n, seed, path):
    check_fonts()
    P.check_fonts()
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    while len(xs) < 2 * n:
        front, label = tile(rng)
        upside_down = rng.random() < 0.5
        if upside_down:
            front = cv2.rotate(front, cv2.ROTATE_180)
        hv = seen(front, rng)
        if hv is None:
            continue
        top, bottom = hv[0], cv2.rotate(hv[1], cv2.ROTATE_180)
        xs += [top, bottom]
        ys += [NONE, label] if upside_down else [label, NONE]
    np.savez_compressed(path, x=np.array(xs, np.uint8), y=np.array(ys, np.int64))


def write_manifest(onnx_path, training):
    """The manifest beside the exported reader (models.Manifest)."""
    parts.write_reader_manifest(
        onnx_path, training, name="index_reader", labels=CLASSES,
        task="read the Arabic index (1-9) printed along the top of a suit tile, or none",
        meaning="the tile's box, turned a quarter clockwise when wider than turn_aspect times its height, "
                "is cut into its top and bottom half; the bottom half is turned half round; each half is resized "
                "to the input; the blob is pixel * scale, BGR; the graph makes it grey and standardises each half itself",
        licence="drawn faces only, no photos: this project's code (synth_proc.py, synth_faces.py) with "
                "the DejaVu fonts (Bitstream Vera licence) and the CJK fonts Debian packages (SIL OFL 1.1 "
                "and their own free licences, models/train/SYNTH.md; AR PL UKai kept out), and the tiles "
                "of ten KMahjongg, gnome-mahjongg and xmahjongg tile sets (GPL v2 or later)")


def main():
    parts.cli(__doc__, draw,
              dict(n_classes=len(CLASSES), turn_halves=False, script="models/train/index_reader.py",
                   recipe="models/train/train.sh (the index reader)"),
              dict(n_classes=len(CLASSES), manifest=write_manifest))


if __name__ == "__main__":
    main()
