"""docs/notation.md: its examples run, and its table lists every tile."""

from __future__ import annotations

import doctest
from pathlib import Path

from engine import Tile

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"


def test_examples_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0


def test_every_tile_code_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for tile in Tile:
        assert f"| `{tile}` | {int(tile)} | `Tile.{tile.name}` | {tile.english} |" in text
