"""FaceBalance: one picture's crops turned to daylight, the tiles' faces the white reference."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tiles import Tile
from vision.balance import FACE, FaceBalance
from vision.detections import Detections
from vision.reader import TileReader, VideoReader

from .test_video_reader import BOXES, FakeDetector


def tile(face: tuple[float, float, float], ink: tuple[int, int, int] = (30, 30, 160)) -> np.ndarray:
    """A 40x30 crop: a face of colour ``face`` (BGR) with a stroke of ``ink`` across it."""
    crop = np.empty((40, 30, 3), np.uint8)
    crop[:] = np.round(face)
    crop[18:22, 5:25] = ink
    return crop


def chroma(colour: np.ndarray) -> np.ndarray:
    return colour[[0, 2]] / colour[1]


casts = st.tuples(*[st.floats(0.6, 1.2)] * 3)


@settings(max_examples=60, deadline=None)
@given(cast=casts, ivory=st.floats(0.9, 1.0))
def test_a_lamps_colour_is_turned_back_to_the_faces_of_daylight(cast: tuple[float, float, float],
                                                                 ivory: float) -> None:
    balance = FaceBalance()
    daylight = np.array([200 * ivory, 200.0, 200.0])  # ivory: a little short of blue
    lit = [tile(tuple(daylight * cast), ink=(20, 40 + 10 * k, 150)) for k in range(5)]
    face = balance.light(balance(lit))
    assert face is not None
    assert np.allclose(chroma(face), np.array(FACE)[[0, 2]], atol=0.02)
    # the brightness stays: a dim picture is not made bright, nor a bright one dim
    assert abs(face.mean() - balance.light(lit).mean()) < 0.02 * face.mean() + 1


def test_a_picture_in_daylight_is_left_as_it_is() -> None:
    crops = [tile((194, 200, 200)) for _ in range(3)]
    assert max(int(np.abs(a.astype(int) - b).max()) for a, b in zip(FaceBalance()(crops), crops, strict=True)) <= 1


def test_the_median_tile_gives_the_light_and_odd_crops_do_not() -> None:
    """Two crops of green backs taken for faces among five do not tint the rest."""
    crops = [tile((180, 200, 230)) for _ in range(3)] + [tile((60, 160, 40)) for _ in range(2)]
    light = FaceBalance().light(crops)
    assert light is not None and light.tolist() == [180.0, 200.0, 230.0]


def test_gains_are_bounded_and_nothing_to_go_by_leaves_crops_alone() -> None:
    balance = FaceBalance(most=1.5)
    gains = balance.gains([tile((20, 200, 250))])
    assert gains is not None and gains.max() <= 1.5 and gains.min() >= 1 / 1.5
    grey = [np.full((10, 10), 90, np.uint8)]  # no colour: no light to read
    assert balance.gains(grey) is None and balance(grey)[0] is grey[0]
    assert balance.gains([]) is None and balance([]) == []
    assert balance.gains([np.full((10, 10, 3), 12, np.uint8)]) is None  # too dark to tell the light


class Seeing:
    """A classifier stub (``one_picture_turned``) that keeps the crops it is given."""

    deblurred_most = 0  # no deblurred look: the reader judges no streak for it

    def __init__(self) -> None:
        self.crops: list[np.ndarray] = []

    def one_picture_turned(self, crops, runs, streaks=None):  # noqa: ANN001, ANN201
        self.crops = list(crops)
        n = len(crops)
        return np.full((n, 2), int(Tile.M1), np.int64), np.full((n, 2), 0.5, np.float32), [False] * len(runs)


def photo(face: tuple[int, int, int], size: tuple[int, int] = (200, 400)) -> tuple[np.ndarray, Detections]:
    image = np.full((*size, 3), 40, np.uint8)
    for x1, y1, x2, y2 in BOXES.astype(int):
        image[y1:y2, x1:x2] = face
        image[95:105, x1 + 10 : x2 - 10] = (20, 20, 140)
    dets = Detections(BOXES.copy(), np.full(len(BOXES), 0.9, np.float32), np.ones(len(BOXES), bool))
    return image, dets


def test_the_reader_names_a_warm_photos_crops_in_daylight_and_without_balance_as_they_are() -> None:
    image, dets = photo((140, 190, 240))  # a tungsten bulb's orange
    seen = Seeing()
    TileReader(FakeDetector(), seen, zoom=None, upright=None).classify(image, dets)  # type: ignore[arg-type]
    light = FaceBalance().light(seen.crops)
    assert light is not None and np.allclose(chroma(light), np.array(FACE)[[0, 2]], atol=0.02)
    TileReader(FakeDetector(), seen, zoom=None, upright=None, balance=None).classify(image, dets)  # type: ignore[arg-type]
    assert FaceBalance().light(seen.crops).tolist() == [140.0, 190.0, 240.0]  # type: ignore[union-attr]


class Keeping:
    """A ``Classify`` stub that keeps the crops it is given."""

    def __init__(self) -> None:
        self.crops: list[np.ndarray] = []

    def __call__(self, crops):  # noqa: ANN001, ANN204
        self.crops = list(crops)
        return np.full(len(crops), int(Tile.M1), np.int64), np.full(len(crops), 0.8, np.float32)


def test_live_video_keeps_the_light_of_the_last_whole_frame_pass() -> None:
    det, clf = FakeDetector(), Keeping()
    det.boxes = BOXES
    reader = VideoReader(det, clf, settle=1, refresh=1, full_every=3)  # type: ignore[arg-type]
    warm, _ = photo((140, 190, 240), (600, 1200))  # tiles in a corner: passes between whole frames
    reader(warm)
    first = reader.gains
    assert first is not None and np.allclose(chroma(FaceBalance().light(clf.crops)), np.array(FACE)[[0, 2]], atol=0.02)  # type: ignore[arg-type]
    reader(photo((240, 200, 150), (600, 1200))[0])  # the light turned blue between whole-frame passes: kept
    assert reader.gains is first
    reader(warm)
    reader(photo((240, 200, 150), (600, 1200))[0])  # the third frame on was a whole-frame pass: taken again
    assert reader.gains is not first
    plain = VideoReader(FakeDetector(), Keeping(), balance=None)  # type: ignore[arg-type]
    plain.detector.boxes = BOXES  # type: ignore[attr-defined]
    plain(warm)
    assert plain.gains is None


def test_the_live_reader_turns_only_a_light_more_than_a_tenth_off() -> None:
    from vision.pipeline import default_reader
    from vision.reader import LIVE_BALANCE

    live = default_reader(live=True)
    assert isinstance(live, VideoReader) and live.balance is LIVE_BALANCE
    assert LIVE_BALANCE.gains([tile((190, 200, 212))]) is None  # the renderer's faces: 5 % off
    assert LIVE_BALANCE.gains([tile((140, 190, 240))]) is not None  # a tungsten bulb's


class Counting(FaceBalance):
    """A balance that counts the pictures it works the light out for."""

    looked: list[int] = []

    def gains(self, crops):  # noqa: ANN001, ANN201
        self.looked.append(len(crops))
        return super().gains(crops)


def test_live_video_left_in_daylight_looks_at_the_light_only_on_whole_frame_passes() -> None:
    det, balance = FakeDetector(), Counting(least=0.1)
    det.boxes = BOXES
    reader = VideoReader(det, Keeping(), settle=1, refresh=1, full_every=3, balance=balance)  # type: ignore[arg-type]
    daylight, _ = photo((194, 200, 200), (600, 1200))
    for _ in range(6):
        reader(daylight)
    assert reader.gains is None and balance.looked == [4, 4]  # frames 1 and 4 only
