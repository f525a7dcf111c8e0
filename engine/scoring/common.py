"""Patterns shared by several variants (values are set per variant by instantiating
with ``value=``, or by subclassing to give the variant's own word).

>>> AllChows(value=Money(1, 4)).value, PureStraight.name
(Fraction(1, 4), 'pure straight')
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.scoring.context import WinContext
from engine.scoring.money import Money
from engine.scoring.pattern import Pattern
from engine.shapes import Form, GroupKind, WaitShape
from engine.tiles import Tile

__all__ = [
    "Winning", "AllChows", "AllPungs", "ConcealedHand", "AllRevealed", "FullFlush",
    "PureStraight", "SevenPairs", "SelfDrawn", "WaitPattern", "is_flush", "has_straight",
]

_PUNGLIKE = (GroupKind.PUNG, GroupKind.KANG)


class Winning(Pattern):
    """Completing a hand at all."""

    name, value = "winning", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        return True


class AllChows(Pattern):
    """Every set is a chow (a standard hand)."""

    name = "all chows"

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.STANDARD and all(g.kind is GroupKind.CHOW for g in ctx.sets)


class AllPungs(Pattern):
    """Every set is a pung or kang (a standard hand)."""

    name = "all pungs"

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.STANDARD and all(g.kind in _PUNGLIKE for g in ctx.sets)


class ConcealedHand(Pattern):
    """No exposed meld. ``allow_secret_rule`` names a table rule saying whether a
    secret (concealed kang, declared face down) still counts as concealed."""

    name = "concealed hand"
    allow_secret_rule: str | None = None

    def applies(self, ctx: WinContext) -> bool:
        allow_secret = True if self.allow_secret_rule is None else bool(ctx.ruleset.rule(self.allow_secret_rule))
        declared = ctx.exposed if allow_secret else ctx.declared
        return not declared


class AllRevealed(Pattern):
    """Every set declared before the win, which completes the eye."""

    name = "all revealed"

    def applies(self, ctx: WinContext) -> bool:
        return (
            ctx.form is Form.STANDARD
            and all(g.meld is not None for g in ctx.sets)
            and ctx.win_group is not None
            and ctx.win_group.kind is GroupKind.PAIR
        )


def is_flush(tiles: Iterable[Tile]) -> bool:
    """All tiles suited and of one suit.

    >>> from engine.tiles import parse_tiles
    >>> is_flush(parse_tiles("123789m")), is_flush(parse_tiles("19m1p")), is_flush(parse_tiles("11m1z"))
    (True, False, False)
    """
    suits = {t.suit if t.is_suited else "z" for t in tiles}
    return len(suits) == 1 and "z" not in suits


def has_straight(ctx: WinContext) -> bool:
    """Chows 123, 456 and 789 of one suit among the sets."""
    starts = {g.tiles[0] for g in ctx.sets if g.kind is GroupKind.CHOW}
    return any({Tile(s), Tile(s + 3), Tile(s + 6)} <= starts for s in (Tile.M1, Tile.P1, Tile.S1))


class FullFlush(Pattern):
    name = "full flush"

    def applies(self, ctx: WinContext) -> bool:
        return is_flush(ctx.tiles)


class PureStraight(Pattern):
    name = "pure straight"

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.STANDARD and has_straight(ctx)


class SevenPairs(Pattern):
    name = "seven pairs"

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.SEVEN_PAIRS


class SelfDrawn(Pattern):
    name = "self-drawn"

    def applies(self, ctx: WinContext) -> bool:
        return ctx.self_drawn


class WaitPattern(Pattern):
    """The win completed the hand with one of ``shapes``."""

    shapes: frozenset[WaitShape] = frozenset()

    def applies(self, ctx: WinContext) -> bool:
        return bool(ctx.wait_shapes & self.shapes)
