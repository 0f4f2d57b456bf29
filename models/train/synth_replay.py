"""Draw synth.py scenes on a machine without Debian's tile art and fonts.

synth.py reads three things from Debian's packages: glyph masks drawn by
OpenCV's FreeType module (the CJK fonts), PNGs drawn by rsvg-convert (the
KMahjongg and GNOME art) and the xmahjongg and GNOME tile sheets. The GPU
machine (models/README.md, "A stage on the GPU machine") has none of them,
nor OpenCV's FreeType module. `record` runs synth.py here and keeps every
one of those it reads in one file; `replay` runs synth.py there with that
file standing in for the packages:

    /usr/bin/python3 synth_replay.py record ATLAS.pkl.gz [--complete] -- scenes --sets proc ... --out DIR
    python3 synth_replay.py replay ATLAS.pkl.gz [--sealed] -- scenes --sets proc ... --out DIR

`record --complete` also draws every text it saw in every training font
(a style drawn there with another font than the recorded scenes' finds its
glyphs), every training tileset's art of every code and every tile sheet. A glyph the file lacks is drawn in another font that has that
text (counted, and said at the end). Replayed with the same OpenCV the
scenes are byte for byte synth.py's (`make train-check` replays them
`--sealed`: nothing of /usr/share read, no program run); with another
OpenCV (pip's, on the GPU machine) resizing and JPEG may differ in the
last bit, so those scenes are of the same kind, not the same bytes.
"""
import gzip
import hashlib
import os
import pickle
import subprocess
import sys
import types

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


class _Font:
    """Stands in for a cv2.freetype font: knows which font file it is."""

    def __init__(self, real=None):
        self.key = None
        self.real = real

    def loadFontData(self, path, face):
        self.key = (os.path.basename(path), int(face))
        if self.real is not None:
            self.real.loadFontData(path, face)

    def getTextSize(self, *a):
        return self.real.getTextSize(*a)

    def putText(self, *a):
        return self.real.putText(*a)


class _Done:
    def __init__(self, stdout):
        self.stdout = stdout
        self.returncode = 0


def _run_key(cmd, kw):
    data = kw.get("input") or b""
    return (tuple(str(c) for c in cmd), hashlib.sha256(data).hexdigest())


def install(mode, atlas):
    """Patch cv2.freetype, synth_art.ink_crop, subprocess.run and the tile
    sheets: record into atlas, or replay from it."""
    import synth_art as A
    import synth_proc as P
    import synth_raster as R

    glyphs, runs, sheets = atlas.setdefault("glyphs", {}), atlas.setdefault("runs", {}), atlas.setdefault("sheets", {})
    elements = atlas.setdefault("elements", {})
    missing = atlas.setdefault("_missing", [0])
    fonts = atlas.setdefault("fonts", {})   # the font keys seen (record)
    real_ink_crop, real_run = A.ink_crop, subprocess.run
    if mode == "record":
        create = cv2.freetype.createFreeType2
        cv2.freetype.createFreeType2 = lambda: _Font(create())
    else:
        cv2.freetype = types.SimpleNamespace(createFreeType2=_Font)
        P.check_fonts = lambda heldout=False: None

    def ink_crop(f, text, px):
        key = (f.key, text, px)
        if mode == "record":
            if key not in glyphs:
                glyphs[key] = real_ink_crop(f, text, px)
                fonts[f.key] = None
            return glyphs[key]
        if key in glyphs:
            return glyphs[key]
        missing[0] += 1
        for (fk, t, p), m in glyphs.items():
            if t == text and p == px:
                return m
        return None

    def run(cmd, *a, **kw):
        key = _run_key(cmd, kw)
        if mode == "record":
            if key not in runs:
                runs[key] = real_run(cmd, *a, **kw).stdout
            return _Done(runs[key])
        if key not in runs:
            raise SystemExit(f"synth_replay: {cmd[0]} was not recorded for this input; record again with these scenes")
        return _Done(runs[key])

    real_element = A.render_element

    def render_element(setname, elem_id, height=256):
        key = (setname, elem_id, height)
        if mode == "record":
            if key not in elements:
                elements[key] = real_element(setname, elem_id, height)
            return elements[key]
        if key not in elements:
            raise SystemExit(f"synth_replay: {setname} {elem_id} was not recorded; record again with these scenes")
        return elements[key]

    A.ink_crop = ink_crop
    A.render_element = render_element
    subprocess.run = run
    if mode == "record":
        real_sheet = R._sheet

        def sheet(name):
            sheets[name] = real_sheet(name)
            return sheets[name]
        R._sheet = sheet
    else:
        R._sheets.update(sheets)


def complete(atlas):
    """Every recorded text at every recorded size in every training font,
    every training tileset's art of every code, every tile sheet."""
    import synth
    import synth_art as A
    import synth_faces as F
    import synth_proc as P
    import synth_raster as R
    for name in [n for n in R.SHEETS if n not in R.VALIDATION]:
        R._sheet(name)
    for setname in synth.TRAIN_SETS:
        for code in F.codes_for("train"):
            c = "5" + code[1] if code[0] == "0" and code[1] in "mps" else code
            el = A.element_for(c, setname)
            if el:
                A.render_element(setname, el, 256)
    texts = {(t, p) for (_, t, p) in atlas["glyphs"]}
    keys = [(os.path.basename(path), face) for path, face in P.TRAIN_FONTS + [P.LATIN_FONT]] + list(atlas["fonts"])
    paths = {os.path.basename(path): path for path, _ in P.TRAIN_FONTS + [P.LATIN_FONT]}
    for key in dict.fromkeys(keys):
        f = cv2.freetype.createFreeType2()
        f.loadFontData(paths.get(key[0], os.path.join(A.FONT_DIR, key[0])), key[1])
        for t, p in texts:
            if (f.key, t, p) not in atlas["glyphs"]:
                A.ink_crop(f, t, p)


def _sealed(event, args):
    """replay --sealed: fail where synth.py would still read a package's
    file or run a program (the recording misses something)."""
    if event == "open" and isinstance(args[0], str) and args[0].startswith("/usr/share/"):
        raise RuntimeError(f"synth_replay --sealed: {args[0]} read; record again")
    if event == "subprocess.Popen":
        raise RuntimeError(f"synth_replay --sealed: {args[0]} run; record again")


def _plain(v):
    """Arrays as (shape, dtype, bytes): the file loads under another numpy."""
    if isinstance(v, np.ndarray):
        return ("ndarray", v.shape, v.dtype.str, v.tobytes())
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _arrays(v):
    if isinstance(v, tuple) and len(v) == 4 and v[0] == "ndarray":
        return np.frombuffer(v[3], np.dtype(v[2])).reshape(v[1]).copy()
    if isinstance(v, dict):
        return {k: _arrays(x) for k, x in v.items()}
    return v


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("record", "replay") or "--" not in sys.argv:
        raise SystemExit(__doc__)
    mode, path = sys.argv[1], sys.argv[2]
    opts = sys.argv[3:sys.argv.index("--")]
    argv = sys.argv[sys.argv.index("--") + 1:]
    atlas = {}
    if mode == "replay" or os.path.exists(path):
        with gzip.open(path, "rb") as f:
            atlas = _arrays(pickle.load(f))
    if "--sealed" in opts:
        sys.addaudithook(_sealed)
    install(mode, atlas)
    import synth
    synth.main(argv)
    if mode == "record":
        if "--complete" in opts:
            complete(atlas)
        atlas.pop("fonts", None)
        atlas.pop("_missing", None)
        with gzip.open(path + ".tmp", "wb") as f:
            pickle.dump(_plain(atlas), f, protocol=4)
        os.replace(path + ".tmp", path)
        print(f"synth_replay: {len(atlas['glyphs'])} glyphs, {len(atlas['runs'])} rsvg drawings, "
              f"{len(atlas['elements'])} art elements, {len(atlas['sheets'])} sheets in {path}", file=sys.stderr)
    elif atlas["_missing"][0]:
        print(f"synth_replay: {atlas['_missing'][0]} glyphs drawn in another font (not recorded)", file=sys.stderr)


if __name__ == "__main__":
    main()
