"""Assemble the detector training set: rendered scenes + the real training photos, oversampled.

    python -m vision.training.prepare --scenes datasets/generated/scenes-v1 \\
        --real-repeats 3 --out datasets/generated/det-v1

``--boxes face`` boxes rendered face-up tiles by their face, as the real photos are boxed
(``vision.training.datasets.face_box``); the twins of the scene folders go beside ``--out``.

Real photos come from ``../shared/data/mahjong-yolo-v2-train`` (train part of
``datasets/real-split.json`` only; the validation photos are never linked).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.training.datasets import face_box_scenes, link_real, write_detector_yaml
from vision.training.real_split import DEFAULT_REAL_DIR, load_split


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=Path, nargs="+", required=True, help="renderer output folders")
    ap.add_argument("--real", type=Path, default=DEFAULT_REAL_DIR)
    ap.add_argument("--real-repeats", type=int, default=3)
    ap.add_argument("--real-labels", type=Path, default=None,
                    help="labels completed by vision.training.pseudo_labels (default: the photos' own)")
    ap.add_argument("--boxes", choices=("tile", "face"), default="tile",
                    help="box a rendered face-up tile whole (as rendered) or by its face (as the real photos)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.boxes == "face":
        twins = [args.out.parent / f"{s.name}-faces" for s in args.scenes]
        for scenes, twin in zip(args.scenes, twins, strict=True):
            print(f"{face_box_scenes(scenes, twin)} scenes boxed by their faces in {twin}")
        args.scenes = twins
    split = load_split()
    real_dir = args.out.parent / "real-train"
    n = link_real(args.real, split["train"], real_dir, args.real_repeats, args.real_labels) if args.real.is_dir() else 0
    train = [s / "images" / "train" for s in args.scenes] + ([real_dir / "images"] if n else [])
    val = [s / "images" / "val" for s in args.scenes]
    print(write_detector_yaml(train, val, args.out), f"({n} real images linked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
