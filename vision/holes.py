"""Tiles the detector missed in a row: a tile's width of face between two face-up tiles.

The detector misses a tile most where it shows least: the blank White dragon, a face as pale
as its tile, is a third of the face-up tiles a live table leaves unboxed. Such a tile lies in a
row between two it did box, one tile apart with nothing boxed between them, and where the
middle of that gap has the colour of their faces, not of the felt, it is a tile too.

>>> import numpy as np
>>> image = np.full((60, 200, 3), (40, 120, 40), np.uint8)  # green felt
>>> image[10:50, 20:110] = (220, 235, 240)  # three ivory tiles in a row, the middle one unboxed
>>> boxes = np.array([[20, 10, 50, 50], [80, 10, 110, 50]], np.float32)
>>> RowHoles()(image, boxes).round().tolist()
[[50.0, 10.0, 80.0, 50.0]]
>>> image[10:50, 50:80] = (40, 120, 40)  # felt between them: no tile
>>> len(RowHoles()(image, boxes))
0
>>> image[:] = (225, 235, 240); len(RowHoles()(image, boxes))  # a white cloth: nothing to tell
0
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["RowHoles"]

# float Lab (L 0-100, a and b about -127-127) on the 8-bit scale, as OpenCV writes it
_LAB_SCALE = np.array([255 / 100, 1, 1], np.float32)
_LAB_SHIFT = np.array([0, 128, 128], np.float32)
CLOTH_STEP = 16  # the picture's colour is the median of every 16th pixel down and across


@dataclass(frozen=True)
class RowHoles:
    """Stage: a frame and its face-up boxes -> boxes of tiles missed between them.

    Two face-up boxes of about one size (within ``alike``; or one lying across, its width the
    other's height) lying in one row (their centres within ``in_line`` of a tile's height
    across it) ``gap`` tile widths apart, with no box (``others``, face-down ones too)
    centred between them, leave a hole; it is a tile when the middle of the hole is within
    ``face_lab`` (CIE Lab, 0-255 scale) of a neighbour's face and 1.5 times that from the
    cloth, whose colour is the picture's median (on a cloth as pale as the tiles, a gap where
    a discard was claimed would look like a tile: none is found).

    On the last tables of 40 bot-played hands (seeds 200-209, ``bench_camera_referee.py``) the
    pairs of the live reader's boxes made 248 holes, 29 of them over missed tiles; ``face_lab``
    was read off them. With it, 21 holes are kept there, each a missed tile (10 White
    dragons); on seeds 120-129, 16, of which 15 missed tiles and one a tile's box 0.42 off.
    """

    gap: tuple[float, float] = (1.75, 2.4)
    in_line: float = 0.35
    alike: float = 0.3
    face_lab: float = 25.0
    middle: float = 0.3  # the half-size share of a box whose colour is its face's

    def __post_init__(self) -> None:
        # OpenCV builds its Lab tables on the first conversion (a third of a second on this
        # machine): here, not on a live frame, which a camera would drop meanwhile
        _lab(np.zeros((1, 3), np.float32))

    def __call__(self, image: np.ndarray, boxes: np.ndarray, others: np.ndarray | None = None) -> np.ndarray:
        holes = self._holes(np.asarray(boxes, np.float32), others)
        if not len(holes):
            return np.zeros((0, 4), np.float32)
        found = np.array([hole for hole, _, _ in holes], np.float32)
        left = np.array([a for _, a, _ in holes], np.float32)
        right = np.array([b for _, _, b in holes], np.float32)
        lab = self._colours(image, np.stack([found, left, right], 1).reshape(-1, 4)).reshape(len(found), 3, 3)
        # the cloth's colour is the picture's: a camera over the table sees mostly cloth
        cloth = _lab(np.median(image[::CLOTH_STEP, ::CLOTH_STEP].reshape(-1, 3), 0)[None])[0]
        return np.asarray(found[self._faces(lab, cloth)], np.float32)

    def _holes(self, boxes: np.ndarray, others: np.ndarray | None) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Each hole's box and its two neighbours' boxes."""
        if len(boxes) < 2:
            return []
        c = (boxes[:, :2] + boxes[:, 2:]) / 2
        size = boxes[:, 2:] - boxes[:, :2]
        mean = (size[None] + size[:, None]) / 2  # (i, j, [w, h])
        every = boxes if others is None or not len(others) else np.concatenate([boxes, np.asarray(others, np.float32)])
        centres = (every[:, :2] + every[:, 2:]) / 2
        holes: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for i, j, axis, straight in self._pairs(c, size, mean):
            mid, half = (c[i] + c[j]) / 2, mean[i, j] / 2
            if (np.abs(centres - mid) < half).all(1).any():
                continue  # something lies there already
            if any((np.abs((h[:2] + h[2:]) / 2 - mid) < half).all() for h, _, _ in holes):
                continue  # the same hole from another pair
            hole = np.concatenate([mid - half, mid + half]) if straight else _beside_one_across(boxes[i], boxes[j], axis)
            holes.append((hole, boxes[i], boxes[j]))
        return holes

    def _pairs(self, c: np.ndarray, size: np.ndarray, mean: np.ndarray) -> list[tuple[int, int, int, bool]]:
        """Pairs of boxes (their centres ``c``, sizes and pairwise mean sizes) with room for
        one tile between them in their row: (i, j, the row's axis (0: x), whether the two are
        of one size, not one lying across the row)."""
        d = np.abs(c[None] - c[:, None])
        lo, hi = self.gap
        in_line = d[..., ::-1] < self.in_line * mean[..., ::-1]  # per axis: across that axis, in line
        straight = (np.abs(size[None] - size[:, None]) < self.alike * mean).all(-1)
        rows = (d > lo * mean) & (d < hi * mean) & in_line
        # or one lying across the row: a pung's called tile beside the middle tile missed
        # (Singaporean North's 9m pung, its middle tile unboxed for 60 frames); room for the one
        # standing between their facing ends
        crossed = (np.abs(size[None] - size[:, None, ::-1]) < self.alike * (size[None] + size[:, None, ::-1]) / 2).all(-1)
        standing = np.minimum(size[None], size[:, None])
        rows_across = (d - mean > (lo - 1) * standing) & (d - mean < (hi - 1) * standing) & in_line
        found = (straight[..., None] & rows) | ((crossed & ~straight)[..., None] & rows_across)
        pairs = [(int(i), int(j), int(axis), bool(straight[i, j]))
                 for i, j, axis in zip(*np.nonzero(found), strict=True) if i < j]
        return sorted(pairs, key=lambda p: not p[3])  # the pairs of one size first, as before

    def _faces(self, lab: np.ndarray, cloth: np.ndarray) -> np.ndarray:
        """Which holes are tiles, from the (N, 3, 3) Lab colours of their middles and their two
        neighbours' (NaN off the image), and the cloth's: a hole whose middle is within
        ``face_lab`` of a neighbour's face and 1.5 times that from the cloth."""
        to_face = np.nan_to_num(np.linalg.norm(lab[:, 1:] - lab[:, :1], axis=2), nan=np.inf)  # (N, 2)
        to_cloth = np.nan_to_num(np.linalg.norm(lab[:, 0] - cloth, axis=1), nan=0.0)
        return np.asarray((to_face.min(1) < self.face_lab) & (to_cloth >= 1.5 * self.face_lab), bool)

    def _colours(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The Lab colour (8-bit scale) of the median of the middle of each box; NaN where it
        lies off the image. The medians first, then converted all at once: converting each
        patch cost ten times its median."""
        h, w = image.shape[:2]
        mid, half = (boxes[:, :2] + boxes[:, 2:]) / 2, (boxes[:, 2:] - boxes[:, :2]) * self.middle
        lo = np.floor(np.maximum(mid - half, 0)).astype(int)
        hi = np.minimum(mid + half, [w, h]).astype(int)
        bgr = np.full((len(boxes), 3), np.nan, np.float32)
        for k, ((x0, y0), (x1, y1)) in enumerate(zip(lo, hi, strict=True)):
            if x1 > x0 and y1 > y0:
                bgr[k] = np.median(image[y0:y1, x0:x1].reshape(-1, 3), 0)
        seen = ~np.isnan(bgr[:, 0])
        lab = np.full_like(bgr, np.nan)
        if seen.any():
            lab[seen] = _lab(bgr[seen])
        return lab


def _beside_one_across(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
    """The hole between boxes ``a`` and ``b`` of a row along ``axis`` (0: x), one of them
    lying across it: from the end of one to the start of the other, as wide as the one
    standing (the shorter along the row)."""
    first, second = (a, b) if a[axis] <= b[axis] else (b, a)
    standing = a if a[axis + 2] - a[axis] <= b[axis + 2] - b[axis] else b
    hole = standing.copy()
    hole[axis], hole[axis + 2] = first[axis + 2], max(second[axis], first[axis + 2])
    return hole


def _lab(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) BGR colours (0-255) in CIE Lab on OpenCV's 8-bit scale, unrounded."""
    lab = cv2.cvtColor((np.asarray(bgr, np.float32) / 255)[:, None], cv2.COLOR_BGR2LAB)[:, 0]
    return np.asarray(lab * _LAB_SCALE + _LAB_SHIFT, np.float32)
