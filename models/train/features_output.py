"""Add the "features" output to a classifier already exported (the shipped
tile_classifier.onnx was exported before classifier.py did it itself):

    /usr/bin/python3 models/train/features_output.py models

Rewrites the ONNX file and its manifest's sha256 and features block; the
logits are unchanged (check: vision's known-answer tests)."""
import json
import os
import sys

from common import add_features_output, sha256_file


def main(folder):
    path = os.path.join(folder, "tile_classifier.onnx")
    width = add_features_output(path)
    mpath = os.path.join(folder, "tile_classifier.json")
    with open(mpath) as f:
        manifest = json.load(f)
    manifest["sha256"] = sha256_file(path)
    if width:
        manifest["features"] = {"name": "features", "size": width,
                                "meaning": "the pooled vector the last layer reads; taught tile sets fit their own classifier on it"}
    with open(mpath, "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    print(f"{path}: features output of {manifest['features']['size']}, sha256 {manifest['sha256'][:12]}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "models")
