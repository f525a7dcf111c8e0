"""``mahjongero detect PHOTO [--json]``: every tile in a photo, with box, code, confidence, face."""

from __future__ import annotations

import argparse
import json

from mahjongero.commands._classifier import add_classifier_options, classifier_from
from mahjongero.commands._detector import add_detector_options, detector_from
from mahjongero.commands._zoom import add_zoom_option, balance_from, upright_from, zoom_from


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("detect", help="find and name every tile in a photo")
    p.add_argument("photo", help="image file (JPEG, PNG, ...)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_detector_options(p)
    add_classifier_options(p)
    add_zoom_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.imageio import load_photo
    from vision.reader import TileReader

    image, (sx, sy) = load_photo(args.photo)  # boxes are given back in the photo's own pixels
    reader = TileReader(detector_from(args), classifier_from(args), zoom=zoom_from(args), upright=upright_from(args),
                        balance=balance_from(args))
    dets = reader(image).scaled(sx, sy).sorted_left_to_right()
    rows = dets.to_json()
    if args.json:
        print(json.dumps({"image": args.photo, "tiles": rows}, indent=1))
        return 0
    print(f"{len(rows)} tiles in {args.photo}")
    for r in rows:
        box = ", ".join(f"{v:.0f}" for v in r["box"])
        named = f"named {r['tile_confidence']:.2f}" + (
            f", or {r['runner_up']} {r['runner_up_confidence']:.2f}" if "runner_up" in r else "")
        print(f"  {r['tile']:>3} {r['face']:<4} found {r['confidence']:.2f}  [{box}]  {named}")
    return 0
