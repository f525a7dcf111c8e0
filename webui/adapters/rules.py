"""The one place the web UI talks to the rules engine (``engine.ruleset``).

It turns a hand text plus the win situation into what a page shows: the waits of
a hand one tile short, or the score and payments of a complete hand, or a plain
sentence saying why neither. Money stays ``Fraction`` until ``webui.present``.

The engine is imported lazily; until it exists every call raises
:class:`RulesUnavailable` (a ``ValueError``, so pages show it as a message).
Tests pass ``finder=`` (a ``find_ruleset``-like callable) to use a fake ruleset.

>>> Rules(finder=None).variants()[:2]
[('filipino', 'Filipino'), ('visayan', 'Visayan')]
>>> Situation.from_form({"winner": "S", "discarder": "E", "round": "E"}).discarder
Seat.EAST
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.hand import Hand
from engine.seats import Seat
from engine.tiles import Tile

__all__ = [
    "Rules", "RulesUnavailable", "Situation", "Analysis", "ScoreView", "WaitView",
    "InstantView", "TableRuleView", "VARIANTS", "SITUATION_FLAGS",
]

VARIANTS: tuple[tuple[str, str], ...] = (
    ("filipino", "Filipino"),
    ("visayan", "Visayan"),
    ("singapore", "Singaporean"),
    ("vietnamese", "South Vietnamese"),
)
# Win conditions a person can tick on the page: (keyword for Ruleset.score, label).
SITUATION_FLAGS: tuple[tuple[str, str], ...] = (
    ("last_tile", "Won on the last tile of the wall"),
    ("kang_replacement", "Won on the replacement tile after a kang"),
    ("robbing_kang", "Won by robbing a kang"),
    ("first_round", "Still the first round (no discards yet)"),
)


class RulesUnavailable(ValueError):
    """The rules engine is not installed in this build."""


@dataclass(frozen=True)
class Situation:
    """Who won and how: the keyword arguments of ``Ruleset.score``."""

    winner: Seat = Seat.EAST
    self_drawn: bool = False
    discarder: Seat | None = None
    round_wind: Seat = Seat.EAST
    dealer: Seat = Seat.EAST
    win_tile: Tile | None = None
    flags: tuple[str, ...] = ()

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> Situation:
        """Read the page's form fields (seat letters, checkboxes). Bad values raise ``ValueError``."""
        winner = Seat.parse(form.get("winner") or "E")
        self_drawn = form.get("how", "") == "self" or form.get("self_drawn") in ("1", "on", "true")
        discarder_text = form.get("discarder") or ""
        discarder = None if self_drawn or not discarder_text else Seat.parse(discarder_text)
        if discarder is None and not self_drawn:
            discarder = winner.previous  # the usual case: the player before you discarded it
        win_tile = Tile.parse(form["win_tile"]) if form.get("win_tile") else None
        flags = tuple(name for name, _ in SITUATION_FLAGS if form.get(name) in ("1", "on", "true"))
        return cls(winner, self_drawn, discarder, Seat.parse(form.get("round") or "E"),
                   Seat.parse(form.get("dealer") or "E"), win_tile, flags)


@dataclass(frozen=True)
class WaitView:
    tile: Tile
    shapes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScoreView:
    patterns: tuple[tuple[str, Fraction], ...]
    value: Fraction
    unit: str
    payments: tuple[tuple[Seat, Fraction], ...]
    arrangement: str = ""
    multipliers: tuple[tuple[str, int], ...] = ()  # e.g. ("búnot (self-drawn)", 2): every payer pays double
    currency: str = ""  # the payments' unit (S$, points) when it differs from the value's (tai, Phán)

    @property
    def pay_unit(self) -> str:
        """The unit payments are shown in: the currency, else (older rulesets) the value's unit."""
        return self.currency or self.unit


@dataclass(frozen=True)
class Analysis:
    """What a page says about a hand."""

    hand: str
    tile_count: int
    hand_size: int | None
    kind: str  # "waits", "not ready", "score", "no win", "wrong size", "invalid"
    message: str = ""
    waits: tuple[WaitView, ...] = ()
    shanten: int | None = None
    score: ScoreView | None = None
    win_tile: Tile | None = None


@dataclass(frozen=True)
class InstantView:
    name: str
    local: str
    payments: tuple[tuple[Seat, Fraction], ...]
    unit: str = "$"


@dataclass(frozen=True)
class TableRuleView:
    name: str
    default: Any
    choices: tuple[Any, ...] | None
    doc: str


@dataclass
class Rules:
    """Adapter over ``engine.ruleset.find_ruleset``; ``finder`` overrides it (tests)."""

    finder: Callable[..., Any] | None = field(default=None)
    _cache: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = field(default_factory=dict, repr=False)

    def variants(self) -> list[tuple[str, str]]:
        return list(VARIANTS)

    def available(self) -> bool:
        try:
            self.ruleset(VARIANTS[0][0])
        except ValueError:
            return False
        return True

    def _finder(self) -> Callable[..., Any]:
        if self.finder is not None:
            return self.finder
        try:
            from engine.ruleset import find_ruleset
        except ImportError as exc:
            raise RulesUnavailable("the rules engine is not installed yet, so waits and scores cannot be shown") from exc
        return find_ruleset

    def ruleset(self, variant: str, table_rules: Mapping[str, Any] | None = None) -> Any:
        key = (variant, tuple(sorted((table_rules or {}).items())))
        if key not in self._cache:
            self._cache[key] = self._finder()(variant, **dict(table_rules or {}))
        return self._cache[key]

    # -- table setup ------------------------------------------------------------------
    def table_rules(self, variant: str) -> list[TableRuleView]:
        rules = getattr(self.ruleset(variant), "table_rules", {}) or {}
        return [TableRuleView(name, getattr(r, "default", None), _tuple_or_none(getattr(r, "choices", None)),
                              getattr(r, "doc", "")) for name, r in rules.items()]

    def presets(self, variant: str) -> dict[str, dict[str, Any]]:
        """Named bundles of table rules the variant offers (e.g. a rule document's own way)."""
        found = getattr(type(self.ruleset(variant)), "presets", None) or {}
        return {str(k): dict(v) for k, v in found.items()}

    def preset_rules(self, variant: str, preset: str | None) -> dict[str, Any]:
        """The table rules of ``preset`` ("" or None: the variant's defaults). Unknown names raise."""
        if not preset:
            return {}
        known = self.presets(variant)
        if preset not in known:
            raise ValueError(f"{variant} has no preset {preset!r} (known: {', '.join(known) or 'none'})")
        return known[preset]

    def unit(self, variant: str) -> str:
        """The unit of a hand's value (``$``, ``tai``, ``Phán``); not for money: see ``currency``."""
        return str(getattr(self.ruleset(variant), "unit", "") or ("Phán" if variant.startswith("viet") else "$"))

    def currency(self, variant: str) -> str:
        """The unit payments are made in (Singapore values a hand in tai but pays S$;
        Vietnam values it in Phán but pays points); a ruleset without one pays in ``unit``."""
        return str(getattr(self.ruleset(variant), "currency", "") or self.unit(variant))

    # -- hands --------------------------------------------------------------------------
    def analyse(self, variant: str, hand_text: str, situation: Situation,
                table_rules: Mapping[str, Any] | None = None) -> Analysis:
        """Waits if one short, score if complete, otherwise a sentence. Bad text raises ValueError."""
        hand = Hand.parse(hand_text)
        ruleset = self.ruleset(variant, table_rules)
        size = int(getattr(ruleset, "hand_size", 13))
        count = hand.tile_count
        if count == size:
            return self._waits(ruleset, hand, size)
        if count == size + 1:
            return self._score(ruleset, hand, size, situation)
        return Analysis(str(hand), count, size, "wrong size",
                        f"I see {count} tiles; a {variant} hand has {size} while waiting "
                        f"and {size + 1} when it wins (a kang counts as 3).")

    def _waits(self, ruleset: Any, hand: Hand, size: int) -> Analysis:
        waits = tuple(WaitView(w.tile, tuple(sorted(getattr(s, "value", str(s)) for s in getattr(w, "shapes", ()))))
                      for w in ruleset.waits(hand))
        if waits:
            names = ", ".join(f"{w.tile} ({w.tile.english})" for w in waits)
            return Analysis(str(hand), hand.tile_count, size, "waits", f"Ready! Waiting on {names}.", waits)
        shanten = _maybe(lambda: int(ruleset.shanten(hand)))
        away = f" It is {shanten} tile{'s' if shanten != 1 else ''} away from ready." if shanten else ""
        return Analysis(str(hand), hand.tile_count, size, "not ready", "Not ready yet." + away, shanten=shanten)

    def _score(self, ruleset: Any, hand: Hand, size: int, s: Situation) -> Analysis:
        win_tile = s.win_tile  # not ``or``: the 1m is tile 0, and falsy
        if win_tile is None:
            win_tile = hand.concealed[-1] if hand.concealed else hand.melds[-1].tiles[-1]
        kwargs: dict[str, Any] = {name: True for name in s.flags}
        try:
            score = ruleset.score(hand, win_tile=win_tile, winner=s.winner, self_drawn=s.self_drawn,
                                  discarder=None if s.self_drawn else s.discarder,
                                  round_wind=s.round_wind, dealer=s.dealer, **kwargs)
        except ValueError as exc:  # NotCompleteError / InvalidWinError: say why
            return Analysis(str(hand), hand.tile_count, size, "no win", str(exc), win_tile=win_tile)
        view = ScoreView(
            tuple((str(n), Fraction(v)) for n, v in score.patterns), Fraction(score.value), str(score.unit),
            tuple((Seat(seat), Fraction(v)) for seat, v in sorted(score.payments.items())),
            str(getattr(score, "arrangement", "") or ""),
            tuple((str(n), f) for n, f in getattr(score, "multipliers", ()) or ()),
            str(getattr(score, "currency", "") or ""),
        )
        return Analysis(str(hand), hand.tile_count, size, "score", "Mahjong! A winning hand.", score=view,
                        win_tile=win_tile)

    # -- instant payouts ---------------------------------------------------------------
    def instant_kinds(self, variant: str) -> tuple[str, ...]:
        return tuple(getattr(self.ruleset(variant), "instant_kinds", ()) or ())

    def instant(self, variant: str, kind: str, seat: Seat, *, dealer: Seat, tiles: tuple[Tile, ...] = (),
                table_rules: Mapping[str, Any] | None = None) -> InstantView | None:
        """The instant payout for an ambition, or None when the variant pays none for it."""
        ruleset = self.ruleset(variant, table_rules)
        if kind not in self.instant_kinds(variant):
            return None
        paid = ruleset.instant(kind, seat, dealer=dealer, tiles=tiles)
        return InstantView(str(paid.name), str(getattr(paid, "local", "") or ""),
                           tuple((Seat(k), Fraction(v)) for k, v in sorted(paid.payments.items())),
                           str(getattr(paid, "unit", "") or self.currency(variant)))  # payouts: money


def _tuple_or_none(value: Any) -> tuple[Any, ...] | None:
    return tuple(value) if value is not None else None


def _maybe(fn: Callable[[], int]) -> int | None:
    try:
        return fn()
    except (ValueError, AttributeError, NotImplementedError):
        return None
