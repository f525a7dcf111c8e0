"""``mahjongero calibrate``: print the guide, or teach a set from one photo of it.

    mahjongero calibrate guide --variant singapore --out guide.png
    mahjongero calibrate PHOTO --name myset --variant singapore
    mahjongero calibrate --list
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "calibrate", help="teach your tile set from one photo (or print the guide)",
        description="`calibrate guide` prints the layout to copy; `calibrate PHOTO --name N` "
                    "learns the set in the photo; use it later with --set N.",
    )
    p.add_argument("target", nargs="?", help="'guide', or the photo of the laid-out guide")
    p.add_argument("--variant", default="filipino", help="filipino, visayan, singapore, vietnamese")
    p.add_argument("--name", help="name to store the set under (letters, digits, - _ .)")
    p.add_argument("--out", default="calibration-guide.png", help="where the guide PNG goes")
    p.add_argument("--list", action="store_true", help="list the calibrated sets")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, detect: Any = None) -> int:
    from vision.calibrate import (
        CalibrationError,
        calibrate,
        check_name,
        guide_image,
        sets_dir,
        stored_sets,
    )

    if args.list:
        root = sets_dir()
        names = stored_sets()
        print("\n".join(names) if names else f"no calibrated sets in {root}")
        return 0
    if not args.target:
        raise CalibrationError("say 'guide' or give the photo of your laid-out tiles")
    if args.target == "guide":
        import cv2

        if not cv2.imwrite(args.out, guide_image(args.variant)):
            raise CalibrationError(f"cannot write the guide to {args.out!r}")
        print(f"guide for {args.variant} written to {args.out}")
        return 0
    if not args.name:
        raise CalibrationError("give the set a name: --name myset")
    check_name(args.name)
    from vision.imageio import load_image

    image = load_image(args.target)
    classifier = None
    if detect is None:
        from vision.reader import TileReader

        reader = TileReader()
        detect, classifier = reader.detector, reader.classifier
    tileset = calibrate(image, args.variant, args.name, detect, classifier=classifier)
    path = tileset.save()
    kinds = len(set(tileset.codes.tolist()))
    print(f"learned {kinds} tiles of set {args.name!r} ({args.variant}); stored in {path}")
    print(f"use it with --set {args.name}")
    return 0
