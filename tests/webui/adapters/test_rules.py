"""The rules adapter: what the pages say about a hand typed or read from a photo."""

from __future__ import annotations

from engine.seats import Seat
from engine.tiles import Tile
from webui.adapters.rules import Rules, Situation


def test_a_win_on_the_1m_scores_the_1m() -> None:
    """1m is tile 0, and falsy: the win tile the person chose was dropped for the hand's last
    tile (here the 9s of the eye)."""
    hand = "1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p9s9s"
    for tile in (Tile.M1, Tile.P6, Tile.S9):
        got = Rules().analyse("filipino", hand, Situation(winner=Seat.SOUTH, discarder=Seat.EAST, win_tile=tile))
        assert (got.kind, got.win_tile) == ("score", tile)
