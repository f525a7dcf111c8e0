"""VideoReader: detection at the live size, and names kept for tiles that did not change."""

from __future__ import annotations

import numpy as np

from engine.tiles import Tile
from vision.detections import Detections
from vision.reader import VideoReader


class FakeDetector:
    """Returns the boxes it is given; remembers the input size it was asked for."""

    def __init__(self) -> None:
        self.boxes = np.zeros((0, 4), np.float32)
        self.sizes: list[int | None] = []

    def __call__(self, image: np.ndarray, imgsz: int | None = None) -> Detections:
        self.sizes.append(imgsz)
        n = len(self.boxes)
        return Detections(xyxy=self.boxes.copy(), confidence=np.full(n, 0.9, np.float32),
                          face_up=np.ones(n, bool))


class CountingClassifier:
    """Names every crop by its mean brightness (1m for dark ... ), counting the crops it saw."""

    def __init__(self) -> None:
        self.crops = 0

    def __call__(self, crops):  # noqa: ANN001, ANN204
        self.crops += len(crops)
        codes = np.array([int(Tile.M1) + int(c.mean() // 64) for c in crops], np.int64)
        return codes, np.full(len(crops), 0.8, np.float32)


def frame(bright: list[int]) -> np.ndarray:
    img = np.zeros((200, 400, 3), np.uint8)
    for k, v in enumerate(bright):
        img[50:150, 20 + 90 * k:90 + 90 * k] = v
    return img


BOXES = np.array([[20 + 90 * k, 50, 90 + 90 * k, 150] for k in range(4)], np.float32)


def test_unchanged_tiles_keep_their_names_and_changed_ones_are_read_again() -> None:
    det, clf = FakeDetector(), CountingClassifier()
    reader = VideoReader(det, clf, imgsz=960, refresh=5)
    det.boxes = BOXES
    first = reader(frame([10, 100, 180, 250]))
    assert first.code.tolist() == [int(Tile.M1), int(Tile.M2), int(Tile.M3), int(Tile.M4)]
    assert clf.crops == 4
    again = reader(frame([10, 100, 180, 250]))
    assert again.code.tolist() == first.code.tolist() and clf.crops == 4  # nothing read twice
    changed = reader(frame([10, 100, 180, 20]))  # a tile swapped in place: its pixels differ
    assert changed.code[3] == int(Tile.M1) and clf.crops == 5
    det.boxes = BOXES + np.array([0, 30, 0, 30], np.float32)  # every tile moved: read again
    reader(frame([10, 100, 180, 20]))
    assert clf.crops == 9


def test_every_tile_is_read_again_after_refresh_frames() -> None:
    det, clf = FakeDetector(), CountingClassifier()
    reader = VideoReader(det, clf, refresh=3)
    det.boxes = BOXES
    for _ in range(4):
        reader(frame([10, 100, 180, 250]))
    assert clf.crops == 8  # frame 1, then frame 4 (each name at most 3 frames old)


def test_detector_input_is_capped_by_the_frame() -> None:
    det, clf = FakeDetector(), CountingClassifier()
    reader = VideoReader(det, clf, imgsz=960)
    reader(frame([]))  # 400 px wide: no upscaling
    reader(np.zeros((1080, 1920, 3), np.uint8))
    assert det.sizes == [416, 960]
    assert len(reader(frame([]))) == 0
