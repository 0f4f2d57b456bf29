#!/usr/bin/env python3
"""Copy FluffyStuff's public-domain riichi tile art (../shared/art/
fluffystuff-riichi-tiles/Regular) into api/web/tiles/, named by CONTRACT
code (1m.svg, 0p.svg for the red five, 5z.svg for the white dragon, ...),
without Inkscape's editor metadata. The tile body is front.svg (back.svg
for a face-down tile); each face is drawn on it by the page.

    python3 scripts/page-tiles.py [ART_DIR]
"""
import os
import sys
import xml.etree.ElementTree as ET

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
DROP = ("http://sodipodi.sourceforge.net", "http://www.inkscape.org", "http://www.w3.org/1999/02/22-rdf",
        "http://creativecommons.org/ns", "http://purl.org/dc/", "http://www.openswatchbook.org")

NAMES = {"Front": "front", "Back": "back"}
for suit, letter in (("Man", "m"), ("Pin", "p"), ("Sou", "s")):
    for n in range(1, 10):
        NAMES[f"{suit}{n}"] = f"{n}{letter}"
    NAMES[f"{suit}5-Dora"] = f"0{letter}"
for name, code in (("Ton", "1z"), ("Nan", "2z"), ("Shaa", "3z"), ("Pei", "4z"), ("Haku", "5z"), ("Hatsu", "6z"), ("Chun", "7z")):
    NAMES[name] = code


def dropped(tag):
    return tag.startswith("{") and tag[1:].startswith(DROP)


def clean(el):
    for child in list(el):
        if dropped(child.tag) or child.tag == f"{{{SVG}}}metadata":
            el.remove(child)
        else:
            clean(child)
    for k in list(el.attrib):
        if dropped(k):
            del el.attrib[k]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    art = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "shared", "art", "fluffystuff-riichi-tiles")
    out = os.path.join(here, "..", "api", "web", "tiles")
    os.makedirs(out, exist_ok=True)
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", XLINK)
    for src, code in sorted(NAMES.items()):
        tree = ET.parse(os.path.join(art, "Regular", src + ".svg"))
        root = tree.getroot()
        clean(root)
        for k in ("id", "version"):
            root.attrib.pop(k, None)
        tree.write(os.path.join(out, code + ".svg"), encoding="unicode", xml_declaration=False)
        print(src, "->", code)


main()
