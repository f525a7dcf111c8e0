"""Tiles the detector boxed as two pieces: a piece of a tile overlapping the box of the rest.

The detector most often cuts a tile in two where it lies across a row: a called tile laid
sideways in a meld. Visayan East's called 2m (46 x 34 px at the near seat) came out as a
25 x 30 box over its left end, read 2s, and a 34 x 34 box over the rest, read 1m (one stroke
of 二 cut off), and the chow never reached the referee. Two real tiles side by side never lie
over each other by much, and a piece is smaller than any tile near it, so a box under
``piece`` of its neighbours' size lying ``overlap`` of its length over the box beside it, the
two together the size and shape of a tile lying across, is taken for one tile boxed whole.

>>> boxes = np.array([[553, 870, 597, 906], [597, 864, 630, 905], [630, 864, 666, 907],  # a pung
...                   [679, 874, 704, 904], [696, 872, 730, 906],  # a called 2m, in two pieces
...                   [728, 865, 760, 905], [758, 862, 793, 909]], np.float32)
>>> pairs = TilePieces()(boxes)
>>> pairs.tolist(), joined(boxes, pairs).tolist()
([[3, 4]], [[679.0, 872.0, 730.0, 906.0]])
>>> len(TilePieces()(boxes[[0, 1, 2, 4, 5, 6]]))  # no piece: nothing joined
0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detections import box_area

__all__ = ["TilePieces", "joined"]


@dataclass(frozen=True)
class TilePieces:
    """Stage: face-up boxes -> the pairs of them that are one tile's two pieces.

    A box is a piece when its area is under ``piece`` of the median area of its ``near``
    nearest boxes. A piece and the box beside it in its row (lying over each other along the
    row by ``overlap`` or more of the piece's length, and across it by ``in_line`` of the
    shorter's width) are one tile when their union is a tile lying across: its long side
    ``across`` times its short side, its area ``size`` times the neighbours' median, and no
    other box centred inside it.
    """

    piece: float = 0.65
    overlap: float = 0.25
    in_line: float = 0.7
    across: tuple[float, float] = (1.25, 1.65)
    size: tuple[float, float] = (0.8, 1.5)
    near: int = 6

    def __call__(self, boxes: np.ndarray) -> np.ndarray:
        """(K, 2) indices of ``boxes``: each pair the two pieces of one tile."""
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        pairs: list[tuple[int, int]] = []
        if len(boxes) <= self.near:
            return np.zeros((0, 2), np.int64)
        free = np.ones(len(boxes), bool)
        area = box_area(boxes)
        centre = (boxes[:, :2] + boxes[:, 2:]) / 2
        dist = np.linalg.norm(centre[:, None] - centre[None], axis=2)
        np.fill_diagonal(dist, np.inf)
        nearest = np.argsort(dist, axis=1)[:, :self.near]
        typical = np.median(area[nearest], axis=1)
        for i in map(int, np.flatnonzero(area < self.piece * typical)):
            j = self._joined(boxes, i, nearest[i], free) if free[i] else None
            if j is None:
                continue
            union = joined(boxes, np.array([[i, j]]))[0]
            if self._a_tile_across(union, typical[i]) and not self._holds_another(union, centre, (i, j)):
                free[i] = free[j] = False
                pairs.append((i, j))
        return np.array(pairs, np.int64).reshape(-1, 2)

    def _joined(self, boxes: np.ndarray, i: int, near: np.ndarray, free: np.ndarray) -> int | None:
        """The box beside piece ``i`` in its row that it lies over (the nearest such), if any."""
        a = boxes[i]
        for j in near:
            if not free[j]:
                continue
            b = boxes[j]
            over = np.minimum(a[2:], b[2:]) - np.maximum(a[:2], b[:2])  # (x, y) extent of the overlap
            length = a[2:] - a[:2]
            width = np.minimum(length, b[2:] - b[:2])
            for along, other in ((0, 1), (1, 0)):
                if over[along] >= self.overlap * length[along] and over[other] >= self.in_line * width[other]:
                    return int(j)
        return None

    def _a_tile_across(self, union: np.ndarray, typical: float) -> bool:
        w, h = union[2:] - union[:2]
        ratio = max(w, h) / max(min(w, h), 1e-6)
        lo, hi = self.across
        small, large = self.size
        return bool(lo <= ratio <= hi and small * typical <= w * h <= large * typical)

    @staticmethod
    def _holds_another(union: np.ndarray, centre: np.ndarray, pair: tuple[int, int]) -> bool:
        inside = np.all((centre >= union[:2]) & (centre <= union[2:]), axis=1)
        inside[list(pair)] = False
        return bool(inside.any())


def joined(boxes: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """(K, 4) the box around each pair of ``boxes``."""
    a, b = np.asarray(boxes, np.float32)[pairs[:, 0]], np.asarray(boxes, np.float32)[pairs[:, 1]]
    return np.concatenate([np.minimum(a[:, :2], b[:, :2]), np.maximum(a[:, 2:], b[:, 2:])], axis=1).reshape(-1, 4)
