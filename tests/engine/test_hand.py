"""Hand notation and counting (the parts the engine relies on)."""

from __future__ import annotations

import pytest

from engine import Hand, InvalidHandError, InvalidTileError, MeldKind, Tile


def test_melds_and_bonus() -> None:
    h = Hand.parse("11m (2222p) <3333s> [123m] [567z] [1234z] / 1f 3a")
    assert [m.kind for m in h.melds] == [
        MeldKind.CONCEALED_KANG,
        MeldKind.ADDED_KANG,
        MeldKind.CHOW,
        MeldKind.BEAUTY,
        MeldKind.NEWS,
    ]
    assert h.bonus == (Tile.FLOWER1, Tile.ROOSTER)
    assert h.tile_count == 2 + 3 + 3 + 3 + 3 + 3  # kangs and NEWS count three (a gift is drawn)


def test_bonus_tiles_written_among_the_hand_are_laid_aside() -> None:
    assert Hand.parse("123m 2f").bonus == (Tile.FLOWER2,)


@pytest.mark.parametrize("text", ["123q", "[12m]", "[1112m]", "1m / 2q", "1m / 2f / 3f", "(123m)"])
def test_bad_notation_raises_a_value_error_quoting_it(text: str) -> None:
    with pytest.raises(ValueError) as info:
        Hand.parse(text)
    assert isinstance(info.value, InvalidHandError | InvalidTileError)
    assert any(part in str(info.value) for part in (text, text.strip("[]()"), "2q", "1112m", "12m", "123m"))
