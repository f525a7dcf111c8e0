"""Score a photo: uploads (good and bad), waits, scores, correcting a tile."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.hand import Hand
from tests.webui.conftest import token_of
from tests.webui.helpers import OracleReader, png_bytes, render_hand_photo
from webui import create_app
from webui.adapters.reader import PhotoReading, ReadTile

READY = "11m345p678s78s [234m] [789p] / 3f4f1z2z4z"  # doc 002 example, one tile short
WON = "11m345p678s789s [234m] [789p] / 3f4f1z2z4z"  # doc 002 example, won on 9s


def upload(client: FlaskClient, token: str, data: bytes, name: str = "hand.png", **form: str) -> Any:
    return client.post("/photo/", data={"csrf_token": token, "variant": "filipino", **form,
                                        "photo": (io.BytesIO(data), name)}, content_type="multipart/form-data")


def verdict(client: FlaskClient, location: str) -> str:
    resp = client.get(location)
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def payments(page: str) -> dict[str, str]:
    return dict(re.findall(r'<li class="(?:plus|minus)"><span>(\w+)</span><b>([^<]*)</b>', page))


def waits(page: str) -> list[str]:
    block = page.split('id="waits"', 1)[1].split("</section>", 1)[0] if 'id="waits"' in page else ""
    return re.findall(r'class="tile big\s*"\s+data-code="(\w+)"', block)


def test_form_offers_camera_file_picker_and_typing(client: FlaskClient) -> None:
    page = client.get("/photo/").get_data(as_text=True)
    assert 'accept="image/*"' in page and "capture=" in page and 'name="hand"' in page


def test_rendered_photo_upload_shows_the_waits(client: FlaskClient, token: str, reader: OracleReader) -> None:
    data, truth = render_hand_photo(READY)
    reader.add(data, truth)
    resp = upload(client, token, data)
    assert resp.status_code == 302
    page = verdict(client, resp.location)
    assert "Ready! Waiting on" in page
    assert waits(page) == ["6s", "9s"]
    pid = resp.location.split("/photo/")[1].split("?")[0]
    image = client.get(f"/photo/{pid}/image")
    assert image.status_code == 200 and image.data == data and image.mimetype == "image/png"
    assert page.count('class="box-link"') == len(truth.tiles)  # every tile outlined on the photo


def test_golden_doc_002_example_pays_as_the_document_says(client: FlaskClient, token: str) -> None:
    # 002: East round, South seat, won on a discard: $1.00 + All Chows $.25;
    # the discarder pays double ($2.50), the others $1.25; total $5.00.
    resp = client.post("/photo/", data={"csrf_token": token, "hand": WON, "variant": "filipino",
                                        "winner": "S", "discarder": "E", "round": "E", "win_tile": "9s"})
    page = verdict(client, resp.location)
    assert "Mahjong! $1.25" in page
    assert re.search(r"winning</td><td class=\"num\">\$1.00", page)
    assert re.search(r"all chows</td><td class=\"num\">\$0.25", page)
    assert payments(page) == {"East": "−$2.50", "South": "+$5.00", "West": "−$1.25", "North": "−$1.25"}


def test_correcting_a_tile_changes_the_score(client: FlaskClient, token: str, reader: OracleReader) -> None:
    data, truth = render_hand_photo(WON)
    reader.add(data, truth)
    query = {"winner": "S", "discarder": "E", "win_tile": "9s"}
    resp = upload(client, token, data, **query)
    before = payments(verdict(client, resp.location))
    assert before["South"] == "+$5.00"
    pid = resp.location.split("/photo/")[1].split("?")[0]
    # The person says the eye was misread: 1m 1m -> the first 1m is really 2m ... no win.
    fixed = client.post(f"/photo/{pid}/tile/0", data={"csrf_token": token, "tile": "2m", "variant": "filipino", **query})
    assert fixed.status_code == 302 and "winner=S" in fixed.location
    page = verdict(client, fixed.location)
    assert "12m345p" in page and "Mahjong!" not in page
    # ... and back: 1m again, and the chow 345p read as 345p -> 333p makes it no longer all chows.
    client.post(f"/photo/{pid}/tile/0", data={"csrf_token": token, "tile": "1m", **query})
    client.post(f"/photo/{pid}/tile/3", data={"csrf_token": token, "tile": "3p", **query})
    client.post(f"/photo/{pid}/tile/4", data={"csrf_token": token, "tile": "3p", **query})
    after = payments(verdict(client, f"/photo/{pid}?variant=filipino&winner=S&discarder=E&win_tile=9s"))
    assert after["South"] == "+$4.00"  # $1.00 winning only: discarder $2.00 + $1.00 + $1.00


def test_a_die_read_into_the_hand_is_left_out_and_a_missed_tile_taken_in(client: FlaskClient, token: str,
                                                                        reader: OracleReader) -> None:
    # the camera takes a die lying on the row for a 5m, and leaves the 9s it won on among
    # the others: the person says so on the fix page, and the hand wins as doc 002 pays
    data, truth = render_hand_photo(WON)
    nine = truth.concealed[-1]
    x1, y1, x2, y2 = truth.tiles[truth.concealed[3]].box
    die = ReadTile("5m", (x1 + 5, y1 - 30, x2 - 5, y1 - 5), 0.4)
    tiles = [*truth.tiles[:nine], replace(truth.tiles[nine], region="other"), *truth.tiles[nine + 1:], die]
    k = len(tiles) - 1
    concealed = [*truth.concealed[:4], k, *truth.concealed[4:-1]]
    reader.add(data, replace(truth, tiles=tiles, concealed=concealed))
    query = {"winner": "S", "discarder": "E", "win_tile": "9s"}
    resp = upload(client, token, data, **query)
    pid = resp.location.split("/photo/")[1].split("?")[0]
    assert "Mahjong!" not in verdict(client, resp.location)
    fix = client.get(f"/photo/{pid}/fix/{k}").get_data(as_text=True)
    assert 'value="other"' in fix and 'value="hand"' not in fix
    out = client.post(f"/photo/{pid}/tile/{k}/place", data={"csrf_token": token, "region": "other", **query})
    assert out.status_code == 302 and "winner=S" in out.location
    assert 'value="hand"' in client.get(f"/photo/{pid}/fix/{nine}").get_data(as_text=True)
    client.post(f"/photo/{pid}/tile/{nine}/place", data={"csrf_token": token, "region": "hand", **query})
    page = verdict(client, f"/photo/{pid}?variant=filipino&winner=S&discarder=E&win_tile=9s")
    assert "Mahjong! $1.25" in page and payments(page)["South"] == "+$5.00"
    assert f'id="hand-text">{Hand.parse(WON)}<' in page  # the 9s back in the hand, the die out


def test_placing_a_tile_nowhere_is_refused_and_changes_nothing(client: FlaskClient, token: str) -> None:
    resp = client.post("/photo/", data={"csrf_token": token, "hand": READY})
    pid = resp.location.split("/photo/")[1].split("?")[0]
    before = verdict(client, resp.location)
    bad = client.post(f"/photo/{pid}/tile/0/place", data={"csrf_token": token, "region": "pocket"})
    assert bad.status_code == 400 and "pocket" in bad.get_data(as_text=True)
    assert client.post(f"/photo/{pid}/tile/99/place", data={"csrf_token": token, "region": "other"}).status_code == 400
    assert verdict(client, resp.location) == before


def test_a_heic_photo_is_read_and_kept_as_a_jpeg(client: FlaskClient, token: str, reader: OracleReader) -> None:
    from PIL import Image

    from webui.uploads import as_jpeg

    png, truth = render_hand_photo(READY)
    heic = io.BytesIO()
    Image.open(io.BytesIO(png)).save(heic, "HEIF", quality=90)
    reader.add(as_jpeg(heic.getvalue()), truth)  # the reader is handed the JPEG kept
    resp = upload(client, token, heic.getvalue(), "IMG_0001.HEIC")
    assert resp.status_code == 302
    assert waits(verdict(client, resp.location)) == ["6s", "9s"]
    pid = resp.location.split("/photo/")[1].split("?")[0]
    image = client.get(f"/photo/{pid}/image")
    assert image.mimetype == "image/jpeg" and image.data[:2] == b"\xff\xd8"
    for size in (len(heic.getvalue()) // 2, 200):  # its pixels cut short, or its header
        cut = upload(client, token, heic.getvalue()[:size], "IMG_0002.HEIC")
        assert cut.status_code == 400 and "damaged or cut short" in cut.get_data(as_text=True)


def test_fix_page_works_without_javascript(client: FlaskClient, token: str) -> None:
    resp = client.post("/photo/", data={"csrf_token": token, "hand": READY})
    pid = resp.location.split("/photo/")[1].split("?")[0]
    page = client.get(f"/photo/{pid}/fix/2").get_data(as_text=True)
    assert "Which tile is it?" in page and page.count('name="tile"') >= 34
    assert client.get(f"/photo/{pid}/fix/99").status_code == 404


def test_correcting_to_a_non_tile_is_refused(client: FlaskClient, token: str) -> None:
    resp = client.post("/photo/", data={"csrf_token": token, "hand": READY})
    pid = resp.location.split("/photo/")[1].split("?")[0]
    bad = client.post(f"/photo/{pid}/tile/0", data={"csrf_token": token, "tile": "9q"})
    assert bad.status_code == 400 and "9q" in bad.get_data(as_text=True)
    assert client.post(f"/photo/{pid}/tile/99", data={"csrf_token": token, "tile": "1m"}).status_code == 400


@pytest.mark.parametrize(("data", "name", "message"), [
    (b"", "empty.jpg", "empty"),
    (b"%PDF-1.4 not a picture at all", "doc.jpg", "not a photo"),
    (png_bytes(64, 48)[:60], "cut.png", "damaged"),
    (png_bytes(20, 20), "tiny.png", "too small"),
])
def test_bad_uploads_say_what_is_wrong(client: FlaskClient, token: str, data: bytes, name: str, message: str) -> None:
    resp = upload(client, token, data, name)
    assert resp.status_code == 400
    text = resp.get_data(as_text=True)
    assert message in text and "Traceback" not in text


def test_photo_without_tiles_is_explained(client: FlaskClient, token: str) -> None:
    resp = upload(client, token, png_bytes(320, 240))
    assert resp.status_code == 400 and "no tiles found" in resp.get_data(as_text=True)


def test_too_many_pixels_is_refused_before_decoding(config: dict[str, Any]) -> None:
    app = create_app({**config, "MAX_PIXELS": 100 * 100})
    client = app.test_client()
    resp = upload(client, token_of(client), png_bytes(200, 200))
    assert resp.status_code == 400 and "limit is 10,000" in resp.get_data(as_text=True)


def test_oversized_file_is_refused_with_413(config: dict[str, Any]) -> None:
    app = create_app({**config, "MAX_CONTENT_LENGTH": 2048})
    client = app.test_client()
    resp = upload(client, token_of(client), b"\xff\xd8" + b"0" * 10_000)
    assert resp.status_code == 413 and "too big" in resp.get_data(as_text=True)


def test_nothing_chosen_is_explained(client: FlaskClient, token: str) -> None:
    resp = client.post("/photo/", data={"csrf_token": token})
    assert resp.status_code == 400 and "choose a photo" in resp.get_data(as_text=True)


def test_typed_hand_is_escaped_and_bad_notation_quoted(client: FlaskClient, token: str) -> None:
    resp = client.post("/photo/", data={"csrf_token": token, "hand": "<script>alert(1)</script>"})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 400 and "<script>alert" not in text and "&lt;script&gt;" in text


def test_wrong_size_and_unknown_variant(client: FlaskClient, token: str) -> None:
    resp = client.post("/photo/", data={"csrf_token": token, "hand": "123m"})
    assert "I see 3 tiles" in verdict(client, resp.location)
    pid = resp.location.split("/photo/")[1].split("?")[0]
    assert client.get(f"/photo/{pid}?variant=martian").status_code == 400
    assert client.post("/photo/", data={"csrf_token": token, "hand": "123m", "variant": "x"}).status_code == 400


@pytest.mark.parametrize("left", [0.0, 100.0])
def test_a_short_hand_reaching_the_photos_edge_is_said(client: FlaskClient, token: str, reader: OracleReader,
                                                        left: float) -> None:
    # 12 tiles of a 16-tile hand, the first at the photo's left edge: the rest may be outside it
    tiles = [ReadTile(code, (left + 31 * k, 300.0, left + 30 + 31 * k, 340.0), 0.9)
             for k, code in enumerate(["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p"])]
    data = reader.add(png_bytes(640 + int(left), 480), PhotoReading(640 + int(left), 480, tiles, list(range(12))))
    page = verdict(client, upload(client, token, data).location)
    assert "I see 12 tiles" in page
    said = "1 tile by the hand reaches the photo&#39;s edge: part of the hand may be outside the picture" in page
    assert said == (left == 0.0)


@pytest.mark.parametrize("shaken", [False, True])
def test_a_photo_that_looks_shaken_is_asked_for_again(client: FlaskClient, token: str, reader: OracleReader,
                                                      shaken: bool) -> None:
    tiles = [ReadTile(code, (31.0 * k, 300.0, 30 + 31.0 * k, 340.0), 0.9) for k, code in enumerate(["1m", "2m", "3m"])]
    data = reader.add(png_bytes(640, 480), PhotoReading(640, 480, tiles, [0, 1, 2], shaken=shaken))
    page = verdict(client, upload(client, token, data).location)
    assert ('id="shaken-note"' in page) == shaken
    assert ("Hold the phone still and take it again" in page) == shaken


def test_unknown_or_malicious_photo_ids(client: FlaskClient) -> None:
    assert client.get("/photo/AAAAAAAAAAAA").status_code == 400
    assert client.get("/photo/..%2F..%2Fetc%2Fpasswd").status_code in (400, 404)
    assert client.get("/photo/AAAAAAAAAAAA/image").status_code == 400


def test_singapore_thirteen_tile_hand(client: FlaskClient, token: str) -> None:
    resp = client.post("/photo/", data={"csrf_token": token, "hand": "123m456p789s1122z", "variant": "singapore"})
    assert [w for w in waits(verdict(client, resp.location))] == ["1z", "2z"]


def test_a_preset_changes_the_table_rules(client: FlaskClient, token: str) -> None:
    # Doc 001 plays seven pairs with any set; by default (000, 002) the extra set must be a pung.
    hand = "1122m3344p5566s77s789m"
    resp = client.post("/photo/", data={"csrf_token": token, "hand": hand, "winner": "S", "how": "self"})
    default = verdict(client, resp.location)
    assert "Mahjong!" not in default
    pid = resp.location.split("/photo/")[1].split("?")[0]
    page = verdict(client, f"/photo/{pid}?variant=filipino&preset=001&winner=S&how=self")
    assert "Mahjong!" in page and "seven pairs" in page
    assert 'name="preset"' in page
    assert client.get(f"/photo/{pid}?preset=house").status_code == 200
    assert "no preset &#39;house&#39;" in verdict(client, f"/photo/{pid}?preset=house")


@pytest.mark.parametrize(("variant", "value", "pays"), [
    ("singapore", "2 tai", {"South": "+S$12.00", "East": "−S$4.00"}),  # valued in tai, paid in S$
    ("vietnamese", "3 Phán", {"South": "+24 points", "East": "−8 points"}),  # valued in Phán, paid in points
])
def test_payments_are_shown_in_the_money_unit_not_the_hand_unit(
        client: FlaskClient, token: str, variant: str, value: str, pays: dict[str, str]) -> None:
    resp = client.post("/photo/", data={"csrf_token": token, "hand": "123m456p789s11z555z", "variant": variant,
                                        "winner": "S", "how": "self"})
    page = verdict(client, resp.location)
    assert f"Mahjong! {value}" in page
    assert pays.items() <= payments(page).items()


class MarkerReader:
    """Reads one tile at the photo's white marker: 1m where it lies in the lower half (the
    way up), 9m in the upper half; nothing there if ``blind_below`` (a reading that fails)."""

    def __init__(self, blind_below: bool = False) -> None:
        self.blind_below = blind_below

    def available(self) -> bool:
        return True

    def read(self, path: str, variant: str, size: tuple[int, int]) -> PhotoReading:
        import cv2
        import numpy as np

        grey = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        ys, xs = np.nonzero(grey > 240)
        h, w = grey.shape
        below = ys.mean() > h / 2
        if below and self.blind_below:
            return PhotoReading(w, h, [])
        box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
        return PhotoReading(w, h, [ReadTile("1m" if below else "9m", box)], concealed=[0])


def marked_photo() -> bytes:
    import cv2
    import numpy as np

    img = np.full((120, 240, 3), (40, 110, 60), np.uint8)
    img[10:40, 20:44] = 255  # the marker, upper left: the photo is upside down
    return cv2.imencode(".png", img)[1].tobytes()


def test_a_photo_can_be_read_turned_round_and_back(config: dict[str, Any]) -> None:
    client = create_app({**config, "READER": MarkerReader()}).test_client()
    token = token_of(client)
    resp = upload(client, token, marked_photo())
    pid = resp.location.split("/photo/")[1].split("?")[0]
    page = verdict(client, resp.location)
    assert "9m" in page and "Read it turned round" in page
    turned = client.post(f"/photo/{pid}/turn", data={"csrf_token": token, "variant": "filipino"})
    assert turned.status_code == 302
    page = verdict(client, turned.location)
    assert 'id="hand-text">1m<' in page and "Read it as photographed" in page
    # the box is where the marker is in the photo as taken (upper left), not where it was read
    assert re.search(r'<rect x="20.0" y="10.0" width="24.0" height="30.0"', page)
    back = client.post(f"/photo/{pid}/turn", data={"csrf_token": token})
    page = verdict(client, back.location)
    assert 'id="hand-text">9m<' in page and "Read it turned round" in page


def test_turning_round_that_finds_nothing_keeps_the_reading(config: dict[str, Any]) -> None:
    client = create_app({**config, "READER": MarkerReader(blind_below=True)}).test_client()
    token = token_of(client)
    resp = upload(client, token, marked_photo())
    pid = resp.location.split("/photo/")[1].split("?")[0]
    refused = client.post(f"/photo/{pid}/turn", data={"csrf_token": token})
    assert refused.status_code == 400 and "no tiles found that way round" in refused.get_data(as_text=True)
    assert 'id="hand-text">9m<' in verdict(client, resp.location)


def test_a_typed_hand_has_no_photo_to_turn(client: FlaskClient, token: str) -> None:
    resp = client.post("/photo/", data={"csrf_token": token, "hand": READY})
    pid = resp.location.split("/photo/")[1].split("?")[0]
    assert client.post(f"/photo/{pid}/turn", data={"csrf_token": token}).status_code == 404
    assert "turned round" not in verdict(client, resp.location)


def test_a_hand_not_yet_ready_says_how_far_it_is(client: FlaskClient, token: str) -> None:
    """Three sets and four lone honours: two draws from ready (a pair, then a second pair)."""
    resp = client.post("/photo/", data={"csrf_token": token, "hand": "123m456p789s1234z", "variant": "singapore"})
    page = verdict(client, resp.location)
    assert "Not ready yet. It is 2 tiles away from ready." in page and not waits(page)
    resp = client.post("/photo/", data={"csrf_token": token, "hand": "123m456p789s1124z", "variant": "singapore"})
    assert "It is 1 tile away from ready." in verdict(client, resp.location)
