"""Photo readings: the layout survives corrections and JSON; vision's HandReading converts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hand import Hand
from engine.tiles import Tile
from tests.webui.helpers import render_hand_photo
from vision.readings import HandReading, MeldReading, TileItem
from webui.adapters.reader import PhotoReading, ReadTile, from_hand_reading
from webui.views.photo import reading_from_hand

HANDS = ["11m345p678s78s [234m] [789p] / 3f4f", "123m456p789s1122z", "11m (2222p) <3333s> [123m] / 1z2f"]


@given(st.sampled_from(HANDS), st.data())
@settings(max_examples=25, deadline=None)
def test_reading_round_trips_a_hand_and_a_correction_changes_one_tile(text: str, data: st.DataObject) -> None:
    hand = Hand.parse(text)
    reading = reading_from_hand(hand)
    assert Hand.parse(reading.hand_text()).all_tiles() == hand.all_tiles()
    assert PhotoReading.from_json(reading.to_json()) == reading
    i = data.draw(st.sampled_from(reading.concealed))
    new = data.draw(st.sampled_from([t for t in Tile if t.is_playable]))
    fixed = reading.corrected(i, str(new))
    changed = [a for a, b in zip(reading.tiles, fixed.tiles, strict=True) if a != b]
    assert len(changed) == 1 and fixed.tiles[i].tile == str(new) and fixed.tiles[i].corrected


def test_vision_hand_reading_converts_with_regions_and_groups() -> None:
    it = lambda code, x: TileItem(Tile.parse(code), (x, 0.0, x + 10.0, 14.0), 0.9)  # noqa: E731
    back = TileItem(Tile.BACK, (0, 0, 1, 1))
    hr = HandReading(concealed=(it("1m", 0), it("2m", 11), it("3m", 22)),
                     melds=(MeldReading((back, it("7p", 50), it("7p", 61), back), concealed=True),),
                     flowers=(it("2f", 100),), others=(it("9s", 300),), image_size=(400, 50))
    reading = from_hand_reading(hr, (1, 1))
    assert (reading.width, reading.height) == (400, 50)
    assert reading.hand_text() == "1m2m3m (7p7p7p7p) / 2f"
    assert [t.region for t in reading.tiles] == ["hand"] * 3 + ["meld"] * 4 + ["flower", "other"]


def test_a_shaken_photo_is_kept_shaken_through_the_store_and_a_correction() -> None:
    hr = HandReading(concealed=(TileItem(Tile.M1, (0.0, 0.0, 10.0, 14.0), 0.9),), image_size=(40, 20), shaken=True)
    reading = from_hand_reading(hr, (1, 1))
    assert reading.shaken and PhotoReading.from_json(reading.to_json()).shaken
    assert reading.corrected(0, "2m").shaken and reading.turned_round().shaken
    stored_before = '{"width": 4, "height": 2, "tiles": [], "concealed": [], "melds": [], "bonus": [], "turned": false}'
    assert not PhotoReading.from_json(stored_before).shaken  # a reading stored before stop 64


def test_rendered_photo_truth_matches_the_hand() -> None:
    data, truth = render_hand_photo(HANDS[0])
    assert data[:4] == b"\x89PNG"
    assert Hand.parse(truth.hand_text()).all_tiles() == Hand.parse(HANDS[0]).all_tiles()
    assert all(t.box[2] <= truth.width and t.box[3] <= truth.height for t in truth.tiles)


def test_real_pipeline_reads_a_rendered_photo_into_the_hand(tmp_path: object) -> None:
    from pathlib import Path

    from tests.webui.helpers import PipelineOracle, render_hand_scene
    from webui.adapters.reader import PhotoReader

    data, labels = render_hand_scene("11m345p678s78s / [234m]^0 (7777p) / 3f 4f")
    oracle = PipelineOracle()
    oracle.add(data, labels)
    photo = Path(str(tmp_path)) / "hand.png"
    photo.write_bytes(data)
    reading = PhotoReader(read_fn=oracle).read(str(photo), "filipino", (1280, 800))
    assert Hand.parse(reading.hand_text()) == Hand.parse("11m345p678s78s [234m] (7777p) / 3f4f")
    assert {t.region for t in reading.tiles} == {"hand", "meld", "flower"}
    assert all(t.box[2] > t.box[0] for t in reading.tiles)


def test_missing_models_are_said_plainly(tmp_path: object) -> None:
    import pytest

    from vision.onnx_runtime import ModelLoadError
    from webui.adapters.reader import PhotoReader, ReaderUnavailable

    def no_models(path: str, variant: str) -> object:
        raise ModelLoadError("'/x/models/detector.onnx': model file not found")

    with pytest.raises(ReaderUnavailable, match="models are not installed yet"):
        PhotoReader(read_fn=no_models).read("x.png", "filipino", (10, 10))


@given(st.lists(st.tuples(st.floats(0, 300), st.floats(0, 200), st.floats(1, 40), st.floats(1, 40)), max_size=8))
def test_turning_a_reading_round_twice_gives_it_back_and_keeps_boxes_in_the_photo(
        boxes: list[tuple[float, float, float, float]]) -> None:
    w, h = 340, 240
    tiles = [ReadTile("5p", (x, y, x + bw, y + bh)) for x, y, bw, bh in boxes]
    reading = PhotoReading(w, h, tiles, concealed=list(range(len(tiles))))
    once = reading.turned_round()
    assert once.turned and once.hand_text() == reading.hand_text()
    assert all(0 <= t.box[0] < t.box[2] <= w and 0 <= t.box[1] < t.box[3] <= h for t in once.tiles)
    twice = once.turned_round()
    assert not twice.turned and [t.tile for t in twice.tiles] == [t.tile for t in reading.tiles]
    assert all(abs(a - b) < 1e-9 for t, u in zip(twice.tiles, reading.tiles, strict=True) for a, b in zip(t.box, u.box, strict=True))


def test_a_photo_read_turned_round_is_the_upright_reading_turned(tmp_path: object) -> None:
    # A hand photographed from across the table: its pixels turned back are the upright
    # photo's, so the shipped models read the same hand, and the boxes land on the tiles
    # where they stand in the photo as taken.
    from pathlib import Path

    import cv2
    import numpy as np

    from tests.webui.helpers import render_hand_scene
    from webui.adapters.reader import PhotoReader, read_turned

    data, _ = render_hand_scene("11m345p678s78s / [234m]^0 / 3f 4f")
    upright = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    up_path, down_path = Path(str(tmp_path)) / "up.png", Path(str(tmp_path)) / "down.png"
    cv2.imwrite(str(up_path), upright)
    cv2.imwrite(str(down_path), np.ascontiguousarray(upright[::-1, ::-1]))
    size = (upright.shape[1], upright.shape[0])
    reader = PhotoReader()
    as_taken = reader.read(str(up_path), "filipino", size)
    assert len(as_taken.tiles) >= 14
    turned = read_turned(reader, str(down_path), "filipino")
    assert turned.turned and turned.hand_text() == as_taken.hand_text()
    expected = as_taken.turned_round()
    assert [t.tile for t in turned.tiles] == [t.tile for t in expected.tiles]
    assert np.allclose([t.box for t in turned.tiles], [t.box for t in expected.tiles], atol=0.01)


def test_a_phones_big_photo_read_turned_round_gives_boxes_in_its_own_pixels(tmp_path: object) -> None:
    # A 12 MP JPEG is read decoded at half size, turned, and its boxes scaled back: they land
    # where the upright photo's reading puts them.
    from pathlib import Path

    import cv2
    import numpy as np

    from tests.webui.helpers import render_hand_scene
    from webui.adapters.reader import PhotoReader, read_turned

    data, _ = render_hand_scene("11m345p678s78s / [234m]^0 / 3f 4f")
    small = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    upright = cv2.resize(small, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    up_path, down_path = Path(str(tmp_path)) / "up.jpg", Path(str(tmp_path)) / "down.jpg"
    cv2.imwrite(str(up_path), upright, [cv2.IMWRITE_JPEG_QUALITY, 95])
    cv2.imwrite(str(down_path), np.ascontiguousarray(upright[::-1, ::-1]), [cv2.IMWRITE_JPEG_QUALITY, 95])
    reader = PhotoReader()
    as_taken = reader.read(str(up_path), "filipino", (4032, 3024))
    turned = read_turned(reader, str(down_path), "filipino")
    assert (turned.width, turned.height) == (4032, 3024) and turned.hand_text() == as_taken.hand_text()
    expected = as_taken.turned_round()
    assert np.allclose([t.box for t in turned.tiles], [t.box for t in expected.tiles], atol=40)  # 1 % of the width


@given(st.sampled_from(HANDS), st.data())
@settings(max_examples=25, deadline=None)
def test_a_tile_left_out_and_taken_back_in_restores_the_hand(text: str, data: st.DataObject) -> None:
    # leaving a tile out, then putting it back where it lay, gives the hand read before
    reading = render_hand_photo(text)[1]
    i = data.draw(st.sampled_from(reading.concealed))
    out = reading.placed(i, "other")
    assert out.tiles[i].region == "other" and len(out.concealed) == len(reading.concealed) - 1
    assert out.placed(i, "hand").concealed == reading.concealed
    assert PhotoReading.from_json(out.to_json()) == out


def test_a_tile_taken_into_a_slanting_row_goes_where_it_lies() -> None:
    row = [ReadTile(c, (100.0 + 30 * k, 300.0 - 20 * k, 128.0 + 30 * k, 340.0 - 20 * k)) for k, c in enumerate("1m 2m 4m 5m".split())]
    missed = ReadTile("3m", (160.0, 260.0, 188.0, 300.0), region="other")  # the third place along the row
    reading = PhotoReading(640, 480, [*row, missed], concealed=[0, 1, 2, 3])
    assert reading.placed(4, "hand").hand_text() == "1m2m3m4m5m"


def test_leaving_out_a_melds_only_tile_drops_the_meld_and_renumbers_the_rest() -> None:
    reading = reading_from_hand(Hand.parse("11m [234m] [789p] / 3f"))
    first, second = (idx for _, idx in reading.melds)
    out = reading
    for i in first:
        out = out.placed(i, "other")
    assert [idx for _, idx in out.melds] == [second] and {out.tiles[i].group for i in second} == {0}
    assert out.hand_text() == "1m1m [7p8p9p] / 3f"
