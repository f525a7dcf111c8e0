"""``mahjongero classify CROP... [--json]``: the tile code of pre-cut single-tile images."""

from __future__ import annotations

import argparse
import json

from mahjongero.commands._classifier import add_classifier_options, classifier_from


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("classify", help="name pre-cut single-tile images")
    p.add_argument("crops", nargs="+", help="image files, one tile each")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_classifier_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.tiles import Tile
    from vision.imageio import load_image

    clf = classifier_from(args, crops=True)
    images = [load_image(p) for p in args.crops]
    codes, probs = clf(images)
    rows = [
        {"file": f, "tile": str(Tile(int(c))), "confidence": round(float(p), 4)}
        for f, c, p in zip(args.crops, codes, probs, strict=True)
    ]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['tile']:>3}  {r['confidence']:.3f}  {r['file']}")
    return 0
