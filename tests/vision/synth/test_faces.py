"""Every tile code renders in every style, and faces within a style are all distinct."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engine.tiles import Tile
from vision.synth.faces import FACE_H, FACE_W, NUM_STYLES, face_image, make_style
from vision.synth.fonts import has_cjk

ALL = [Tile(t) for t in range(64)]


@pytest.mark.parametrize("k", range(NUM_STYLES))
def test_every_code_renders_in_every_style(k: int) -> None:
    style = make_style(k)
    seen: dict[bytes, Tile] = {}
    for t in ALL:
        img = face_image(t, style)
        assert img.shape == (FACE_H, FACE_W, 4) and img.dtype == np.uint8
        assert img[FACE_H // 2, FACE_W // 2, 3] == 255  # opaque middle
        assert img[0, 0, 3] < 128  # rounded corner
        rgb = img[..., :3].astype(int)
        ink = np.abs(rgb - np.array(style.face_rgb)).sum(-1) > 90
        blank_white = t == Tile.WHITE and style.white_dragon == "blank"
        if t != Tile.BACK and not blank_white:
            assert ink.mean() > 0.01, f"{t} draws nothing in style {k}"
        key = img.tobytes()
        if has_cjk():  # without a CJK font every character is the same box
            assert key not in seen, f"{t} looks exactly like {seen.get(key)} in style {k}"
        seen[key] = t


def test_styles_are_deterministic_and_varied() -> None:
    assert make_style(3) == make_style(3)
    styles = [make_style(k) for k in range(NUM_STYLES)]
    assert {s.back_name for s in styles} >= {"green", "blue", "yellow", "pink", "black"}
    assert {s.wan for s in styles} == {"萬", "万"}
    assert {s.formal_five for s in styles} == {True, False}
    assert {s.corner_index for s in styles} == {True, False}
    assert {s.white_dragon for s in styles} == {"frame", "frame2", "blank"}


@pytest.mark.skipif(not has_cjk(), reason="no CJK font installed")
def test_cjk_fonts_include_brush_and_plain_faces() -> None:
    fams = {make_style(k).font.family for k in range(NUM_STYLES)}  # type: ignore[union-attr]
    assert fams & {"kai", "ming"} and fams & {"sans", "serif"}


def test_faces_differ_between_styles() -> None:
    a, b = face_image(Tile.M5, make_style(0)), face_image(Tile.M5, make_style(1))
    assert not np.array_equal(a, b)


def _index_ink(t: Tile, k: int) -> np.ndarray:
    """Mean colour of the ink in the index corner of tile ``t`` in style ``k``."""
    style = make_style(k)
    x0, x1 = (0.72, 0.92) if style.flower_index_right and t >= Tile.FLOWER1 else (0.05, 0.25)
    corner = face_image(t, style)[int(0.03 * FACE_H) : int(0.2 * FACE_H), int(x0 * FACE_W) : int(x1 * FACE_W), :3]
    rgb = corner.reshape(-1, 3).astype(float)
    ink = rgb[np.abs(rgb - np.array(style.face_rgb)).sum(-1) > 120]
    assert len(ink), f"no index drawn on {t} in style {k}"
    return ink.mean(0)


def _bluer(colour: np.ndarray, k: int) -> bool:
    s = make_style(k)
    return bool(np.abs(colour - s.blue).sum() < np.abs(colour - s.red).sum())


def test_flowers_and_seasons_are_inked_apart_either_way_round() -> None:
    blue_flowers = {make_style(k).flowers_blue for k in range(NUM_STYLES)}
    assert blue_flowers == {True, False}
    for k in range(NUM_STYLES):
        blue = make_style(k).flowers_blue
        assert _bluer(_index_ink(Tile.FLOWER2, k), k) == blue, k
        assert _bluer(_index_ink(Tile.SEASON2, k), k) != blue, k
    assert all(make_style(k).flowers_blue for k in range(4))  # the common designs, as the real sets


def test_some_sets_write_the_flowers_index_on_the_right() -> None:
    right = [k for k in range(NUM_STYLES) if make_style(k).flower_index_right]
    assert right and len(right) < NUM_STYLES / 2
    for k in right:  # the index stands where other sets write the name, in the same ink
        assert _bluer(_index_ink(Tile.FLOWER1, k), k) == make_style(k).flowers_blue, k
    assert not any(make_style(k).flower_index_right for k in range(4))  # the common designs stay


def test_some_sets_paint_their_flowers_in_other_colours() -> None:
    """The plant's colours change (a blue bamboo must not read as the blue snowflake); the
    index in its corner does not."""
    arts = {make_style(k).flower_art for k in range(NUM_STYLES)}
    assert arts == {"natural", "hue", "ink"}
    for k in range(NUM_STYLES):
        style = make_style(k)
        if style.flower_art == "natural":
            continue
        plain = dataclasses.replace(style, flower_art="natural")
        painted, natural = face_image(Tile.FLOWER4, style), face_image(Tile.FLOWER4, plain)
        lower = slice(FACE_H // 2, None)
        assert np.abs(painted[lower].astype(int) - natural[lower]).sum(-1).max() > 60, k
        corner = (slice(0, int(0.2 * FACE_H)), slice(None))
        assert np.array_equal(painted[corner], natural[corner]), k


def test_some_sets_borrow_another_flowers_plant() -> None:
    """A third of the styles draw a flower with another flower's plant, so the index and
    name in the corners are what tells it; they stay where and as they were."""
    shifted = [k for k in range(NUM_STYLES) if make_style(k).flower_plant_shift]
    assert shifted and len(shifted) < NUM_STYLES / 2
    assert not any(make_style(k).flower_plant_shift for k in range(4))  # the common designs stay
    lower = slice(int(0.3 * FACE_H), None)
    corner = (slice(0, int(0.2 * FACE_H)), slice(None))
    for k in shifted:
        style = dataclasses.replace(make_style(k), flower_art="natural", flower_potted=False)
        own = dataclasses.replace(style, flower_plant_shift=0)
        shift = style.flower_plant_shift
        assert 1 <= shift <= 7, k
        drawn = face_image(Tile.FLOWER1, style)
        lender = Tile(Tile.FLOWER1 + shift)
        assert np.array_equal(drawn[lower], face_image(lender, own)[lower]), k
        assert not np.array_equal(drawn[lower], face_image(Tile.FLOWER1, own)[lower]), k
        assert np.array_equal(drawn[corner], face_image(Tile.FLOWER1, own)[corner]), k


def test_some_sets_pot_the_same_plant_on_every_flower() -> None:
    """A potted set's plant tells no flower from another (the pot is one colour on all
    eight); the index and name in the corners stay as the set writes them."""
    potted = [k for k in range(NUM_STYLES) if make_style(k).flower_potted]
    assert potted and len(potted) < NUM_STYLES / 2
    assert not any(make_style(k).flower_potted for k in range(4))  # the common designs stay
    corner = (slice(0, int(0.2 * FACE_H)), slice(None))
    pot = (int(0.88 * FACE_H), FACE_W // 2)
    for k in potted:
        style = dataclasses.replace(make_style(k), flower_art="natural")
        unpotted = dataclasses.replace(style, flower_potted=False)
        faces = [face_image(Tile(Tile.FLOWER1 + i), style) for i in range(8)]
        assert len({tuple(f[pot][:3]) for f in faces}) == 1, k
        assert np.array_equal(faces[0][corner], face_image(Tile.FLOWER1, unpotted)[corner]), k
        assert not np.array_equal(faces[0], faces[1]), k  # each tile a little different


def test_some_sets_number_the_seasons_in_chinese_and_the_flowers_in_arabic() -> None:
    """On such a set a season wears the Chinese numeral of an all-Chinese set, a flower the
    Arabic one of an all-Arabic set: the index's script tells flower from season."""
    mixed = [k for k in range(NUM_STYLES)
             if make_style(k).season_chinese_index and not make_style(k).flower_chinese_index]
    assert mixed and len(mixed) < NUM_STYLES / 2
    assert not any(make_style(k).season_chinese_index for k in range(4))  # the common designs stay
    for k in mixed:
        style = make_style(k)
        chinese = dataclasses.replace(style, flower_chinese_index=True)
        arabic = dataclasses.replace(style, season_chinese_index=False)
        for i in range(4):
            flower, season = Tile(Tile.FLOWER1 + i), Tile(Tile.FLOWER1 + 4 + i)
            assert np.array_equal(face_image(flower, style), face_image(flower, arabic)), (k, i)
            assert np.array_equal(face_image(season, style), face_image(season, chinese)), (k, i)
            assert not np.array_equal(face_image(season, style), face_image(season, arabic)), (k, i)
