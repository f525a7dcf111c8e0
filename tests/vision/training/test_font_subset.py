"""The fonts carried to a GPU machine draw the renderer's glyphs like the full files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from vision.training.font_subset import renderer_text, subset_file

UMING = Path("/usr/share/fonts/truetype/arphic/uming.ttc")


def _draw(path: Path, index: int, text: str) -> np.ndarray:
    font = ImageFont.truetype(str(path), 40, index=index)
    im = Image.new("L", (60 * len(text), 60), 0)
    ImageDraw.Draw(im).text((4, 4), text, font=font, fill=255)
    return np.asarray(im)


@pytest.mark.skipif(not UMING.is_file(), reason="Debian fonts-arphic-uming not installed")
def test_a_cut_collection_keeps_its_faces_and_draws_the_same_glyphs(tmp_path: Path) -> None:
    pytest.importorskip("fontTools")
    from fontTools.ttLib import TTCollection

    dest = tmp_path / "uming.ttc"
    subset_file(UMING, dest, "萬發東梅1")
    assert dest.stat().st_size < UMING.stat().st_size / 20
    assert len(TTCollection(str(dest)).fonts) == len(TTCollection(str(UMING)).fonts)
    for index in (0, 2):  # the renderer uses face 2
        cut, full = _draw(dest, index, "萬發東梅1"), _draw(UMING, index, "萬發東梅1")
        assert cut.max() == 255
        # the outlines are the same; antialiasing may differ by a shade at a stroke's edge
        assert np.mean(np.abs(cut.astype(int) - full) > 64) < 0.01


@pytest.mark.skipif(not UMING.is_file(), reason="Debian fonts-arphic-uming not installed")
def test_a_glyph_left_out_is_not_drawn(tmp_path: Path) -> None:
    pytest.importorskip("fontTools")
    dest = tmp_path / "uming.ttc"
    subset_file(UMING, dest, "萬")
    assert np.mean(np.abs(_draw(dest, 2, "發").astype(int) - _draw(UMING, 2, "發")) > 64) > 0.05


def test_the_text_holds_every_tile_face_character() -> None:
    from engine.tiles import Tile
    from vision.training.env import REPO_ROOT

    text = renderer_text(REPO_ROOT)
    assert {"萬", "筒", "索", "發", "貓", "鼠"} <= set(text)
    assert len(Tile) > 40 and all(ch in text for ch in "0123456789")
