"""Crops cut along their rows: turned square to a tilted row, as wide as its pitch, and only
for tiles that touch."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.classifier import crop_boxes
from vision.regions import rows_of_boxes
from vision.row_crops import cut_along_rows, row_crops

TILE_W, TILE_H, PITCH = 30, 36, 34  # faces 30 wide, 4 px apart: boxes around the faces only


def _tilted_row(angle: float, pitch: float = PITCH, n: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """A grey picture of ``n`` white tiles in a row turned ``angle`` degrees (clockwise on
    screen), each with a black bar along its top edge; and the faces' axis-aligned boxes."""
    image = np.full((500, 500, 3), 90, np.uint8)
    d = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    up = np.array([d[1], -d[0]])  # towards the tiles' tops
    boxes = []
    for k in range(n):
        c = np.array([90.0, 250.0]) + k * pitch * d
        corners = np.array([c + sx * TILE_W / 2 * d + sy * TILE_H / 2 * up
                            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), (255, 255, 255))
        bar = np.array([c + sx * TILE_W / 2 * d + sy * TILE_H / 2 * up for sx, sy in ((-1, 0.7), (1, 0.7), (1, 1), (-1, 1))])
        cv2.fillConvexPoly(image, np.round(bar).astype(np.int32), (0, 0, 0))
        boxes.append([*corners.min(0), *corners.max(0)])
    return image, np.array(boxes)


def _dark_rows(crop: np.ndarray) -> tuple[float, float]:
    """Mean grey of the crop's top and bottom eighth, across its middle half."""
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(float)
    k, w = max(1, g.shape[0] // 8), g.shape[1]
    return float(g[:k, w // 4: -w // 4].mean()), float(g[-k:, w // 4: -w // 4].mean())


# Past 20° from the axes a box's tilt is not undone; its short side stands in for the tile's
# extent along the row. The diagonal real hand rows are standing tiles seen from above, whose
# face-only boxes lie ~1.4 faces apart, so the steep cases here have faces 14 px apart.
@pytest.mark.parametrize(("angle", "pitch"), [(0.0, 34), (15.0, 34), (-15.0, 34), (35.0, 44), (-30.0, 44)])
def test_a_tilted_row_is_cut_upright_and_a_pitch_wide(angle: float, pitch: int) -> None:
    image, boxes = _tilted_row(angle, pitch)
    for crop in row_crops(image, boxes, margin=0.0)[1:-1]:
        assert abs(crop.shape[1] - pitch) <= 1  # the whole tile along the row, rim included
        top, bottom = _dark_rows(crop)
        assert top < 60 < bottom  # the bar lies along the top: the tile stands upright
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        assert grey[grey.shape[0] // 2, grey.shape[1] // 2] == 255  # the tile's own face in the middle


def test_a_steep_row_of_tiles_deeper_than_their_pitch_keeps_its_boxes() -> None:
    image, boxes = _tilted_row(35.0, PITCH)  # touching faces 3:4 at 35°: boxes 1.4 pitches wide
    assert [c.shape for c in row_crops(image, boxes)] == [c.shape for c in crop_boxes(image, boxes)]


def test_a_row_running_up_the_picture_stays_sideways() -> None:
    image, boxes = _tilted_row(80.0)
    crop = row_crops(image, boxes, margin=0.0)[3]
    assert abs(crop.shape[0] - PITCH) <= 1 and crop.shape[1] > crop.shape[0]  # turned to vertical, not upright
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(float)
    assert g[:, -6:].mean() < 60 < g[:, :6].mean()  # the bar on the right: a quarter turn, as the boxes had it


def test_lone_tiles_tiles_apart_and_overlapping_boxes_keep_their_boxes() -> None:
    image = np.full((200, 600, 3), 90, np.uint8)
    apart = np.array([[20 + 80 * k, 50, 50 + 80 * k, 90] for k in range(5)], float)  # 50 px between tiles
    overlapping = np.array([[20 + 20 * k, 120, 50 + 20 * k, 160] for k in range(5)], float)  # pitch 2/3 of a box
    lone = np.array([[500, 150, 530, 190]], float)
    for boxes in (apart, overlapping, lone):
        want = [c.shape for c in crop_boxes(image, boxes)]
        assert [c.shape for c in row_crops(image, boxes)] == want


def test_no_boxes_no_crops() -> None:
    assert row_crops(np.zeros((10, 10, 3), np.uint8), np.zeros((0, 4))) == []


def test_rows_worked_out_once_cut_the_same_crops_and_must_be_the_boxes_own() -> None:
    image, boxes = _tilted_row(8.0)
    boxes = np.array(boxes)
    crops, runs = cut_along_rows(image, boxes)
    again, runs_again = cut_along_rows(image, boxes, rows=rows_of_boxes(boxes))
    assert all(np.array_equal(a, b) for a, b in zip(crops, again, strict=True))
    assert [r.tolist() for r in runs] == [r.tolist() for r in runs_again] and len(runs) == 1
    with pytest.raises(ValueError, match="rows of 7 boxes given for 8 boxes"):
        cut_along_rows(image, boxes, rows=rows_of_boxes(boxes[1:]))
