"""The detector's NMS (OpenCV's) keeps exactly what a plain greedy NMS keeps."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detections import box_iou
from vision.detector import nms


def greedy_nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    """The textbook loop, the oracle: surest first, drop what overlaps it by more than ``iou``."""
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    while order.size:
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        order = rest[box_iou(boxes[i : i + 1], boxes[rest])[0] <= iou]
    return keep


@st.composite
def box_sets(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    n = draw(st.integers(0, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 100, (n, 2))
    boxes = np.concatenate([xy, xy + rng.uniform(1, 30, (n, 2))], 1)
    # few distinct scores, so ties (kept in input order) are common
    scores = rng.uniform(0.2, 1.0, n).round(draw(st.integers(1, 3)))
    return boxes, scores


@settings(max_examples=300, deadline=None)
@given(box_sets(), st.sampled_from([0.3, 0.45, 0.6, 0.8]))
def test_nms_matches_the_greedy_loop(case: tuple[np.ndarray, np.ndarray], iou: float) -> None:
    boxes, scores = case
    assert nms(boxes, scores, iou).tolist() == greedy_nms(boxes, scores, iou)


def test_nms_of_nothing_is_empty() -> None:
    out = nms(np.zeros((0, 4)), np.zeros(0), 0.5)
    assert out.dtype == np.int64 and out.shape == (0,)
