"""Measure the reader on a YOLO-format folder: recall, precision, mAP50, tile accuracy, hands.

Ground truth: ``labels/<stem>.txt`` beside ``images/`` (class 0 face-up, 1 face-down).
Tile codes, where known, come from a CSV (``image,x1,y1,x2,y2,code``, e.g.
``tests/data/real_tiles.csv``) or from the renderer's JSON sidecars. The CSV's optional
``in_hand`` column (1 where empty) marks labelled tiles that are not the player's hand (0):
a discard or another player's meld that the photos' labels happen to box as well. They count
for recall and tile accuracy like every tile; a hand is read right when its own tiles are.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.tiles import Tile
from vision.detections import Detections, box_iou, match

if TYPE_CHECKING:
    from vision.readings import HandReading

__all__ = ["GroundTruth", "iter_dataset", "split_names", "load_codes_csv", "load_off_hand", "Scores", "match", "CropsScore",
           "crops_accuracy", "crops_sheet", "kind_of", "hand_read_exactly"]

_IMG_EXT = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


@dataclass
class GroundTruth:
    """Boxes of one image in pixels, face-up flags, and codes (-1 where unknown)."""

    image: Path
    xyxy: np.ndarray
    face_up: np.ndarray
    code: np.ndarray
    in_hand: np.ndarray | None = None  # bool per box; None: every labelled tile is the hand's

    def hand(self) -> np.ndarray:
        """Which boxes are the hand's own tiles (all of them unless marked otherwise)."""
        return np.ones(len(self.xyxy), bool) if self.in_hand is None else self.in_hand


def source_of(name: str) -> str:
    """The original photo an exported (augmented) image came from.

    Roboflow exports up to 4 augmented copies of one photo as ``<source>.rf.<hash>.jpg``;
    copies of one photo must never straddle train and val, and are not independent trials
    when a figure's uncertainty is estimated (:meth:`Scores.hands_interval`).

    >>> source_of("4207_n_jpg.rf.0e10ce15.jpg")
    '4207_n_jpg'
    """
    return name.split(".rf.")[0]


def label_path(image: Path) -> Path:
    """``.../images/x.jpg`` -> ``.../labels/x.txt``.

    >>> label_path(Path("/d/images/a/x.jpg")).as_posix()
    '/d/labels/a/x.txt'
    """
    parts = list(image.parts)
    i = len(parts) - 1 - parts[::-1].index("images")
    parts[i] = "labels"
    return Path(*parts).with_suffix(".txt")


def read_yolo_labels(path: Path, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (N,4) in pixels and face-up flags from a YOLO txt (missing file = no boxes)."""
    rows = []
    if path.is_file():
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 5:
                rows.append([float(v) for v in parts[:5]])
    if not rows:
        return np.zeros((0, 4), np.float32), np.zeros((0,), bool)
    a = np.array(rows, dtype=np.float64)
    cx, cy, w, h = a[:, 1] * width, a[:, 2] * height, a[:, 3] * width, a[:, 4] * height
    xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
    xyxy[:, [0, 2]] = xyxy[:, [0, 2]].clip(0, width)
    xyxy[:, [1, 3]] = xyxy[:, [1, 3]].clip(0, height)
    return xyxy.astype(np.float32), a[:, 0] == 0


def load_codes_csv(path: Path) -> dict[str, list[tuple[np.ndarray, int]]]:
    """``{image name: [(box, code), ...]}`` from a CSV with header image,x1,y1,x2,y2,code."""
    out: dict[str, list[tuple[np.ndarray, int]]] = {}
    try:
        with open(path, newline="") as f:
            for n, row in enumerate(csv.DictReader(f), start=2):
                try:
                    box = np.array([float(row[k]) for k in ("x1", "y1", "x2", "y2")], np.float32)
                    out.setdefault(row["image"], []).append((box, int(Tile.parse(row["code"]))))
                except (KeyError, TypeError, ValueError) as exc:
                    raise ValueError(f"{str(path)!r} line {n}: not image,x1,y1,x2,y2,code ({exc!r})") from None
    except (FileNotFoundError, IsADirectoryError):
        raise ValueError(f"{str(path)!r}: no such file (a CSV image,x1,y1,x2,y2,code)") from None
    return out


def load_off_hand(path: Path) -> dict[str, list[np.ndarray]]:
    """``{image name: [box, ...]}`` of the CSV's rows marked ``in_hand`` 0 (none without
    the column)."""
    out: dict[str, list[np.ndarray]] = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            flag = (row.get("in_hand") or "1").strip()
            if flag not in ("0", "1"):
                raise ValueError(f"{str(path)!r}: in_hand must be 0 or 1, not {flag!r} ({row['image']!r})")
            if flag == "0":
                box = np.array([float(row[k]) for k in ("x1", "y1", "x2", "y2")], np.float32)
                out.setdefault(row["image"], []).append(box)
    return out


def _off_hand_mask(xyxy: np.ndarray, off: list[np.ndarray]) -> np.ndarray | None:
    """The boxes that are the hand's: every box but those matching an ``off`` box (IoU ≥ 0.7,
    as codes are matched)."""
    if not off:
        return None
    marks = _assign_codes(xyxy, [(b, 1) for b in off])
    return marks < 0


def meta_path(image: Path) -> Path:
    """Where ``mahjongero synth scenes`` writes an image's sidecar: ``meta/`` beside ``images/``.

    >>> meta_path(Path("/d/images/val/000001.jpg")).as_posix()
    '/d/meta/val/000001.json'
    """
    label = label_path(image)
    parts = list(label.parts)
    parts[len(parts) - 1 - parts[::-1].index("labels")] = "meta"
    return Path(*parts).with_suffix(".json")


def _sidecar_codes(image: Path) -> list[tuple[np.ndarray, int]] | None:
    """Codes from a renderer JSON sidecar: beside the image or its label, or under ``meta/``."""
    for cand in (image.with_suffix(".json"), label_path(image).with_suffix(".json"), meta_path(image)):
        if cand.is_file():
            data = json.loads(cand.read_text())
            tiles = data.get("tiles") or data.get("objects") or []
            out = []
            for t in tiles:
                box = t.get("box") or t.get("xyxy") or t.get("bbox")
                code = t.get("tile") or t.get("code")
                if box is None or code is None:
                    continue
                c = int(Tile.parse(code)) if isinstance(code, str) else int(code)
                if t.get("face") == "down":  # the renderer names the hidden tile; we see a back
                    c = int(Tile.BACK)
                out.append((np.asarray(box, np.float32)[:4], c))
            return out
    return None


def _assign_codes(xyxy: np.ndarray, known: list[tuple[np.ndarray, int]] | None) -> np.ndarray:
    code = np.full(len(xyxy), -1, dtype=np.int64)
    if not known or not len(xyxy):
        return code
    boxes = np.stack([b for b, _ in known])
    iou = box_iou(xyxy, boxes)
    for j, (_, c) in enumerate(known):
        i = int(iou[:, j].argmax())
        if iou[i, j] >= 0.7:
            code[i] = c
    return code


def split_names(path: Path) -> list[str]:
    """The image names of a split file's ``val`` list (``datasets/real-split.json``: the real
    validation photos), or a ValueError that names the file."""
    try:
        names = json.loads(path.read_text("utf-8"))["val"]
    except FileNotFoundError:
        raise ValueError(f"--split {str(path)!r}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, TypeError, KeyError) as exc:
        raise ValueError(f"--split {str(path)!r}: not a JSON object with a 'val' list of image names ({exc!r})") from None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"--split {str(path)!r}: its 'val' is not a list of image names")
    return names


def iter_dataset(
    root: Path, names: Iterable[str] | None = None, codes_csv: Path | None = None
) -> Iterator[GroundTruth]:
    """Every image under ``root`` (optionally only ``names``) with its boxes and codes."""
    from PIL import Image

    wanted = set(names) if names is not None else None
    csv_codes = load_codes_csv(codes_csv) if codes_csv else {}
    off_hand = load_off_hand(codes_csv) if codes_csv else {}
    for img in sorted(p for p in root.rglob("*") if p.suffix.lower() in _IMG_EXT):
        if "images" not in img.parts or (wanted is not None and img.name not in wanted):
            continue
        with Image.open(img) as im:
            w, h = im.size
        xyxy, up = read_yolo_labels(label_path(img), w, h)
        known = csv_codes.get(img.name) if csv_codes else _sidecar_codes(img)
        yield GroundTruth(img, xyxy, up, _assign_codes(xyxy, known),
                          _off_hand_mask(xyxy, off_hand.get(img.name, [])))


def hand_read_exactly(reading: HandReading, own: np.ndarray, codes: Sequence[int]) -> tuple[bool, bool]:
    """Whether the hand, melds and flowers of ``reading`` hold exactly the boxes ``own``
    (each matched at IoU 0.5, and nothing else), and whether they are named ``codes`` too.

    >>> from vision.readings import HandReading, TileItem
    >>> reading = HandReading((TileItem(Tile.M1, (0, 0, 10, 10)),), (), (), ())
    >>> hand_read_exactly(reading, np.array([[0, 0, 10, 10.]]), [int(Tile.M1)])
    (True, True)
    >>> hand_read_exactly(reading, np.array([[0, 0, 10, 10.]]), [int(Tile.M2)])
    (True, False)
    >>> hand_read_exactly(reading, np.zeros((0, 4)), [])  # a tile read that is not the hand's
    (False, False)
    """
    items = [i for i, region, _ in reading.items() if region != "other"]
    boxes = np.array([i.box for i in items], np.float32).reshape(-1, 4)
    iou = box_iou(own, boxes)  # (len(own), len(boxes)), either may be 0
    held = bool((iou.max(1, initial=0) >= 0.5).all() and (iou.max(0, initial=0) >= 0.5).all())
    return held, held and sorted(int(c) for c in codes) == sorted(int(i.tile) for i in items)


def average_precision(records: list[tuple[float, bool]], n_gt: int) -> float:
    """COCO-style 101-point AP from (confidence, true positive) records.

    >>> average_precision([(0.9, True), (0.8, False), (0.7, True)], 2)
    0.83498...
    >>> average_precision([], 3)
    0.0
    """
    if not records or n_gt == 0:
        return 0.0
    recs = sorted(records, key=lambda r: -r[0])
    tp = np.cumsum([r[1] for r in recs]).astype(np.float64)
    prec = tp / np.arange(1, len(tp) + 1)
    rec = tp / n_gt
    prec = np.flip(np.maximum.accumulate(np.flip(prec)))  # precision envelope
    x = np.linspace(0, 1, 101)
    idx = np.searchsorted(rec, x, side="left")
    return float(np.mean(np.where(idx < len(prec), prec[np.minimum(idx, len(prec) - 1)], 0.0)))


AP_CLASS_NAMES = {0: "face_up", 1: "back"}  # the detector's two classes, as ``Scores`` keys them
# mAP is the area under the precision-recall curve of every box the detector gives; the
# served confidence (0.2) cuts that curve off where the served boxes end, so mAP50 is also
# counted from the boxes of the same pass kept down to the confidence ultralytics' ``val``
# and COCO's evaluations keep them down to (``Scores.add``'s ``floored``).
AP_FLOOR = 0.001


SIDE_EDGES = (20, 30, 45, 70)  # px: a tile's short side, the buckets of ``Scores.by_side``
SIDE_BUCKETS = ("under20px", "20-30px", "30-45px", "45-70px", "70px+")


def _ap_records(gt: GroundTruth, det: Detections) -> list[tuple[float, bool, int]]:
    """(confidence, true positive, class) of each box of ``det``, surest first within each
    class (0 face up, 1 back), matched greedily to a free true box at IoU 0.5."""
    records: list[tuple[float, bool, int]] = []
    gcls = np.where(gt.face_up, 0, 1)
    pcls = np.where(det.face_up, 0, 1)
    for c in (0, 1):
        g = gt.xyxy[gcls == c]
        pi = np.flatnonzero(pcls == c)
        pi = pi[np.argsort(-det.confidence[pi], kind="stable")]
        used = np.zeros(len(g), bool)
        ious = box_iou(det.xyxy[pi], g) if len(g) and len(pi) else np.zeros((len(pi), 0))
        for k, p in enumerate(pi):
            tp = False
            if ious.shape[1]:
                cand = np.where(used, -1, ious[k])
                j = int(cand.argmax())
                if cand[j] >= 0.5:
                    used[j] = tp = True
            records.append((float(det.confidence[p]), tp, c))
    return records


def side_bucket(side: float) -> str:
    """The bucket of a tile whose box's short side is ``side`` pixels.

    >>> side_bucket(19.9), side_bucket(30), side_bucket(200)
    ('under20px', '30-45px', '70px+')
    """
    return SIDE_BUCKETS[int(np.searchsorted(SIDE_EDGES, side, side="right"))]


# px at the detector's input: a tile's short side once the image is letterboxed to it. The
# issue's design puts a table's tiles at ~20 px in a 640 input (15 at 480); the rendered
# held-out tables reach down to 3.
INPUT_EDGES = (8, 12, 20)
INPUT_BUCKETS = ("under8px", "8-12px", "12-20px", "20px+")


def input_bucket(side: float) -> str:
    """The bucket of a tile whose short side is ``side`` pixels at the detector's input.

    >>> input_bucket(7.9), input_bucket(12), input_bucket(40)
    ('under8px', '12-20px', '20px+')
    """
    return INPUT_BUCKETS[int(np.searchsorted(INPUT_EDGES, side, side="right"))]


@dataclass
class Scores:
    """Running totals over images."""

    images: int = 0
    gt: int = 0
    found: int = 0
    pred: int = 0
    pred_matched: int = 0
    face_right: int = 0
    coded: int = 0
    code_right: int = 0  # end to end: detector box + classifier, on matched GT with a code
    crop_coded: int = 0
    crop_right: int = 0  # classifier alone on the GT boxes
    hands: int = 0
    hands_right: int = 0  # the hand's own tiles all found and named right
    photos_every_tile_right: int = 0  # and the other labelled tiles too
    hand_results: list[tuple[str, bool]] = field(default_factory=list)  # (image, read right)
    ap_records: list[tuple[float, bool, int]] = field(default_factory=list)  # (conf, tp, class)
    # the same from the boxes of the pass the reader chose, kept down to AP_FLOOR (``add``'s ``floored``)
    floor_records: list[tuple[float, bool, int]] = field(default_factory=list)
    gt_per_class: dict[int, int] = field(default_factory=dict)
    confusions: list[tuple[str, int, int]] = field(default_factory=list)  # (image, true, said)
    by_side: dict[str, list[int]] = field(default_factory=dict)  # size bucket -> [right, named] (face up)
    by_input: dict[str, list[int]] = field(default_factory=dict)  # input size bucket -> [found, labelled]
    wrong_hands: list[tuple[str, list[tuple[int, int]]]] = field(default_factory=list)  # (image, [(true, said or -1)])

    def add(self, gt: GroundTruth, det: Detections, crop_codes: np.ndarray | None = None,
            input_scale: float | None = None, floored: Detections | None = None) -> None:
        """One image's truth and reading; ``crop_codes``: the classifier's names for the true
        boxes; ``input_scale``: the detector's input pixels per image pixel, for recall by a
        tile's size as the detector saw it; ``floored``: the boxes of the detector's pass
        that gave ``det``, kept down to ``AP_FLOOR`` (``TileReader.pass_at``), for mAP50 as
        ultralytics and COCO count it."""
        m = match(gt.xyxy, det.xyxy)
        if input_scale is not None:
            sides = (gt.xyxy[:, 2:] - gt.xyxy[:, :2]).min(1) * input_scale if len(gt.xyxy) else np.zeros(0)
            for side, found in zip(sides, m >= 0, strict=True):
                tally = self.by_input.setdefault(input_bucket(float(side)), [0, 0])
                tally[0] += int(found)
                tally[1] += 1
        self.images += 1
        self.gt += len(gt.xyxy)
        self.found += int((m >= 0).sum())
        self.pred += len(det)
        self.pred_matched += int((m >= 0).sum())
        for i in np.flatnonzero(m >= 0):
            self.face_right += int(det.face_up[m[i]] == gt.face_up[i])
        self._count_classes(gt)
        self.ap_records.extend(_ap_records(gt, det))
        if floored is not None:
            self.floor_records.extend(_ap_records(gt, floored))
        known = gt.code >= 0
        ok = m >= 0
        self.coded += int(known.sum())
        said = det.code[np.maximum(m, 0)] if len(det) else np.full(len(m), -2)
        right = known & ok & (said == gt.code)
        self.code_right += int(right.sum())
        if crop_codes is not None:
            self.crop_coded += int(known.sum())
            self.crop_right += int((known & (crop_codes == gt.code)).sum())
            for i in np.flatnonzero(known & (crop_codes != gt.code)):
                self.confusions.append((gt.image.name, int(gt.code[i]), int(crop_codes[i])))
            self._add_sides(gt, crop_codes)
        hand = gt.hand()
        if hand.any() and known[hand].all():
            self.hands += 1
            self.hands_right += int(right[hand].all())
            self.photos_every_tile_right += int(right.all())
            self.hand_results.append((gt.image.name, bool(right[hand].all())))
            if not right[hand].all():
                said_or_missed = np.where(ok, said, -1)
                slips = [(int(t), int(d)) for t, d, r in zip(gt.code[hand], said_or_missed[hand], right[hand], strict=True)
                         if not r]
                self.wrong_hands.append((gt.image.name, slips))

    def _add_sides(self, gt: GroundTruth, crop_codes: np.ndarray) -> None:
        """Face-up tiles named on their true boxes, by the box's short side in pixels: how
        near the camera must be (a back needs no reading, so backs are left out)."""
        faces = np.flatnonzero((gt.code >= 0) & (gt.code != int(Tile.BACK)))
        sides = (gt.xyxy[faces, 2:] - gt.xyxy[faces, :2]).min(1) if len(faces) else np.zeros(0)
        for i, side in zip(faces, sides, strict=True):
            tally = self.by_side.setdefault(side_bucket(float(side)), [0, 0])
            tally[0] += int(crop_codes[i] == gt.code[i])
            tally[1] += 1

    def _count_classes(self, gt: GroundTruth) -> None:
        """Count the image's true tiles of each class (0 face up, 1 back) for the APs."""
        for c, n in enumerate(np.bincount(np.where(gt.face_up, 0, 1), minlength=2).tolist()):
            self.gt_per_class[c] = self.gt_per_class.get(c, 0) + n

    def ap50_by_class(self, floored: bool = False) -> dict[int, float]:
        """The 101-point interpolated AP at IoU 0.5 of each class with ground truth (0 face
        up, 1 back): which of the two holds the mean down. ``floored``: of the boxes kept
        down to ``AP_FLOOR``."""
        records = self.floor_records if floored else self.ap_records
        return {c: average_precision([(r[0], r[1]) for r in records if r[2] == c], n)
                for c, n in sorted(self.gt_per_class.items()) if n}

    def map50(self, floored: bool = False) -> float:
        """Mean over classes with ground truth of the 101-point interpolated AP at IoU 0.5."""
        aps = list(self.ap50_by_class(floored).values())
        return float(np.mean(aps)) if aps else float("nan")

    def hands_interval(self, level: float = 0.95, draws: int = 2000, seed: int = 0) -> tuple[float, float]:
        """A bootstrap interval for the share of hands read right, drawing whole source photos
        (:func:`source_of`: a photo's augmented copies stand or fall together), NaN with fewer
        than two sources. How far the figure moves with which photos happen to be in the set.

        >>> s = Scores(hand_results=[("a.rf.1.jpg", True), ("a.rf.2.jpg", True), ("b.rf.1.jpg", False)])
        >>> s.hands_interval()
        (0.0, 1.0)
        """
        groups: dict[str, list[bool]] = {}
        for name, right in self.hand_results:
            groups.setdefault(source_of(name), []).append(right)
        if len(groups) < 2:
            return float("nan"), float("nan")
        rights = np.array([sum(v) for v in groups.values()])
        totals = np.array([len(v) for v in groups.values()])
        pick = np.random.default_rng(seed).integers(0, len(groups), (draws, len(groups)))
        shares = rights[pick].sum(1) / totals[pick].sum(1)
        lo, hi = np.quantile(shares, [(1 - level) / 2, (1 + level) / 2])
        return round(float(lo), 4), round(float(hi), 4)

    def summary(self) -> dict[str, float | int]:
        def r(a: int, b: int) -> float:
            return round(a / b, 4) if b else float("nan")

        lo, hi = self.hands_interval()

        return {
            "images": self.images,
            "gt_tiles": self.gt,
            "recall@0.5": r(self.found, self.gt),
            "precision@0.5": r(self.pred_matched, self.pred),
            "mAP50": round(self.map50(), 4),
            **{f"AP50_{AP_CLASS_NAMES[c]}": round(ap, 4) for c, ap in self.ap50_by_class().items()},
            **({f"mAP50_down_to_{AP_FLOOR}": round(self.map50(floored=True), 4),
                **{f"AP50_{AP_CLASS_NAMES[c]}_down_to_{AP_FLOOR}": round(ap, 4)
                   for c, ap in self.ap50_by_class(floored=True).items()}} if self.floor_records else {}),
            "face_accuracy": r(self.face_right, self.found),
            "coded_tiles": self.coded,
            "tile_accuracy_end_to_end": r(self.code_right, self.coded),
            "tile_accuracy_on_gt_boxes": r(self.crop_right, self.crop_coded),
            "hands_fully_labelled": self.hands,
            "hands_read_right": r(self.hands_right, self.hands),
            "hands_from_sources": len({source_of(n) for n, _ in self.hand_results}),
            "hands_read_right_95%_low": lo,
            "hands_read_right_95%_high": hi,
            "photos_every_labelled_tile_right": r(self.photos_every_tile_right, self.hands),
            **{f"face_up_on_gt_boxes_{b}": r(*self.by_side[b]) for b in SIDE_BUCKETS if b in self.by_side},
            **{f"face_up_tiles_{b}": self.by_side[b][1] for b in SIDE_BUCKETS if b in self.by_side},
            **{f"recall_at_input_{b}": r(*self.by_input[b]) for b in INPUT_BUCKETS if b in self.by_input},
            **{f"tiles_at_input_{b}": self.by_input[b][1] for b in INPUT_BUCKETS if b in self.by_input},
        }


def iter_crops(root: Path) -> Iterator[tuple[Path, int]]:
    """``(image, code)`` for every crop under ``root/<code>/`` (a classification split)."""
    for code_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        code = int(Tile.parse(code_dir.name))
        for img in sorted(code_dir.iterdir()):
            if img.suffix.lower() in _IMG_EXT:
                yield img, code


_KIND_OF_SUFFIX = {"m": "characters", "p": "dots", "s": "bamboo", "z": "winds and dragons",
                   "f": "flowers and seasons", "a": "animals", "j": "Vietnamese jokers", "r": "emperors and empresses"}


def kind_of(code: int) -> str:
    """The family of tiles a code belongs to, for accuracy by kind.

    >>> [kind_of(int(Tile.parse(c))) for c in ("9m", "3f", "0x", "1x")]
    ['characters', 'flowers and seasons', 'American joker', 'backs']
    """
    tile = Tile(code)
    if tile == Tile.BACK:
        return "backs"
    if tile == Tile.AMERICAN_JOKER:
        return "American joker"
    return _KIND_OF_SUFFIX[str(tile)[-1]]


@dataclass
class CropsScore:
    """What a classifier said of every crop of a crops tree (``crops_accuracy``)."""

    items: list[tuple[Path, int, int]]  # (crop, true code, said code)

    @property
    def misread(self) -> list[tuple[Path, int, int]]:
        return [it for it in self.items if it[1] != it[2]]

    def summary(self) -> dict[str, object]:
        """Accuracy over all crops and by kind of tile, and the ten most frequent confusions."""
        n, wrong = len(self.items), self.misread
        kinds: dict[str, list[int]] = {}
        for _, true, said in self.items:
            tally = kinds.setdefault(kind_of(true), [0, 0])
            tally[0] += int(true == said)
            tally[1] += 1
        pairs: dict[str, int] = {}
        for _, true, said in wrong:
            key = f"{Tile(true)}->{Tile(said)}"
            pairs[key] = pairs.get(key, 0) + 1
        return {
            "crops": n,
            "accuracy": round((n - len(wrong)) / max(n, 1), 4),
            "by_kind": {k: f"{r / t:.3f} of {t}" for k, (r, t) in sorted(kinds.items())},
            "top_confusions": dict(sorted(pairs.items(), key=lambda kv: -kv[1])[:10]),
        }


def crops_accuracy(classify, root: Path, batch: int = 256) -> CropsScore:  # type: ignore[no-untyped-def]
    """Every crop of a crops tree read by ``classify`` (crops -> (codes, probs))."""
    from vision.imageio import load_image

    items = list(iter_crops(root))
    said: list[int] = []
    for i in range(0, len(items), batch):
        codes, _ = classify([load_image(p) for p, _ in items[i : i + batch]])
        said.extend(int(c) for c in codes)
    return CropsScore([(p, true, s) for (p, true), s in zip(items, said, strict=True)])


def crops_sheet(items: Sequence[tuple[Path, int, int]], dest: Path, side: int = 128, per_row: int = 8,
                number_from: int = 0) -> Path:
    """A contact sheet of crops, each scaled to ``side`` px and captioned with its number
    (counted on from ``number_from``), its true code and what was said (``-> said`` where it
    differs): to look at what a classifier misreads, or to judge by eye which crops a person
    could name at all."""
    import cv2

    from vision.imageio import load_image

    cells = []
    for k, (path, true, said) in enumerate(items):
        crop = load_image(path)
        scale = side / max(crop.shape[:2])
        crop = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))),
                          interpolation=cv2.INTER_CUBIC)
        cell = np.full((side + 20, side, 3), 255, np.uint8)
        cell[: crop.shape[0], : crop.shape[1]] = crop
        caption = f"{number_from + k} {Tile(true)}" + (f"->{Tile(said)}" if said != true else "")
        cv2.putText(cell, caption, (2, side + 15), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 255), 1)
        cells.append(cell)
    if not cells:
        raise ValueError(f"no crops to draw into {str(dest)!r}")
    cells += [np.full_like(cells[0], 255)] * (-len(cells) % per_row)
    rows = [np.hstack(cells[i : i + per_row]) for i in range(0, len(cells), per_row)]
    dest.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(dest), np.vstack(rows)):
        raise ValueError(f"cannot write the sheet {str(dest)!r}")
    return dest
