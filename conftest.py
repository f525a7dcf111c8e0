"""What every test and doctest in the repository runs under."""

from __future__ import annotations

from typing import NoReturn

import pytest


def _no_truth(self: object) -> NoReturn:
    raise TypeError(f"{self!r} tested for truth: East and the 1m are 0, and falsy; test it 'is None' instead")


def pytest_configure(config: pytest.Config) -> None:
    """A seat or a tile is never tested for truth under test.

    ``Seat.EAST`` and ``Tile.M1`` are 0: ``owner or sector`` gave a group in front of East's
    row to the sector's seat, a bao East owed went to everyone, ``win_tile or last`` scored
    the win on another tile than the 1m chosen. Serving is left as it is (an int enum's
    truth), so that an untested path misjudges a seat rather than failing a player's table.
    """
    from engine.seats import Seat
    from engine.tiles import Tile

    for cls in (Seat, Tile):
        setattr(cls, "__bool__", _no_truth)  # noqa: B010 - assigned onto an enum class after creation
