"""Where each tile belongs: a hand photo's rows and melds, a table's seats, pool and walls.

The geometry is robust rather than clever: box centres are grouped into rows by a
line fit (RANSAC over neighbouring pairs, refined by PCA), so tilted photos and rows
that touch separate cleanly; along a row, gaps are measured against the median tile
size, so the same thresholds work at any resolution.

Single hand (``HandRegions``): the longest run of upright tiles is the concealed row
(a drawn tile set a little apart joins it); every other run near it is split into
exposed melds (a turned tile marks a called meld, face-down outer tiles a secret) and
flowers (the variant's bonus tiles); anything far away, and rows of face-down tiles
(the wall), is left out.

>>> import numpy as np
>>> from vision.detections import Detections
>>> row = [[10 + 30 * i, 100, 38 + 30 * i, 140] for i in range(14)]
>>> codes = [0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 31, 31]
>>> dets = Detections(np.array(row, float), np.ones(14), np.ones(14, bool)).with_codes(
...     np.array(codes), np.ones(14))
>>> str(HandRegions()(dets).to_hand())
'123m123p123s11155z'
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from engine.hand import InvalidHandError, Meld
from engine.seats import Seat
from engine.tiles import Tile
from vision.detections import Detections, box_intersection, box_iou
from vision.readings import (
    LOW_CONFIDENCE,
    RUNNER_UP_FLOOR,
    HandReading,
    MeldReading,
    SeatReading,
    TableReading,
    TileItem,
    at_edge,
)

__all__ = [
    "RegionError",
    "NoTilesError",
    "TwoHandsError",
    "to_items",
    "fit_lines",
    "Row",
    "BoxRows",
    "rows_of_boxes",
    "HandRegions",
    "second_boxes",
    "boxes_over_others",
    "mend_melds",
    "TableLayout",
    "TableRegions",
    "SteadyRegions",
]


class RegionError(ValueError):
    """The tiles seen do not make the picture we expect."""


class NoTilesError(RegionError):
    """No tile was found where a hand was expected."""


class TwoHandsError(RegionError):
    """A hand photo that shows two concealed rows; the message gives both sizes."""


# -- items from detections ----------------------------------------------------------------------


def to_items(dets: Detections | Sequence[TileItem]) -> list[TileItem]:
    """TileItems from a ``Detections`` (face-down or unread tiles become ``Tile.BACK``).

    >>> d = Detections(np.array([[0, 0, 10, 14.]]), np.array([.8]), np.array([True]))
    >>> to_items(d.with_codes(np.array([4]), np.array([.9])))[0]
    TileItem(tile=Tile.M5, box=(0.0, 0.0, 10.0, 14.0), confidence=0.8, turned=False, doubt='', track=None, found=0.8, runner_up=None, runner_up_confidence=0.0)
    """
    if not isinstance(dets, Detections):
        return list(dets)
    items = []
    for i in range(len(dets)):
        code = int(dets.code[i])
        box = tuple(float(v) for v in dets.xyxy[i])
        conf = round(float(dets.confidence[i]), 4)
        if dets.face_up[i] and code >= 0:
            second = int(dets.runner_up[i])
            items.append(TileItem(Tile(code), box, min(conf, round(float(dets.code_confidence[i]), 4)),  # type: ignore[arg-type]
                                  found=conf, runner_up=Tile(second) if second >= 0 else None,
                                  runner_up_confidence=round(float(dets.runner_up_confidence[i]), 4)))
        else:
            doubt = "" if not dets.face_up[i] or code >= 0 else "face up but not read"
            items.append(TileItem(Tile.BACK, box, conf, doubt=doubt, found=conf))  # type: ignore[arg-type]
    return items


# -- geometry -----------------------------------------------------------------------------------


def _centres(items: Sequence[TileItem]) -> np.ndarray:
    return np.array([i.centre for i in items], dtype=np.float64).reshape(-1, 2)


def _areas(items: Sequence[TileItem]) -> np.ndarray:
    w, h = _sizes(items)
    out: np.ndarray = w * h
    return out


def _sizes(items: Sequence[TileItem]) -> tuple[np.ndarray, np.ndarray]:
    b = np.array([i.box for i in items], dtype=np.float64).reshape(-1, 4)
    return b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]


def tile_scale(items: Sequence[TileItem]) -> tuple[float, float]:
    """Median short and long side of the boxes: the unit every threshold is measured in."""
    w, h = _sizes(items)
    return float(np.median(np.minimum(w, h))), float(np.median(np.maximum(w, h)))


def _pca_direction(pts: np.ndarray) -> np.ndarray:
    if len(pts) < 2:
        return np.array([1.0, 0.0])
    centred = pts - pts.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    d = vt[0]
    return np.asarray(d / np.linalg.norm(d), dtype=np.float64)


def _inliers(pts: np.ndarray, origin: np.ndarray, direction: np.ndarray, tol: float) -> np.ndarray:
    normal = np.array([-direction[1], direction[0]])
    return np.asarray(np.abs((pts - origin) @ normal) < tol, dtype=bool)


def fit_lines(pts: np.ndarray, *, tol: float, reach: float, min_size: int = 2) -> list[np.ndarray]:
    """Group points into straight rows; returns index arrays, biggest row first.

    Each round tries the line through every pair of neighbours (closer than ``reach``),
    keeps the one with the most points within ``tol`` of it, refines it by PCA, and
    takes its points out; a row is cut where consecutive points are farther apart
    than ``reach``, and a point so cut off alone is left for the next rounds. Leftover
    points become rows of one.

    >>> pts = np.array([[0, 0], [10, 1], [20, 2], [30, 3], [5, 30], [15, 31], [25, 32.]])
    >>> [r.tolist() for r in fit_lines(pts, tol=4, reach=15)]
    [[0, 1, 2, 3], [4, 5, 6]]
    """
    lines = _PairLines(pts, reach)
    remaining = np.arange(len(pts))
    rows: list[np.ndarray] = []
    while len(remaining) >= min_size:
        sub = pts[remaining]
        best = lines.best(remaining, tol)
        if best is None:
            break
        mask, d = best, _pca_direction(sub[best])
        first = d
        for _ in range(2):  # PCA refinement; a mask that stays as it was keeps its fit
            inliers = _inliers(sub, sub[mask].mean(0), d, tol)
            if not np.array_equal(inliers, mask):
                mask, d = inliers, _pca_direction(sub[inliers])
        if mask.sum() < min_size:
            mask, d = best, first
        chosen = remaining[mask]
        pieces = _cut(pts, chosen, d, reach)
        # a point cut off alone, far along another row's line, stays free for a row of its
        # own: a pung's last tile, a few pixels askew, lay on the line of the melds across
        # the table and was lost to it (its pung cut in two, half taken for hand tiles)
        kept = [p for p in pieces if len(p) >= min_size] or pieces
        taken = {int(i) for p in kept for i in p}
        for piece in kept:
            piece = _extend(pts, piece, d, remaining, taken, tol, reach)
            taken.update(piece.tolist())
            rows.append(piece)
        remaining = np.array([i for i in remaining if i not in taken], dtype=np.int64)
    rows.extend(np.array([i]) for i in remaining)
    rows.sort(key=lambda r: (-len(r), int(r.min())))
    return rows


class _PairLines:
    """The candidate lines of ``fit_lines``: one through each pair of points closer than
    ``reach`` (in the order of the pairs' indices), and every point's distance from each,
    worked out once. Each round then only looks up the pairs and points still free; until
    stop 65 each round worked them out again for the points left, and the 154 tiles the
    reader finds on the benchmark's table took 17 ms to put in rows (now 11 ms; the rows
    are the same)."""

    def __init__(self, pts: np.ndarray, reach: float) -> None:
        diff = pts[None, :, :] - pts[:, None, :]
        dist = np.hypot(diff[..., 0], diff[..., 1])
        self.ii, self.jj = np.nonzero(np.triu((dist < reach) & (dist > 0), 1))
        dirs = diff[self.ii, self.jj] / dist[self.ii, self.jj, None]
        # distance of every point to every candidate line, along its normal: (pairs, points)
        start = pts[self.ii]
        self.off = np.abs(-dirs[:, 1, None] * (pts[None, :, 0] - start[:, 0, None])
                          + dirs[:, 0, None] * (pts[None, :, 1] - start[:, 1, None]))
        self.n = len(pts)

    def best(self, free: np.ndarray, tol: float) -> np.ndarray | None:
        """The line through two of the ``free`` points (ascending indices) with the most of
        them within ``tol``, the least summed distance breaking ties, then the first pair: a
        mask over ``free``; None when no two free points are neighbours."""
        is_free = np.zeros(self.n, bool)
        is_free[free] = True
        pairs = np.flatnonzero(is_free[self.ii] & is_free[self.jj])
        if len(pairs) == 0:
            return None
        off = self.off[np.ix_(pairs, free)]
        inl = off < tol
        counts = inl.sum(1)
        resid = np.where(inl, off, 0).sum(1)
        k = int(np.lexsort((resid, -counts))[0])
        if counts[k] < 2 or len(free) < 2:
            return None
        return np.asarray(inl[k])


def _extend(pts: np.ndarray, piece: np.ndarray, d: np.ndarray, pool: np.ndarray, taken: set[int],
            tol: float, reach: float) -> np.ndarray:
    """Follow a gently curving row past the straight fit: add the next point at either end
    that continues the local direction of the last few points."""
    order = list(piece[np.argsort(pts[piece] @ d, kind="stable")])
    free = [int(i) for i in pool if int(i) not in taken]
    for sign in (1, -1):
        while free and len(order) >= 2:
            tail = order[-3:] if sign == 1 else order[:3][::-1]
            end = pts[tail[-1]]
            local = _pca_direction(pts[tail]) if len(tail) >= 3 else pts[tail[-1]] - pts[tail[0]]
            local = local / max(float(np.linalg.norm(local)), 1e-9)
            if float(local @ (pts[tail[-1]] - pts[tail[0]])) < 0:
                local = -local
            cand = np.array(free)
            rel = pts[cand] - end
            ahead = rel @ local
            side = np.abs(rel @ np.array([-local[1], local[0]]))
            ok = (ahead > 0) & (ahead < reach) & (side < tol)
            if not ok.any():
                break
            k = int(cand[ok][np.argmin(ahead[ok])])
            free.remove(k)
            if sign == 1:
                order.append(k)
            else:
                order.insert(0, k)
    return np.array(sorted(order), dtype=np.int64)


def _cut(pts: np.ndarray, idx: np.ndarray, direction: np.ndarray, reach: float) -> list[np.ndarray]:
    proj = pts[idx] @ direction
    order = idx[np.argsort(proj, kind="stable")]
    steps = np.diff(np.sort(proj))
    cuts = np.flatnonzero(steps > reach) + 1
    return [np.sort(p) for p in np.split(order, cuts)]


SPACING_SLACK = 1.5  # the median gap is noisy: a row of faces varied 6-16 px around 10
STEP_MIN = 4  # a row this long tells a gap by its steps too (see Row.runs)


@dataclass(eq=False)
class Row:
    """Tiles on one straight line, ordered along ``direction``, with their true extents."""

    items: list[TileItem]
    direction: np.ndarray  # unit vector, the reading direction
    along: np.ndarray  # each tile's extent along the row (box corrected for the tilt)
    across: np.ndarray  # and across it
    proj: np.ndarray  # centre position along the row

    @classmethod
    def build(cls, items: Sequence[TileItem], direction: np.ndarray) -> Row:
        c = _centres(items)
        proj = c @ direction
        order = np.argsort(proj, kind="stable")
        w, h = _sizes(items)
        along, across = _true_extents(w, h, direction)
        return cls([items[i] for i in order], direction, along[order], across[order], proj[order])

    @property
    def normal(self) -> np.ndarray:
        """The unit vector across the row (``direction`` turned a quarter)."""
        return np.array([-self.direction[1], self.direction[0]])

    @property
    def offset(self) -> float:
        """Mean position across the row (which of two parallel rows is nearer)."""
        return float(np.mean(_centres(self.items) @ self.normal))

    def off_line(self, pts: np.ndarray) -> np.ndarray:
        """How far each of ``pts`` lies across the row from its line."""
        return np.asarray(np.abs(pts @ self.normal - self.offset), dtype=np.float64)

    def gaps(self) -> np.ndarray:
        """Empty space between consecutive tiles (negative when they overlap)."""
        return np.asarray(np.diff(self.proj) - (self.along[1:] + self.along[:-1]) / 2, dtype=np.float64)

    def usual_gap(self) -> float:
        """The space between touching tiles of this row: the median gap times
        ``SPACING_SLACK``, never below 0 (0 for rows too short to tell).

        Boxes drawn around the faces only (the real photos' labels do so, and a detector
        trained on them) leave a third of a tile between tiles that touch; whole-tile
        boxes leave none.
        """
        gaps = self.gaps()
        return SPACING_SLACK * max(0.0, float(np.median(gaps))) if len(gaps) >= 3 else 0.0

    def runs(self, gap: float, usual: float = 0.0, jump: float | None = None) -> list[Row]:
        """Pieces of the row split where the empty space between two neighbours exceeds
        ``gap`` × their own width (measured locally, so a row shrinking with perspective
        is cut by the same rule at both ends) beyond ``usual`` pixels, the space between
        touching tiles (see ``usual_gap``; hand photos pass it, tables from above, measured
        only on rendered ones so far, do not).

        With ``jump``, a row of ``STEP_MIN`` tiles or more is cut only where the step from
        centre to centre is also ``jump`` times the shorter of the steps beside it. The
        widths come from undoing the row's tilt, as if its tiles were turned with it; tiles
        standing square to a picture in which the row slants by perspective alone are not,
        and their widths drift from end to end into gaps that are not there, while the steps
        change smoothly (hand photos pass it: ``HandRegions.step_jump``).

        >>> from vision.readings import TileItem
        >>> from engine.tiles import Tile
        >>> def row(*x1: float) -> Row:
        ...     return Row.build([TileItem(Tile.M1, (x, 0, x + 20, 30)) for x in x1], np.array([1.0, 0.0]))
        >>> [len(r) for r in row(0, 24, 48, 92, 116).runs(0.12)]  # faces 20 wide, 4 apart, 24 at the gap
        [1, 1, 1, 1, 1]
        >>> [len(r) for r in row(0, 24, 48, 92, 116).runs(0.12, jump=1.1)]
        [3, 2]
        >>> [len(r) for r in row(0, 24, 48, 74, 98).runs(0.12, jump=1.1)]  # steps 24, 24, 26, 24
        [5]
        """
        if len(self) < 2:
            return [self]
        width = np.minimum(np.minimum(self.across[1:], self.across[:-1]),
                           np.minimum(self.along[1:], self.along[:-1]))
        cut = self.gaps() > gap * width + usual
        if jump is not None and len(self) >= STEP_MIN:
            steps = np.diff(self.proj)  # centre to centre
            nearest = np.minimum(np.r_[np.inf, steps[:-1]], np.r_[steps[1:], np.inf])
            cut &= steps > jump * nearest
        cuts = np.flatnonzero(cut) + 1
        bounds = [0, *cuts.tolist(), len(self.items)]
        return [self.slice(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]

    def slice(self, a: int, b: int) -> Row:
        return Row(self.items[a:b], self.direction, self.along[a:b], self.across[a:b], self.proj[a:b])

    def turned(self) -> np.ndarray:
        """Tiles lying across the row: much longer along it than the row's typical tile."""
        ratio = self.along / np.maximum(self.across, 1e-6)
        return np.asarray(ratio > 1.3 * np.median(ratio), dtype=bool) if len(ratio) >= 3 else ratio > 1.3

    def __len__(self) -> int:
        return len(self.items)


def _true_extents(w: np.ndarray, h: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Undo the axis-aligned box of a tile rotated with its row (exact for a rectangle)."""
    c, s = abs(float(d[0])), abs(float(d[1]))
    if c < s:  # a row closer to vertical: swap the roles of width and height
        w, h, c, s = h, w, s, c
    den = c * c - s * s
    if den < 0.3:  # near 45°: the inversion is unstable; the box itself is good enough
        return w * c + h * s, h * c + w * s
    along = (w * c - h * s) / den
    across = (h * c - w * s) / den
    return np.maximum(along, 0.2 * w), np.maximum(across, 0.2 * h)


def _reading_direction(d: np.ndarray) -> np.ndarray:
    """Left to right on the image (top to bottom for a vertical row)."""
    if d[0] < -1e-9 or (abs(d[0]) <= 1e-9 and d[1] < 0):
        return np.asarray(-d, dtype=np.float64)
    return np.asarray(d, dtype=np.float64)


def rows_of(items: Sequence[TileItem], *, tol: float = 0.3, reach: float = 2.2) -> list[Row]:
    """Rows of tiles; ``tol`` and ``reach`` are fractions of the median long side."""
    if not items:
        return []
    _, long_side = tile_scale(items)
    pts = _centres(items)
    lines = fit_lines(pts, tol=tol * long_side, reach=reach * long_side)
    out = []
    fits = [_pca_direction(pts[idx]) if len(idx) >= 2 else np.array([1.0, 0.0]) for idx in lines]
    main = _reading_direction(fits[0]) if len(lines[0]) >= 5 else None
    for idx, fit in zip(lines, fits, strict=True):
        members = [items[i] for i in idx]
        d = _reading_direction(fit)
        if main is not None and len(idx) <= 5 and abs(float(d @ main)) > 0.96:
            # a short row's own fit is pulled askew by a turned tile's offset centre;
            # rows near a long one's direction are parallel to it (melds along the hand)
            d = main
        out.append(Row.build(members, d))
    return out


BoxRows = tuple[list[TileItem], list[Row]]  # boxes as items, and the rows they lie in


def rows_of_boxes(xyxy: np.ndarray) -> BoxRows:
    """The boxes ``xyxy`` as items, and their rows (``rows_of``): worked out
    once for a picture's boxes, for the look at which way they run (``vision.upright``) and
    the crops cut along them (``vision.row_crops``).

    >>> items, rows = rows_of_boxes(np.array([[10 + 30 * k, 10, 30 + 30 * k, 40] for k in range(4)], float))
    >>> len(items), [len(row) for row in rows]
    (4, [4])
    """
    boxes = np.asarray(xyxy, dtype=np.float64).reshape(-1, 4)
    items = [TileItem(Tile.M1, (x1, y1, x2, y2)) for x1, y1, x2, y2 in boxes.tolist()]
    return items, rows_of(items)


# -- a single hand ------------------------------------------------------------------------------


def second_boxes(rows: Sequence[Row], step: float = 0.65, overlap: float = 0.1, inside: float = 0.4,
                 sure: float = 0.5, image_size: tuple[int, int] | None = None, inside_cut: float = 0.5) -> set[int]:
    """``id``s of the boxes that are a detector's second box of a neighbour's tile: in a row
    of 3 or more, centred within ``step`` of the row's median step from the next box, over
    it by an IoU of ``overlap`` or more with ``inside`` or more of its own area, and less
    than ``sure`` (the weaker of the two). NMS keeps such a box when its IoU with the tile's
    own box is under 0.5 (a face and a face with its side, half a tile): a hand of 13 then
    read as 14. A box touching the edge of the picture (``image_size``; unknown: every box)
    needs ``inside_cut``: a tile cut by the photo's edge is a narrow box, and its neighbour's
    box can cover much of it (real training photo 420791778: 0.48).

    >>> tile = lambda x, c: TileItem(Tile.M1, (x, 0.0, x + 30, 40), c)
    >>> row = [tile(0, .9), tile(31, .9), tile(36, .3), tile(62, .9), tile(93, .9)]  # a weak box over 2nd
    >>> [row.index(i) for r in rows_of(row) for i in r.items if id(i) in second_boxes([r])]
    [2]
    """
    doubles: set[int] = set()
    for row in rows:
        if len(row) < 3:
            continue
        steps = np.diff(row.proj)
        boxes = np.array([i.box for i in row.items], np.float64)
        for k in np.flatnonzero(steps < step * float(np.median(steps))).tolist():
            a, b = row.items[k], row.items[k + 1]
            weak, strong = (k, k + 1) if a.confidence < b.confidence else (k + 1, k)
            if row.items[weak].confidence >= sure or box_iou(boxes[[weak]], boxes[[strong]])[0, 0] < overlap:
                continue
            over = float(box_intersection(boxes[[weak]], boxes[[strong]])[0, 0])
            if _mostly_over(over, boxes[weak], image_size, inside, inside_cut):
                doubles.add(id(row.items[weak]))
    return doubles


def boxes_over_others(mine: Sequence[TileItem], every: Sequence[TileItem], step: float = 0.65, overlap: float = 0.1,
                      inside: float = 0.4, sure: float = 0.5, image_size: tuple[int, int] | None = None,
                      inside_cut: float = 0.5) -> set[int]:
    """``id``s of the boxes of ``mine`` (those a reading took for the hand's) that are a
    detector's second box of a tile of ``every``, whatever row each was put in: less than
    ``sure`` and surer of the other, centred within ``step`` of the hand's pitch (the median
    distance from a box of ``mine`` to the nearest other) from it, over it by an IoU of
    ``overlap`` or more with ``inside`` or more of its own area (``inside_cut`` at the
    picture's edge). ``second_boxes`` finds neighbours along a row; a box of a tile's face
    with its side below lies across the row, in another (``HandRegions`` reads again
    without these). The pitch, not a tile's width: in a close-up whose boxes all overlap
    their neighbours by half, no box is a second one.

    >>> row = [TileItem(Tile.M1, (31.0 * k, 0.0, 31.0 * k + 30, 40.0), 0.9) for k in range(8)]
    >>> low = TileItem(Tile.M3, (62.0, 14.0, 92.0, 60.0), 0.3)  # the 3rd tile again, with its side below
    >>> [i is low for i in row + [low] if id(i) in boxes_over_others(row + [low], row + [low])]
    [True]
    """
    if len(mine) < 2:
        return set()
    a = np.array([i.box for i in mine], np.float64)
    b = np.array([i.box for i in every], np.float64)
    centres = (a[:, :2] + a[:, 2:]) / 2
    apart = np.hypot(*(centres[:, None, :] - centres[None]).transpose(2, 0, 1))
    np.fill_diagonal(apart, np.inf)
    pitch = float(np.median(apart.min(1)))
    iou, inter = box_iou(a, b), box_intersection(a, b)
    near = np.hypot(*(centres[:, None, :] - (b[:, :2] + b[:, 2:])[None] / 2).transpose(2, 0, 1)) < step * pitch
    doubles: set[int] = set()
    for k, item in enumerate(mine):
        if item.confidence >= sure:
            continue
        if any(every[j] is not item and every[j].confidence > item.confidence and id(every[j]) not in doubles
               and near[k, j] and _mostly_over(float(inter[k, j]), a[k], image_size, inside, inside_cut)
               for j in np.flatnonzero(iou[k] >= overlap).tolist()):
            doubles.add(id(item))
    return doubles


def _mostly_over(over: float, box: Sequence[float], image_size: tuple[int, int] | None, inside: float,
                 inside_cut: float) -> bool:
    """Whether ``over`` (pixels² of ``box`` lying over another box) is ``inside`` of its area
    or more, ``inside_cut`` when it touches the picture's edge (see ``second_boxes``).

    >>> whole, cut = (10, 10, 40, 50), (0, 10, 30, 50)  # 1,200 px² each, 500 of them over another box
    >>> _mostly_over(500.0, whole, (640, 480), 0.4, 0.5), _mostly_over(500.0, cut, (640, 480), 0.4, 0.5)
    (True, False)
    """
    share = inside_cut if _at_edge(box, image_size) else inside
    return over >= share * (box[2] - box[0]) * (box[3] - box[1])


def _at_edge(box: Sequence[float], image_size: tuple[int, int] | None) -> bool:
    """``readings.at_edge``, and yes when the picture's size is unknown."""
    return image_size is None or at_edge(box, image_size)


def _default_is_bonus(tile: Tile) -> bool:
    """Laid aside when seen outside the concealed row: flowers, animals, royalty, and
    exposed jokers (Vietnamese jokers are put down with the flowers)."""
    return tile.is_bonus or tile.is_vn_joker


def _laid_aside(item: TileItem, is_bonus: Callable[[Tile], bool]) -> bool:
    """Whether ``item`` is a face-up bonus tile (by ``is_bonus``): laid aside with a seat's
    flowers, in no meld."""
    return item.face_up and is_bonus(item.tile)


def _bonus_anywhere(tile: Tile) -> bool:
    """Flowers, seasons, animals, royalty: never held in a hand, whatever the variant (a
    Filipino honour is a flower too, but a row of them may still be someone's hand)."""
    return tile.is_bonus


@dataclass
class HandRegions:
    """Stage: detections of one hand photo -> ``HandReading``.

    ``is_bonus`` decides which tiles are flowers (the variant's ruleset knows: in
    Filipino every honour is one). Thresholds are fractions of the median tile size.
    """

    is_bonus: Callable[[Tile], bool] = _default_is_bonus
    group_gap: float = 0.12  # a gap wider than this (× tile width) separates groups
    drawn_gap: float = 2.5  # the drawn tile (or a lone first one) may sit this far (× tile width) from the row
    near: float = 2.6  # groups farther than this (× tile height) from the hand are not its
    hand_min: int = 7  # a run this long of upright tiles is a concealed row
    meld_reach: float = 1.8  # a group that forms no meld counts only this close (× tile height)
    tier_reach: float = 2.2  # a second tier of the hand lies this close (× tile height; see _second_tier)
    tile_area: float = 0.4  # a group by the hand whose boxes are smaller than this (× the hand's) holds no tiles
    straight: float = 0.15  # a row's centres lie this close to its line (× tile height) ...
    even: float = 0.3  # ... and its steps vary this little (share of the mean step): see _orderly
    hand_max: int = 17  # the most tiles a hand holds in its concealed tiers (16 and the drawn one)
    spacing_min: int = 5  # a row this long tells the space between its touching tiles (see _usual_gap)
    orderly_least: int = 3  # a run is taken for an orderly hand row first only with this many upright faces
    # a gap must also lengthen the step between centres this much (see Row.runs), since stop
    # 33: rendered hand photos read exactly with the renderer's face boxes, seed 4062 (chosen
    # on) 148 -> 180 of 300, seed 4063 160 -> 197 (benchmarks/bench_hand_regions.py); real
    # validation photos as before, training photos 78 -> 79 of 113. 1.4 read 8 more of seed
    # 4062, but joined melds laid 0.3 of a tile apart (test_hand_layouts_are_read_exactly);
    # 1.15 joined one such layout in 3,000
    step_jump: float | None = 1.1
    # the row chosen as the concealed one may bow smoothly by this much (× tile height) and
    # still be orderly (see _orderly), since stop 34: a hand stood close to a wide lens bows
    # (0.4 of a tile on rendered photo 8 of seed 4063), and three straight flowers beat it.
    # With it, a long run of called melds is no hand (_meld_like) and a row of melds and
    # flowers makes no photo refused: rendered hand photos read with each tile in its place
    # (benchmarks/bench_hand_regions.py --deal any, face boxes, seeds 4062 / 4063 / 4064 /
    # 4065, the last never looked at before the rules were set) 163 / 183 / 167 / 162 -> 178
    # / 192 / 176 / 174 of 300, the shipped models' boxes 98 / 112 / 106 / 97 -> 104 / 118 /
    # 117 / 107; the real photos as before (36 of 45, 79 of 113)
    bow: float | None = 0.5
    # a weak box centred within this share of a row's step from its neighbour, mostly over
    # it, is a second box of that tile and dropped (see second_boxes), since stop 34: the
    # shipped models' boxes of rendered hand photos (bench_hand_regions.py --reader models
    # --deal any; seeds 4062-4064 chosen on, 4065 and 4066 the checks) held / in place /
    # named right 109/104/47, 122/118/52, 122/117/59, 113/107/42, 116/113/59 -> 126/120/58,
    # 147/143/67, 140/134/65, 130/120/50, 144/139/74 of 300; real validation photos 36 -> 37
    # of 45, training photos 79 as before (a sliver of a tile cut by the photo's edge is kept).
    # Since stop 35 a box inside the picture needs 0.4 of its area over its neighbour (0.5
    # before; one touching the edge still 0.5): rules-dealt renders, models' boxes, held of
    # 300, seeds 4062-4066 (0.3 / 0.4 chosen on) 142 / 162 / 150 / 140 / 161 -> 146 / 162 /
    # 150 / 143 / 160, checks 4067-4069 140 / 154 / 155 -> 139 / 157 / 158; real photos as
    # before (0.3: training 79 -> 78). Also since stop 35, the hand's boxes are checked once
    # more across rows (boxes_over_others, the same settings, by the hand's pitch) and the
    # photo read again without the second boxes found: models' boxes held / in place of 300,
    # seeds 4062-4066 146/137 147/137, 162/157 165/160, 150/138 150/138, 143/129 143/130,
    # 160/154 159/153; checks 4067-4069 139/130 143/134, 157/147 160/149, 158/152 161/155;
    # real photos as before (a box's width instead of the pitch dropped most of the close-up
    # real training photo 410078544's boxes; dropping across rows all weak boxes, not only
    # the hand's, dropped 2,146 labelled discards of 4062-4066's photos)
    double_step: float | None = 0.65
    # a lone flower this close to a tile of the hand (× tile length) is its flower (1.6 until
    # stop 34): a table discards no flower, so a bonus tile by the hand is the hand's. On
    # rendered hand photos dealt by the rules (bench_hand_regions.py), the shipped models'
    # boxes, in place: seeds 4062-4064 (chosen on: 2.0 / 2.2 / 2.5 within a photo of each
    # other) 128 / 153 / 130 -> 131 / 153 / 132, checks 4065 / 4066 / 4067 125 / 152 / 127 ->
    # 128 / 152 / 128 of 300; the real photos as before
    flower_reach: float = 2.2
    # ... if the detector found it at least this sure (since stop 42): of the lone boxes by
    # the hand read as bonus tiles, the hand's own flowers are found 0.68 sure or surer in
    # 9 of 10, while dice, coins and second boxes are mostly found 0.2-0.4 sure (rendered
    # 4064 photo 230: a die by the row, 0.30, read as a blank white dragon, a Filipino
    # flower; 4063 photo 210: a red coin, 0.24). It loses a flower half hidden behind the
    # row (4063 photo 67, 0.36) or cut by the picture's edge (4064 photo 239, 0.25).
    # Rules-dealt renders, the shipped models' boxes, held / in place / named right of
    # the photos: 4062-4069 (chosen on: 0.3 / 0.35 / 0.4 / 0.45) 1,316 / 1,263 / 809 ->
    # 1,321 / 1,323 / 1,327 / 1,325 held; 4070-4077 1,303 / 1,227 / 809 -> 1,308 / 1,232 /
    # 816 (0.4); 4078-4109 5,151 / 4,927 / 3,144 -> 5,169 / 4,941 / 3,158; 4110-4117
    # (rendered this stop) 1,280 / 1,220 / 758 -> 1,287 / 1,227 / 763; the real photos 39 of
    # 45 as before, the training ones 82 -> 83 of 113
    flower_found: float = 0.4
    # a lone tile just before the row's start is its first (set apart by a gap, or the rest
    # of the row hidden by an arm), and a lone tile at either end counts on the line of the
    # row's last four tiles there as well as on its fitted line (the drawn tile only, on the
    # fitted line only, until stop 35: a bowed or slanting row's end bends away from it).
    # Rules-dealt renders (bench_hand_regions.py), held / in place of 300, seeds 4062-4066
    # (looked at): face boxes 207/195 211/199, 213/207 219/213, 198/186 206/193, 207/188
    # 214/193, 219/214 220/215; the models' 138/131 142/134, 158/153 162/157, 144/132
    # 150/138, 140/128 140/128, 159/152 161/154; checks 4067-4069 face boxes 203/188
    # 207/191, 213/203 216/207, 214/203 217/206, models 138/128 140/130, 151/142 154/145,
    # 153/147 155/149; the real photos as before (37 of 45, 79 of 113)
    lone_first: bool = True
    # a face-down box at an end of a concealed row of 4 or more otherwise face up is not the
    # hand's (since stop 35): the side of the row's end tile boxed as a tile and read as a
    # back, or the end of the wall beside it; a player's own row stands face up. Models'
    # boxes, rules-dealt renders held of 300, 4062-4069: 147 150, 165 168, 150 150, 143 145,
    # 159 159, 143 146, 160 163, 161 161; the renderer's face boxes lose 4 of 2,400 (it
    # deals a face-down tile at a row's end now and then); real validation photos 37 -> 38
    # of 45 (420995988), training 79 -> 80 of 113. Since stop 36 a group by the hand that
    # makes no meld does without such a box too (see meld_second_box)
    end_back_aside: bool = True
    # a box this share or more of whose area lies over its neighbour's, in a group by the
    # hand that makes no meld with it and does without it, is the detector's second box of
    # that tile, however sure (since stop 36): a called meld's turned tile is boxed whole
    # and again in part, and the part read as another tile (rendered 4062 photo 239: 7s,
    # the turned 8s, a 6s over 96 % of it, 9s). Rules-dealt renders, the shipped models'
    # boxes, held / in place / named right of 2,400 (4062-4069, looked at): 1,242 / 1,170 /
    # 747 -> 1,246 / 1,174 / 754; 4070-4071 (not looked at) 310 / 289 / 193 unchanged; the
    # renderer's face boxes +1; the real photos as before (39 of 45, 80 of 113). Also since
    # stop 36, with end_back_aside, such a group does without a face-down box at one end (the
    # end tile's side boxed as a back, or the wall beside the meld: before, the whole group
    # went to the others): 4062-4069 held / in place / named 1,246 / 1,174 / 754 -> 1,253 /
    # 1,181 / 757; 4070-4073 (not looked at) 617 / 572 / 389 -> 620 / 575 / 389; face boxes
    # on 4062-4073 held 2,555 -> 2,559 of 3,600; the real photos as before
    meld_second_box: float | None = 0.6
    # and, since stop 39, any box of such a group less than this sure, the least sure first
    # (LOW_CONFIDENCE: a read shown as doubtful): a box of a tile half hidden, or of the
    # table beside a meld, that overlaps its neighbour less (rendered 4066 photo 202: a box
    # 0.19 sure past the end of a line of two chows, cut by the picture's edge, made the
    # second chow no meld). Rules-dealt renders, the shipped models' boxes, held / in place
    # / named of 2,400: 4062-4069 (looked at; 0.3 / 0.4 / 0.5 / 0.6 held 1,306 / 1,306 /
    # 1,311 / 1,312) 1,303 / 1,249 / 796 -> 1,311 / 1,257 / 804, 4070-4077 (0.3-0.6: 1,294
    # / 1,298 / 1,298 / 1,295) 1,289 / 1,211 / 797 -> 1,298 / 1,221 / 805, 4078-4085 (the
    # check) 1,300 / 1,245 / 801 -> 1,306 / 1,252 / 804 (7 gained, 1 lost); the renderer's
    # boxes are sure and read as before; the real photos as before (39 of 45, 80 of 113)
    meld_weak_box: float | None = LOW_CONFIDENCE
    # two short runs side by side that together make a valid meld are one, a turned tile
    # among them or not (only with one until stop 36): a meld's tiles set a little apart,
    # or its line bent by perspective, gave runs of 1 and 2 that went to the others
    # (rendered 4064 photo 5: a pung of 8s left of the hand). Rules-dealt renders held / in
    # place (/ named) of the photos: 4062-4069 (looked at) models 1,253 / 1,181 / 757 ->
    # 1,257 / 1,185 / 760, face boxes 1,711 / 1,618 -> 1,721 / 1,628 of 2,400; 4070-4073
    # (not looked at) models 620 / 575 / 389 as before, face boxes 848 / 791 -> 853 / 796
    # of 1,200; the real photos as before (39 of 45, 80 of 113)
    mend_unturned: bool = True
    # two such runs of face-up tiles are side by side also when their nearest boxes are
    # less than this apart (× the tiles' short side), since stop 39: the centres' test alone
    # (within a tile's length) left out a pung whose turned tile lies a sliver apart, and
    # one whose upright tiles, seen from above, are as long as they are wide (rendered 4065
    # photo 229: 6p, turned 6p, 6p read as 6p and 6p 6p, 102 px between centres, tiles
    # 96 px long); a wall's face-down tiles are not mended this way (4069 photo 80).
    # Measured on line as well (their centres within half a tile's length across the
    # hand's direction): scattered discards side by side had become melds (4073 photo 269, a
    # chow of three discards). Rules-dealt renders, the shipped models' boxes, held / in
    # place / named of the photos: 4062-4069 (looked at) 1,293 / 1,222 / 789 -> 1,300 /
    # 1,229 / 796, 4070-4077 (chose 1.0 over 0.5 and the line) 1,279 / 1,190 / 792 -> 1,288
    # / 1,199 / 797, 4078-4085 (the check) 1,293 / 1,231 / 799 -> 1,297 / 1,235 / 800 of
    # 2,400; face boxes held 3,542 -> 3,551 and 1,800 -> 1,805; the real photos as before (39
    # of 45, 80 of 113).
    # Lost: discards of one tile, or a run, lying on a line behind the hand (4080 photo 39).
    mend_apart: float | None = 1.0
    # a group of 3 or more face-up tiles that splits wholly into valid melds counts this far
    # across from the hand (× tile height; ``near`` for any other group), since stop 36:
    # melds laid in front of a hand stood close to the lens are larger than the picture's
    # median tile, so farther in its units (rendered 4062 photo 14: a kang 3.0 tile heights
    # from the row). Rules-dealt renders held / in place (/ named) of the photos, 4062-4069
    # (3.0 / 3.4 / 4.0 looked at) models 1,257 / 1,185 / 760 -> 1,259 / 1,187 / 762, face
    # boxes 1,721 / 1,628 -> 1,725 / 1,632; 4070-4073 (not looked at) models 620 / 575 /
    # 389 -> 622 / 577 / 390, face boxes 853 / 796 -> 854 / 797; the real photos as before.
    # (`near` itself at 3.0 or 3.4, for every group, lost: models 1,253 -> 1,250 / 1,245)
    meld_near: float = 3.4
    # an end tile of the concealed row that the picture's edge cuts to less than this share
    # of its neighbour's width (height at the top or bottom edge), boxed less than
    # ``sliver_sure``, is not the hand's (see _slivers_at_the_ends; since stop 37): a sliver
    # of a tile the photo leaves out, or the detector's box of the bit of table beyond the
    # row's end. Rules-dealt renders, the shipped models' boxes, held / in place / named
    # right of the photos: 4062-4069 (looked at; 0.33 / 0.35 / 0.4 / 0.45 / 0.5 and 0.5 /
    # 0.6 / any confidence, not every pair) 1,259 / 1,187 / 762 -> 1,272 / 1,200 / 774 of 2,400; 4070-4073
    # 622 / 577 / 390 -> 636 / 590 / 399 and 4074-4077 (rendered for the check) 607 / 560 /
    # 373 -> 621 / 573 / 383 of 1,200; the real photos as before (39 of 45, 80 of 113: at
    # 0.4 the first copy of real training photo 420791778 lost its labelled right-hand tile,
    # cut to under 0.4 and 0.3 sure). At any confidence the renderer's face boxes lost 47 of
    # 3,600 photos (tiles 60 % in view whose face the edge cuts to a third); they are sure
    sliver: float | None = 0.35
    sliver_sure: float = 0.6
    # a face-up bonus tile by the hand (within ``flower_reach``, or on the line of the
    # melds) read this sure or surer is the hand's flower wherever its group went (since
    # stop 37; only a lone one until then): a table discards no flower, and two flowers
    # lying askew, a flower with a discard or a second box lined up beside it, or flowers
    # laid flat behind a hand stood close to the lens (smaller than ``tile_area``) went to
    # the others (rendered 4062 photo 31: a season behind the hand, boxed again above and
    # read 1m). Rules-dealt renders held / in place / named right of the photos, the shipped
    # models' boxes: 4062-4069 (looked at; 0.5 / 0.6 / 0.7 / 0.8) 1,272 / 1,200 / 774 ->
    # 1,281 / 1,208 / 782 of 2,400 (at any confidence 1,252: second boxes and misread
    # discards by the hand taken for flowers); 4070-4073 636 / 590 / 399 -> 642 / 597 / 405
    # and 4074-4077 621 / 573 / 383 -> 628 / 580 / 385 of 1,200; the renderer's face boxes
    # 3,439 -> 3,538 of 4,800 (4062-4077; with ``tile_area`` for the least box instead of
    # ``stray_flower_area``, 3,487); the real photos as before (39 of 45, 80 of 113).
    # Since stop 42 the detector's confidence (``TileItem.found``) is held to this, and the
    # name's to ``stray_flower_named`` only: the classifier is often unsure which flower a
    # flower is, seldom whether it is one (of the flowers by the hand, a tenth are named
    # under 0.34). Held / in place / named right, the shipped models' boxes, against both
    # at 0.6: 4062-4069 (chosen on; found 0.5 / 0.6 / 0.7, name 0 / 0.2 / 0.3 / 0.4, not every pair)
    # 1,327 / 1,274 / 818 -> 1,334 / 1,281 / 818; 4070-4077 1,308 / 1,232 / 816 -> 1,310 /
    # 1,234 / 816; 4078-4109 5,169 / 4,941 / 3,158 -> 5,193 / 4,966 / 3,168; 4110-4117 1,287
    # / 1,227 / 763 -> 1,292 / 1,232 / 763; the real photos 39 of 45 and 83 of 113 as before
    stray_flower_sure: float | None = 0.6
    stray_flower_named: float = 0.3
    stray_flower_area: float = 0.25  # × a hand tile's box: 9 in 10 such flowers measured 0.25-0.41, a die 0.23
    # a group by the hand that makes no valid meld, its boxes less than this sure on
    # average, is tiles lying about, not a meld misread for the player to correct (since
    # stop 38): discards seen askew, the wall's side or a second box lined up by the hand
    # (rendered 4067 photo 77: 8s 5m 1m, 0.27-0.36 sure, behind the row; real training photo
    # 420479065: 2m 6s 2m, 0.13-0.38, in the pool behind a hand in two tiers). A valid meld
    # keeps its weak boxes (a pung laid flat behind the row is boxed weakly: 4065 photo 166).
    # Rules-dealt renders, the shipped models' boxes, held / in place / named right of the
    # photos: 4062-4069 (looked at; 0.45 / 0.5 / 0.6, and every group, valid or not, at 0.35
    # / 0.4 / 0.45 / 0.5 / 0.55) 1,281 / 1,208 / 782 -> 1,288 / 1,214 / 785 of 2,400;
    # 4070-4077 1,270 / 1,177 / 790 -> 1,276 / 1,184 / 792 and 4078-4081 (rendered for the
    # check) 650 / 614 / 403 -> 651 / 615 / 403 of 1,200; the real photos as before (39 of
    # 45, 80 of 113)
    weak_meld: float | None = 0.5
    # a long upright run on the concealed row's own line, close to one of its ends, is a
    # piece of it cut off by a gap or a bend, joined to it, not a second hand that makes the
    # photo refused (since stop 38; until then the pieces were joined only after the check):
    # rendered 4065 photo 256, one row cut into 9 and 7 where two flowers lie against it.
    # Rules-dealt renders, the shipped models' boxes, 4062-4081: held 3,215 -> 3,218 of
    # 6,000, refused 32 -> 26, none lost; the renderer's face boxes 4,445 -> 4,446, refused
    # 25 -> 24; the real photos as before (39 of 45, 80 of 113)
    pieces_not_hands: bool = True
    # ... and a piece counts on the line of the row's last four tiles at that end as well as
    # on its fitted line (since stop 38): a row bowed by a close wide lens (rendered 4064
    # photo 87: only its first four tiles were read as the hand, the other 13 left out). 4062-4081,
    # the shipped models' boxes: held / in place 3,218 / 3,016 -> 3,226 / 3,032 of 6,000
    # (9 photos gained, 1 lost: 4074 photo 44, a concealed kang laid on the row's bent line);
    # face boxes 4,446 -> 4,454; the real photos as before. 0.35 of a tile, as on the line
    bent_pieces: bool = True
    # a piece of the row with a tile that looks turned is still a piece when its tiles make
    # no melds (since stop 39): a tile half hidden by an arm, or at the end of a steep row,
    # is boxed wider than tall, and the piece was read as a misread meld for the player to
    # correct (rendered 4069 photo 183: 7p 7p 3s past an arm, "hand read as meld"; most
    # such photos held every tile but put the piece among the melds). Rules-dealt renders,
    # the shipped models' boxes, held / in place / named: 4062-4069 (looked at) 1,300 /
    # 1,229 / 796 -> 1,303 / 1,249 / 796, 4070-4077 1,288 / 1,199 / 797 -> 1,289 / 1,211 /
    # 797, 4078-4085 (the check) 1,297 / 1,235 / 800 -> 1,300 / 1,245 / 801 of 2,400;
    # the renderer's face boxes held / in place, 4062-4077 3,551 / 3,351 -> 3,553 / 3,362,
    # 4078-4085 1,805 / 1,711 -> 1,810 / 1,724; the real photos as before (39 of 45, 80 of
    # 113). On 4062-4069 "hand read as meld" 94 -> 61 photos, "box of no tile taken in"
    # 435 -> 442 (7 photos whose piece past an arm is now read, and with it a box on the arm).
    turned_pieces: bool = True
    # a box at an end of a run smaller than this share of the run's median box, where the
    # run is orderly only without it, is set aside with the others (since stop 40): a die
    # past the end of a hand row receding from the lens, boxed and read as a flower, put
    # the row off a smooth bow, and five tiles of the pool were read as the hand (real
    # training photo 420502414). One the picture's edge cuts stays when read as surely as
    # ``sliver_sure`` (a tile cut by the edge is small too: rendered 4082 photo 173); a
    # weak one there went to the hand as a lone first tile (4079 photo 201). Rules-dealt
    # renders, the shipped models' boxes, held / in place / named of 2,400 a range:
    # 4062-4069 1,311 / 1,257 / 804 -> 1,312 / 1,259 / 805, 4070-4077 1,298 / 1,221 / 805
    # -> 1,301 / 1,225 / 808, 4078-4085 1,306 / 1,252 / 804 -> 1,307 / 1,253 / 804, and
    # 4086-4093 (rendered for the check) 1,265 / 1,214 / 787 -> 1,266 / 1,215 / 787; the
    # renderer's face boxes 7,116 -> 7,115 of 9,600 (4065 photo 288: a tile half under an
    # arm); real training photos 80 -> 82 of 113, validation as before (39 of 45). 0.3 /
    # 0.4 / 0.5 / 0.6 held 2,612 / 2,613 / 2,611 / 2,604 of 4062-4077's 4,800 (the die
    # measured 0.36)
    small_end: float | None = 0.4
    # a lone face-up tile on the concealed row's line, inside its span once its pieces are
    # joined, in a gap with room for it and read at least ``LOW_CONFIDENCE`` sure, is a tile
    # of the row (since stop 40): a steep row's boxes step unevenly, and a tile a few pixels
    # apart on both sides was cut from it as a run of one (rendered 4066 photo 230: a red
    # dragon third in the row, 0.79 sure, left out while both pieces around it were joined).
    # Rules-dealt renders, the shipped models' boxes, held / in place / named of 2,400:
    # 4062-4069 1,312 / 1,259 / 805 -> 1,314 / 1,261 / 807, 4070-4077 1,301 / 1,225 / 808
    # -> 1,302 / 1,226 / 808, 4078-4085 as before, 4086-4093 1,266 / 1,215 / 787 -> 1,267
    # / 1,216 / 788, none lost (at any confidence 4063 photo 42 gained and 4085 photo 207
    # lost: a 0.39 box over a tile under an arm); the renderer's face boxes 7,115 -> 7,119
    # of 9,600; the real photos as before. Loosening the cut itself (``step_jump`` 1.15 /
    # 1.2 / 1.3 / 1.4) held more on 4062-4077 (2,613 -> 2,622 / 2,618 / 2,632 / 2,637) but
    # placed few more (2,484 -> 2,490 / 2,486 / 2,490 / 2,492): it joins discards and melds
    lone_inside: bool = True
    # a run of two or more by the hand whose boxes are smaller than ``tile_area`` of the
    # hand's still holds tiles when they are as wide along the row as this share of the
    # hand's tiles and every one is read at least ``LOW_CONFIDENCE`` sure (since stop 41):
    # tiles laid flat before a low camera show a sliver of their face (rendered 4062 photo
    # 3: a pung of East behind a hand of four, boxes 0.34 of an upright tile's and 0.9 of its
    # width, set aside as dice). A die is about half a tile wide; a coin is as wide as a tile
    # but lies alone (a lone box as a coin read as a flower lost 4073 photo 279). Rules-dealt
    # renders, the shipped models' boxes, held / in place / named of 2,400 a range: 4062-4069
    # 1,314 / 1,261 / 807 -> 1,316 / 1,263 / 809, 4070-4077 1,302 / 1,226 / 808 -> 1,303 /
    # 1,227 / 809, 4078-4085 1,307 / 1,253 / 804 -> 1,310 / 1,256 / 805, 4086-4093 1,267 /
    # 1,216 / 788 -> 1,270 / 1,218 / 789 (lost of 4062-4093: 4071 photo 190 and 4087 photo
    # 258, discards read as a meld), 4094-4101 (rendered for the check once all was set) 1,270 / 1,215 /
    # 766 -> 1,275 / 1,220 / 768, none lost, 4102-4109 (rendered later) 1,292 / 1,229 / 783
    # -> 1,296 / 1,233 / 782 (lost 4103 photo 5 and 4108 photo 206: discards lying flat
    # behind the row); the renderer's face boxes 10,657 -> 10,703 of 14,400; the real photos
    # as before. 0.7 / 0.8 / 0.9 held 3,931 / 3,929 / 3,928 of 4062-4085's 7,200
    flat_width: float | None = 0.8

    def __call__(self, dets: Detections | Sequence[TileItem], image_size: tuple[int, int] | None = None) -> HandReading:
        items = to_items(dets)
        if not items:
            raise NoTilesError("no tiles found in the picture")
        reading = self._read(items, image_size)
        if self.double_step is None:
            return reading
        mine = [i for i, region, _ in reading.items() if region != "other"]
        doubles = boxes_over_others(mine, [i for i, _, _ in reading.items()], self.double_step, image_size=image_size)
        return self._read([i for i in items if id(i) not in doubles], image_size) if doubles else reading

    def _read(self, items: list[TileItem], image_size: tuple[int, int] | None) -> HandReading:
        rows = rows_of(items)
        if self.double_step is not None and (doubles := second_boxes(rows, self.double_step, image_size=image_size)):
            items = [i for i in items if id(i) not in doubles]
            rows = rows_of(items)
        short, long_side = tile_scale(items)
        usual = self._usual_gap(rows)
        runs = [run for row in rows for run in row.runs(self.group_gap, usual, self.step_jump)]
        trimmed = [self._without_small_ends(run, long_side, image_size) for run in runs]
        runs = [run for run, _ in trimmed]
        small = [i for _, ends in trimmed for i in ends]
        hand_run = self._concealed(runs, long_side)
        runs.remove(hand_run)
        others_upright = [r for r in runs if _upright_faces(r) >= self.hand_min and self._orderly(r, long_side, 2 / 3)
                          and not self._meld_like(r) and not self._piece_of(hand_run, r, short, long_side)]
        tier = self._second_tier(hand_run, others_upright, long_side)
        if tier is not None:
            runs.remove(tier)
        elif any(not self._all_melds(r, self.is_bonus) for r in others_upright):  # melds and flowers are no hand
            sizes = sorted([len(hand_run), *map(len, others_upright)], reverse=True)
            raise TwoHandsError(f"two hands in one photo (rows of {sizes[0]} and {sizes[1]} tiles): "
                                "photograph one hand at a time")
        hand_run = self._join_collinear(hand_run, runs, short, long_side)
        runs = mend_melds(runs, hand_run.direction, not self.mend_unturned, self.mend_apart)
        slivers = self._slivers_at_the_ends(hand_run, image_size)
        concealed = [i for i in hand_run.items if not any(i is s for s in slivers)]
        back = _back_at_an_end(concealed) if self.end_back_aside else None
        if back is not None:
            concealed.remove(back)
        concealed += self._lone_by_end(hand_run, runs, short)  # the tile drawn last
        if self.lone_first:
            concealed = self._lone_by_end(hand_run, runs, short, last=False) + concealed
        if tier is not None:  # the far tier reads first, as a player reads a rack of two
            concealed = [*tier.items, *concealed] if tier.offset < hand_run.offset else [*concealed, *tier.items]
        melds, flowers, others = self._groups(hand_run, runs, short, long_side, image_size)
        others += [back] if back is not None else []
        others += slivers + small
        # grouped by the names as read; then a group that makes no meld so may by its tiles'
        # runner-ups (``MeldReading.named``: flagged for the person to confirm)
        melds = [m.named() for m in melds]
        return HandReading(tuple(concealed), tuple(melds), tuple(flowers), tuple(others), image_size)

    def _slivers_at_the_ends(self, hand: Row, image_size: tuple[int, int] | None) -> list[TileItem]:
        """The end boxes of a concealed row of 4 or more that the picture's edge cuts to less
        than ``sliver`` of the next tile's extent across that edge, less than ``sliver_sure``
        sure (a picture of unknown size: none)."""
        if self.sliver is None or image_size is None or len(hand) < 4:
            return []
        ends = ((hand.items[0], hand.items[1]), (hand.items[-1], hand.items[-2]))
        return [end for end, nextdoor in ends if end.confidence < self.sliver_sure
                and cut_share(end.box, nextdoor.box, image_size) < self.sliver]

    def _without_small_ends(self, run: Row, long_side: float,
                            image_size: tuple[int, int] | None) -> tuple[Row, list[TileItem]]:
        """``run`` without the boxes at its ends smaller than ``small_end`` of its median
        box, and those boxes, where the run is orderly only without them (see ``_orderly``).
        A box the picture's edge cuts (or any, in a picture of unknown size) counts only
        when read less than ``sliver_sure``: a tile cut by the edge is small too."""
        if self.small_end is None or len(run) < 4:
            return run, []
        areas = _areas(run.items)
        small = (areas < self.small_end * float(np.median(areas))) & np.array(
            [i.confidence < self.sliver_sure or not _at_edge(i.box, image_size) for i in run.items])
        a, b = 0, len(run)
        while a < b - 3 and small[a]:
            a += 1
        while b > a + 3 and small[b - 1]:
            b -= 1
        if (a, b) == (0, len(run)) or self._orderly(run, long_side, may_bow=True) \
                or not self._orderly(run.slice(a, b), long_side, may_bow=True):
            return run, []
        return run.slice(a, b), run.items[:a] + run.items[b:]

    def _usual_gap(self, rows: list[Row]) -> float:
        """The space between touching tiles to allow in every row (see ``Row.usual_gap``): the
        widest that a row of ``spacing_min`` tiles or more shows (a meld is too short to tell
        its own). Until stop 32 it was the longest row's, and where that was a line through the
        discard pool (boxes overlapping: no space) a hand row of face boxes was cut at every
        tile: with the widest, 9 more of the 113 real training photos read their hand exactly
        (``benchmarks/bench_real_photos.py --split train``)."""
        told = [row.usual_gap() for row in rows if len(row) >= self.spacing_min]
        return max(told) if told else rows[0].usual_gap()

    def _concealed(self, runs: list[Row], long_side: float) -> Row:
        def key(r: Row) -> tuple[bool, bool, int, float]:
            meld_like = self._meld_like(r)
            up = _upright_faces(r)
            # a tile or two are orderly whatever they are: until stop 32 a lone tile beat a
            # bowed hand row, or a steep one its perspective made uneven (rendered hands of
            # seed 4062: 141 -> 148 of 300 read exactly with this; the real photos as before)
            orderly = up >= self.orderly_least and self._orderly(r, long_side, may_bow=True)
            return (not meld_like, orderly, up, float(np.median(r.across)))

        return max(runs, key=key)

    def _meld_like(self, r: Row) -> bool:
        """A run that is melds, whatever its length: 3 or 4 tiles with a turned one, 4 with
        face-down ends (a concealed kang), or 6 or more with a turned tile that split wholly
        into melds, flowers left out. A whole concealed row never does (3k+1 tiles, 3k+2 with
        the one drawn: one is in no meld; a Filipino honour counts, or 3k+1 would become 3k),
        but one tier of a hand stood in two can: no concealed tile lies turned."""
        turned = bool(r.turned().any())
        if len(r) in (3, 4) and turned:
            return True
        if len(r) == 4 and not r.items[0].face_up and not r.items[-1].face_up:
            return True
        return len(r) >= 6 and turned and self._all_melds(r, _bonus_anywhere)

    def _orderly(self, run: Row, long_side: float, strict: float = 1.0, may_bow: bool = False) -> bool:
        """Tiles stood or laid in a row, not discards that happen to line up: straight (no
        centre farther than ``straight`` tile heights off the line) and evenly spaced (the
        steps between centres vary by at most ``even`` of their mean), both times ``strict``.
        On the real photos hand rows measured 0.02-0.13 and 0.03-0.23, lines through a
        discard pool 0.12-0.29 and 0.14-0.68: a second hand, which makes a photo refused,
        must be stricter (2/3) than the row chosen as the hand. ``may_bow``: a run of 5 or
        more is straight too when it lies that close to a smooth bow (a parabola) bending at
        most ``bow`` tile heights from its chord (a hand stood close to a wide lens); lines
        through a discard pool zigzag."""
        if len(run) < 3:
            return True
        off = _centres(run.items) @ run.normal
        steps = np.diff(run.proj)
        limit = strict * self.straight * long_side
        straight = float(np.abs(off - off.mean()).max()) <= limit
        if not straight and may_bow and self.bow is not None and len(run) >= 5:
            straight = self._on_a_bow(run.proj, off, limit, self.bow * long_side, long_side)
        return straight and float(steps.std()) <= strict * self.even * max(float(steps.mean()), 1e-6)

    @staticmethod
    def _on_a_bow(along: np.ndarray, off: np.ndarray, limit: float, depth: float, long_side: float) -> bool:
        """Whether the centres (``along`` the row, ``off`` it) lie within ``limit`` of a
        parabola bending at most ``depth`` from its chord (and spread over a tile at least)."""
        x = (along - along.mean()) / long_side  # centred and in tiles: a well-posed fit
        if float(np.ptp(x)) < 1:
            return False
        bowed = np.polyval(np.polyfit(x, off, 2), x)
        line = np.polyval(np.polyfit(x, off, 1), x)
        return float(np.abs(off - bowed).max()) <= limit and float(np.abs(bowed - line).max()) <= depth

    @staticmethod
    def _all_melds(run: Row, aside: Callable[[Tile], bool]) -> bool:
        """Whether a run's tiles, those ``aside`` says are bonus tiles left out, split wholly into melds."""
        keep = [k for k, i in enumerate(run.items) if not (i.face_up and aside(i.tile))]
        if not 3 <= len(keep) <= 16:  # four kangs at most (and the ways to split grow fast)
            return False
        turned = run.turned()
        return all(_valid(p) for p in _split_melds([run.items[k] for k in keep], [bool(turned[k]) for k in keep]))

    def _second_tier(self, hand: Row, upright: list[Row], long_side: float) -> Row | None:
        """The one other long upright row that is the rest of this hand, stood in a second
        tier right behind or before it (a 16-tile hand on a short rack), or laid flat in two
        rows a tile apart: parallel, within ``tier_reach`` tile heights, side by side along
        it, and no more tiles together than a hand holds. Two players' hands hold more. (Until
        stop 32 the reach was 1.6, and a hand laid in rows of 8 and 7, 1.84-2.06 tile heights
        apart, was refused as two hands: real training photo 420479065, three copies.)"""
        if len(upright) != 1:
            return None
        other = upright[0]
        parallel = abs(float(other.direction @ hand.direction)) > 0.96
        close = abs(other.offset - hand.offset) < self.tier_reach * long_side
        along = _centres(other.items) @ hand.direction
        beside = along.min() < hand.proj[-1] and along.max() > hand.proj[0]
        fits = len(hand) + len(other) <= self.hand_max
        return other if parallel and close and beside and fits else None

    def _join_collinear(self, hand: Row, runs: list[Row], short: float, long_side: float) -> Row:
        """Pieces of the concealed row cut off by a small gap or a bend (see ``_collinear``),
        then lone tiles left in its gaps (see ``_lone_inside``)."""
        changed = True
        while changed:
            changed = False
            for r in list(runs):
                if self._collinear(hand, r, short, long_side):
                    runs.remove(r)
                    hand = Row.build([*hand.items, *r.items], hand.direction)
                    changed = True
        inside = [r for r in runs if self._lone_inside(hand, r, long_side)] if self.lone_inside else []
        for r in inside:
            runs.remove(r)
        return Row.build([*hand.items, *(i for r in inside for i in r.items)], hand.direction) if inside else hand

    @staticmethod
    def _lone_inside(hand: Row, r: Row, long_side: float) -> bool:
        """Whether ``r`` is one face-up tile, read at least ``LOW_CONFIDENCE`` sure, on the
        concealed row's line inside its span, in a gap between two of its tiles with room for
        it (``lone_inside``)."""
        if len(r) != 1 or not r.items[0].face_up or r.items[0].confidence < LOW_CONFIDENCE or len(hand) < 2:
            return False
        c = _centres(r.items)[0]
        k = int(np.searchsorted(hand.proj, float(c @ hand.direction)))
        if not 0 < k < len(hand) or float(hand.off_line(c)) >= 0.35 * long_side:
            return False
        room = hand.proj[k] - hand.proj[k - 1] - (hand.along[k] + hand.along[k - 1]) / 2
        return bool(room >= 0.8 * float(r.along[0]))

    def _piece_of(self, hand: Row, r: Row, short: float, long_side: float) -> bool:
        """Whether the long upright run ``r`` is a piece of the concealed row (``pieces_not_hands``),
        no more tiles together than a hand holds."""
        return (self.pieces_not_hands and len(hand) + len(r) <= self.hand_max
                and self._collinear(hand, r, short, long_side))

    def _collinear(self, hand: Row, r: Row, short: float, long_side: float) -> bool:
        """Whether ``r`` is a piece of the concealed row ``hand`` cut off by a small gap or a
        bend: close to one of its ends, on its line (or, with ``bent_pieces``, its two tiles
        nearest the row on the line of the row's last four tiles at that end), and not
        meld-shaped (no turned tile; with ``turned_pieces``, one whose tiles make no melds)."""
        meld_shaped = bool(r.turned().any()) and not (self.turned_pieces and len(r) >= 3
                                                      and not self._all_melds(r, self.is_bonus))
        if len(r) < 2 or meld_shaped or sum(i.face_up for i in r.items) < len(r) / 2:
            return False
        pts = _centres(r.items)
        across = float(hand.off_line(pts).max())
        along = pts @ hand.direction
        start, end = hand.proj[0] - hand.along[0] / 2, hand.proj[-1] + hand.along[-1] / 2
        past_end, before_start = abs(float(along.min()) - end), abs(start - float(along.max()))
        after = past_end <= before_start
        if min(past_end, before_start) >= 1.2 * short + float(np.max(r.along)):
            return False
        nearest = pts[np.argsort(along if after else -along)[:2]]
        bent = self.bent_pieces and len(hand) >= 4 and _off_the_bend(hand, nearest, after) < 0.35 * long_side
        return across < 0.35 * long_side or bent

    def _face_up_melds(self, run: Row) -> bool:
        """Whether ``run`` is 3 or more face-up tiles that split wholly into valid melds."""
        return len(run) >= 3 and all(i.face_up for i in run.items) and self._all_melds(run, self.is_bonus)

    def _too_small(self, run: Row, hand: Row, hand_area: float) -> bool:
        """Whether ``run``'s boxes are too small to be tiles by the hand (``tile_area``),
        and not tiles laid flat as wide as the hand's (``flat_width``)."""
        if float(np.median(_areas(run.items))) >= self.tile_area * hand_area:
            return False
        return (self.flat_width is None or len(run) < 2 or min(i.confidence for i in run.items) < LOW_CONFIDENCE
                or float(np.median(run.along)) < self.flat_width * float(np.median(hand.along)))

    def _beside(self, flower: TileItem, hand: Row, melds: list[MeldReading], long_side: float) -> bool:
        """A flower counts when it lies by the hand (within ``flower_reach`` tile lengths of
        a tile of it) or on the line of the melds."""
        c = _centres([flower])[0]
        near = np.min(np.hypot(*(_centres(hand.items) - c).T)) < self.flower_reach * long_side
        meld_pts = _centres([i for m in melds for i in m.items])
        on_line = bool(len(meld_pts)) and float(np.min(np.abs((meld_pts - c) @ hand.normal))) < 0.4 * long_side \
            and float(np.min(np.hypot(*(meld_pts - c).T))) < 6 * long_side
        return bool(near) or on_line

    def _strays_by_the_hand(self, others: list[TileItem], hand: Row, melds: list[MeldReading],
                            long_side: float, hand_area: float) -> list[TileItem]:
        """The face-up bonus tiles among ``others`` that lie by the hand or on the line of
        its melds (see ``_beside``), found ``stray_flower_sure`` or surer, named
        ``stray_flower_named`` or surer and boxed at least
        ``stray_flower_area`` of ``hand_area`` (a hand tile's): flowers that went to the
        others with their group (askew, a discard lined up with them, a second box, smaller
        than ``tile_area`` when laid flat behind a hand stood close to the lens)."""
        if self.stray_flower_sure is None:
            return []
        return [i for i in others if _laid_aside(i, self.is_bonus) and i.found >= self.stray_flower_sure
                and i.confidence >= self.stray_flower_named and float(_areas([i])[0]) >= self.stray_flower_area * hand_area
                and self._beside(i, hand, melds, long_side)]

    def _weak_and_invalid(self, pieces: list[MeldReading]) -> bool:
        """Whether ``pieces`` are no valid melds and their boxes less than ``weak_meld`` sure
        on average."""
        confidence = [i.confidence for p in pieces for i in p.items]
        return (self.weak_meld is not None and not all(map(_valid, pieces))
                and float(np.mean(confidence)) < self.weak_meld)

    def _lone_by_end(self, hand: Row, runs: list[Row], short: float, last: bool = True) -> list[TileItem]:
        """A lone face-up tile just past the hand's end (``last``: the tile drawn last) or
        before its start (the row's first tile set apart by a gap or an arm across it), on
        the row's fitted line or on the line of its last few tiles at that end: a row bowed
        by a wide lens, or seen at a slant, bends away from its fitted line at the ends."""
        if len(hand) < 2:
            return []
        sign, k = (1.0, -1) if last else (-1.0, 0)
        edge = sign * float(hand.proj[k]) + float(hand.along[k]) / 2  # the end, measured outwards
        tol = 0.3 * float(np.median(hand.across))
        for r in runs:
            if len(r) != 1 or not r.items[0].face_up or self.is_bonus(r.items[0].tile):
                continue
            c = np.array(r.items[0].centre)
            past = sign * float(c @ hand.direction) - edge
            across = float(hand.off_line(c))
            off_bend = _off_the_bend(hand, c[None], last)
            if 0 < past < self.drawn_gap * short + r.along[0] and min(across, off_bend) < tol:
                runs.remove(r)
                return list(r.items)
        return []

    @staticmethod
    def _in_wall(meld: MeldReading, runs: list[Row], long_side: float,
                 image_size: tuple[int, int] | None = None) -> bool:
        """Four face-down tiles in a row are a concealed kang only when no other face-down
        tile lies against them: with one, they are part of the wall (stacked two high). Nor
        when they run to the picture's edge (since stop 35): a wall cut by the photo's frame,
        its lower tiles unboxed (real validation photo 420715709: the end of a wall two high
        beside the hand was read as a concealed kang, which the scorer refused as "face-down
        tiles whose face is unknown"; a rule written after seeing that photo, and one of its
        two copies, whose wall stops short of the edge, still reads the kang)."""
        if any(i.face_up for i in meld.items):
            return False
        if image_size is not None and any(_at_edge(i.box, image_size) for i in meld.items):
            return True
        mine = {i.box for i in meld.items}  # the meld's items are copies (marked turned or not)
        backs = [i for r in runs for i in r.items if not i.face_up and i.box not in mine]
        if not backs:
            return False
        dist = np.hypot(*(_centres(meld.items)[:, None, :] - _centres(backs)[None]).transpose(2, 0, 1))
        return bool(dist.min() < long_side)

    def _groups(self, hand: Row, runs: list[Row], short: float, long_side: float,
                image_size: tuple[int, int] | None = None) -> tuple[list[MeldReading], list[TileItem], list[TileItem]]:
        """The melds, flowers and other tiles of ``runs``, the runs of touching tiles beside
        the ``hand`` row (``short``: a tile's short side; ``long_side``: its long one)."""
        melds: list[MeldReading] = []
        flowers: list[TileItem] = []
        others: list[TileItem] = []
        hand_area = float(np.median(_areas(hand.items)))
        reach = max(8.0, 24.0 - len(hand)) * short  # melds can run far past a short concealed row
        span = (hand.proj[0] - reach, hand.proj[-1] + reach)
        lone: list[Row] = []  # lone flowers, placed once every meld is known (see below)
        reading = _reading_order(runs, long_side)
        for run in reading:
            if not self._by_the_hand(run, hand, span, long_side) or self._too_small(run, hand, hand_area):
                others.extend(run.items)  # far, askew (scattered discards), a wall, or dice and coins
                continue
            if len(run) == 1 and _laid_aside(run.items[0], self.is_bonus):
                lone.append(run)
                continue
            run_melds, run_flowers, run_others = self._melds_of_run(run, hand, runs, long_side, image_size)
            melds += run_melds
            flowers += run_flowers
            others += run_others
        strays = self._strays_by_the_hand(others, hand, melds, long_side, hand_area)  # lone ones: below
        flowers += strays
        others = [i for i in others if not any(i is s for s in strays)]
        # a lone flower counts by the hand or on the line of the melds, also of a meld read
        # after it: flowers laid left of a pung (real training photo 420853321) were taken
        # for discards while the pung was still to come
        for run in lone:
            beside = run.items[0].found >= self.flower_found and self._beside(run.items[0], hand, melds, long_side)
            (flowers if beside else others).extend(run.items)  # else: among the scattered discards
        order = {id(item): k for k, item in enumerate(i for run in reading for i in run.items)}
        flowers.sort(key=lambda item: order[id(item)])  # in reading order, as laid
        return melds, flowers, others

    def _by_the_hand(self, run: Row, hand: Row, span: tuple[float, float], long_side: float) -> bool:
        """Whether ``run`` lies by the ``hand`` row, along it within ``span`` (from, to along
        the row), near it (``near``, face-up melds ``meld_near``) and parallel to it, and is
        no wall (5 or more, most of them face down)."""
        pts = _centres(run.items)
        along = pts @ hand.direction
        parallel = len(run) < 2 or abs(float(run.direction @ hand.direction)) > 0.87  # within 30°
        farthest = float(hand.off_line(pts).max()) / long_side
        near = bool(np.all((along > span[0]) & (along < span[1]))) and (
            farthest < self.near or (farthest < self.meld_near and self._face_up_melds(run)))
        wall = len(run) >= 5 and sum(not i.face_up for i in run.items) >= 0.6 * len(run)
        return near and parallel and not wall

    def _melds_of_run(self, run: Row, hand: Row, runs: list[Row], long_side: float,
                      image_size: tuple[int, int] | None) -> tuple[list[MeldReading], list[TileItem], list[TileItem]]:
        """The melds, flowers and other tiles of one ``run`` by the ``hand`` row: its bonus
        tiles are flowers, the rest split into melds, mended by leaving one box out where
        they make none; no meld at all (or weakly boxed, or off the hand) is tiles lying
        about."""
        turned = run.turned()
        bonus = [k for k, i in enumerate(run.items) if _laid_aside(i, self.is_bonus)]
        flowers = [run.items[k] for k in bonus]
        keep = [k for k in range(len(run)) if k not in bonus]
        rest = [run.items[k] for k in keep]
        if len(keep) < 3:
            return [], flowers, rest
        others: list[TileItem] = []
        pieces = _split_melds(rest, [bool(turned[k]) for k in keep])
        if not all(map(_valid, pieces)):
            fewer = _melds_without_one(rest, [bool(turned[k]) for k in keep],
                                       self.meld_second_box, self.end_back_aside, self.meld_weak_box)
            if fewer is not None:
                pieces, spare = fewer
                others.append(spare)
        # (a box left out leaves valid melds only: the two below are runs that none mended)
        if self._weak_and_invalid(pieces):
            return [], flowers, rest  # weakly boxed and no meld: tiles lying about
        pts = _centres(run.items)
        gap = float(np.min(np.hypot(*(_centres(hand.items)[:, None, :] - pts[None]).transpose(2, 0, 1))))
        if not any(_valid(p) for p in pieces) and gap > self.meld_reach * long_side:
            return [], flowers, rest  # no meld, and not right by the hand: tiles lying about
        # a surely boxed, misread meld by the hand stays for the player to correct; face-down tiles that
        # form no concealed kang are no meld to correct (the wall, a stack behind the row)
        stray = [p for p in pieces if (not _valid(p) or self._in_wall(p, runs, long_side, image_size))
                 and any(not i.face_up for i in p.items)]
        others.extend(i for p in stray for i in p.items)
        return [p for p in pieces if p not in stray], flowers, others


def cut_share(box: Sequence[float], nextdoor: Sequence[float], image_size: tuple[int, int],
              margin: float = 3.0) -> float:
    """How much of a tile the picture holds, when ``box`` reaches within ``margin`` pixels of
    its edge: its width over ``nextdoor``'s (a neighbouring tile's box) at the left or right
    edge, its height over ``nextdoor``'s at the top or bottom, the less at a corner; 1.0
    inside the picture. Not the tilt-corrected extent along the row: a tile cut by the edge
    is no longer a rectangle turned with its row, and undoing the tilt of its box shrinks it.

    >>> cut_share((0, 100, 12, 140), (10, 100, 40, 140), (640, 480))  # the left edge leaves 12 px of 30
    0.4
    >>> cut_share((50, 100, 80, 140), (80, 100, 110, 140), (640, 480))
    1.0
    """
    width, height = image_size
    shares = [1.0]
    if box[0] < margin or box[2] > width - margin:
        shares.append((box[2] - box[0]) / max(nextdoor[2] - nextdoor[0], 1e-6))
    if box[1] < margin or box[3] > height - margin:
        shares.append((box[3] - box[1]) / max(nextdoor[3] - nextdoor[1], 1e-6))
    return float(min(shares))


def _off_the_bend(hand: Row, pts: np.ndarray, after: bool) -> float:
    """How far the farthest of ``pts`` lies from the line through the row's last four tiles
    (as many as it has, two at least) at its end (``after``) or its start.

    >>> row = Row.build([TileItem(Tile.M1, (30.0 * k, 2.0 * k * k, 30.0 * k + 28, 2.0 * k * k + 40)) for k in range(6)],
    ...                 np.array([1.0, 0.0]))
    >>> round(_off_the_bend(row, np.array([[194.0, 84.0]]), True), 1)  # on the bent line, past the end
    0.0
    >>> round(_off_the_bend(row, np.array([[194.0, 40.0]]), True), 1)  # level with the row's start
    39.9
    """
    ends = _centres(hand.items)[-4:] if after else _centres(hand.items)[:4][::-1]  # towards that end
    bent = (ends[-1] - ends[0]) / max(float(np.hypot(*(ends[-1] - ends[0]))), 1e-9)
    return float(np.abs((pts - ends[-1]) @ np.array([-bent[1], bent[0]])).max())


def _back_at_an_end(concealed: list[TileItem]) -> TileItem | None:
    """The one face-down tile of a row of 4 or more, when it stands at either end.

    >>> up, down = TileItem(Tile.M1, (0, 0, 1, 1)), TileItem(Tile.BACK, (0, 0, 1, 1))
    >>> _back_at_an_end([up, up, up, down]) is down, _back_at_an_end([up, down, up, up]) is None
    (True, True)
    """
    if len(concealed) < 4 or sum(not i.face_up for i in concealed) != 1:
        return None
    return next((i for i in (concealed[0], concealed[-1]) if not i.face_up), None)


def mend_melds(runs: list[Row], direction: np.ndarray, turned_only: bool = False,
               apart: float | None = None, most: int = 3) -> list[Row]:
    """``runs`` with two short runs (``most`` tiles each or fewer) side by side that together
    make a meld (``turned_only``: with a turned tile) joined into one run, the joined run
    last: a called meld's turned tile lies flush with one edge of the meld, its centre off the
    line of the upright ones, and the line fit can give it (or them) a row apart; a meld's
    tiles set a little apart, or bent by perspective, can be cut in two (see
    ``HandRegions.mend_unturned``). In hand photos since stop 33; rendered hand photos read
    exactly (``benchmarks/bench_hand_regions.py``, seeds 4062 / 4063 / 4064, the renderer's
    face boxes): 180 / 197 / 184 -> 184 / 198 / 185 of 300, whole-tile boxes 192 / 195 / 177
    -> 195 / 194 / 179, the shipped models' 109 / 121 / 119 -> 111 / 121 / 121; the real
    photos as before. In a live table's melds since stop 85 (``TableRegions._runs``).

    >>> up = lambda code, y: TileItem(Tile.parse(code), (0.0, y, 40.0, y + 24))  # lying across
    >>> cut = Row.build([up("7p", 0), up("8p", 34), up("9p", 58)], np.array([0.0, 1.0])).runs(0.3)
    >>> [[str(i.tile) for i in r.items] for r in mend_melds(cut, np.array([0.0, 1.0]), most=2)]
    [['7p', '8p', '9p']]
    """
    runs = list(runs)
    while (halves := _meld_halves(runs, direction, turned_only, apart, most)) is not None:
        a, b, both = halves
        runs = [r for r in runs if r is not a and r is not b] + [both]
    return runs


def _meld_halves(runs: list[Row], direction: np.ndarray, turned_only: bool = False,
                 apart: float | None = None, most: int = 3) -> tuple[Row, Row, Row] | None:
    """The first two runs of ``most`` tiles or fewer, side by side, that together make a valid meld
    (``turned_only``: with a turned tile), and that meld as one run along ``direction``;
    else None."""
    few = [r for r in runs if len(r) <= most]
    for a, b in itertools.combinations(few, 2):
        if 3 <= len(a) + len(b) <= 4 and _side_by_side(a, b, direction, apart):
            both = Row.build([*a.items, *b.items], direction)
            if (both.turned().any() or not turned_only) and _valid(_meld_reading(both.items)):
                return a, b, both
    return None


def _side_by_side(a: Row, b: Row, direction: np.ndarray, apart: float | None = None) -> bool:
    """Whether two runs touch end to end: their nearest tiles' centres within the length of
    their tiles (their own: near the camera a meld's tiles are larger than the picture's),
    or, face up and on one line along ``direction`` (their centres less than half a tile's
    length apart across it), their nearest boxes within ``apart`` of their tiles' short
    side (see ``HandRegions.mend_apart``)."""
    ca, cb = _centres(a.items), _centres(b.items)
    short, length = tile_scale([*a.items, *b.items])
    if float(np.min(np.hypot(*(ca[:, None, :] - cb[None]).transpose(2, 0, 1)))) < length:
        return True
    if apart is None or not all(i.face_up for i in (*a.items, *b.items)):
        return False
    normal = np.array([-direction[1], direction[0]])
    if abs(float((ca.mean(0) - cb.mean(0)) @ normal)) > 0.5 * length:  # not on one line: discards lying about
        return False
    return _box_gap(a.items, b.items) < apart * short


def _box_gap(a: Sequence[TileItem], b: Sequence[TileItem]) -> float:
    """The least distance between a box of ``a`` and one of ``b`` (0 where they overlap).

    >>> _box_gap([TileItem(Tile.M1, (0, 0, 10, 10))], [TileItem(Tile.M1, (13, 14, 20, 20))])
    5.0
    """
    ba = np.array([i.box for i in a], np.float64)[:, None, :]
    bb = np.array([i.box for i in b], np.float64)[None, :, :]
    dx = np.maximum(0, np.maximum(ba[..., 0], bb[..., 0]) - np.minimum(ba[..., 2], bb[..., 2]))
    dy = np.maximum(0, np.maximum(ba[..., 1], bb[..., 1]) - np.minimum(ba[..., 3], bb[..., 3]))
    return float(np.hypot(dx, dy).min())


def _reading_order(runs: list[Row], long_side: float) -> list[Row]:
    """Runs line by line (lines nearer the top first), each line left to right."""
    by_offset = sorted(runs, key=lambda r: r.offset)
    lines: list[list[Row]] = []
    for r in by_offset:
        if lines and abs(r.offset - lines[-1][-1].offset) < 0.5 * long_side:
            lines[-1].append(r)
        else:
            lines.append([r])
    return [r for line in lines for r in sorted(line, key=lambda r: float(r.proj[0]))]


def _upright_faces(r: Row) -> int:
    turned = r.turned()
    return sum(1 for i, t in zip(r.items, turned, strict=True) if i.face_up and not t)


def _split_melds(items: list[TileItem], turned: list[bool]) -> list[MeldReading]:
    """Cut touching melds apart: the split into 3s and 4s whose pieces are all valid melds."""
    marked = [replace(i, turned=t) for i, t in zip(items, turned, strict=True)]
    for sizes in _partitions(len(marked)):
        pieces, start = [], 0
        for s in sizes:
            pieces.append(_meld_reading(marked[start:start + s]))
            start += s
        if all(_valid(p) for p in pieces):
            return pieces
    sizes = _partitions(len(marked))[0] if _partitions(len(marked)) else (len(marked),)
    out, start = [], 0
    for s in sizes:
        out.append(_meld_reading(marked[start:start + s]))
        start += s
    return out


def _second_boxes_out(keep: list[int], items: Sequence[TileItem], share: float,
                      straddle: float | None = None, alike: bool = False) -> list[int]:
    """``keep`` (indices of ``items``, in order along their row) without the detector's second
    boxes: of two neighbours whose centres lie nearer than ``share`` of the tiles' short side
    (tiles side by side lie a tile apart), the less sure, until none are. A blank-framed White
    dragon pung was boxed four times at 1080p, the second box over two tiles, and read as a kang.
    With ``straddle``, first a box whose neighbours on both sides lie nearer than that share,
    however sure: it lies half over two tiles, and they are the tiles' own boxes (Vietnamese
    North's pung of 7s lying across, its tiles 0.63 and 0.68 of a short side from a box half
    over the first and second, surer than the first's own box, which went instead, and the
    meld was read as a kang; set style 5, seed 4, action 29). With ``alike``, of two
    neighbours only two of one name are a tile and its second box (a seat's flowers).

    >>> up = lambda x, c=0.9: TileItem(Tile.WHITE, (x, 0.0, x + 30, 40), c)
    >>> _second_boxes_out([0, 1, 2, 3], [up(0), up(30), up(45, 0.4), up(60)], 0.6)
    [0, 1, 3]
    >>> _second_boxes_out([0, 1, 2], [up(0), up(30), up(60)], 0.6)
    [0, 1, 2]
    >>> pung = [up(0, 0.5), up(17, 0.8), up(35, 0.4), up(65)]  # the 2nd box half over the 1st and 3rd
    >>> _second_boxes_out([0, 1, 2, 3], pung, 0.6), _second_boxes_out([0, 1, 2, 3], pung, 0.6, 0.7)
    ([1, 2, 3], [0, 2, 3])
    >>> green = TileItem(Tile.GREEN, (45, 0.0, 75, 40), 0.4)
    >>> _second_boxes_out([0, 1, 2], [up(0), green, up(60)], 0.6), _second_boxes_out([0, 1, 2], [up(0), green, up(60)], 0.6, alike=True)
    ([0, 2], [0, 1, 2])
    """
    keep = list(keep)
    while len(keep) >= 2:
        pts = _centres([items[k] for k in keep])
        apart = np.hypot(*np.diff(pts, axis=0).T) / tile_scale([items[k] for k in keep])[0]
        if straddle is not None:
            both = (np.flatnonzero((apart[:-1] < straddle) & (apart[1:] < straddle)) + 1).tolist()
            if both:
                keep.pop(min(both, key=lambda n: items[keep[n]].confidence))
                continue
        if alike:  # only a box of the same name as its neighbour is a second box of it
            apart = np.where([items[a].tile == items[b].tile for a, b in zip(keep[:-1], keep[1:], strict=True)], apart, np.inf)
        near = int(np.argmin(apart))
        if apart[near] >= share:
            break
        a, b = keep[near], keep[near + 1]
        keep.remove(a if items[a].confidence < items[b].confidence else b)
    return keep


def _melds_without_one(items: list[TileItem], turned: list[bool], inside: float | None, end_back: bool,
                       weak: float | None = None) -> tuple[list[MeldReading], TileItem] | None:
    """The melds ``items`` split wholly into without one box, and that box: a face-down box
    at one end (``end_back``: the side of the end tile boxed as a back, or the wall beside
    the meld; see ``_back_at_an_end``), or a box lying ``inside`` of its area or more over a
    neighbour's (the detector's second box of that tile), the least sure first, or any box
    less than ``weak`` sure, the least sure first. None when no such box leaves valid melds.

    >>> up = lambda t, x: TileItem(Tile.parse(t), (x, 0.0, x + 30, 40))
    >>> turned = TileItem(Tile.S8, (30.0, 5.0, 70.0, 40.0))  # a called chow's turned 8s ...
    >>> part = TileItem(Tile.S6, (45.0, 5.0, 70.0, 40.0), 0.6)  # ... boxed again in part
    >>> chow = [up("7s", 0), turned, part, up("9s", 70)]
    >>> pieces, spare = _melds_without_one(chow, [False, True, False, False], 0.6, True)
    >>> [list(map(str, m.tiles)) for m in pieces], spare is part
    ([['7s', '8s', '9s']], True)
    >>> pung = [up("5p", 0), up("5p", 30), up("5p", 60), TileItem(Tile.BACK, (90.0, 0.0, 120.0, 40.0))]
    >>> [list(map(str, m.tiles)) for m in _melds_without_one(pung, [False] * 4, 0.6, True)[0]]
    [['5p', '5p', '5p']]
    """
    if len(items) < 4:
        return None
    back = _back_at_an_end(items) if end_back else None
    spare = [0 if back is items[0] else len(items) - 1] if back is not None else []
    least_sure_first = np.argsort([i.confidence for i in items], kind="stable").tolist()
    if inside is not None:
        boxes = np.array([i.box for i in items], np.float64)
        over, area = box_intersection(boxes, boxes), _areas(items)
        spare += [k for k in least_sure_first
                  if any(over[k, j] >= inside * area[k] for j in (k - 1, k + 1) if 0 <= j < len(items))]
    if weak is not None:
        spare += [k for k in least_sure_first if items[k].confidence < weak and k not in spare]
    for k in spare:
        rest = [j for j in range(len(items)) if j != k]
        pieces = _split_melds([items[j] for j in rest], [turned[j] for j in rest])
        if all(map(_valid, pieces)):
            return pieces, items[k]
    return None


MISSED_BACK = "the camera saw no tile here: a secret's other face-down end, by the two faces beside it"


def _with_missed_back(items: list[TileItem]) -> list[TileItem]:
    """``items`` and, where they are a secret (concealed kang) but for one of its face-down ends
    (a back at one end, two faces alike, none lying across), that end: as the seen back's box
    moved to the faces' other side, unsure (confidence 0) and doubted. Backs the cloth's green
    on green cloth hide from the detector (set style 0 of the renderer lost a Visayan secret so).

    >>> up = lambda x: TileItem(Tile.M2, (x, 0.0, x + 30, 40.0), 0.9)
    >>> back = TileItem(Tile.BACK, (0.0, 0.0, 30.0, 40.0), 0.5)
    >>> kang = _with_missed_back([back, up(30), up(60)])
    >>> [str(i.tile) for i in kang], kang[-1].box, kang[-1].doubt == MISSED_BACK
    (['1x', '2m', '2m', '1x'], (90.0, 0.0, 120.0, 40.0), True)
    >>> len(_with_missed_back([back, up(30), replace(up(60), tile=Tile.M3)]))  # faces not alike: no secret
    3
    """
    if len(items) != 3 or any(i.turned for i in items) or not items[1].face_up:
        return items
    ends = [i for i in (items[0], items[2]) if not i.face_up]
    faces = [i for i in items if i.face_up]
    if len(ends) != 1 or faces[0].tile != faces[1].tile:
        return items
    back = ends[0]
    (bx, by), (fx, fy) = back.centre, np.mean([i.centre for i in faces], axis=0)
    dx, dy = 2 * float(fx - bx), 2 * float(fy - by)  # the back's centre across the faces' middle
    x1, y1, x2, y2 = back.box
    other = replace(back, box=(x1 + dx, y1 + dy, x2 + dx, y2 + dy), confidence=0.0, found=0.0,
                    doubt=MISSED_BACK, track=None, runner_up=None, runner_up_confidence=0.0)
    return [*items, other] if back is items[0] else [other, *items]


def _partitions(n: int) -> list[tuple[int, ...]]:
    """Ways to write n as a sequence of 3s and 4s (fewest pieces first)."""
    if n == 0:
        return [()]
    out = [(k, *rest) for k in (3, 4) if n - k >= 0 for rest in _partitions(n - k)]
    return sorted(out, key=len)


def _meld_reading(items: list[TileItem]) -> MeldReading:
    items = _with_missed_back(items)
    faces = [i for i in items if i.face_up]
    concealed = len(items) == 4 and not items[0].face_up and not items[-1].face_up
    concealed = concealed or (len(items) == 4 and not faces)
    called = any(i.turned for i in items)
    return MeldReading(tuple(items), called=called and not concealed, concealed=concealed)


def _valid(m: MeldReading) -> bool:
    tiles = list(m.tiles)
    if Tile.BACK in tiles:
        return m.concealed
    try:
        Meld.from_tiles(tiles)
    except InvalidHandError:
        return False
    return True


# -- a table from above -------------------------------------------------------------------------

_SIDES = ("bottom", "right", "top", "left")
_FACING = {"bottom": (0.0, -1.0), "right": (-1.0, 0.0), "top": (0.0, 1.0), "left": (1.0, 0.0)}


@dataclass(frozen=True)
class TableLayout:
    """Where the camera sees each seat: set once when the camera is placed.

    ``bottom`` is the seat at the image's bottom edge; play passes counter-clockwise
    (seen from above), so the next seat sits on the right.

    >>> TableLayout(Seat.SOUTH).side_of(Seat.WEST), TableLayout(Seat.SOUTH).seat_at("left")
    ('right', Seat.EAST)
    """

    bottom: Seat = Seat.EAST
    centre: tuple[float, float] | None = None  # the table's centre in pixels; None: the tiles' centre

    def seat_at(self, side: str) -> Seat:
        return Seat((self.bottom + _SIDES.index(side)) % 4)

    def side_of(self, seat: Seat) -> str:
        return _SIDES[(seat - self.bottom) % 4]


@dataclass(frozen=True)
class _WallsSeen:
    """Where the walls (four, or three when the detector never boxes one) stood when last seen:
    the table's centre and turn in the image, and each seen side's wall depth from the centre."""

    centre: np.ndarray
    rot: np.ndarray
    depth: dict[str, float]


@dataclass
class TableRegions:
    """Stage: detections of a whole table seen from above -> ``TableReading``.

    The walls are the long rows of face-down tiles; the discard pool is what lies
    inside them (or, with the walls gone, near the centre); each other tile belongs
    to the seat on whose side of the table it lies. In a seat's zone the outermost
    row is the standing hand (counted, its faces unseen when edge-on), the rest are
    melds and flowers. Called frame after frame from a fixed camera, it remembers where the
    four walls stood when last seen, for when the walls are drawn down (``_walls_now``).
    """

    layout: TableLayout = field(default_factory=TableLayout)
    is_bonus: Callable[[Tile], bool] = _default_is_bonus
    group_gap: float = 0.12
    wall_min: int = 5  # a run of this many face-down tiles is a wall
    pool: float = 0.42  # without walls: the pool is this fraction of the table's half-size
    # of two tiles of a seat's melds side by side whose centres lie nearer than this share of
    # their short side, the less sure is the detector's second box of one (``_second_boxes_out``);
    # so too of two of its flowers of one name (since stop 86, ``_second_flowers_out``)
    crowded: float = 0.6
    # a tile of a seat's melds whose neighbours on both sides lie nearer than this share of
    # their short side is the detector's box half over two tiles: tiles side by side lie a
    # tile apart. On the 40 still tables of ``--places --seed 200`` (447 neighbours in melds),
    # 6 boxes were so crowded, all second boxes by their names and places (a chow's tile named
    # twice side by side, a pung's fourth box)
    straddled: float | None = 0.7  # None: the pairwise rule alone (until stop 84)
    # pieces of a seat's melds this many tiles long or shorter, side by side and making a meld
    # together, are one meld (0: never): a box cut short opens a gap in a meld (``_runs``)
    mend_pieces: int = 2
    # ... and lying on one line with less than this share of their short side between their
    # boxes, or their nearest centres within a tile's length (``_side_by_side``); the renderer
    # sets melds 0.6 apart
    mend_apart: float = 0.5
    # a seat's melds and flowers are cut into groups at gaps wider than this (× tile width):
    # wider than ``group_gap``, since the detector's boxes of a meld's tiles, shorter or longer
    # than the tiles by a few pixels, opened gaps of 0.2 between touching tiles (a pung at a
    # side seat cut in two and taken for hand tiles); the renderer sets melds 0.6 apart
    meld_gap: float = 0.3
    # a tile alone among a seat's flowers, read as no flower, is its runner-up where that is a
    # flower this share as sure as its name or surer (``_misread_flower``)
    flower_runner_up: float = 0.8

    def __call__(self, dets: Detections | Sequence[TileItem], image_size: tuple[int, int] | None = None) -> TableReading:
        items = to_items(dets)
        if not items:
            return TableReading({s: SeatReading(s) for s in Seat}, image_size=image_size)
        short, long_side = tile_scale(items)
        runs = [run for row in rows_of(items) for run in row.runs(self.group_gap)]
        lines = [r for r in runs if len(r) >= self.wall_min and sum(not i.face_up for i in r.items) >= 0.8 * len(r)]
        centre, walls, hands, wall_depth = self._walls_now(items, lines, image_size, long_side)
        in_lines = {id(i) for r in lines for i in r.items}
        rest = [i for i in items if id(i) not in in_lines]
        rest = self._wall_ends(rest, walls, centre, long_side)
        rest = self._into_hands(rest, hands, short)
        discards: list[TileItem] = []
        by_seat: dict[Seat, list[TileItem]] = {s: [] for s in Seat}
        outside: list[TileItem] = []
        for i in rest:
            side, depth = self._scaled_side(i.centre, centre, wall_depth)
            edge = self._pool_edge(side, wall_depth, centre, items)
            if not i.face_up and self._by_wall(i, centre, wall_depth, long_side):
                walls.append(i)  # the last stacks of a wall, too short to be a row
            elif depth < edge - 0.25 * long_side:
                discards.append(i)
            else:
                outside.append(i)
        hand_lines = self._hand_lines(hands)
        for row in rows_of(outside):
            # cut as a seat's melds are (``meld_gap``): cut at ``group_gap``, a pung past a side
            # hand's end near a corner lost its first tile to the next seat's sector
            for run in row.runs(self.meld_gap):
                owner = self._owner(run, hand_lines, long_side)
                if owner is None:  # not ``or``: East is seat 0, and falsy
                    owner = self.layout.seat_at(self._stray_side(run, outside, centre, wall_depth, long_side))
                by_seat[owner].extend(run.items)
        seats = {s: self._seat_reading(s, by_seat[s], hands.get(s, []), centre, long_side) for s in Seat}
        return TableReading(seats, tuple(discards), tuple(walls), (), image_size)

    @property
    def walls_known(self) -> bool:
        """Whether three walls or four have been seen at once, so that where they stood is
        remembered."""
        return self._seen is not None

    def _walls_now(self, items: list[TileItem], lines: list[Row], image_size: tuple[int, int] | None,
                   long_side: float) -> tuple[np.ndarray, list[TileItem], dict[Seat, list[TileItem]], dict[str, float]]:
        """The table's centre, the walls' tiles, the standing hands' and each side's wall depth.

        Late in a hand the walls are drawn down to a few stacks, too few to make a row, and
        each side's innermost row of backs is then its standing hand: taken for the wall, it
        put every meld, flower and hand tile inside it in the discard pool (76 discards at
        once, ``benchmarks/bench_camera_referee.py``). So where all four walls stood when last
        seen is kept (the camera is fixed), and rows of backs are measured against it while
        fewer than four walls show.
        """
        self._rot = _table_rotation(lines)
        centre = self._centre(items, lines, image_size)
        walls, hands, wall_depth = self._walls_and_hands(lines, centre, long_side)
        # a wall the detector never boxes (backs the felt's colour): three are remembered, until four are seen
        enough = len(wall_depth) == 4 or (len(wall_depth) == 3 and (self._seen is None or len(self._seen.depth) == 3))
        if enough and self._same_walls(wall_depth, hands, long_side):
            self._seen = _WallsSeen(centre, self._rot, dict(wall_depth))
            return centre, walls, hands, wall_depth
        if self._seen is None:
            return centre, walls, hands, wall_depth
        self._rot, centre = self._seen.rot, self._seen.centre
        walls, hands, wall_depth = self._walls_and_hands(lines, centre, long_side, self._seen.depth)
        return centre, walls, hands, {**self._seen.depth, **wall_depth}

    def _same_walls(self, wall_depth: dict[str, float], hands: dict[Seat, list[TileItem]], long_side: float) -> bool:
        """Whether four rows taken for walls are the walls: where the walls last stood (give or
        take a tile and a half: a camera nudged), or first seen, or each with a standing hand
        behind it (a new hand's walls, wherever the camera now is)."""
        if self._seen is None or len(hands) == 4:
            return True
        return all(abs(d - self._seen.depth.get(side, d)) < 1.5 * long_side for side, d in wall_depth.items())

    def _centre(self, items: list[TileItem], lines: list[Row], image_size: tuple[int, int] | None) -> np.ndarray:
        if self.layout.centre is not None:
            return np.array(self.layout.centre, dtype=np.float64)
        src = [i for r in lines for i in r.items] if len(lines) >= 4 else items
        b = np.array([i.box for i in src])
        centre = np.array([(b[:, 0].min() + b[:, 2].max()) / 2, (b[:, 1].min() + b[:, 3].max()) / 2])
        return self._balanced(centre, lines)

    def _balanced(self, centre: np.ndarray, lines: list[Row]) -> np.ndarray:
        """``centre`` (the middle of the rows of backs) mended where a side shows none: the
        middle of the rows running the other way. A set whose backs are the felt's colour
        shows its near wall and hand as one band the detector does not box; the middle of
        the rest lay half a wall's depth off, and the side walls were taken for hands."""
        if len(lines) < 2:
            return centre
        mids = np.array([(self._rot @ (_centres(r.items).mean(0) - centre)) for r in lines])
        ways = np.abs(np.array([self._rot @ r.direction for r in lines]))
        across = ways[:, 0] >= ways[:, 1]  # rows along the table's x: the top and bottom sides
        shift = np.zeros(2)
        for axis, along_other in ((1, ~across), (0, across)):
            own = mids[~along_other, axis]  # this axis's own sides' rows (top/bottom for y)
            if len(own) and along_other.any() and (np.all(own > 0) or np.all(own < 0)):
                shift[axis] = float(mids[along_other, axis].mean())  # one side missing
        return centre + self._rot.T @ shift

    _rot: np.ndarray = field(default_factory=lambda: np.eye(2), repr=False)
    _seen: _WallsSeen | None = field(default=None, repr=False)  # the walls (three or four) when last seen

    def _local(self, c: tuple[float, float], centre: np.ndarray) -> tuple[float, float]:
        """Offset from the centre in the table's own axes (the walls' directions)."""
        d = self._rot @ (np.asarray(c, dtype=np.float64) - centre)
        return float(d[0]), float(d[1])

    def _side_depth(self, c: tuple[float, float], centre: np.ndarray) -> tuple[str, float]:
        return _sector(*self._local(c, centre))

    @staticmethod
    def _hand_lines(hands: dict[Seat, list[TileItem]]) -> dict[Seat, tuple[np.ndarray, np.ndarray]]:
        """Each seat's standing row of 3 or more: its tiles' centres and its direction, fitted
        once for every group ``_owner`` places."""
        lines = {}
        for seat, row in hands.items():
            if len(row) >= 3:
                pts = _centres(row)
                lines[seat] = (pts, _pca_direction(pts))
        return lines

    @staticmethod
    def _owner(run: Row, hand_lines: dict[Seat, tuple[np.ndarray, np.ndarray]], long_side: float) -> Seat | None:
        """The seat whose standing row (``_hand_lines``) a group lies in front of: parallel
        to it and nearest.

        Melds run past the row's ends toward the corners, where the sectors between seats
        would misjudge them; a group of two or more knows its direction, which settles it.
        """
        best, score = None, 3.0 * long_side
        pts_run = _centres(run.items)
        c = pts_run.mean(0)
        for seat, (pts, d) in hand_lines.items():
            if len(run) >= 2 and abs(float(run.direction @ d)) < 0.8:
                continue  # across this seat's row: not its group
            mid = pts.mean(0)
            half = float(np.abs((pts - mid) @ d).max()) + long_side
            rel = c - mid
            perp = abs(float(rel @ np.array([-d[1], d[0]])))
            over = max(0.0, abs(float(rel @ d)) - half)
            if perp + over < score:
                best, score = seat, perp + over
        return best

    def _wall_ends(self, rest: list[TileItem], walls: list[TileItem], centre: np.ndarray,
                   long_side: float) -> list[TileItem]:
        """Face-down tiles touching a wall, not lying outside it, are its last stacks (too few to
        make a row). A secret laid just outside a wall has its two face-down ends within a tile
        and a half of the wall's tiles too, and they were taken for the wall."""
        for _ in range(3):  # a few stacks can trail off a wall's end
            if not walls:
                return rest
            w = _centres(walls)
            joined = [i for i in rest if not i.face_up and self._trails(i, w, centre, long_side)]
            if not joined:
                break
            walls.extend(joined)
            rest = [i for i in rest if all(i is not j for j in joined)]
        return rest

    def _trails(self, item: TileItem, wall_centres: np.ndarray, centre: np.ndarray, long_side: float) -> bool:
        """Whether ``item`` touches a wall tile without lying outside that wall, farther from
        the table's centre (where a secret's face-down ends lie, laid out beyond the wall)."""
        gaps = np.hypot(*(wall_centres - np.array(item.centre)).T)
        k = int(np.argmin(gaps))
        if gaps[k] >= 1.5 * long_side:
            return False
        wall = self._rot @ (wall_centres[k] - centre)  # in the table's axes
        mine = self._rot @ (np.asarray(item.centre, dtype=np.float64) - centre)
        across = 1 if abs(wall[1]) >= abs(wall[0]) else 0  # a top or bottom wall lies across y
        return bool(abs(mine[across]) - abs(wall[across]) < 0.5 * long_side)

    def _by_wall(self, item: TileItem, centre: np.ndarray, wall_depth: dict[str, float], long_side: float) -> bool:
        """A face-down tile in line with a wall (the wall's last stacks, too few for a row)."""
        dx, dy = self._local(item.centre, centre)
        lr, tb = ("right" if dx > 0 else "left"), ("bottom" if dy > 0 else "top")
        if not wall_depth:
            return False
        square = float(np.median(list(wall_depth.values())))  # a side drawn away: the walls are a square
        for side, d, other, o in ((lr, abs(dx), tb, abs(dy)), (tb, abs(dy), lr, abs(dx))):
            if abs(d - wall_depth.get(side, square)) < 0.6 * long_side \
                    and o < wall_depth.get(other, square) + 0.6 * long_side:  # along the wall, not past its end
                return True
        return False

    def _scaled_side(self, c: tuple[float, float], centre: np.ndarray, wall_depth: dict[str, float]
                     ) -> tuple[str, float]:
        """Side and depth measured in the walls' own square: perspective makes the near side
        look bigger, so the diagonals between seats go through the walls' corners."""
        return _sector(*self._in_square(c, centre, wall_depth))

    def _in_square(self, c: tuple[float, float], centre: np.ndarray, wall_depth: dict[str, float]
                   ) -> tuple[float, float, float, float]:
        """``c``'s offset from the centre in the table's axes, and the walls' depths on its
        two sides (1 and 1 while fewer than two walls are known)."""
        dx, dy = self._local(c, centre)
        if len(wall_depth) < 2:
            return dx, dy, 1.0, 1.0
        fallback = float(np.median(list(wall_depth.values())))
        sx = wall_depth.get("right" if dx > 0 else "left", fallback)
        sy = wall_depth.get("bottom" if dy > 0 else "top", fallback)
        return dx, dy, sx, sy

    def _stray_side(self, run: Row, outside: list[TileItem], centre: np.ndarray, wall_depth: dict[str, float],
                    long_side: float) -> str:
        """The side of a group that no standing hand's row claims (``_owner``): the sector it
        lies in (``_scaled_side``), except near a corner, where a group says which way it
        faces: a seat lays its tiles in a row along its own side of the table, and a tile laid
        flat on its own lies upright in the picture at the top or bottom seat and across at a
        side seat (not so a meld's tile laid across, a group of its own beside its meld).

        Where the detector boxes no wall (backs the felt's colour) the sectors' square is a
        guess, and flowers laid past the near seat's left end were put at the side seat.
        """
        dx, dy, sx, sy = self._in_square(tuple(_centres(run.items).mean(0)), centre, wall_depth)
        side, _ = _sector(dx, dy, sx, sy)
        if not 0.8 < (abs(dx) / sx) / max(abs(dy) / sy, 1e-9) < 1.25:
            return side  # well inside a sector
        if len(run) >= 2:
            way = np.abs(self._rot @ run.direction)
            top_or_bottom, left_or_right = bool(way[0] > 0.8), bool(way[1] > 0.8)
        else:
            tile = run.items[0]
            w, h = tile.box[2] - tile.box[0], tile.box[3] - tile.box[1]
            alone = all(i is tile or math.dist(i.centre, tile.centre) > 1.5 * long_side for i in outside)
            top_or_bottom = tile.face_up and alone and h > 1.15 * w
            left_or_right = tile.face_up and alone and w > 1.15 * h
        if top_or_bottom:
            return "bottom" if dy > 0 else "top"
        if left_or_right:
            return "right" if dx > 0 else "left"
        return side

    def _walls_and_hands(self, lines: list[Row], centre: np.ndarray, long_side: float,
                         seen: dict[str, float] | None = None
                         ) -> tuple[list[TileItem], dict[Seat, list[TileItem]], dict[str, float]]:
        """Long rows of backs: on each side the innermost is the wall, one farther out is the
        standing hand seen from behind; a lone row is a hand when it lies well beyond the
        walls of the other sides or past their ends (``_lone_past_the_corners``), or
        (``seen``: each side's wall depth when last seen) beyond where its own wall stood."""
        per_side: dict[str, list[tuple[float, Row]]] = {}
        for r in lines:
            side, depth = self._side_depth(tuple(_centres(r.items).mean(0)), centre)
            per_side.setdefault(side, []).append((depth, r))
        inner = sorted(min(d for d, _ in rs) for rs in per_side.values())
        typical = inner[0] if inner else 0.0
        if seen:  # the walls drawn down, the rows left are hands: measure against the walls as seen
            typical = min(typical, *seen.values())
        wall_at = typical * 1.2 + 0.5 * long_side  # a row nearer the centre than this may be a wall
        walls: list[TileItem] = []
        hands: dict[Seat, list[TileItem]] = {}
        wall_depth: dict[str, float] = {}
        lone_hands = set() if seen else self._lone_past_the_corners(per_side, centre, wall_at, long_side)
        for side, rs in per_side.items():
            rs.sort(key=lambda t: t[0])
            for depth, r in rs:
                limit = seen[side] + 0.6 * long_side if seen and side in seen else wall_at
                is_wall = depth < limit and side not in wall_depth and side not in lone_hands
                if is_wall or (depth - wall_depth.get(side, depth)) < 0.6 * long_side and side in wall_depth:
                    walls.extend(r.items)
                    wall_depth.setdefault(side, depth)
                else:
                    hands.setdefault(self.layout.seat_at(side), []).extend(r.items)
        return walls, hands, wall_depth

    def _lone_past_the_corners(self, per_side: dict[str, list[tuple[float, Row]]], centre: np.ndarray,
                               wall_at: float, long_side: float) -> set[str]:
        """Sides whose only row of backs lies past the ends of every neighbouring side's wall
        seen, by two tiles or more: the walls make a square, each reaching its neighbours'
        ends, so such a row is the standing hand (its wall unboxed: backs the felt's colour).

        The far side's hand seen from behind lies nearer the centre in the picture than the
        side walls do, and was taken for its wall: the flowers beside it were then put at
        the next seat. Walls drawn short at that end mislead only where one neighbouring wall
        is seen: the tiles are drawn in one run, so both neighbours drawn short there means
        this side's wall is gone, and its lone row is the hand. Once three walls or four have
        been seen at once (``_seen``) their places decide instead.
        """
        out: set[str] = set()
        for side, rs in per_side.items():
            if len(rs) != 1 or rs[0][0] >= wall_at:
                continue  # a hand already, or a wall with its hand beyond it
            axis = 1 if side in ("top", "bottom") else 0
            sign = 1.0 if side in ("bottom", "right") else -1.0
            reaches = []
            for other, ors in per_side.items():
                if _SIDES.index(other) % 2 == _SIDES.index(side) % 2:
                    continue  # this side or its opposite
                depth, wall = min(ors, key=lambda t: t[0])  # the neighbour's innermost row
                if depth >= wall_at:
                    continue  # a hand: no wall seen there
                local = (_centres(wall.items) - centre) @ self._rot.T
                reaches.append(float((sign * local[:, axis]).max()))
            if reaches and rs[0][0] > max(reaches) + 2.0 * long_side:
                out.add(side)
        return out

    @staticmethod
    def _into_hands(rest: list[TileItem], hands: dict[Seat, list[TileItem]], short: float) -> list[TileItem]:
        """Tiles in line with a standing hand's row, between its tiles or touching its ends,
        join it: seen edge-on, some of its tiles show a sliver of face that the reader names
        (say, a wind, which would pass for a flower laid out). Returns the tiles left."""
        left = list(rest)
        for row in hands.values():
            c = _centres(row)
            if len(c) < 2:
                continue
            # along the row's own line: a side seat's row runs askew in the picture, and its far
            # end strayed from the row's median column (three of a Singaporean hand read as a meld)
            origin, d = c.mean(0), _pca_direction(c)
            along = (c - origin) @ d
            lo, hi = float(along.min()), float(along.max())
            grew = True
            while grew:  # take the row's next tile at either end, one at a time
                grew = False
                for item in list(left):
                    off = np.asarray(item.centre) - origin
                    at, across = float(off @ d), abs(float(off[0] * d[1] - off[1] * d[0]))
                    if across < 0.35 * short and lo - 1.4 * short <= at <= hi + 1.4 * short:
                        row.append(item)
                        left.remove(item)
                        lo, hi, grew = min(lo, at), max(hi, at), True
        return left

    def _pool_edge(self, side: str, wall_depth: dict[str, float], centre: np.ndarray,
                   items: list[TileItem]) -> float:
        if side in wall_depth:
            return wall_depth[side]
        if wall_depth:
            return float(np.median(list(wall_depth.values())))
        b = np.array([i.box for i in items])
        half = max(b[:, 2].max() - centre[0], centre[0] - b[:, 0].min(),
                   b[:, 3].max() - centre[1], centre[1] - b[:, 1].min())
        return float(half) * self.pool

    def _seat(self, c: tuple[float, float], centre: np.ndarray) -> Seat:
        return self.layout.seat_at(self._side_depth(c, centre)[0])

    def _seat_reading(self, seat: Seat, items: list[TileItem], hand_rows: list[TileItem], centre: np.ndarray,
                      long_side: float) -> SeatReading:
        fx, fy = self._rot.T @ np.array(_FACING[self.layout.side_of(seat)])  # back to image axes
        right = np.array([-fy, fx])  # the player's right hand, seen from above
        toward = -np.array([fx, fy])  # from the centre toward the player
        hand = list(hand_rows)
        front = list(items)
        if not hand and items:
            # no row of backs: the standing hand shows its faces (it faces the camera):
            # the outermost band of tiles, one tile deep
            depth = (_centres(items) - centre) @ toward
            outer = depth > depth.max() - 0.6 * long_side
            hand = [i for i, o in zip(items, outer, strict=True) if o and not self.is_bonus(i.tile)]
            front = [i for i, o in zip(items, outer, strict=True) if not (o and not self.is_bonus(i.tile))]
        melds: list[MeldReading] = []
        flowers: list[TileItem] = []
        for row in rows_of(front):
            row = Row.build(row.items, right)  # the seat's own left-to-right
            for run in self._runs(row, right):
                bonus = [k for k, i in enumerate(run.items) if _laid_aside(i, self.is_bonus)]
                flowers.extend(run.items[k] for k in self._second_flowers_out(bonus, run.items))
                turned = run.turned()
                keep = _second_boxes_out([k for k in range(len(run)) if k not in bonus], run.items, self.crowded,
                                         self.straddled)
                if len(keep) >= 3:
                    melds.extend(_split_melds([run.items[k] for k in keep], [bool(turned[k]) for k in keep]))
                    continue
                for k in keep:  # stragglers: most likely the hand's, or a flower misread among flowers
                    flower = self._misread_flower(run.items[k]) if bonus else None
                    if flower is None:
                        hand.append(run.items[k])
                    else:
                        flowers.append(flower)
        hand.sort(key=lambda i: float(np.array(i.centre) @ right))
        return SeatReading(seat, tuple(hand), tuple(melds), tuple(flowers))

    def _second_flowers_out(self, bonus: list[int], items: Sequence[TileItem]) -> list[int]:
        """``bonus`` (indices of a run's flowers, in order) without the detector's second boxes:
        one crowded on both sides (``straddled``), and of two of one name nearer than
        ``crowded``, the less sure. Filipino North's blank White dragon, its column slid along
        for a pung, was boxed half over the South wind beside it, read as a second South wind
        and heard as a flower laid (set style 12, seed 2, action 30). Two of any name so near
        are not always one tile: a side seat's flower column lies 0.75 of a short side apart,
        and its boxes wander (on the 40 still tables of ``--places --seed 200``, any name lost 5
        flowers, one name none)."""
        return _second_boxes_out(bonus, items, self.crowded, self.straddled, alike=True)

    def _runs(self, row: Row, right: np.ndarray) -> list[Row]:
        """``row`` cut into its melds and flowers at gaps over ``meld_gap``, two pieces of
        ``mend_pieces`` tiles or fewer side by side, no flower among them, that make a meld
        together joined again: Visayan North's chow of 789p, its turned 7p boxed a third
        short, was cut from the 8p and 9p, and the three were taken for hand tiles (set style
        5, seed 5, action 33)."""
        runs = row.runs(self.meld_gap)
        plain = [r for r in runs if not any(_laid_aside(i, self.is_bonus) for i in r.items)]
        mended = mend_melds(plain, right, apart=self.mend_apart, most=self.mend_pieces)
        rest = [r for r in runs if not any(r is p for p in plain)]
        return sorted([*rest, *mended], key=lambda r: float(r.proj.mean()))

    def _misread_flower(self, item: TileItem) -> TileItem | None:
        """``item``, a tile alone among a seat's flowers and read as no flower, named by its
        runner-up where that is a flower read ``flower_runner_up`` as sure as its name or
        surer (None where not). Filipino West's Plum, its box cut short at first, was read
        as 1s (0.45 sure; the Plum 0.41) for 25 frames, taken for a hand tile, and heard
        after the Autumn laid next (set style 5, seed 0, action 20)."""
        second = item.runner_up
        if not item.face_up or second is None or not self.is_bonus(second) or \
                item.runner_up_confidence < max(RUNNER_UP_FLOOR, self.flower_runner_up * item.confidence):
            return None
        return item.by_runner_up(f"read as {item.tile} ({item.confidence:.2f} sure) among flowers; "
                                 f"{second}, its runner-up, is one")


@dataclass
class SteadyRegions:
    """Stage for live video: ``TableRegions`` worked out again only when the steady tiles change.

    Between two moves a fixed camera shows the same tiles in the same places, and finding
    rows, walls and seats took 34 of the ~115 ms a 134-tile table frame cost
    (``benchmarks/bench_live.py``). A reading is kept while every tile is the same track
    with the same name, lying within ``moved`` of its short side of where it lay when the
    regions were worked out; each of its items then takes this frame's box and confidence.

    >>> it = lambda x, track: TileItem(Tile.M1, (x, 0.0, x + 10, 14.0), 0.9, track=track)
    >>> stage = SteadyRegions(TableRegions())
    >>> first = stage([it(0, 1), it(50, 2)], (100, 100))
    >>> again = stage([it(0.5, 1), it(50, 2)], (100, 100))
    >>> stage.worked_out, sorted(i.box[0] for i, *_ in again.items())
    (1, [0.5, 50])
    """

    regions: TableRegions
    moved: float = 0.1
    worked_out: int = 0  # readings computed afresh (the rest were kept)
    _key: tuple[Any, ...] | None = None
    _boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    _reading: TableReading | None = None

    def __call__(self, items: Sequence[TileItem], image_size: tuple[int, int] | None = None) -> TableReading:
        key = (image_size, tuple((i.track, i.tile) for i in items))
        boxes = np.array([i.box for i in items], dtype=np.float64).reshape(-1, 4)
        if self._reading is not None and key == self._key and self._still(boxes):
            now = {i.track: i for i in items}

            def refresh(old: TileItem) -> TileItem:
                new = now.get(old.track)
                return old if new is None else replace(old, box=new.box, confidence=new.confidence, found=new.found)

            return self._reading.map_items(refresh)
        reading = self.regions(items, image_size)
        self.worked_out += 1
        tracked = all(i.track is not None for i in items)
        self._key, self._boxes, self._reading = (key, boxes, reading) if tracked else (None, boxes, None)
        return reading

    def _still(self, boxes: np.ndarray) -> bool:
        if not len(boxes):
            return True
        short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        return bool((np.abs(boxes - self._boxes).max(1) <= self.moved * short).all())


def _sector(dx: float, dy: float, sx: float = 1.0, sy: float = 1.0) -> tuple[str, float]:
    """The side of the table an offset (``dx``, ``dy``, in the table's axes) lies toward, and
    its depth there: the diagonals between sides go through the corners of a ``sx`` × ``sy``
    square (each side's wall depth).

    >>> _sector(-30.0, 20.0), _sector(-30.0, 20.0, 40.0, 20.0)
    (('left', 30.0), ('bottom', 20.0))
    """
    if abs(dx) / sx > abs(dy) / sy:
        return ("right" if dx > 0 else "left"), abs(dx)
    return ("bottom" if dy > 0 else "top"), abs(dy)


def _table_rotation(lines: list[Row]) -> np.ndarray:
    """The rotation taking image axes to the table's: the walls' mean direction modulo 90°
    (a camera turned a little around the table), from the longest rows of backs."""
    if not lines:
        return np.eye(2)
    angles = np.array([math.atan2(r.direction[1], r.direction[0]) for r in lines])
    weights = np.array([len(r) for r in lines], dtype=np.float64)
    four = np.angle(np.sum(weights * np.exp(4j * angles))) / 4  # 4θ folds the four walls together
    c, s = math.cos(-four), math.sin(-four)
    return np.array([[c, -s], [s, c]])


def _edge_on(run: Row, short: float) -> bool:
    """Standing tiles seen from above show only their top edge: very thin boxes."""
    return bool(np.median(run.across) < 0.55 * short)


def _inside(c: tuple[float, float], b: tuple[float, float, float, float]) -> bool:
    return b[0] < c[0] < b[2] and b[1] < c[1] < b[3]


def describe(reading: Any) -> str:
    """One line per region, for logs and the CLI."""
    if isinstance(reading, HandReading):
        parts = [" ".join(str(i.tile) for i in reading.concealed)]
        parts += ["[" + " ".join(str(t) for t in m.tiles) + "]" for m in reading.melds]
        if reading.flowers:
            parts.append("/ " + " ".join(str(i.tile) for i in reading.flowers))
        return " ".join(parts)
    return repr(reading)
