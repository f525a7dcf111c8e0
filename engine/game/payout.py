"""The bridge from the referee to the variant's ruleset: final scores and instant payouts.

The referee never prices a hand itself. It asks the ruleset
(``find_ruleset(name).score(...)`` / ``.instant(...)``) and only falls back on a
plain "one unit per win, double from the discarder / for a self-draw" price when
the ruleset is absent (the hand engine not installed yet) so that games still run.

>>> s = FallbackScorer("$")
>>> win = s.score(None, win_tile=Tile.M1, winner=Seat.SOUTH, self_drawn=False, discarder=Seat.EAST,
...               round_wind=Seat.EAST, dealer=Seat.EAST)
>>> sorted((str(k), str(v)) for k, v in win.payments.items())
[('East', '-2'), ('North', '-1'), ('South', '4'), ('West', '-1')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from engine.seats import Seat
from engine.tiles import Tile

__all__ = ["Scorer", "WinResult", "InstantResult", "FallbackScorer", "RulesetScorer", "scorer_for"]

Money = Fraction


@dataclass(frozen=True)
class WinResult:
    """What the referee keeps of a scored win (the ruleset's ``Score`` rides along)."""

    value: Money
    unit: str
    patterns: tuple[tuple[str, Money], ...]
    payments: dict[Seat, Money]
    score: Any = None  # engine.scoring.Score when a ruleset priced it
    instants: tuple[InstantResult, ...] = ()
    currency: str = "$"  # the payments' unit (``unit`` is the hand value's: tai, Phán...)


@dataclass(frozen=True)
class InstantResult:
    kind: str
    name: str
    payments: dict[Seat, Money]
    gift: bool = False
    local: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class Scorer(Protocol):
    unit: str  # the hand value's unit
    currency: str  # the payments' unit

    def bonus_instants(self, bonus: tuple[Tile, ...], seat: Seat,
                       dealer: Seat) -> list[tuple[str, tuple[Tile, ...]]]: ...

    def score(self, hand: Any, *, win_tile: Tile, winner: Seat, self_drawn: bool,
              discarder: Seat | None, round_wind: Seat, dealer: Seat,
              **situation: Any) -> WinResult: ...

    def instant(self, kind: str, seat: Seat, *, dealer: Seat, tiles: tuple[Tile, ...],
                **situation: Any) -> InstantResult | None: ...

    def can_win(self, hand: Any) -> bool | None: ...


class FallbackScorer:
    """One unit per win; the discarder pays double, a self-draw is paid double by all."""

    def __init__(self, unit: str = "$") -> None:
        self.unit = unit
        self.currency = unit

    def bonus_instants(self, bonus: tuple[Tile, ...], seat: Seat,
                       dealer: Seat) -> list[tuple[str, tuple[Tile, ...]]]:
        return []

    def score(self, hand: Any, *, win_tile: Tile, winner: Seat, self_drawn: bool,
              discarder: Seat | None, round_wind: Seat, dealer: Seat,
              **situation: Any) -> WinResult:
        value = Money(1)
        payments: dict[Seat, Money] = {}
        for seat in Seat:
            if seat is not winner:
                payments[seat] = -(2 * value if self_drawn or seat is discarder else value)
        liable = situation.get("liable")
        if liable is not None and liable is not winner:
            total = -sum(payments.values(), Money(0))
            payments = {s: Money(0) for s in payments}
            payments[liable] = -total
        payments[winner] = -sum(payments.values(), Money(0))
        return WinResult(value, self.unit, (("Winning", value),), payments, currency=self.currency)

    def instant(self, kind: str, seat: Seat, *, dealer: Seat, tiles: tuple[Tile, ...],
                **situation: Any) -> InstantResult | None:
        return None  # without a ruleset, ambitions are announced but not priced

    def can_win(self, hand: Any) -> bool | None:
        return None


class RulesetScorer:
    """Prices through ``engine.ruleset`` / ``engine.scoring`` (the authority)."""

    def __init__(self, ruleset: Any, unit: str) -> None:
        self.ruleset = ruleset
        self.unit = str(getattr(ruleset, "unit", unit))
        self.currency = str(getattr(ruleset, "currency", self.unit))
        from engine.scoring.context import SITUATION_FIELDS
        from engine.scoring.rules import INSTANT_SITUATION

        # the variant's own situation keys too (Vietnam: nfnl, nfnl_pure, thrown_flower...)
        self._situation = frozenset(SITUATION_FIELDS) | {"extra"} | frozenset(getattr(ruleset, "situation_extras", ()))
        self._instant_situation = INSTANT_SITUATION | frozenset(getattr(ruleset, "situation_extras", ()))

    @staticmethod
    def _filter(situation: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
        """The situation keys the ruleset reads (the game knows more than each variant needs)."""
        return {k: v for k, v in situation.items() if k in known}

    def score(self, hand: Any, *, win_tile: Tile, winner: Seat, self_drawn: bool,
              discarder: Seat | None, round_wind: Seat, dealer: Seat,
              **situation: Any) -> WinResult:
        s = self.ruleset.score(
            hand, win_tile=win_tile, winner=winner, self_drawn=self_drawn, discarder=discarder,
            round_wind=round_wind, dealer=dealer, **self._filter(situation, self._situation),
        )
        instants = tuple(
            InstantResult(i.kind, i.name, dict(i.payments), bool(getattr(i, "gift", False)),
                          getattr(i, "local", ""))
            for i in getattr(s, "instants", ())
        )
        return WinResult(Money(s.value), s.unit, tuple(s.patterns), dict(s.payments), s, instants,
                         str(getattr(s, "currency", self.currency)))

    def instant(self, kind: str, seat: Seat, *, dealer: Seat, tiles: tuple[Tile, ...],
                **situation: Any) -> InstantResult | None:
        """The ruleset's payout for ``kind``, its own name or an alias ("secret" is
        Singapore's "concealed kang"); ``None`` when the table pays no such ambition."""
        from engine.scoring.errors import UnknownAmbitionError

        try:
            self.ruleset.find_ambition(kind)
        except UnknownAmbitionError:
            return None
        p = self.ruleset.instant(kind, seat, dealer=dealer, tiles=tiles,
                                 **self._filter(situation, self._instant_situation))
        return InstantResult(p.kind, p.name, dict(p.payments), bool(getattr(p, "gift", False)),
                             getattr(p, "local", ""))

    def bonus_instants(self, bonus: tuple[Tile, ...], seat: Seat,
                       dealer: Seat) -> list[tuple[str, tuple[Tile, ...]]]:
        """The ambitions the ruleset finds among ``seat``'s shown bonus tiles (Singapore)."""
        found = getattr(self.ruleset, "bonus_instants", None)
        return [] if found is None else list(found(bonus, seat, dealer))

    def can_win(self, hand: Any) -> bool | None:
        is_complete = getattr(self.ruleset, "is_complete", None)
        return None if is_complete is None else bool(is_complete(hand))


def scorer_for(ruleset_name: str, unit: str, table_rules: Mapping[str, Any] | None = None) -> Scorer:
    """The ruleset's scorer when the rules engine is installed, else the fallback.

    Bad ``table_rules`` raise the ruleset's ``TableRuleError`` (a ValueError)."""
    try:
        from engine.ruleset import find_ruleset
    except ImportError:
        return FallbackScorer(unit)
    try:
        ruleset = find_ruleset(ruleset_name)
    except (ValueError, LookupError):
        return FallbackScorer(unit)
    if table_rules:
        ruleset = find_ruleset(ruleset_name, **table_rules)
    if not hasattr(ruleset, "score"):
        return FallbackScorer(unit)
    return RulesetScorer(ruleset, unit)
