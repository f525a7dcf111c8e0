"""Filipino and Visayan scoring: the final-payout patterns, the ambitions (instant
payouts) and the payment hooks, from documents 000, 001 and 002.

Values are dollars as the documents quote them ("One payout is typically $1. A
half payout is 50¢. A quarter payout is 25¢." — 001). Where the documents
disagree a table rule decides; see ``docs/rules/filipino.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, cast

from engine.scoring import common
from engine.scoring.ambition import Ambition
from engine.scoring.context import WinContext
from engine.scoring.money import Money
from engine.scoring.pattern import Pattern
from engine.scoring.result import InstantPayout
from engine.scoring.rules import ScoringRules
from engine.seats import Seat
from engine.shapes import Form, GroupKind, WaitShape

if TYPE_CHECKING:
    from engine.ruleset import Ruleset

__all__ = ["FilipinoScoring", "VisayanScoring", "FILIPINO_PATTERNS", "FILIPINO_AMBITIONS", "VISAYAN_AMBITIONS"]

QUARTER, HALF, ONE = Money(1, 4), Money(1, 2), Money(1)


class Todas(common.Winning):
    name, local, value = "winning", "tódas", ONE


class Bisaklat(Pattern):
    """The máno's opening hand is already a winning hand (001: "+1")."""

    name, local, value = "opening hand", "bisaklát", ONE
    excludes = ("quick win",)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.winner_is_dealer and ctx.self_drawn and ctx.discards_before_win == 0


class International(Pattern):
    """Siete pares whose báhay is a pung, where a chow may also complete seven pairs
    (001: "If the báhay is a pung, this is an even more special ambition")."""

    name, local, value = "international", "international", HALF
    rule = ("seven_pairs", ("pair_plus_any_set",))

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.SEVEN_PAIRS and any(
            g.kind in (GroupKind.PUNG, GroupKind.KANG) for g in ctx.sets
        )


class SietePares(common.SevenPairs):
    local, value = "siete pares", HALF


class Escalera(common.PureStraight):
    local, value = "escaléra", HALF


class AllFlush(common.FullFlush):
    local, value = "all flush", HALF


class AllChow(common.AllChows):
    local, value = "all chow", QUARTER


class AllPung(common.AllPungs):
    local, value = "all pung", QUARTER


class AllUp(common.ConcealedHand):
    local, value = "all up", QUARTER
    allow_secret_rule = "all_up_allows_secret"


class AllDown(common.AllRevealed):
    local, value = "all down", QUARTER


class QuickWin(Pattern):
    """Winning within 5 discards (000, 002) or before the 5th (001): the table rule
    ``quick_win`` says which, ``quick_win_value`` what it pays."""

    name, local, value = "quick win", "before the 5th", QUARTER
    value_rule = "quick_win_value"

    def applies(self, ctx: WinContext) -> bool:
        limit = 5 if ctx.ruleset.rule("quick_win") == "within_5" else 4
        return ctx.discards_before_win is not None and ctx.discards_before_win <= limit


class BackToBack(common.WaitPattern):
    name, local, value = "back to back", "back to back", QUARTER
    shapes = frozenset({WaitShape.BACK_TO_BACK})
    rule = ("wait_payouts", ("ambitions", "difficult", "visayan"))


class Single(common.WaitPattern):
    """001: "Single, waiting on a single tile to complete your eye"."""

    name, local, value = "single", "single", QUARTER
    shapes = frozenset({WaitShape.SINGLE})
    rule = ("wait_payouts", ("ambitions",))


class VisayanSingle(Single):
    """000 runs "Declaring a wait edge/middle/single tile" into its Single row; its
    Paníngit row pays the middle wait, so Single pays the edge and the eye."""

    shapes = frozenset({WaitShape.SINGLE, WaitShape.EDGE})
    rule = ("wait_payouts", ("visayan",))


class Paningit(common.WaitPattern):
    """Waiting on an incomplete chow with the middle tile missing."""

    name, local, value = "paníngit", "paníngit", QUARTER
    shapes = frozenset({WaitShape.MIDDLE})
    rule = ("wait_payouts", ("ambitions", "visayan"))


class DifficultWait(common.WaitPattern):
    """002: "Waiting on an edge/middle/single tile"."""

    name, local, value = "difficult wait", "difficult wait", QUARTER
    shapes = frozenset({WaitShape.EDGE, WaitShape.MIDDLE, WaitShape.SINGLE})
    rule = ("wait_payouts", ("difficult",))


# Priority order: an earlier pattern's ``excludes`` removes a later one.
FILIPINO_PATTERNS: tuple[Pattern, ...] = (
    Todas(), Bisaklat(), International(), SietePares(), Escalera(), AllFlush(), AllChow(),
    AllPung(), AllUp(), AllDown(), QuickWin(), BackToBack(), Single(), VisayanSingle(),
    Paningit(), DifficultWait(),
)

_KANG = Ambition("kang", "Open kang", "kang", QUARTER, gift=True, shape="kang", aliases=("open kang", "kong"))
_SECRET = Ambition(
    "secret", "Concealed kang", "secret", HALF, gift=True, shape="kang",
    aliases=("concealed kang", "concealed kong"),
)
_SAGASA = Ambition(
    "sagása", "Extended kang", "sagása", HALF, gift=True, shape="kang",
    aliases=("extended kang", "extended kong", "added kang"),
)
_THIRTEEN = Ambition("thirteen flowers", "Thirteen flowers", "thirteen flowers", QUARTER, shape="flowers", count=13)
_NO_FLOWERS = Ambition("no flowers", "No flowers", "no flowers", QUARTER, shape="no flowers")
_NO_FLOWERS_WIN = Ambition(
    "no flowers at win", "No flowers at win", "no flowers", QUARTER, shape="no flowers"
)
_BEAUTY = Ambition("beauty", "Beauty", "Beauty", QUARTER, shape="beauty", first_round_only=True)
_NEWS = Ambition("news", "NEWS", "NEWS", QUARTER, gift=True, shape="news", first_round_only=True)

FILIPINO_AMBITIONS = (_KANG, _SECRET, _SAGASA, _THIRTEEN, _NO_FLOWERS, _NO_FLOWERS_WIN)
VISAYAN_AMBITIONS = (_KANG, _SECRET, _SAGASA, _THIRTEEN, _NO_FLOWERS, _NO_FLOWERS_WIN, _BEAUTY, _NEWS)


class FilipinoScoring(ScoringRules):
    """Dollars; discarder pays double, búnot everyone pays double; dice doubles;
    jai alái markers; no flowers paid again at the win."""

    unit: ClassVar[str] = "$"
    patterns: ClassVar[tuple[Pattern, ...]] = FILIPINO_PATTERNS
    ambitions: ClassVar[tuple[Ambition, ...]] = FILIPINO_AMBITIONS

    def _rule(self, name: str) -> object:
        return cast("Ruleset", self).rule(name)

    def ambition_enabled(self, ambition: Ambition) -> bool:
        if ambition is _THIRTEEN:
            return bool(self._rule("thirteen_flowers"))
        if ambition is _NO_FLOWERS_WIN:
            return bool(self._rule("no_flowers_at_win"))
        return True

    def dues(self, ctx: WinContext, value: Money) -> dict[Seat, Money]:
        # "Win by a discarded tile: Other players pay the full value, discarder pays
        # winner double." Búnot's doubling is a multiplier (everyone pays double).
        return {seat: value * 2 if seat is ctx.discarder else value for seat in ctx.payers}

    def multipliers(self, ctx: WinContext) -> list[tuple[str, int]]:
        factors = [("búnot (self-drawn)", 2)] if ctx.self_drawn else []
        factors += self.instant_multipliers({"dice_doubles": ctx.dice_doubles})
        return factors

    def instant_multipliers(self, situation: Mapping[str, object]) -> list[tuple[str, int]]:
        rolls = int(situation.get("dice_doubles", 0) or 0)  # type: ignore[call-overload]
        if rolls < 0:
            raise ValueError(f"dice_doubles must be 0 or more, got {rolls}")
        if rolls and self._rule("doubles"):
            return [("dice doubles", 2**rolls)]
        return []

    def win_instants(self, ctx: WinContext) -> tuple[InstantPayout, ...]:
        if ctx.hand.bonus or not self._rule("no_flowers_at_win"):
            return ()
        return (
            self.instant("no flowers at win", ctx.winner, dealer=ctx.dealer, dice_doubles=ctx.dice_doubles),
        )

    def jai_alai(self, ctx: WinContext) -> tuple[int, bool]:
        # "the winner gets one marker, two for búnot. The first player to get five
        # markers wins the jai alai."
        if not self._rule("jai_alai"):
            return 0, False
        markers = 2 if ctx.self_drawn else 1
        target = cast(int, self._rule("jai_alai_markers"))
        return markers, ctx.jai_alai + markers >= target


class VisayanScoring(FilipinoScoring):
    """Filipino payouts without thirteen flowers, with Beauty and NEWS."""

    ambitions: ClassVar[tuple[Ambition, ...]] = VISAYAN_AMBITIONS
