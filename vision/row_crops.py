"""Crops of tiles cut along their rows: as wide as the row's pitch and turned square to it.

A detector's box is axis-aligned. A tile in a row photographed askew fills its box only
partly, with slices of its neighbours in the corners, and the classifier learned upright
tiles (and quarter turns). A box drawn around the face only (the real photos' labels do
so, and a detector trained on them) also leaves out the tile's rim, which every rendered
training crop shows. So a tile that touches a neighbour in a row is cut as a rotated
rectangle instead: centred on its box, as long along the row as the row's pitch (from one
tile's centre to the next: the whole tile), as deep across it as its box allows, and
turned by the row's angle to the nearest multiple of 90° (a row running up the picture
stays sideways, as the classifier knows it). Lone tiles, tiles lying apart and rows whose
boxes overlap along the row (the pitch under 0.9 of a tile: tiles stood in depth, seen
with their sides) keep their boxes; on rendered tables those lost more than they gained.

On the 45 real validation photos, with v5's models, this took the classifier's accuracy on
the hand-labelled true boxes from 91.4 to 95.7 %; on the 150 rendered held-out scenes from
87.7 to 87.9 % (``mahjongero eval``; ``models/README.md``).

>>> import numpy as np
>>> row = np.array([[10 + 30 * k, 10, 30 + 30 * k, 40] for k in range(4)], float)  # faces 20 wide, pitch 30
>>> [c.shape[:2] for c in row_crops(np.zeros((60, 130, 3), np.uint8), row, margin=0)]
[(30, 30), (30, 30), (30, 30), (30, 30)]
>>> [c.shape[:2] for c in row_crops(np.zeros((60, 130, 3), np.uint8), row[:1], margin=0)]
[(30, 20)]
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.classifier import CROP_MARGIN, crop_boxes
from vision.regions import BoxRows, HandRegions, Row, rows_of_boxes

__all__ = ["row_crops", "cut_along_rows", "cut_along_rows_turned"]


TOUCHING = (0.9, 1.6)  # a row's pitch over its tiles' own extent along it, for tiles that touch
LONGEST = 128  # px: the long side of a crop cut along its row, at most (the classifier reads 64)
ASKEW = 20.0  # degrees from the picture's axes past which a box's extents are not undone (see _own_extent)


def row_crops(image: np.ndarray, xyxy: np.ndarray, margin: float = CROP_MARGIN) -> list[np.ndarray]:
    """Cut each box of ``xyxy`` out of ``image`` (``margin`` of the size added on each side),
    tiles touching a neighbour in a row along that row (see the module's text)."""
    return cut_along_rows(image, xyxy, margin)[0]


def cut_along_rows(image: np.ndarray, xyxy: np.ndarray, margin: float = CROP_MARGIN,
                   rows: BoxRows | None = None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """``row_crops``, and the runs of touching tiles it cut along their rows: each run's box
    indices in reading order (a hand photo's longest run is its concealed row). ``rows``:
    ``rows_of_boxes(xyxy)``, where already worked out.

    >>> row = np.array([[10 + 30 * k, 10, 30 + 30 * k, 40] for k in range(4)], float)
    >>> lone = np.array([[10, 100, 30, 130]], float)
    >>> [run.tolist() for run in cut_along_rows(np.zeros((140, 130, 3), np.uint8), np.r_[lone, row])[1]]
    [[1, 2, 3, 4]]
    """
    crops, runs, _ = cut_along_rows_turned(image, xyxy, margin, rows)
    return crops, runs


def cut_along_rows_turned(image: np.ndarray, xyxy: np.ndarray, margin: float = CROP_MARGIN,
                          rows: BoxRows | None = None
                          ) -> tuple[list[np.ndarray], list[np.ndarray], list[tuple[float, float]]]:
    """``cut_along_rows``, and for each crop the degrees it was turned anticlockwise and the
    scale it was cut at: what the photo's pixels went through (a streak of a hand that moved
    is undone along the line it shows in the crop, ``vision.deblur``).

    A row running down to the right, a third of a pitch down at each tile (18.4 degrees):

    >>> row = np.array([[10 + 30 * k, 10 + 10 * k, 40 + 30 * k, 50 + 10 * k] for k in range(5)], float)
    >>> [(round(turn, 1), scale) for turn, scale in cut_along_rows_turned(np.zeros((200, 200, 3), np.uint8), row)[2]]
    [(18.4, 1.0), (18.4, 1.0), (18.4, 1.0), (18.4, 1.0), (18.4, 1.0)]
    """
    boxes = np.asarray(xyxy, dtype=np.float64).reshape(-1, 4)
    crops = crop_boxes(image, boxes, margin)
    turns = [(0.0, 1.0)] * len(boxes)
    items, lines = rows if rows is not None else rows_of_boxes(boxes)
    if len(items) != len(boxes):
        raise ValueError(f"rows of {len(items)} boxes given for {len(boxes)} boxes")
    where = {id(item): k for k, item in enumerate(items)}
    runs: list[np.ndarray] = []
    for row in lines:
        for run in row.runs(HandRegions.group_gap, row.usual_gap()):
            if len(run) < 2:
                continue
            pitch = float(np.median(np.diff(run.proj)))
            if not TOUCHING[0] <= pitch / max(_own_extent(run), 1e-6) <= TOUCHING[1]:
                continue  # overlapping boxes (tiles stood in depth) or tiles apart: keep the boxes
            for item in run.items:
                crops[where[id(item)]], turns[where[id(item)]] = _along(image, item.box, run, pitch, margin)
            runs.append(np.array([where[id(item)] for item in run.items], np.int64))
    return crops, runs, turns


def _angle(run: Row) -> float:
    """The run's reading direction in degrees, clockwise on screen from the picture's x axis."""
    return float(np.degrees(np.arctan2(run.direction[1], run.direction[0])))


def _residual_angle(run: Row) -> float:
    """The run's angle from the nearest axis of the picture, in degrees (0-45)."""
    angle = _angle(run)
    return abs(angle - 90 * round(angle / 90))


def _own_extent(run: Row) -> float:
    """The run's tiles' typical extent along it. Undoing an axis-aligned box's tilt is
    unstable on rows askew by more than ``ASKEW`` (a diagonal hand row): there the boxes'
    short side stands in for it."""
    if _residual_angle(run) > ASKEW:
        return float(np.median([min(x2 - x1, y2 - y1) for x1, y1, x2, y2 in (i.box for i in run.items)]))
    return float(np.median(run.along))


def _along(image: np.ndarray, box: tuple[float, float, float, float], run: Row, pitch: float,
           margin: float) -> tuple[np.ndarray, tuple[float, float]]:
    """One tile of ``run`` cut as a rectangle ``pitch`` long along the row, turned square; and
    the degrees it was turned anticlockwise and the scale it was cut at."""
    x1, y1, x2, y2 = box
    angle = _angle(run)
    quarter = round(angle / 90)
    c, s = abs(float(run.direction[0])), abs(float(run.direction[1]))
    # depth across the row: the box is pitch*c + depth*s wide and pitch*s + depth*c high;
    # weigh the two estimates by how well each is conditioned at this angle
    depth = (x2 - x1 - pitch * c) * s + (y2 - y1 - pitch * s) * c
    depth = float(np.clip(depth, 0.8 * pitch, 2.0 * pitch))
    along, across = pitch * (1 + 2 * margin), depth * (1 + 2 * margin)
    w, h = (along, across) if quarter % 2 == 0 else (across, along)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    scale = min(1.0, LONGEST / max(w, h))  # the classifier reads 64 px: big tiles are cut smaller
    w, h = w * scale, h * scale
    turn = angle - 90 * quarter
    m = np.asarray(cv2.getRotationMatrix2D((cx, cy), turn, scale), dtype=np.float64)
    m[:, 2] += np.array([w / 2 - cx, h / 2 - cy])
    # warp from the patch around the tile only, never the whole frame
    reach = float(np.hypot(w, h)) / scale / 2 + 2
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    patch = image[y0:max(y0 + 1, int(np.ceil(cy + reach))), x0:max(x0 + 1, int(np.ceil(cx + reach)))]
    m[:, 2] += m[:, :2] @ np.array([x0, y0], dtype=np.float64)
    size = (max(2, int(round(w))), max(2, int(round(h))))
    crop = cv2.warpAffine(patch, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return crop, (turn, scale)
