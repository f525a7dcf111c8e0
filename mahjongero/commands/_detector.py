"""The detector options shared by ``detect`` and ``eval``.

Not a sub-command (the leading underscore keeps the CLI from registering it).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.detector import TileDetector

__all__ = ["add_detector_options", "detector_from"]


def add_detector_options(p: argparse.ArgumentParser, nms: bool = False) -> None:
    """``--detector``, ``--conf``, ``--imgsz`` and ``--flip``; with ``nms`` also ``--iou`` and
    ``--nested`` (what ``eval`` measures settings with)."""
    p.add_argument("--detector", default=None, help="detector ONNX (default: models/detector.onnx)")
    p.add_argument("--conf", type=float, default=None, help="detector confidence threshold (default: the detector's)")
    p.add_argument("--imgsz", type=int, default=None, help="detector input long side (default: as trained)")
    p.add_argument("--flip", action="store_true",
                   help="detect again in the photo mirrored and fuse the two: finds a few more tiles "
                        "for twice the detector's time")
    if nms:
        p.add_argument("--iou", type=float, default=None, help="detector NMS overlap (default: the detector's)")
        p.add_argument("--nested", type=float, default=None,
                       help="drop a box lying this share inside a surer one (default: keep all)")


def detector_from(args: argparse.Namespace) -> TileDetector:
    """The detector the options ask for (the shipped one, as served, by default).

    >>> p = argparse.ArgumentParser()
    >>> add_detector_options(p, nms=True)
    >>> detector = detector_from(p.parse_args(["--conf", "0.3", "--iou", "0.45"]))
    >>> detector.conf, detector.iou, detector.nested, detector.imgsz, detector.flip
    (0.3, 0.45, None, 480, False)
    >>> detector_from(p.parse_args(["--flip"])).flip
    True
    """
    from vision.detector import DEFAULT_IOU, DEFAULT_NESTED, TileDetector
    from vision.reader import DETECTOR_PATH

    iou, nested = getattr(args, "iou", None), getattr(args, "nested", None)
    return TileDetector(args.detector or DETECTOR_PATH, imgsz=args.imgsz, conf=args.conf,
                        iou=DEFAULT_IOU if iou is None else iou,
                        nested=DEFAULT_NESTED if nested is None else nested, flip=args.flip)
