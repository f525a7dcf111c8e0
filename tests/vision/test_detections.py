"""Detections: parallel arrays, masks and slices, JSON."""

from __future__ import annotations

import numpy as np
import pytest

from engine.tiles import Tile
from vision.detections import UNKNOWN, Detections


def _dets() -> Detections:
    return Detections(
        xyxy=np.array([[30, 0, 40, 20], [0, 0, 10, 20], [15, 0, 25, 20]]),
        confidence=np.array([0.9, 0.8, 0.3]),
        face_up=np.array([True, False, True]),
    )


def test_masks_slices_and_ints_keep_arrays_parallel() -> None:
    d = _dets().with_codes(np.array([0, 63, 33]), np.array([0.9, 1.0, 0.5]))
    assert len(d[d.face_up]) == 2
    assert d[d.face_up].code.tolist() == [0, 33]
    assert d[1].xyxy.tolist() == [[0, 0, 10, 20]]
    assert d[-1].code.tolist() == [33]
    assert d.sorted_left_to_right().code.tolist() == [63, 33, 0]


def test_defaults_and_json() -> None:
    d = _dets()
    assert d.code.tolist() == [UNKNOWN] * 3
    rows = d.with_codes(np.array([4, 63, 27]), np.ones(3)).to_json()
    assert rows[0] == {
        "box": [30.0, 0.0, 40.0, 20.0],
        "tile": "5m",
        "confidence": 0.9,
        "tile_confidence": 1.0,
        "face": "up",
    }
    assert rows[1]["face"] == "down" and rows[1]["tile"] == str(Tile.BACK)
    assert len(Detections.empty()) == 0


def test_mismatched_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="confidence has 2 entries"):
        Detections(np.zeros((3, 4)), np.zeros(2), np.zeros(3, bool))
