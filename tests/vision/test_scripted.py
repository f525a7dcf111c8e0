"""The scripted table video: what it lays out, step by step."""

from __future__ import annotations

import pytest

from engine.seats import Seat
from engine.tiles import Tile
from vision.scripted import ScriptedTable, Step


@pytest.mark.parametrize(("claimer", "turned"), [(Seat.SOUTH, 0), (Seat.WEST, 1), (Seat.NORTH, 2)])
def test_a_pung_of_easts_discard_turns_the_tile_toward_east(claimer: Seat, turned: int) -> None:
    """The turned tile of a called meld points at the seat that threw it: left, across, right.
    East is seat 0, and ``from_seat or previous`` took the claimer's left-hand seat."""
    table = ScriptedTable([Step("discard", Seat.EAST, (Tile.P7,)),
                           Step("pung", claimer, (Tile.P7,) * 3, from_seat=Seat.EAST)], size=(960, 540))
    assert [k for _, k in table.state(2)[claimer].melds] == [turned]
    _, labels = table.picture(2)
    meld = [lab for lab in labels if lab["region"] == "meld"]
    assert [lab["turned"] for lab in meld] == [k == turned for k in range(3)]
