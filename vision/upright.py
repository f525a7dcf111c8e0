"""Upright: a photo whose rows of tiles run up it is read turned a quarter.

A player photographing a hand holds the phone as it comes: a hand row that runs up the
picture is a photo turned a quarter (or taken from the hand's side). The detector, the
classifier and the hand's regions learned rows across the picture, and such a photo reads
far worse. A first pass still finds most of the tiles; where its rows mostly run up the
picture (``Upright.turn``), the photo is read again turned a quarter, the way its longest
row's tiles look more upright to the classifier's way-up probe (``vision.way_up``;
``TileReader.quarters``), and the boxes are turned back. A hand photo's regions are read in
the turned photo too (``vision.pipeline.read_hand_photo``). A photo whose rows run across
it but whose longest row the classifier read turned half round (a hand photographed from
across the table: ``vision.way_up``) is detected again turned round, and read so where the
detector is as sure of the face-up tiles it finds there (``Upright.half_turn``, ``keeps``).
A photo whose longest row runs 8 to 40 degrees off level (a phone not held level) is
detected again levelled (``rotated``), and each first-pass box takes the names of the
levelled box matched to it (``Upright.tilt``; ``TileReader._levelled``), in a photo turned
a quarter or round too; a hand photo's regions are then read levelled, its boxes the ones
first found (``boxes_levelled``; ``vision.pipeline.read_hand_photo``). The real validation
photos tilted 10 / 20 degrees read 31.5 / 24 -> 33.5 / 29.5 hands of 41; turned a quarter and
tilted 10, 31.5 -> 33; the photo page held the hand exactly in 38.25 -> 39.5 of 45 on average
at 10 and 20 degrees either way (``models/HISTORY.md``, stops 59 and 60).

On the 45 real validation photos turned a quarter clockwise / anticlockwise
(``benchmarks/bench_real_perturbed.py``; ``--no-upright`` reads them as they come): whole
hands read right 8 / 8 of 41 as they come, 34 / 34 read turned back (34 as photographed).
A hand photo's reading (``bench_real_photos.py``'s count) held the hand exactly in 11 / 10
of 45 and named it all right in 6 / 3 as they come; 40 / 40 and 33 / 33 turned back (40 and
33 as photographed). Upside down: 31 -> 34 hands, the photo's reading 37 / 29 -> 39 / 33.
The photos as photographed, rendered tables and the 4,800 rules-dealt hand photos read as
before within a few tiles (``models/HISTORY.md``, stop 58). The look at the rows reuses the
rows the crops are cut along: a hand photo read ×1.01-1.06 as long
(``benchmarks/bench_vision.py``, ``upright_*``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.detections import Detections
from vision.regions import HandRegions, Row, rows_of_boxes

__all__ = ["Upright", "DEFAULT_UPRIGHT", "turn_quarters", "turned_back", "boxes_turned_back", "rotated",
           "boxes_through", "boxes_levelled"]

_ROTATIONS = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}


def turn_quarters(image: np.ndarray, quarters: int) -> np.ndarray:
    """``image`` turned ``quarters`` quarters clockwise.

    >>> square = np.arange(6, dtype=np.uint8).reshape(2, 3)
    >>> turn_quarters(square, 1).tolist(), turn_quarters(square, 3).tolist()
    ([[3, 0], [4, 1], [5, 2]], [[2, 5], [1, 4], [0, 3]])
    """
    quarters %= 4
    return image if quarters == 0 else cv2.rotate(image, _ROTATIONS[quarters])


def turned_back(dets: Detections, shape: tuple[int, ...], quarters: int) -> Detections:
    """``dets`` found in a picture of ``shape`` turned ``quarters`` quarters clockwise,
    with their boxes in the picture's own pixels (``boxes_turned_back``)."""
    return replace(dets, xyxy=boxes_turned_back(dets.xyxy, shape, quarters).astype(np.float32))


def boxes_turned_back(xyxy: np.ndarray, shape: tuple[int, ...], quarters: int) -> np.ndarray:
    """Boxes (N, 4) in the pixels of a picture of ``shape`` turned ``quarters`` quarters
    clockwise, in the picture's own pixels.

    >>> image = np.zeros((20, 30, 3), np.uint8)  # 30 wide, 20 high
    >>> box = np.array([[1.0, 2.0, 5.0, 8.0]])
    >>> [boxes_turned_back(box, image.shape, q).tolist() for q in (1, 3)]
    [[[2.0, 15.0, 8.0, 19.0]], [[22.0, 1.0, 28.0, 5.0]]]
    """
    h, w = shape[:2]
    x1, y1, x2, y2 = np.asarray(xyxy, np.float64).reshape(-1, 4).T
    back = {0: (x1, y1, x2, y2), 1: (y1, h - x2, y2, h - x1), 2: (w - x2, h - y2, w - x1, h - y1),
            3: (w - y2, x1, w - y1, x2)}[quarters % 4]
    return np.stack(back, 1)


def rotated(image: np.ndarray, degrees: float, fill: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``image`` turned ``degrees`` anticlockwise about its middle, on a canvas grown to
    hold all of it, the corners filled as the photo's edge (``fill``: with that one colour);
    and the 2x3 matrix that took its pixels there (``boxes_through`` takes boxes with them).

    >>> level, matrix = rotated(np.zeros((10, 20, 3), np.uint8), 90)
    >>> level.shape, np.round(boxes_through(np.array([[0, 0, 20, 10.]]), matrix)).astype(int).tolist()
    ((20, 10, 3), [[0, 0, 10, 20]])
    """
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    size = (round(w * cos + h * sin), round(w * sin + h * cos))
    matrix[:, 2] += (size[0] - w) / 2, (size[1] - h) / 2
    if fill is None:
        return cv2.warpAffine(image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), matrix
    colour = tuple(float(c) for c in fill)
    return cv2.warpAffine(image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=colour), matrix


def boxes_through(xyxy: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Boxes (N, 4) taken through the 2x3 affine ``matrix``: the box around each one's
    four corners so taken (a tilted face is boxed so). Boxes found in a picture
    ``rotated`` come back with ``cv2.invertAffineTransform(matrix)``."""
    corners = np.asarray(xyxy, np.float64).reshape(-1, 4)[:, [0, 1, 2, 1, 2, 3, 0, 3]].reshape(-1, 4, 2)
    moved = corners @ np.asarray(matrix, np.float64)[:, :2].T + np.asarray(matrix, np.float64)[:, 2]
    return np.concatenate([moved.min(1), moved.max(1)], 1)


@dataclass(frozen=True)
class Upright:
    """Stage: a first pass's detections -> whether its photo is read turned (a quarter, round) or levelled.

    It is turned when at least ``fewest`` face-up tiles lie in runs of ``run`` or more
    (rows cut where the regions cut groups: ``vision.regions.Row.runs``) running up the
    picture (within 45° of its height), more than ``ratio`` times as many as in the runs
    across it, and it shows at most ``most_backs`` times as many backs as face-up tiles. A
    table's walls are backs: every rendered table whose rows ran up the picture showed more
    backs than face-up tiles (1.1-7.7 times), no real hand photo turned a quarter more than
    0.64 times (``models/HISTORY.md``, stop 58). Read turned, such tables lost tiles: a wall
    along the picture's height is read worse lying across it.

    ``level`` / ``steepest``: the photo's longest row of at least ``fewest`` face-up tiles
    running that many degrees off level (``tilt``) has its tiles named as read in the photo
    turned level. As photographed, 12 of the 45 real validation photos run 8 degrees or
    more off level (two steep diagonal ones 35 and 37), and they read as before to a hand;
    from 4 degrees (28 photos), named by the nearest levelled box, a hand fewer
    (``models/HISTORY.md``, stop 59).

    >>> column = np.array([[10, 10 + 30 * k, 40, 30 + 30 * k] for k in range(6)], float)  # up the picture
    >>> upright = Upright()
    >>> upright.turn(Detections(column, np.ones(6), np.ones(6, bool)))
    True
    >>> upright.turn(Detections(column[:, [1, 0, 3, 2]], np.ones(6), np.ones(6, bool)))  # across it
    False
    >>> walls = Detections(np.r_[column, column + 100], np.ones(12), np.arange(12) < 6)  # as many backs
    >>> upright.turn(walls), upright.turn(walls[1:])  # one face-up tile fewer than backs
    (True, False)
    """

    fewest: int = 5
    ratio: float = 2.0
    run: int = 3
    most_backs: float = 1.0
    half: bool = True
    level: float = 8.0
    steepest: float = 40.0

    def turn(self, dets: Detections, rows: Sequence[Row] | None = None) -> bool:
        """Whether to read the photo ``dets`` were found in turned; ``rows``: its face-up
        boxes' rows (``vision.regions.rows_of_boxes``), where already worked out."""
        if self._table(dets):
            return False
        if rows is None:
            rows = rows_of_boxes(dets.xyxy[dets.face_up])[1]
        up = across = 0
        for row in rows:
            for run in row.runs(HandRegions.group_gap, row.usual_gap()):
                if len(run) < self.run:
                    continue
                if abs(float(run.direction[1])) > abs(float(run.direction[0])):
                    up += len(run)
                else:
                    across += len(run)
        return up >= self.fewest and up > self.ratio * across

    def tilt(self, dets: Detections, rows: Sequence[Row] | None = None) -> float:
        """Degrees to turn the photo ``dets`` were found in, anticlockwise, to level its
        longest row of at least ``fewest`` face-up tiles (``rows``: theirs, where already
        worked out), where that row runs ``level`` to ``steepest`` degrees off level (a
        phone not held level) and the photo is no table; else 0 (``level`` 0: never).

        >>> slope = Detections(np.array([[30.0 * k, 8.0 * k, 30.0 * k + 30, 8.0 * k + 40] for k in range(6)]),
        ...                    np.ones(6), np.ones(6, bool))  # down to the right, 15 degrees
        >>> round(Upright().tilt(slope), 1), Upright(level=20).tilt(slope), Upright().tilt(slope[:4])
        (14.9, 0.0, 0.0)
        """
        if not self.level or self._table(dets):
            return 0.0
        if rows is None:
            rows = rows_of_boxes(dets.xyxy[dets.face_up])[1]
        longest = max((r for r in rows if len(r.items) >= self.fewest), key=lambda r: len(r.items), default=None)
        if longest is None:
            return 0.0
        dx, dy = (float(v) for v in longest.direction)
        degrees = math.degrees(math.atan2(dy, dx) if dx >= 0 else math.atan2(-dy, -dx))
        return degrees if self.level <= abs(degrees) <= self.steepest else 0.0

    def half_turn(self, dets: Detections) -> bool:
        """Whether a photo whose longest row the classifier read turned half round (its
        way-up probe judged it upside down) is read again turned round: with ``half``, unless
        it shows more backs than face-up tiles (a table, its rows facing every way).

        >>> row = Detections(np.array([[30.0 * k, 0, 30.0 * k + 30, 40] for k in range(6)]), np.ones(6), np.ones(6, bool))
        >>> Upright().half_turn(row), Upright(half=False).half_turn(row)
        (True, False)
        """
        return self.half and not self._table(dets)

    def keeps(self, first: Detections, turned: Detections) -> bool:
        """Whether the photo turned round is read so (``half_turn``): the detector's summed
        confidence in the face-up tiles it finds there is at least the first pass's. The
        way-up probe was fitted on real photos, and on rendered ones it judged some upright
        rows upside down; turned round, those photos showed the detector fewer tiles, less
        surely (``models/HISTORY.md``, stop 58).

        >>> one = Detections(np.array([[0.0, 0, 30, 40]]), np.array([0.8]), np.ones(1, bool))
        >>> Upright().keeps(one, one), Upright().keeps(one, one[np.zeros(1, bool)])
        (True, False)
        """
        return bool(turned.confidence[turned.face_up].sum() >= first.confidence[first.face_up].sum())

    def _table(self, dets: Detections) -> bool:
        """More backs than ``most_backs`` times the face-up tiles: a table's walls."""
        return bool((~dets.face_up).sum() > self.most_backs * dets.face_up.sum())


# what the photo reader serves (``vision.reader.TileReader``); live video keeps its camera's frame
DEFAULT_UPRIGHT = Upright()


def boxes_levelled(xyxy: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Boxes (N, 4) of tilted faces in a photo, where the faces lie in it ``rotated`` by the
    2x3 ``matrix`` (level): each centre taken through it, each box the size of the face it
    holds, the face's sides solved from the box around it turned (at most the box's own
    sides, at least half of them).

    >>> m = cv2.getRotationMatrix2D((0, 0), 20, 1.0)
    >>> face = boxes_through(np.array([[-20, -30, 20, 30.]]), m)  # a 40 x 60 face tilted 20 degrees
    >>> np.round(boxes_levelled(face, cv2.invertAffineTransform(m))).astype(int).tolist()
    [[-20, -30, 20, 30]]
    """
    b = np.asarray(xyxy, np.float64).reshape(-1, 4)
    m = np.asarray(matrix, np.float64)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    centre = (b[:, :2] + b[:, 2:]) / 2 @ m[:, :2].T + m[:, 2]
    wide, high = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    across = cos * cos - sin * sin  # > 0.17 within ``Upright.steepest``'s 40 degrees
    w = np.clip((wide * cos - high * sin) / across, wide / 2, wide)
    h = np.clip((high * cos - wide * sin) / across, high / 2, high)
    half = np.stack([w, h], 1) / 2
    return np.concatenate([centre - half, centre + half], 1)
