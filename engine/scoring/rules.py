"""The scoring half of a ruleset: ``score`` a win and pay an ``instant`` ambition.

``ScoringRules`` is mixed into ``engine.ruleset.Ruleset``; a variant sets the
class attributes (``unit``, ``patterns``, ``ambitions``) and overrides a few hooks
(``dues``, ``multipliers``, ``hand_value``, ``win_problem``, ``win_instants``,
``jai_alai``, ``instant_dues``). The generic loop below does the rest: it tries
every arrangement and every reading of the win tile, applies the patterns, and
keeps the reading that pays the winner most.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from engine.hand import Hand, HandStatus, MeldKind
from engine.scoring.ambition import Ambition
from engine.scoring.context import SITUATION_FIELDS, WinContext, readings
from engine.scoring.errors import (
    ImpossibleHandError,
    InvalidAmbitionError,
    InvalidWinError,
    NotCompleteError,
    UnknownAmbitionError,
)
from engine.scoring.money import Money
from engine.scoring.pattern import Pattern, apply_patterns
from engine.scoring.result import InstantPayout, Score
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles

if TYPE_CHECKING:
    from engine.ruleset import Ruleset
    from engine.shapes import Arrangement

__all__ = ["ScoringRules", "net_payments"]

_IMPOSSIBLE = HandStatus.TOO_MANY_COPIES | HandStatus.TILE_NOT_IN_SET | HandStatus.FACE_DOWN
INSTANT_SITUATION = frozenset({"first_round", "dice_doubles", "discarder", "at_win"})


def net_payments(winner: Seat, dues: Mapping[Seat, Money]) -> dict[Seat, Money]:
    """Turn what each payer owes the winner into every seat's net change (zero-sum).

    >>> net_payments(Seat.SOUTH, {Seat.EAST: Money(5, 2), Seat.WEST: Money(5, 4)})
    {Seat.EAST: Fraction(-5, 2), Seat.SOUTH: Fraction(15, 4), Seat.WEST: Fraction(-5, 4), Seat.NORTH: Fraction(0, 1)}
    """
    if winner in dues:
        raise InvalidWinError(f"{winner} cannot pay themself")
    net = {seat: -Money(dues.get(seat, 0)) for seat in Seat}
    net[winner] = sum((Money(v) for v in dues.values()), Money(0))
    return net


class ScoringRules:
    """Scoring settings and hooks; the defaults pay a flat value from each other seat."""

    unit: ClassVar[str] = "$"  # the hand value's unit ("$", "tai", "Phán")
    currency: ClassVar[str] = "$"  # the payments' unit
    patterns: ClassVar[tuple[Pattern, ...]] = ()
    ambitions: ClassVar[tuple[Ambition, ...]] = ()
    situation_extras: ClassVar[frozenset[str]] = frozenset()  # extra situation keys the variant reads

    # -- public ------------------------------------------------------------------------
    @property
    def instant_kinds(self) -> tuple[str, ...]:
        """The ambition kinds ``instant`` accepts at this table."""
        return tuple(a.kind for a in self.ambitions if self.ambition_enabled(a))

    def score(
        self,
        hand: Hand | str,
        *,
        win_tile: Tile | str,
        winner: Seat | str,
        self_drawn: bool = False,
        discarder: Seat | str | None = None,
        round_wind: Seat | str = Seat.EAST,
        dealer: Seat | str = Seat.EAST,
        **situation: object,
    ) -> Score:
        """Score a complete hand. Raises ``NotCompleteError``, ``InvalidWinError`` or
        ``ImpossibleHandError`` (all ``ValueError``) saying what is wrong."""
        rs = cast("Ruleset", self)
        hand = self.scoring_hand(Hand.parse(hand) if isinstance(hand, str) else hand)
        tile = Tile.parse(win_tile) if isinstance(win_tile, str) else Tile(win_tile)
        win_seat = Seat.parse(winner)
        by = None if discarder is None else Seat.parse(discarder)
        _check_win(rs, hand, tile, win_seat, self_drawn, by)
        base = WinContext(
            ruleset=rs, hand=hand, arrangement=None,  # type: ignore[arg-type]  # set per reading
            win_tile=tile, self_drawn=self_drawn, winner=win_seat, discarder=by,
            round_wind=Seat.parse(round_wind), dealer=Seat.parse(dealer),
            **self._situation(situation),
        )
        return self._best(base)

    def instant(
        self,
        kind: str,
        seat: Seat | str,
        *,
        dealer: Seat | str = Seat.EAST,
        tiles: Sequence[Tile] | str = (),
        **situation: object,
    ) -> InstantPayout:
        """Pay an ambition declared by ``seat``. ``tiles`` (optional) are checked
        against what the ambition needs; ``first_round=False`` refuses first-round-only
        ambitions; ``dice_doubles`` doubles as for a win."""
        rs = cast("Ruleset", self)
        ambition = self.find_ambition(kind)
        unknown = set(situation) - INSTANT_SITUATION - self.situation_extras
        if unknown:
            raise InvalidAmbitionError(
                f"unknown situation {sorted(unknown)!r} for an instant payout; "
                f"known: {sorted(INSTANT_SITUATION | self.situation_extras)}"
            )
        tile_list = parse_tiles(tiles) if isinstance(tiles, str) else list(tiles)
        problem = ambition.problem(rs, tile_list, situation)
        if problem:
            raise InvalidAmbitionError(problem)
        declarer, dealer_seat = Seat.parse(seat), Seat.parse(dealer)
        amount = ambition.worth(rs)
        dues = self.instant_dues(ambition, declarer, dealer_seat, amount, situation)
        factor = 1
        for _, f in self.instant_multipliers(situation):
            factor *= f
        payments = net_payments(declarer, {s: v * factor for s, v in dues.items()})
        return InstantPayout(
            ambition.kind, ambition.name, ambition.local, amount, payments, self.currency, ambition.gift
        )

    def find_ambition(self, kind: str) -> Ambition:
        for ambition in self.ambitions:
            if ambition.matches(kind) and self.ambition_enabled(ambition):
                return ambition
        raise UnknownAmbitionError(
            f"no instant payout {kind!r} in {cast('Ruleset', self).name}; "
            f"known: {', '.join(self.instant_kinds) or 'none'}"
        )

    # -- hooks a variant overrides -------------------------------------------------------------
    def scoring_hand(self, hand: Hand) -> Hand:
        """The hand as scored: tiles this variant lays aside (Filipino honours) move
        from the concealed tiles to the bonus tiles."""
        rs = cast("Ruleset", self)
        aside = tuple(t for t in hand.concealed if rs.is_bonus(t))
        if not aside:
            return hand
        kept = tuple(t for t in hand.concealed if not rs.is_bonus(t))
        return Hand(kept, hand.melds, hand.bonus + aside)

    def ambition_enabled(self, ambition: Ambition) -> bool:
        return True

    def active_patterns(self) -> tuple[Pattern, ...]:
        rs = cast("Ruleset", self)
        return tuple(p for p in self.patterns if p.enabled(rs))

    def hand_value(self, ctx: WinContext, applied: Sequence[tuple[Pattern, Money]]) -> Money:
        """The hand's value from its patterns (default: the sum)."""
        return sum((v for _, v in applied), Money(0))

    def win_problem(self, ctx: WinContext, applied: Sequence[tuple[Pattern, Money]], value: Money) -> str:
        """Why this reading is not a valid win (e.g. below the table minimum), or ""."""
        return ""

    def dues(self, ctx: WinContext, value: Money) -> dict[Seat, Money]:
        """What each payer owes the winner before ``multipliers`` (default: value each)."""
        return {seat: value for seat in ctx.payers}

    def multipliers(self, ctx: WinContext) -> list[tuple[str, int]]:
        """Named factors applied to every due (búnot, dice doubles...)."""
        return []

    def win_instants(self, ctx: WinContext) -> tuple[InstantPayout, ...]:
        """Ambitions paid at the win outside the final payout (no flowers at win)."""
        return ()

    def jai_alai(self, ctx: WinContext) -> tuple[int, bool]:
        """Jai alái markers this win earns and whether the winner takes the pot."""
        return 0, False

    def instant_dues(
        self, ambition: Ambition, seat: Seat, dealer: Seat, amount: Money, situation: Mapping[str, object]
    ) -> dict[Seat, Money]:
        """What each other seat pays for an ambition (default: the value each)."""
        return {s: amount for s in Seat if s is not seat}

    def instant_multipliers(self, situation: Mapping[str, object]) -> list[tuple[str, int]]:
        return []

    def bonus_instants(
        self, bonus: Sequence[Tile], seat: Seat | str, dealer: Seat | str = Seat.EAST
    ) -> list[tuple[str, tuple[Tile, ...]]]:
        """Ambitions earned by showing bonus tiles, as (kind, tiles) for ``instant``
        (Singapore's bittens and flower sets); the referee asks this when a seat shows one."""
        return []

    # -- the loop -------------------------------------------------------------------------------
    def _situation(self, situation: Mapping[str, object]) -> dict[str, Any]:
        known = set(SITUATION_FIELDS)
        fields: dict[str, Any] = {}
        extra: dict[str, object] = {}
        for key, val in situation.items():
            if key in known:
                fields[key] = _situation_value(key, val)
            elif key in self.situation_extras:
                extra[key] = val
            else:
                raise InvalidWinError(
                    f"unknown situation {key!r}; known: {', '.join(sorted(known | self.situation_extras))}"
                )
        fields["extra"] = extra
        return fields

    def _best(self, base: WinContext) -> Score:
        rs = base.ruleset
        arrangements = rs.decompositions(base.hand)
        if not arrangements:
            raise NotCompleteError(_incomplete_message(rs, base.hand))
        best: tuple[tuple[object, ...], Score] | None = None
        problems: list[str] = []
        for ctx in _contexts(base, arrangements):
            scored = self._score_reading(ctx, problems)
            if scored is None:
                continue
            key = (scored.total, scored.value, tuple(sorted(n for n, _ in scored.patterns)))
            if best is None or key > best[0]:
                best = (key, scored)
        if best is None:
            why = problems[0] if problems else f"the win tile {base.win_tile} completes no set of {base.hand}"
            raise InvalidWinError(f"{base.hand} cannot win on {base.win_tile}: {why}")
        return best[1]

    def _score_reading(self, ctx: WinContext, problems: list[str]) -> Score | None:
        applied = apply_patterns(self.active_patterns(), ctx)
        value = self.hand_value(ctx, applied)
        problem = self.win_problem(ctx, applied, value)
        if problem:
            problems.append(problem)
            return None
        factors = self.multipliers(ctx)
        factor = 1
        for _, f in factors:
            factor *= f
        dues = {seat: amount * factor for seat, amount in self.dues(ctx, value).items()}
        markers, won = self.jai_alai(ctx)
        return Score(
            patterns=tuple((p.name, v) for p, v in applied),
            value=value,
            unit=self.unit,
            payments=net_payments(ctx.winner, dues),
            arrangement=ctx.arrangement,
            winner=ctx.winner,
            wait_shapes=ctx.wait_shapes,
            locals=tuple(p.local or p.name for p, _ in applied),
            multipliers=tuple(factors),
            instants=self.win_instants(ctx),
            markers=markers,
            jai_alai_won=won,
            currency=self.currency,
        )


_FLAGS = frozenset({"kang_replacement", "robbing_kang", "last_tile", "first_round"})
_COUNTS = frozenset({"turn", "discards_before_win", "dice_doubles", "jai_alai"})


def _situation_value(key: str, val: object) -> object:
    """Check one situation value's type; the error names the key and the value."""
    if key == "liable":
        return None if val is None else Seat.parse(val)  # type: ignore[arg-type]
    if key in _FLAGS and not isinstance(val, bool):
        raise InvalidWinError(f"situation {key}={val!r} must be True or False")
    if key in _COUNTS:
        if val is None and key in ("turn", "discards_before_win"):
            return None
        if isinstance(val, bool) or not isinstance(val, int) or val < 0:
            raise InvalidWinError(f"situation {key}={val!r} must be a whole number, 0 or more")
    return val


def _contexts(base: WinContext, arrangements: Iterable[Arrangement]) -> Iterable[WinContext]:
    for arrangement in arrangements:
        for group, shape in readings(arrangement, base.win_tile):
            yield dataclasses.replace(
                base, arrangement=arrangement, win_group=group, wait_shapes=frozenset({shape})
            )


_CLAIMABLE = {MeldKind.CHOW, MeldKind.PUNG, MeldKind.BEAUTY}


def _check_win(rs: Ruleset, hand: Hand, tile: Tile, winner: Seat, self_drawn: bool, by: Seat | None) -> None:
    flags = rs.status(hand) & _IMPOSSIBLE
    if flags:
        raise ImpossibleHandError(f"{str(hand)!r} cannot exist in {rs.name}: {flags!r}")
    if rs.is_bonus(tile) or tile is Tile.BACK:
        raise InvalidWinError(f"win tile {tile} is a bonus tile; a hand wins on a tile it plays")
    in_meld = any(tile in m.tiles for m in hand.melds if m.kind in _CLAIMABLE)
    if tile not in hand.concealed and not in_meld:
        raise InvalidWinError(f"win tile {tile} is not in the hand {str(hand)!r}")
    if self_drawn and by is not None:
        raise InvalidWinError(f"a self-drawn win has no discarder, got discarder {by}")
    if not self_drawn and by is None:
        raise InvalidWinError("a win on a discard needs the discarder (or self_drawn=True)")
    if by is not None and by is winner:
        raise InvalidWinError(f"the discarder {by} cannot be the winner")


def _incomplete_message(rs: Ruleset, hand: Hand) -> str:
    need = rs.hand_size + 1
    have = hand.tile_count
    if have != need:
        return (
            f"{str(hand)!r} is not a complete {rs.name} hand: it counts {have} tiles "
            f"(kangs as three, bonus tiles aside), a winning hand has {need}"
        )
    return f"{str(hand)!r} is not a complete {rs.name} hand: its tiles form no winning arrangement"
