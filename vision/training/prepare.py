"""Assemble the detector training set: rendered scenes + the real training photos, oversampled.

    python -m vision.training.prepare --scenes datasets/generated/scenes-v1 \\
        --real-repeats 3 --out datasets/generated/det-v1

``--boxes face`` boxes rendered face-up tiles by their face, as the real photos are boxed
(``vision.training.datasets.face_box``); the twins of the scene folders go beside ``--out``.
``--zoom-crops N`` adds N crops of each training scene whose tiles are small at ``--imgsz``,
cut to the scale the zoom serves such a photo at (``vision.training.zoom_crops``; the scenes
stay whole too, and the validation scenes are left as they are).

Real photos come from ``../shared/data/mahjong-yolo-v2-train`` (train part of
``datasets/real-split.json`` only; the validation photos are never linked).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.training.datasets import face_box_scenes, link_real, write_detector_yaml
from vision.training.real_split import DEFAULT_REAL_DIR, load_split
from vision.training.zoom_crops import zoom_crops


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=Path, nargs="+", required=True, help="renderer output folders")
    ap.add_argument("--real", type=Path, default=DEFAULT_REAL_DIR)
    ap.add_argument("--real-repeats", type=int, default=3)
    ap.add_argument("--real-labels", type=Path, default=None,
                    help="labels completed by vision.training.pseudo_labels (default: the photos' own)")
    ap.add_argument("--boxes", choices=("tile", "face"), default="tile",
                    help="box a rendered face-up tile whole (as rendered) or by its face (as the real photos)")
    ap.add_argument("--zoom-crops", type=int, default=0, metavar="N",
                    help="crops of each small-tiled training scene at the zoom's scale (0: none)")
    ap.add_argument("--imgsz", type=int, default=480, help="the training input's long side, for --zoom-crops")
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
    train_scenes = args.scenes
    if args.zoom_crops > 0:
        train_scenes = [args.out.parent / f"{s.name}-zoom" for s in args.scenes]
        for scenes, twin in zip(args.scenes, train_scenes, strict=True):
            kept, cut = zoom_crops(scenes, twin, "train", args.imgsz, args.zoom_crops)
            print(f"{kept} scenes and {cut} crops at the zoom's scale in {twin}")
    train = [s / "images" / "train" for s in train_scenes] + ([real_dir / "images"] if n else [])
    val = [s / "images" / "val" for s in args.scenes]
    print(write_detector_yaml(train, val, args.out), f"({n} real images linked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
