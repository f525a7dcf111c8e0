"""Upright: a photo whose rows run up it is read turned a quarter, the way its tiles stand,
and its boxes come back in the photo's own pixels."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tiles import Tile
from vision.detections import Detections
from vision.evaluation import match
from vision.imageio import load_image
from vision.reader import CLASSIFIER_PATH, DETECTOR_PATH, WAY_UP_PATH, TileReader
from vision.upright import Upright, turn_quarters, turned_back

from .test_reader import _cli

HAND = Path(__file__).resolve().parents[1] / "data" / "vision" / "images" / "hand_7_1.jpg"
needs_models = pytest.mark.skipif(
    not (DETECTOR_PATH.is_file() and CLASSIFIER_PATH.is_file() and WAY_UP_PATH.is_file() and HAND.is_file()),
    reason="shipped models or test images missing",
)


def _tiles(xyxy: list[list[float]]) -> Detections:
    n = len(xyxy)
    return Detections(np.array(xyxy, np.float32).reshape(-1, 4), np.ones(n, np.float32), np.ones(n, bool))


def _column(n: int, x: float = 10.0) -> list[list[float]]:
    """``n`` touching tiles 30 wide and 40 high, one above the next (a row turned a quarter)."""
    return [[x, 10 + 40 * k, x + 30, 50 + 40 * k] for k in range(n)]


def _row(n: int, y: float = 10.0) -> list[list[float]]:
    return [[10 + 30 * k, y, 40 + 30 * k, y + 40] for k in range(n)]


@given(h=st.integers(8, 60), w=st.integers(8, 60), quarters=st.integers(1, 3), data=st.data())
def test_boxes_found_in_a_turned_picture_come_back_where_the_tile_is(h: int, w: int, quarters: int,
                                                                     data: st.DataObject) -> None:
    """Against OpenCV's own turn: a tile's pixels painted in the picture, turned with it,
    are boxed in the turned picture, and that box turned back is the tile's box."""
    x1, x2 = sorted(data.draw(st.lists(st.integers(0, w), min_size=2, max_size=2, unique=True)))
    y1, y2 = sorted(data.draw(st.lists(st.integers(0, h), min_size=2, max_size=2, unique=True)))
    picture = np.zeros((h, w), np.uint8)
    picture[y1:y2, x1:x2] = 255
    ys, xs = np.nonzero(turn_quarters(picture, quarters))
    found = _tiles([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]])
    assert turned_back(found, picture.shape, quarters).xyxy.tolist() == [[x1, y1, x2, y2]]


def test_a_column_of_touching_tiles_is_turned_a_row_or_a_table_is_not() -> None:
    upright = Upright()
    assert upright.turn(_tiles(_column(6)))
    assert upright.turn(_tiles(_column(3) + _column(3, x=200)))  # two runs of three up the picture
    assert not upright.turn(_tiles(_column(4)))  # under ``fewest``
    assert not upright.turn(_tiles(_row(16)))
    assert not upright.turn(_tiles(_column(8) + _row(8, y=600)))  # rows both ways: a table
    assert upright.turn(_tiles(_column(8) + _row(3, y=600)))  # a meld across beside a hand up it
    lying = _tiles(_column(6))
    assert not Upright().turn(Detections(lying.xyxy, lying.confidence, np.zeros(6, bool)))  # backs say nothing
    hand, walls = _tiles(_column(6)), _tiles(_row(7, y=600) + _column(7, x=600))
    table = Detections.concat([hand, Detections(walls.xyxy, walls.confidence, np.zeros(14, bool))])
    assert not upright.turn(table)  # more backs than face-up tiles: a table, its walls both ways
    assert Upright(most_backs=3.0).turn(table)


def _as_photographed(found: Detections, photo: Detections) -> tuple[np.ndarray, np.ndarray]:
    """Each box of ``photo`` matched to one of ``found`` (IoU 0.5; -1 none), and whether it was named the same."""
    j = match(photo.xyxy, found.xyxy)
    same = (j >= 0) & (found.code[np.maximum(j, 0)] == photo.code)
    return j, same


@needs_models
@pytest.mark.parametrize("quarters", [1, 3])
def test_a_hand_photographed_turned_a_quarter_reads_as_photographed_upright(quarters: int) -> None:
    """The rendered hand turned either way reads its tiles as upright, in the turned photo's
    pixels; read as it comes, it loses most of them."""
    reader, as_it_comes = TileReader(), TileReader(upright=None)
    image = load_image(HAND)
    photo = reader(image)
    assert reader.quarters(image, reader.detect(image)[0]) == 0
    turned = turn_quarters(image, quarters)
    assert reader.quarters(turned, reader.detect(turned)[0]) == 4 - quarters  # the way back up
    read = turned_back(reader(turned), image.shape, quarters)
    plain = turned_back(as_it_comes(turned), image.shape, quarters)
    found, same = _as_photographed(read, photo)
    found_plain, _ = _as_photographed(plain, photo)
    assert (found >= 0).mean() >= 0.95 and same.mean() >= 0.9, ((found >= 0).mean(), same.mean())
    assert (found_plain >= 0).mean() <= 0.5


@needs_models
def test_cli_detect_gives_a_turned_photos_boxes_in_its_own_pixels(tmp_path: Path) -> None:
    image = load_image(HAND)
    photo, turned = tmp_path / "turned.png", turn_quarters(image, 3)
    cv2.imwrite(str(photo), turned)
    rows = {flags: json.loads(out.stdout)["tiles"] for flags in ((), ("--no-upright",))
            if (out := _cli("detect", str(photo), "--json", *flags)).returncode == 0}
    assert set(rows) == {(), ("--no-upright",)}
    upright = turned_back(TileReader()(image), turned.shape, 1)  # the upright read, in the turned photo's pixels
    found = [match(upright.xyxy, np.array([r["box"] for r in got], np.float32).reshape(-1, 4)) for got in rows.values()]
    assert (found[0] >= 0).mean() >= 0.95 and (found[1] >= 0).mean() <= 0.5, [(f >= 0).mean() for f in found]


@needs_models
def test_a_hand_photo_turned_a_quarter_reads_the_same_hand_in_its_own_pixels() -> None:
    """The regions read the turned photo's hand in the photo stood upright (they were shaped
    on rows across the picture), and give its boxes back in the turned photo's pixels."""
    from vision.pipeline import read_hand_photo

    image = load_image(HAND)
    upright = read_hand_photo(image, "filipino")
    turned = turn_quarters(image, 1)
    reading = read_hand_photo(turned, "filipino")
    assert reading.image_size == (turned.shape[1], turned.shape[0])
    assert [i.tile for i in reading.concealed] == [i.tile for i in upright.concealed]
    assert [m.tiles for m in reading.melds] == [m.tiles for m in upright.melds]
    back = turned_back(_tiles([list(i.box) for i in reading.concealed]), image.shape, 1)
    np.testing.assert_allclose(back.xyxy, [i.box for i in upright.concealed], atol=1.0)


@needs_models
def test_a_hand_photographed_from_across_the_table_is_read_again_turned_round() -> None:
    """Upside down, the hand's row is read turned by the way-up probe, so the photo is read
    again turned round: exactly as photographed upright. Without ``half`` it is read as it is."""
    reader = TileReader()
    image = load_image(HAND)
    upside_down = turn_quarters(image, 2)
    assert reader.read_upright(upside_down)[2] == 2 and reader.read_upright(image)[2] == 0
    photo, back = reader(image), turned_back(reader(upside_down), image.shape, 2)
    np.testing.assert_allclose(back.xyxy, photo.xyxy, atol=1e-3)
    np.testing.assert_array_equal(back.code, photo.code)
    assert TileReader(upright=Upright(half=False)).read_upright(upside_down)[2] == 0


class _Told:
    """A detector that finds the boxes it is told: ``first`` in the photo as it came,
    ``levelled`` in any picture of another shape (the photo turned level grows), and
    ``seen[shape]`` in a picture of that shape, where given."""

    imgsz = 480

    def __init__(self, shape: tuple[int, ...], first: Detections, levelled: Detections,
                 seen: dict[tuple[int, ...], Detections] | None = None) -> None:
        self.shape, self.first, self.levelled, self.seen = shape, first, levelled, seen or {}
        self.calls = 0

    def __call__(self, image: np.ndarray, imgsz: int | None = None, flip: bool | None = None) -> Detections:
        self.calls += 1
        if image.shape in self.seen:
            return self.seen[image.shape]
        return self.first if image.shape == self.shape else self.levelled


class _Namer:
    """A classifier that names every crop of its first picture 9m, of any later one 5m."""

    deblurred_most = 0  # no deblurred look: the reader judges no streak for it

    def __init__(self) -> None:
        self.pictures = 0

    def one_picture_turned(self, crops, rows, streaks=None):  # noqa: ANN001, ANN201
        self.pictures += 1
        code = int(Tile.M9 if self.pictures == 1 else Tile.M5)
        n = len(crops)
        return np.tile([[code, 0]], (n, 1)), np.tile([[0.9, 0.05]], (n, 1)), [False] * len(rows)

    def uprightness(self, crops):  # noqa: ANN001, ANN201
        return None  # no way-up probe: a photo whose rows run up it is turned a quarter clockwise


def _tilted_row(image: np.ndarray, n: int = 7, degrees: float = 15.0) -> tuple[Detections, Detections]:
    """``n`` touching faces 30 x 40 in a row running ``degrees`` down to the right in
    ``image``, boxed as found there; and the first ``n - 1`` of them boxed as found in the
    picture turned level (the last is not found there)."""
    from vision.upright import rotated

    along = np.array([np.cos(np.radians(degrees)), np.sin(np.radians(degrees))])
    across = np.array([-along[1], along[0]])
    faces = [np.array([[100, 100] + 32 * k * along + a * 15 * along + b * 20 * across
                       for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]) for k in range(n)]
    first = _tiles([[*face.min(0), *face.max(0)] for face in faces])
    _, matrix = rotated(image, Upright().tilt(first))
    level = [face @ matrix[:, :2].T + matrix[:, 2] for face in faces[:-1]]
    return first, _tiles([[*face.min(0), *face.max(0)] for face in level])


def test_a_tilted_photo_is_named_as_read_levelled_its_boxes_as_found() -> None:
    """The longest row runs 15 degrees off level: the photo is read again turned level, and
    each first-pass box takes the names of the levelled box over it, turned back; a box
    with none keeps its own. Without ``level``, one pass and its names."""
    image = np.zeros((400, 600, 3), np.uint8)
    first, levelled = _tilted_row(image)
    assert 14 < Upright().tilt(first) < 16
    reader = TileReader(_Told(image.shape, first, levelled), _Namer(), zoom=None)  # type: ignore[arg-type]
    dets, _, quarters = reader.read_upright(image)
    assert quarters == 0 and dets.xyxy.tolist() == first.xyxy.tolist()
    assert [str(t) for t in dets.tiles] == ["5m"] * 6 + ["9m"]
    levelled = reader.read_levelled(image)[3]  # the pass that named them: which levelled tile each took
    assert levelled is not None and levelled[3].tolist() == [0, 1, 2, 3, 4, 5, -1]
    flat = TileReader(_Told(image.shape, first, levelled), _Namer(), zoom=None, upright=Upright(level=0))  # type: ignore[arg-type]
    assert [str(t) for t in flat(image).tiles] == ["9m"] * 7 and flat.detector.calls == 1  # type: ignore[attr-defined]


def test_a_photo_turned_a_quarter_and_tilted_is_named_as_read_levelled_once_turned() -> None:
    """A phone held the other way and not level: the first pass's rows run up the photo, so
    it is read turned a quarter; there the longest row runs 15 degrees off level, so the
    turned photo is read again levelled, and its boxes take the levelled names."""
    image = np.zeros((400, 600, 3), np.uint8)
    turned = turn_quarters(image, 1)
    first, levelled = _tilted_row(turned)
    column = _tiles(_column(7))  # up the photo as it came
    detector = _Told(image.shape, column, levelled, seen={turned.shape: first})
    dets, _, quarters = TileReader(detector, _Namer(), zoom=None).read_upright(image)  # type: ignore[arg-type]
    assert quarters == 1 and dets.xyxy.tolist() == first.xyxy.tolist()
    assert [str(t) for t in dets.tiles] == ["5m"] * 6 + ["9m"]


@given(st.floats(-40, 40), st.floats(20, 60), st.floats(0.67, 1.5))
def test_a_tilted_face_boxed_comes_back_its_own_size_levelled(degrees: float, wide: float, aspect: float) -> None:
    """The box around a face tilted ``degrees`` (as the detector boxes it), levelled, is the
    face's own box again, where it is at most half as long again one way as the other."""
    from vision.upright import boxes_levelled, boxes_through

    face = np.array([[100.0, 200.0, 100 + wide, 200 + wide * aspect]])
    tilt = cv2.getRotationMatrix2D((300, 300), degrees, 1.0)
    found = boxes_through(face, tilt)
    np.testing.assert_allclose(boxes_levelled(found, cv2.invertAffineTransform(tilt)), face, atol=1e-6)


class _StreakNamer(_Namer):
    """A namer with a deblurred look that keeps the streaks each picture's crops were given."""

    deblurred_most = 8

    def __init__(self) -> None:
        super().__init__()
        self.streaks: list[list] = []

    def one_picture_turned(self, crops, rows, streaks=None):  # noqa: ANN001, ANN201
        self.streaks.append(list(streaks))
        return super().one_picture_turned(crops, rows)


def test_a_photo_smeared_is_judged_once_and_the_smear_turned_with_each_crop_and_the_levelled_photo(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Judged on the photo as taken (a levelled photo is resampled, which smooths it): the row's
    crops, cut turned level, get the smear turned as they were (15 degrees), and the levelled
    photo's the same; a crop cut level in the levelled photo, none more."""
    from vision.deblur import Streak

    image = np.zeros((400, 600, 3), np.uint8)
    first, levelled = _tilted_row(image)
    namer = _StreakNamer()
    reader = TileReader(_Told(image.shape, first, levelled), namer, zoom=None)  # type: ignore[arg-type]
    judged: list[np.ndarray] = []
    monkeypatch.setattr(reader, "streak", lambda picture, dets: judged.append(picture) or Streak(0.0))
    reader.read_levelled(image)
    assert len(judged) == 1 and judged[0] is image
    as_taken, level = namer.streaks
    tilt = Upright().tilt(first)
    assert {round(s.degrees, 3) for s in as_taken} == {round(tilt % 180, 3)}
    assert {round(s.degrees, 3) for s in level} == {round(tilt % 180, 3)}
    assert all(s.length == pytest.approx(5.0) for s in as_taken + level)


def test_without_a_deblurred_look_no_photo_is_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    image = np.zeros((400, 600, 3), np.uint8)
    first, levelled = _tilted_row(image)
    reader = TileReader(_Told(image.shape, first, levelled), _Namer(), zoom=None)  # type: ignore[arg-type]
    monkeypatch.setattr(reader, "streak", lambda picture, dets: pytest.fail("judged without a look"))
    reader.read_levelled(image)
