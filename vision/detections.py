"""A supervision-style set of detections: parallel numpy arrays, indexable by masks and slices.

>>> d = Detections(
...     xyxy=np.array([[0, 0, 10, 20], [30, 0, 40, 20]], dtype=np.float32),
...     confidence=np.array([0.9, 0.4], dtype=np.float32),
...     face_up=np.array([True, False]),
... )
>>> len(d), d.tiles
(2, [None, None])
>>> d2 = d.with_codes(np.array([4, 63]), np.array([0.99, 1.0]))
>>> [str(t) for t in d2.tiles]
['5m', '1x']
>>> len(d2[d2.confidence > 0.5]), d2[1:].xyxy.tolist()
(1, [[30.0, 0.0, 40.0, 20.0]])
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from engine.tiles import Tile

__all__ = ["Detections", "UNKNOWN", "box_iou", "box_area", "box_intersection", "match"]

UNKNOWN = -1  # tile code not (yet) known


def _f32(n: int) -> np.ndarray:
    return np.zeros((n,), dtype=np.float32)


@dataclass(frozen=True)
class Detections:
    """N tiles found in one image.

    ``xyxy`` (N, 4) float32 pixel boxes of the input image; ``confidence`` (N,) of the
    detector; ``face_up`` (N,) bool; ``code`` (N,) int tile codes (``UNKNOWN`` = -1 until
    classified); ``code_confidence`` (N,) of the classifier. The readers also give each
    tile's ``runner_up`` (N,) code, the name it would have if not its own (``UNKNOWN``: none),
    with ``runner_up_confidence`` (N,): a meld group whose tiles make none may be one by it
    (``vision.readings.MeldReading.to_meld``).
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    face_up: np.ndarray
    code: np.ndarray = field(default_factory=lambda: np.zeros((0,), dtype=np.int64))
    code_confidence: np.ndarray = field(default_factory=lambda: _f32(0))
    runner_up: np.ndarray = field(default_factory=lambda: np.zeros((0,), dtype=np.int64))
    runner_up_confidence: np.ndarray = field(default_factory=lambda: _f32(0))

    def __post_init__(self) -> None:
        n = len(self.xyxy)
        object.__setattr__(self, "xyxy", np.asarray(self.xyxy, dtype=np.float32).reshape(n, 4))
        object.__setattr__(self, "confidence", np.asarray(self.confidence, dtype=np.float32))
        object.__setattr__(self, "face_up", np.asarray(self.face_up, dtype=bool))
        for codes, confs in (("code", "code_confidence"), ("runner_up", "runner_up_confidence")):
            if len(getattr(self, codes)) != n:
                object.__setattr__(self, codes, np.full((n,), UNKNOWN, dtype=np.int64))
            if len(getattr(self, confs)) != n:
                object.__setattr__(self, confs, _f32(n))
        for name in ("confidence", "face_up", "code", "code_confidence", "runner_up", "runner_up_confidence"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} has {len(getattr(self, name))} entries, xyxy has {n}")

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4), np.float32), _f32(0), np.zeros((0,), bool))

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: Any) -> Detections:
        if isinstance(index, int | np.integer):
            index = slice(int(index), int(index) + 1 or None)
        return Detections(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    def with_codes(self, code: np.ndarray, code_confidence: np.ndarray) -> Detections:
        """A copy carrying the classifier's tile codes."""
        return replace(
            self,
            code=np.asarray(code, dtype=np.int64),
            code_confidence=np.asarray(code_confidence, dtype=np.float32),
        )

    def with_runner_up(self, code: np.ndarray, confidence: np.ndarray) -> Detections:
        """A copy carrying each tile's next likeliest name (``UNKNOWN``: none) and its confidence.

        >>> d = Detections(np.zeros((1, 4)), np.ones(1), np.ones(1, bool)).with_codes(np.array([23]), np.array([.9]))
        >>> str(Tile(int(d.with_runner_up(np.array([21]), np.array([.08]))[0].runner_up[0])))
        '4s'
        """
        return replace(
            self,
            runner_up=np.asarray(code, dtype=np.int64),
            runner_up_confidence=np.asarray(confidence, dtype=np.float32),
        )

    def with_face_up_names(self, codes: np.ndarray, confidences: np.ndarray) -> Detections:
        """A copy whose face-up tiles, in their order, are named by ``codes`` (M, k), likeliest
        first, with ``confidences`` (M, k): the first the name, the second (if any) the
        runner-up. A face-down tile is ``Tile.BACK``, surely, with no runner-up.

        >>> d = Detections(np.zeros((2, 4)), np.ones(2), np.array([False, True]))
        >>> n = d.with_face_up_names(np.array([[23, 21]]), np.array([[.9, .08]]))
        >>> [str(t) for t in n.tiles], [round(float(c), 2) for c in n.code_confidence], n.runner_up.tolist()
        (['1x', '6s'], [1.0, 0.9], [-1, 21])
        """
        n = len(self)
        code = np.full((n, 2), UNKNOWN, np.int64)
        code[:, 0] = int(Tile.BACK)
        conf = np.zeros((n, 2), np.float32)
        conf[:, 0] = 1.0
        up = np.flatnonzero(self.face_up)
        k = min(2, np.shape(codes)[1]) if len(up) else 0
        code[up, :k], conf[up, :k] = np.asarray(codes)[:, :k], np.asarray(confidences)[:, :k]
        return self.with_codes(code[:, 0], conf[:, 0]).with_runner_up(code[:, 1], conf[:, 1])

    def scaled(self, sx: float, sy: float) -> Detections:
        """A copy with the boxes in pixels ``sx`` × ``sy`` as large (a photo decoded at a
        fraction of its size, boxes given back in its own pixels).

        >>> Detections(np.array([[1, 2, 3, 4.]]), np.ones(1), np.ones(1, bool)).scaled(2, 3).xyxy.tolist()
        [[2.0, 6.0, 6.0, 12.0]]
        """
        factor = np.array([sx, sy, sx, sy], np.float32)
        return replace(self, xyxy=(self.xyxy * factor).astype(np.float32))

    def moved(self, dx: float, dy: float) -> Detections:
        """A copy with the boxes ``dx``, ``dy`` pixels further right and down (boxes found in
        a part cut out of a picture, given back in the picture's own pixels).

        >>> Detections(np.array([[1, 2, 3, 4.]]), np.ones(1), np.ones(1, bool)).moved(10, 20).xyxy.tolist()
        [[11.0, 22.0, 13.0, 24.0]]
        """
        return replace(self, xyxy=(self.xyxy + np.array([dx, dy, dx, dy], np.float32)).astype(np.float32))

    @classmethod
    def concat(cls, parts: list[Detections]) -> Detections:
        """The detections of ``parts`` together, in order.

        >>> one = Detections(np.array([[0, 0, 1, 1.]]), np.ones(1), np.ones(1, bool))
        >>> len(Detections.concat([one, one, Detections.empty()]))
        2
        """
        if not parts:
            return cls.empty()
        return cls(**{f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)})

    @property
    def tiles(self) -> list[Tile | None]:
        return [Tile(int(c)) if c >= 0 else None for c in self.code]

    def to_json(self) -> list[dict[str, Any]]:
        """One dict per tile: box [x1, y1, x2, y2], tile code, confidence, face, and where the
        reader gave one, the ``runner_up`` name with its ``runner_up_confidence``.

        >>> d = Detections(np.array([[0, 0, 20, 28.]]), np.array([.8]), np.ones(1, bool))
        >>> d.with_face_up_names(np.array([[23, 21]]), np.array([[.9, .08]])).to_json()  # doctest: +NORMALIZE_WHITESPACE
        [{'box': [0.0, 0.0, 20.0, 28.0], 'tile': '6s', 'confidence': 0.8, 'tile_confidence': 0.9, 'face': 'up',
          'runner_up': '4s', 'runner_up_confidence': 0.08}]
        """
        out = []
        for i in range(len(self)):
            c, r = int(self.code[i]), int(self.runner_up[i])
            row = {
                "box": [round(float(v), 1) for v in self.xyxy[i]],
                "tile": str(Tile(c)) if c >= 0 else None,
                "confidence": round(float(self.confidence[i]), 4),
                "tile_confidence": round(float(self.code_confidence[i]), 4),
                "face": "up" if self.face_up[i] else "down",
            }
            if r >= 0:
                row.update(runner_up=str(Tile(r)), runner_up_confidence=round(float(self.runner_up_confidence[i]), 4))
            out.append(row)
        return out

    def sorted_left_to_right(self) -> Detections:
        return self[np.argsort((self.xyxy[:, 0] + self.xyxy[:, 2]) / 2, kind="stable")]


def box_iou(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """IoU of every box in ``a`` (N, 4) with every box in ``b`` (M, 4), xyxy; a box with
    no area overlaps nothing.

    >>> box_iou(np.array([[0, 0, 10, 10.]]), np.array([[5, 0, 15, 10.], [20, 20, 30, 30]])).round(3).tolist()
    [[0.333, 0.0]]
    >>> box_iou([0, 0, 10, 10], np.zeros((0, 4))).shape
    (1, 0)
    """
    a, b = np.asarray(a).reshape(-1, 4), np.asarray(b).reshape(-1, 4)
    inter = box_intersection(a, b)
    iou: np.ndarray = inter / np.maximum(box_area(a)[:, None] + box_area(b)[None, :] - inter, 1e-9)
    return iou


def box_area(a: np.ndarray) -> np.ndarray:
    """(N,) areas of (N,4) xyxy boxes; an inverted box has none."""
    out: np.ndarray = np.clip(a[:, 2:] - a[:, :2], 0, None).prod(-1)
    return out


def box_intersection(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M) overlap areas of (N,4) and (M,4) xyxy boxes."""
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    out: np.ndarray = np.clip(rb - lt, 0, None).prod(-1)
    return out


def box_cover(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M) share of each box of ``a`` (N,4) that each box of ``b`` (M,4) covers, xyxy.

    >>> box_cover(np.array([[0, 0, 10, 10.]]), np.array([[5, 0, 15, 10.]])).tolist()
    [[0.5]]
    """
    out: np.ndarray = box_intersection(a, b) / np.maximum(box_area(a), 1e-9)[:, None]
    return out


def match(gt: np.ndarray, pred: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """Greedy one-to-one matching by IoU (at least ``iou``, the most overlapping pairs
    first): ``m[i]`` = the index of the box of ``pred`` matched to box ``i`` of ``gt``, or -1.

    >>> match(np.array([[0, 0, 10, 10.], [20, 0, 30, 10]]), np.array([[21, 0, 30, 10.]])).tolist()
    [-1, 0]
    """
    m = np.full(len(gt), -1, dtype=np.int64)
    if not len(gt) or not len(pred):
        return m
    ious = box_iou(gt, pred)
    pairs = np.argwhere(ious >= iou)
    pairs = pairs[np.argsort(-ious[pairs[:, 0], pairs[:, 1]], kind="stable")]
    used_p: set[int] = set()
    for g, p in pairs:
        if m[g] < 0 and int(p) not in used_p:
            m[g] = p
            used_p.add(int(p))
    return m
