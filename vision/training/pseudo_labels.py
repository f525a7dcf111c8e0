"""Complete the real photos' labels with the tiles they leave unboxed.

The real training photos box only the hand row. Every other tile in them (the discards, the
walls, other players' melds) is, to a detector trained on them, background: a detector so
trained learns to find tiles in a real photo only when they stand in a hand row, and
ignores a real table's discards (seen on the validation photos: dozens of clear face-up
tiles, not one box). Rendered tables, fully boxed, do not undo that for real photos.

The same detector does find those tiles once the hand row is greyed out, the context that
switches them off gone. So each photo's unboxed tiles are boxed by the detector on the
photo with its labelled boxes greyed out, kept when sure and sized like a tile of the
photo; the classifier then says which are face down and drops what it cannot name as a
tile (boxes on trays and felt), and they are written beside the photo's own labels:

    python -m vision.training.pseudo_labels --detector TEACHER.onnx --out datasets/generated/real-completed

``vision.training.prepare --real-labels`` then trains on the completed labels.

>>> grey_out(np.full((4, 6, 3), 9, np.uint8), np.array([[1, 1, 3, 3.]]), margin=0.0)[1:3, 1:3, 0].tolist()
[[114, 114], [114, 114]]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import Tile
from vision.classifier import TileClassifier, crop_boxes
from vision.detections import Detections, box_area, box_intersection
from vision.detector import TileDetector
from vision.evaluation import read_yolo_labels
from vision.synth.dataset import label_line
from vision.training.real_split import DEFAULT_REAL_DIR, load_split

__all__ = ["grey_out", "unlabelled_tiles", "faces_by_classifier", "off_row_tiles", "complete_labels"]

GREY = 114  # the letterbox grey: what the detector already reads as nothing
MARGIN = 0.3  # of each labelled box, greyed around it too (its sides, its shadow)
CONF = 0.4  # a teacher box is kept this sure or surer
SIZES = (0.4, 2.0)  # a kept box's area against the photo's median labelled box (below 0.4: half dice, felt, remotes)
ON_GREY = 0.2  # a box lying this share or more on the greyed area is about the grey
NAMED = 0.3  # the classifier's surest code must be this sure, or the box is not a tile


def _grown(boxes: np.ndarray, margin: float) -> np.ndarray:
    """xyxy boxes grown on every side by ``margin`` of their own width and height."""
    out = np.asarray(boxes, np.float64).reshape(-1, 4).copy()
    wh = out[:, 2:] - out[:, :2]
    out[:, :2] -= wh * margin
    out[:, 2:] += wh * margin
    return out


def grey_out(image: np.ndarray, boxes: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """A copy of ``image`` with each xyxy box (grown by ``margin`` of its size) painted grey."""
    out = image.copy()
    for x1, y1, x2, y2 in _grown(boxes, margin):
        p1 = (int(np.floor(x1)), int(np.floor(y1)))
        p2 = (int(np.ceil(x2)) - 1, int(np.ceil(y2)) - 1)
        cv2.rectangle(out, p1, p2, (GREY, GREY, GREY), -1)
    return out


def unlabelled_tiles(image: np.ndarray, labelled: np.ndarray, detect: TileDetector) -> Detections:
    """The tiles of ``image`` that ``labelled`` (xyxy) leaves out, as ``detect`` finds them
    with the labelled ones greyed out: sure boxes, tile-sized, off the greyed area."""
    if not len(labelled):
        return Detections.empty()
    dets = detect(grey_out(image, labelled))
    if not len(dets):
        return dets
    size = float(np.median(box_area(np.asarray(labelled, np.float64))))
    area = box_area(dets.xyxy)
    on_grey = box_intersection(dets.xyxy, _grown(labelled, MARGIN)).sum(1) / np.maximum(area, 1e-9)
    keep = (dets.confidence >= CONF) & (area >= SIZES[0] * size) & (area <= SIZES[1] * size) & (on_grey < ON_GREY)
    return dets[keep]


def faces_by_classifier(image: np.ndarray, dets: Detections, classify: TileClassifier) -> Detections:
    """``dets`` with face up or down as the classifier names each crop (face down: the back
    code); boxes whose crop it names less than ``NAMED`` sure are dropped."""
    if not len(dets):
        return dets
    codes, probs = classify(crop_boxes(image, dets.xyxy))
    named = probs >= NAMED
    return Detections(xyxy=dets.xyxy[named], confidence=dets.confidence[named],
                      face_up=codes[named] != int(Tile.BACK))


def off_row_tiles(image: np.ndarray, labelled: np.ndarray, detect: TileDetector,
                  classify: TileClassifier) -> Detections:
    """The tiles ``labelled`` leaves out, face up or down: ``unlabelled_tiles`` then
    ``faces_by_classifier``, the rule of the completed labels."""
    return faces_by_classifier(image, unlabelled_tiles(image, labelled, detect), classify)


def complete_labels(real_dir: Path, names: list[str], out: Path, detect: TileDetector,
                    classify: TileClassifier) -> tuple[int, int]:
    """Write ``out/NAME.txt`` for each photo: its own labels plus the teacher's boxes.
    Returns (photos, boxes added)."""
    out.mkdir(parents=True, exist_ok=True)
    added = 0
    for name in names:
        image = cv2.imread(str(real_dir / "images" / name))
        if image is None:
            raise ValueError(f"unreadable real photo {real_dir / 'images' / name}")
        label = real_dir / "labels" / (Path(name).stem + ".txt")
        boxes, _ = read_yolo_labels(label, image.shape[1], image.shape[0])
        extra = off_row_tiles(image, boxes, detect, classify)
        own = [ln for ln in label.read_text().splitlines() if ln.strip()]
        own += [label_line(0 if up else 1, box, image.shape[1], image.shape[0])
                for box, up in zip(extra.xyxy.tolist(), extra.face_up.tolist(), strict=True)]
        (out / label.name).write_text("\n".join(own) + "\n")
        added += len(extra)
    return len(names), added


def main(argv: list[str] | None = None) -> int:
    from vision.reader import CLASSIFIER_PATH, DETECTOR_PATH

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=DEFAULT_REAL_DIR)
    ap.add_argument("--detector", type=Path, default=DETECTOR_PATH, help="the teacher (default: the shipped one)")
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--out", type=Path, required=True, help="folder for the completed label files")
    args = ap.parse_args(argv)
    detect = TileDetector(args.detector, imgsz=args.imgsz, conf=CONF)
    classify = TileClassifier(CLASSIFIER_PATH)
    photos, added = complete_labels(args.real, load_split()["train"], args.out, detect, classify)
    print(f"{photos} training photos, {added} unlabelled tiles boxed, labels in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
