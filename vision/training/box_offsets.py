"""Measure how a detector's boxes sit on the labelled ones, and store it with the detector.

A detector trained mostly on rendered scenes can box real faces a little wider than the
people who labelled the real photos did, though it boxes rendered ones as labelled (GPU-3,
stop 47: about 6 % wider), and the classifier, which learned crops cut around labelled boxes,
reads the crops cut around the wider ones worse. This measures the mean offset of
each box side from the labelled one (a fraction of the labelled box's side) on the real
*training* photos, never the validation ones, and writes it, with the confidence the
detector is to be served at, into the ONNX metadata that ``vision.detector.TileDetector``
reads (``BOX_OFFSETS_KEY``, ``CONF_KEY``):

    python -m vision.training.box_offsets models/detector.onnx [--conf 0.35] [--write]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from vision.detector import BOX_OFFSETS_KEY, CONF_KEY, TileDetector, serving_settings
from vision.evaluation import GroundTruth, iter_dataset, match
from vision.imageio import load_image
from vision.training.real_split import DEFAULT_REAL_DIR, load_split

__all__ = ["side_offsets", "mean_offsets", "write_serving", "NoMatchedBoxesError"]


class NoMatchedBoxesError(ValueError):
    """No labelled box was found, so there is no offset to measure."""


def side_offsets(labelled: np.ndarray, found: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """For each labelled box the detector found (matched one to one at ``iou`` or more, as
    ``mahjongero eval`` matches them), the offsets (found - labelled) of x1, y1, x2, y2 as
    fractions of the labelled box's width and height: (n, 4).

    >>> side_offsets(np.array([[0, 0, 100, 50.]]), np.array([[-10, 0, 110, 55.], [300, 0, 400, 50.]])).tolist()
    [[-0.1, 0.0, 0.1, 0.1]]
    """
    m = match(labelled, found, iou)
    lab, got = labelled[m >= 0], found[m[m >= 0]]
    w, h = lab[:, 2] - lab[:, 0], lab[:, 3] - lab[:, 1]
    return np.asarray((got - lab) / np.stack([w, h, w, h], 1))


def mean_offsets(detector: TileDetector, photos: Iterable[GroundTruth]) -> tuple[np.ndarray, int]:
    """The mean side offsets of ``detector``'s raw boxes (none of its own refit) on the
    labelled ``photos``, and how many boxes they are the mean of."""
    own, detector.box_offsets = detector.box_offsets, None
    try:
        rows = [side_offsets(gt.xyxy, detector(load_image(gt.image)).xyxy) for gt in photos]
    finally:
        detector.box_offsets = own
    every = np.concatenate(rows) if rows else np.zeros((0, 4))
    if not len(every):
        raise NoMatchedBoxesError(f"{str(detector.model.path)!r} found none of the labelled boxes ({len(rows)} photos)")
    return every.mean(0), len(every)


def write_serving(path: Path, conf: float, offsets: Iterable[float]) -> None:
    """Store ``conf`` and the box ``offsets`` in the metadata of the ONNX model at ``path``;
    values the detector could not be served with raise ``ServingSettingsError`` and write nothing."""
    import onnx

    values = {CONF_KEY: f"{conf:g}", BOX_OFFSETS_KEY: ",".join(f"{v:.4f}" for v in offsets)}
    serving_settings(values, path)
    model = onnx.load(str(path))
    kept = [p for p in model.metadata_props if p.key not in values]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    for key, value in values.items():
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(path))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("detector", type=Path)
    p.add_argument("--conf", type=float, default=None, help="confidence to serve at (default: the detector's)")
    p.add_argument("--real", type=Path, default=DEFAULT_REAL_DIR)
    p.add_argument("--write", action="store_true", help="store the offsets and confidence in the detector")
    args = p.parse_args()
    detector = TileDetector(args.detector, conf=args.conf)
    offsets, n = mean_offsets(detector, iter_dataset(args.real, load_split()["train"], None))
    print(f"{args.detector}: mean side offsets x1 y1 x2 y2 {[round(float(v), 4) for v in offsets]} "
          f"on {n} boxes of the real training photos (conf {detector.conf:g})")
    if args.write:
        write_serving(args.detector, detector.conf, offsets)
        print(f"written into {args.detector}'s metadata")


if __name__ == "__main__":
    main()
