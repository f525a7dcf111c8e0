"""What scoring returns: a final ``Score`` and an ``InstantPayout`` (an ambition)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.scoring.money import Money, format_money
from engine.seats import Seat

if TYPE_CHECKING:
    from engine.shapes import Arrangement, WaitShape

__all__ = ["Score", "InstantPayout", "payments_json"]


def payments_json(payments: dict[Seat, Money]) -> dict[str, str]:
    """Seat name -> exact amount as text (``"5/4"``), for JSON.

    >>> payments_json({Seat.EAST: Money(-5, 4), Seat.SOUTH: Money(5, 4)})
    {'East': '-5/4', 'South': '5/4'}
    """
    return {str(seat): str(amount) for seat, amount in sorted(payments.items())}


@dataclass(frozen=True)
class InstantPayout:
    """An ambition paid the moment it is declared (kang, secret, Beauty...).

    ``value`` is what one payer owes before table multipliers; ``payments`` is
    every seat's net change (zero-sum); ``gift`` says the declarer draws a
    replacement tile from the flower wall.
    """

    kind: str
    name: str
    local: str
    value: Money
    payments: dict[Seat, Money]
    unit: str = "$"
    gift: bool = False

    def __str__(self) -> str:
        got = sum((a for a in self.payments.values() if a > 0), Money(0))
        local = f" ({self.local})" if self.local and self.local != self.name else ""
        return f"{self.name}{local}: {format_money(got, self.unit)} collected"

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind, "name": self.name, "local": self.local,
            "value": str(self.value), "unit": self.unit, "gift": self.gift,
            "payments": payments_json(self.payments),
        }


@dataclass(frozen=True)
class Score:
    """A scored win. ``patterns`` are (name, value) in the order applied; ``value``
    is the hand's value in ``unit``; ``payments`` every seat's net change for the
    final payout (winner positive, zero-sum). ``multipliers`` name the doublings
    applied to the payments (búnot, dice doubles...), ``instants`` ambitions paid
    at the win outside the final payout (no flowers at win), ``markers`` the jai
    alái markers earned, ``jai_alai_won`` whether they take the pot."""

    patterns: tuple[tuple[str, Money], ...]
    value: Money
    unit: str
    payments: dict[Seat, Money]
    arrangement: Arrangement
    winner: Seat = Seat.EAST
    wait_shapes: frozenset[WaitShape] = frozenset()
    locals: tuple[str, ...] = ()  # the variant's word for each pattern, parallel to patterns
    multipliers: tuple[tuple[str, int], ...] = ()
    instants: tuple[InstantPayout, ...] = ()
    markers: int = 0
    jai_alai_won: bool = False
    notes: tuple[str, ...] = field(default=())
    currency: str = "$"  # the unit of the payments (the value's unit may be tai or Phán)

    @property
    def total(self) -> Money:
        """What the winner collects in the final payout."""
        return self.payments[self.winner]

    def breakdown(self) -> str:
        """A readable, multi-line account of the score."""
        lines = []
        for (name, amount), local in zip(self.patterns, self.locals or [""] * len(self.patterns), strict=True):
            word = f" ({local})" if local and local != name else ""
            lines.append(f"  {name}{word}: {format_money(amount, self.unit)}")
        lines.append(f"hand value: {format_money(self.value, self.unit)}")
        for name, factor in self.multipliers:
            lines.append(f"  x{factor} {name}")
        for seat, amount in sorted(self.payments.items()):
            verb = "collects" if seat is self.winner else "pays"
            lines.append(f"  {seat} {verb} {format_money(abs(amount), self.currency)}")
        for instant in self.instants:
            lines.append(f"  + {instant}")
        if self.markers:
            lines.append(f"  jai alái: {self.markers} marker(s)" + (", wins the pot" if self.jai_alai_won else ""))
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        """JSON-ready dict: exact amounts as fraction text, floats alongside for display."""
        return {
            "patterns": [
                {"name": n, "local": loc, "value": str(v)}
                for (n, v), loc in zip(self.patterns, self.locals or [""] * len(self.patterns), strict=True)
            ],
            "value": str(self.value),
            "unit": self.unit,
            "currency": self.currency,
            "payments": payments_json(self.payments),
            "winner": str(self.winner),
            "wait_shapes": sorted(s.value for s in self.wait_shapes),
            "multipliers": [{"name": n, "factor": f} for n, f in self.multipliers],
            "instants": [i.to_json() for i in self.instants],
            "markers": self.markers,
            "jai_alai_won": self.jai_alai_won,
            "notes": list(self.notes),
        }
