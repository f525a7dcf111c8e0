"""Seats at the table and the wind each one sits in.

Play passes counter-clockwise: East, South, West, North.

>>> Seat.parse("s"), Seat.SOUTH.next, Seat.NORTH.next
(Seat.SOUTH, Seat.WEST, Seat.EAST)
>>> Seat.WEST.wind
Tile.WEST
>>> Seat.EAST.relative_to(Seat.SOUTH)  # East sits three places after South
3
"""

from __future__ import annotations

from enum import IntEnum

from engine.tiles import Tile

__all__ = ["Seat", "InvalidSeatError"]


class InvalidSeatError(ValueError):
    """A seat name that is not East, South, West or North."""


class Seat(IntEnum):
    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    def __str__(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str | int) -> Seat:
        """Read ``"E"``, ``"east"``, ``"East"``, ``0`` ... ``3`` or a wind code ``"1z"``.

        >>> Seat.parse("North"), Seat.parse(2), Seat.parse("2z")
        (Seat.NORTH, Seat.WEST, Seat.SOUTH)
        >>> Seat.parse("middle")
        Traceback (most recent call last):
        ...
        engine.seats.InvalidSeatError: unknown seat 'middle': use E, S, W or N
        """
        if isinstance(text, int) and 0 <= text <= 3:
            return cls(text)
        key = str(text).strip().lower()
        for seat in cls:
            if key in (seat.name.lower(), seat.name[0].lower(), str(seat.value), str(seat.wind)):
                return seat
        raise InvalidSeatError(f"unknown seat {text!r}: use E, S, W or N")

    @property
    def next(self) -> Seat:
        """The seat that plays after this one."""
        return Seat((self + 1) % 4)

    @property
    def previous(self) -> Seat:
        return Seat((self + 3) % 4)

    @property
    def wind(self) -> Tile:
        return Tile(Tile.EAST + self)

    def relative_to(self, other: Seat) -> int:
        """How many turns after ``other`` this seat plays (0 = same seat)."""
        return (self - other) % 4
