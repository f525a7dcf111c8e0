"""The product on the real validation photos (never trained on), as a player meets it.

``mahjongero eval`` measures the models box by box. This measures what a player gets from
``mahjongero score PHOTO`` and what a camera over a real table sees, for each detector:

- **hands**: the hand the regions read from the photo (concealed tiers, melds, flowers)
  against the labelled hand row: photos where it holds exactly the labelled tiles of the
  hand (each labelled box matched at IoU 0.5, nothing else; boxes marked ``in_hand`` 0, a
  discard the labels box too, left out), and where it also names them all right (the
  hand-labelled codes, ``tests/data/real_tiles.csv``); refused photos count as wrong.
- **off the row**: the real photos box only the hand row, and a detector trained on them
  learned to find a real photo's tiles only in its hand row (``vision.training.
  pseudo_labels``). The tiles the teacher (``--teacher``; by default each detector itself)
  finds off the row with the row greyed out (sure, tile-sized, named by the classifier: the
  rule of the training labels), and the share of them the detector finds (IoU 0.5) in the
  photo as taken.

    .venv/bin/python benchmarks/bench_real_photos.py [--detector A.onnx B.onnx ...] [--teacher T.onnx]
        [--split val|train] [--turned clockwise|anticlockwise|round] [--tilted DEGREES]
        [--lit tungsten|warm|shade] [--no-upright] [--no-zoom] [--no-balance]

``--turned`` reads the photos turned a quarter (a phone held the other way) or half round
(a hand photographed from across the table), their labels with them; the reader turns them
back (``vision.upright``) unless ``--no-upright``. ``--tilted`` turns them that many degrees
anticlockwise (a phone not held level; ``bench_real_perturbed.tilted``): the reader names
their tiles as read levelled unless ``--no-upright``. ``--lit`` gives them a lamp's colour
(``bench_real_perturbed.lit``): the reader names their crops turned back to daylight
(``vision.balance``) unless ``--no-balance``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mahjongero.commands._zoom import add_zoom_option, balance_from, upright_from, zoom_from  # noqa: E402
from vision.classifier import TileClassifier  # noqa: E402
from vision.detections import box_iou  # noqa: E402
from vision.detector import TileDetector  # noqa: E402
from vision.evaluation import GroundTruth, hand_read_exactly, iter_dataset  # noqa: E402
from vision.pipeline import read_hand_photo  # noqa: E402
from vision.reader import DETECTOR_PATH, TileReader, shipped_classifier  # noqa: E402
from vision.training.pseudo_labels import CONF, off_row_tiles  # noqa: E402
from vision.training.real_split import DEFAULT_REAL_DIR, load_split  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_real_perturbed import LAMPS, lit, quarter_turned, tilted, upside_down  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
CODES = {"val": DATA / "real_tiles.csv", "train": DATA / "real_train_tiles.csv"}


def _photos(split: str = "val") -> list[tuple[GroundTruth, np.ndarray]]:
    """Each real photo's labels (boxes, hand-labelled codes) and image: the validation photos,
    or the training ones (``train``: the models learned from them, the regions' rules were
    shaped on them; their labels mark no discard as off the hand, so a few count as wrong)."""
    return [(gt, cv2.imread(str(gt.image))) for gt in iter_dataset(DEFAULT_REAL_DIR, load_split()[split], CODES[split])]


TURNS = {"clockwise": quarter_turned(1), "anticlockwise": quarter_turned(3), "round": upside_down}


def _turned(gt: GroundTruth, image: np.ndarray, turn: Callable[..., tuple[np.ndarray, np.ndarray]]
            ) -> tuple[GroundTruth, np.ndarray]:
    """A photo and its labels turned by ``turn`` (``bench_real_perturbed``'s turns)."""
    turned, boxes = turn(image, gt.xyxy.astype(np.float64))
    return replace(gt, xyxy=boxes.astype(np.float32)), turned


def hands(reader: TileReader, photos: list[tuple[GroundTruth, np.ndarray]]) -> dict[str, int]:
    got = Counter[str]()
    for gt, image in photos:
        try:
            reading = read_hand_photo(image, "filipino", reader=reader)
        except ValueError:
            got["refused"] += 1
            continue
        own, codes = gt.xyxy[gt.hand()], gt.code[gt.hand()]  # not a discard the labels box too
        held, named = hand_read_exactly(reading, own, codes.tolist())
        got["tiles right"] += held
        if held and (codes >= 0).all():
            got["named"] += 1
            got["named right"] += named
    return dict(got)


def off_row(serve: TileDetector, teacher: TileDetector, classify: TileClassifier,
            photos: list[tuple[GroundTruth, np.ndarray]]) -> tuple[int, int]:
    """(tiles the teacher finds off the row with it greyed out, of those found as taken)."""
    off = found = 0
    for gt, image in photos:
        hidden = off_row_tiles(image, gt.xyxy, teacher, classify).xyxy
        seen = serve(image).xyxy
        off += len(hidden)
        if len(hidden) and len(seen):
            found += int((box_iou(hidden, seen).max(1) >= 0.5).sum())
    return off, found


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--detector", type=Path, nargs="+", default=[DETECTOR_PATH])
    p.add_argument("--teacher", type=Path, default=None, help="one teacher for all (default: each detector)")
    p.add_argument("--imgsz", type=int, default=480)
    p.add_argument("--split", choices=("val", "train"), default="val")
    p.add_argument("--turned", choices=tuple(TURNS),
                   help="the photos turned a quarter or half round, their labels with them")
    p.add_argument("--tilted", type=float, metavar="DEGREES",
                   help="the photos turned this many degrees anticlockwise, their labels with them")
    p.add_argument("--lit", choices=tuple(LAMPS),
                   help="the photos under a lamp whose colour the phone left in (bench_real_perturbed.lit)")
    add_zoom_option(p)  # --no-zoom, --no-upright, --no-balance (as mahjongero eval)
    args = p.parse_args()
    classify = shipped_classifier()  # as the reader serves it: with the second look
    photos = _photos(args.split)
    if args.turned:
        photos = [_turned(gt, image, TURNS[args.turned]) for gt, image in photos]
    if args.tilted:
        photos = [_turned(gt, image, tilted(args.tilted)) for gt, image in photos]
    if args.lit:
        photos = [_turned(gt, image, lit(LAMPS[args.lit])) for gt, image in photos]
    for path in args.detector:
        serve = TileDetector(path, imgsz=args.imgsz)
        h = hands(TileReader(serve, classify, zoom=zoom_from(args), upright=upright_from(args),
                             balance=balance_from(args)), photos)
        off, found = off_row(serve, TileDetector(args.teacher or path, imgsz=args.imgsz, conf=CONF), classify, photos)
        print(f"{path}: of {len(photos)} photos, the hand read holds exactly the labelled tiles in "
              f"{h.get('tiles right', 0)}, and names them all right in {h.get('named right', 0)} of the "
              f"{h.get('named', 0)} fully named ones; {h.get('refused', 0)} refused")
        print(f"    off the row: {off} tiles found with the row greyed out, {100 * found / max(off, 1):.1f} % "
              "of them found with it in view")


if __name__ == "__main__":
    main()
