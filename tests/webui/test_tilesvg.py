"""Tile pictures: every tile draws, as well-formed SVG, with all three label layers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tiles import Tile
from webui.present import money, parse_money, tile_caption
from webui.tilesvg import short_label, tile_svg

NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("tile", list(Tile))
def test_every_tile_is_well_formed_svg_named_by_its_code(tile: Tile) -> None:
    root = ET.fromstring(str(tile_svg(tile)))
    assert root.tag == f"{NS}svg" and root.get("data-tile") == str(tile)
    title = root.find(f"{NS}title")
    assert title is not None and title.text


def test_suited_tiles_show_their_count_of_pips() -> None:
    for n in range(1, 10):
        assert str(tile_svg(Tile(Tile.P1 + n - 1))).count("<circle") == 2 * n  # ring + centre per dot
        if n > 1:
            assert str(tile_svg(Tile(Tile.S1 + n - 1))).count("<rect") == 2 + n  # body, corner label, one per stick


def test_characters_carry_chinese_and_arabic_numerals_in_separate_layers() -> None:
    svg = str(tile_svg(Tile.M7))
    assert 'class="lbl-zh"' in svg and "七" in svg
    assert 'class="lbl-ar lbl-en"' in svg and ">7<" in svg


@given(st.sampled_from(list(Tile)))
@settings(max_examples=40, deadline=None)
def test_captions_use_arabic_label_and_english_name(tile: Tile) -> None:
    cap = tile_caption(tile)
    if tile is Tile.BACK:
        assert cap["english"] == "face down"
    else:
        assert cap["big"] == short_label(tile) and cap["english"] == tile.english and cap["chinese"] == tile.chinese
    if tile.is_suited:
        assert cap["big"] == str(tile.number)


@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=4))
@settings(max_examples=60, deadline=None)
def test_dollars_show_cents_and_keep_their_sign(value: object) -> None:
    text = money(value)
    assert text.count("$") == 1 and (text.startswith("−") == (parse_money(value) < 0))
    assert abs(float(text.replace("−", "-").replace("$", "")) - float(parse_money(value))) < 0.005
