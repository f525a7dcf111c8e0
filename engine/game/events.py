"""Announcements: what a person at the table would want said out loud, one object each.

>>> e = Event("pung", Seat.SOUTH, "South: pung of 5 dots")
>>> str(e)
'South: pung of 5 dots'
>>> Event("instant", Seat.WEST, "West declares sagása", {Seat.WEST: Fraction(3, 2), Seat.EAST: Fraction(-3, 2)}).paid_text("$")
'West +$1.50, East -$1.50'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from engine.scoring.money import format_money
from engine.seats import Seat
from engine.tiles import Tile

__all__ = ["Event", "tile_name", "money_text", "payments_text"]


@dataclass(frozen=True)
class Event:
    """One announcement. ``payments`` (zero-sum, per seat) when money changes hands;
    ``reason`` is the ledger's reason for those payments."""

    kind: str
    seat: Seat | None
    text: str
    payments: Mapping[Seat, Fraction] = field(default_factory=dict)
    reason: str = ""

    def __str__(self) -> str:
        return self.text

    def paid_text(self, unit: str = "$") -> str:
        return payments_text(self.payments, unit)


def tile_name(tile: Tile) -> str:
    """The English name used in announcements: ``5 dots``, ``Red dragon``."""
    return tile.english


def money_text(amount: Fraction, unit: str = "$") -> str:
    """``+$1.50`` / ``-2 Phán`` / ``+S$4.00``: the amount signed, in the payments' unit.

    >>> money_text(Fraction(-1, 4)), money_text(Fraction(64), "points"), money_text(Fraction(4), "S$")
    ('-$0.25', '+64 points', '+S$4.00')
    """
    return ("-" if amount < 0 else "+") + format_money(abs(amount), unit)


def payments_text(payments: Mapping[Seat, Fraction], unit: str = "$") -> str:
    """Winners first, then payers, in seat order."""
    order = sorted(payments.items(), key=lambda kv: (kv[1] <= 0, kv[0]))
    return ", ".join(f"{seat} {money_text(amount, unit)}" for seat, amount in order if amount)
