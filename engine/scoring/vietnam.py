"""South Vietnamese scoring (doc 003): the hand-value table in Phán and Mủn, flower
and joker Phán by seat, the payout table, thrown flowers, and No-Flowers-No-Leaves.

Values are Phán with 1 Mủn = 6 Phán ("typically achieved when a hand reaches 6
Phán"), so a hand of 2 Mủn + 4 Phán has value 16. Where 003 needs a reading a
table rule decides (``docs/rules/vietnamese.md``).

>>> from engine.ruleset import find_ruleset
>>> rs = find_ruleset("vietnamese")
>>> s = rs.score("119m19p19s1234567z / 1f 4j", win_tile="1m", winner="E", discarder="S")
>>> s.value, mun_phan(s.value), s.payments[Seat.SOUTH]
(Fraction(16, 1), (2, 4), Fraction(-144, 1))
>>> payout(16, discarder=True), payout(16, discarder=False), payout(0, discarder=True)
(144, 72, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

from engine.hand import Hand, MeldKind
from engine.scoring import common
from engine.scoring.ambition import Ambition
from engine.scoring.context import WinContext, readings
from engine.scoring.errors import InvalidWinError, NotCompleteError
from engine.scoring.money import Money
from engine.scoring.pattern import Pattern, apply_patterns
from engine.scoring.result import InstantPayout, Score
from engine.scoring.rules import ScoringRules, net_payments
from engine.seats import Seat
from engine.shapes import Arrangement, Form, GroupKind
from engine.tiles import Tile, format_tiles, parse_tiles

if TYPE_CHECKING:
    from engine.ruleset import Ruleset

__all__ = [
    "VietnameseScoring",
    "VIETNAMESE_PATTERNS",
    "NFNL_PATTERNS",
    "JOKER_PHAN",
    "MUN",
    "mun_phan",
    "payout",
    "joker_phan",
]

MUN = 6  # Phán in one Mủn
_PUNGLIKE = (GroupKind.PUNG, GroupKind.KANG)
_CALLED = (MeldKind.PUNG, MeldKind.KANG, MeldKind.ADDED_KANG)
_WINDS = frozenset({Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH})
_DRAGONS = frozenset({Tile.WHITE, Tile.GREEN, Tile.RED})
GREEN_JOKERS = frozenset({Tile.THUNG, Tile.SOOC, Tile.THAY, Tile.TONG})


def mun_phan(value: int | Money, *, remainder: bool = True) -> tuple[int, int]:
    """Split a Phán total into (Mủn, Phán left over); ``remainder=False`` drops the
    leftover once the hand reaches a Mủn (table rule ``phan_remainder="dropped"``).

    >>> mun_phan(16), mun_phan(5), mun_phan(16, remainder=False)
    ((2, 4), (0, 5), (2, 0))
    """
    mun, phan = divmod(int(value), MUN)
    return (mun, phan if remainder or not mun else 0)


def payout(value: int | Money, *, discarder: bool, remainder: bool = True) -> int:
    """003's payout table: 64 (discarder) / 32 (others) per Mủn, plus the row of the
    Phán left over (1, 2, 4 ... 32 / 1, 1, 2 ... 16); a bare 0 Phán pays 1.

    >>> [payout(p, discarder=True) for p in range(6)], [payout(p, discarder=False) for p in range(6)]
    ([1, 2, 4, 8, 16, 32], [1, 1, 2, 4, 8, 16])
    >>> payout(12, discarder=True), payout(48, discarder=False)
    (128, 256)
    """
    mun, phan = mun_phan(value, remainder=remainder)
    if phan:
        row = 1 << phan if discarder else 1 << (phan - 1)
    else:
        row = 0 if mun else 1
    return (64 if discarder else 32) * mun + row


def seat_number(winner: Seat, dealer: Seat) -> int:
    """003: "The numbers on the tiles correspond to players' seat positions" — 1 is
    the dealer ("Dealer/East"), 2 the next seat, ...

    >>> seat_number(Seat.WEST, Seat.SOUTH)
    2
    """
    return winner.relative_to(dealer) + 1


# Joker Phán by seat number (1-4): (before the game starts, during the game). 003's
# "Scoring for Flowers and Jokers" table, read literally.
_ALWAYS_1, _ALWAYS_2, _ALWAYS_3, _EARLY = (1, 1), (2, 2), (3, 3), (3, 2)
JOKER_PHAN: dict[Tile, tuple[tuple[int, int], ...]] = {
    Tile.TONG: (_ALWAYS_3, _EARLY, _EARLY, _EARLY),
    Tile.THUNG: (_ALWAYS_1, _ALWAYS_2, _ALWAYS_1, _ALWAYS_1),
    Tile.SOOC: (_ALWAYS_1, _ALWAYS_1, _ALWAYS_2, _ALWAYS_1),
    Tile.THAY: (_ALWAYS_1, _ALWAYS_1, _ALWAYS_1, _ALWAYS_2),
    Tile.HOP: (_EARLY, _EARLY, _EARLY, _ALWAYS_3),
    Tile.HOA: (_ALWAYS_2, _ALWAYS_2, _ALWAYS_2, _ALWAYS_2),
    Tile.HY: (_ALWAYS_1, _ALWAYS_2, _ALWAYS_1, _ALWAYS_1),
    Tile.NGUYEN: (_ALWAYS_1, _ALWAYS_1, _ALWAYS_2, _ALWAYS_1),
}


def joker_phan(joker: Tile, seat: int, *, at_deal: bool) -> int:
    """Phán for a joker laid out for points by the player in seat ``seat`` (1-4).

    >>> joker_phan(Tile.TONG, 1, at_deal=False), joker_phan(Tile.TONG, 2, at_deal=True)
    (3, 3)
    >>> joker_phan(Tile.HOP, 3, at_deal=False), joker_phan(Tile.THUNG, 2, at_deal=False)
    (2, 2)
    """
    early, late = JOKER_PHAN[joker][seat - 1]
    return early if at_deal else late


# -- views --------------------------------------------------------------------------------
def _pung_tiles(ctx: WinContext) -> list[Tile]:
    return [g.tiles[0] for g in ctx.sets if g.kind in _PUNGLIKE]


def _all_triplets(ctx: WinContext) -> bool:
    return ctx.form is Form.STANDARD and len(_pung_tiles(ctx)) == len(ctx.sets)


def _all_sequences(ctx: WinContext) -> bool:
    return ctx.form is Form.STANDARD and all(g.kind is GroupKind.CHOW for g in ctx.sets)


def _has_honor(ctx: WinContext) -> bool:
    return any(t.is_honor for t in ctx.tiles)


def _half_flush_reading(ctx: WinContext) -> bool:
    """Table rule ``lai_hang="half_flush"``: "Lai Hàng" read as one suit with honours."""
    return ctx.ruleset.rule("lai_hang") == "half_flush"


def _lai_hang(ctx: WinContext) -> bool:
    """The "Lai Hàng" part of a row: honours present, and under the half-flush reading
    only one suit beside them."""
    if not _has_honor(ctx):
        return False
    return not _half_flush_reading(ctx) or len({t.suit for t in ctx.tiles if t.is_suited}) <= 1


def _flowers_shown(hand: Hand) -> bool:
    return any(t.is_flower or t.is_royalty for t in hand.bonus)


def _jokers_held(ctx: WinContext) -> bool:
    return bool(ctx.arrangement.jokers) or any(t.is_vn_joker for t in ctx.hand.bonus)


def _hidden(ctx: WinContext) -> bool:
    """Every set formed in the hand; a set finished by the winning discard is not hidden."""
    if not all(g.concealed for g in ctx.sets):
        return False
    return ctx.self_drawn or (ctx.win_group is not None and ctx.win_group.kind is GroupKind.PAIR)


def _called_sets(ctx: WinContext) -> int:
    """Sets called from discards: declared open pungs/kangs, and the pung the winning
    discard completes."""
    called = sum(1 for g in ctx.sets if g.meld is not None and g.meld.kind in _CALLED)
    won = ctx.win_group
    if not ctx.self_drawn and won is not None and won.meld is None and won.kind is GroupKind.PUNG:
        called += 1
    return called


class PhanPattern(Pattern):
    """A row of 003's tables. ``starred``: the limit hands marked * ("+1 Mủn if no
    Jokers are used and/or Flowers are used"); ``table``: a row of the hand-value
    table (the Chicken Hand applies when no such row does)."""

    starred: ClassVar[bool] = False
    table: ClassVar[bool] = True


# The hand-shape rows a starred limit hand stands in for (003 prices Big Four Winds
# at "512-640": 8 Mủn plus at most the two bonus Mủn, nothing else stacks).
_SHAPES = (
    "Chicken Hand", "All Sequences", "All Triplets", "All Sequences with Honors",
    "All Triplets with Honors", "All Called Triplets", "All Called Triplets with Honors",
    "All Triplets with 1 & 9 Terminals", "All Honors",
)


class BigFourWinds(PhanPattern):
    """003: "Big Four Winds (Đại Tứ Hỉ): All four wind sets" — 8 Mủn*."""

    name, local, value, starred = "Big Four Winds", "Đại Tứ Hỉ", Money(8 * MUN), True
    excludes = ("Small Four Winds", "Four Quads", "Four Concealed Triplets", *_SHAPES)

    def applies(self, ctx: WinContext) -> bool:
        return sum(t in _WINDS for t in _pung_tiles(ctx)) == 4


class SmallFourWinds(PhanPattern):
    """003: "Small Four Winds (Tiểu Tứ Hỉ): 3 wind sets" (and a wind pair) — 5 Mủn*."""

    name, local, value, starred = "Small Four Winds", "Tiểu Tứ Hỉ", Money(5 * MUN), True
    excludes = ("Four Quads", "Four Concealed Triplets", *_SHAPES)

    def applies(self, ctx: WinContext) -> bool:
        pair = ctx.arrangement.pair
        return sum(t in _WINDS for t in _pung_tiles(ctx)) == 3 and pair is not None and pair.tiles[0] in _WINDS


class FourQuads(PhanPattern):
    """003: "Four Quads (Coong Coong): All Coong sets" — 4 Mủn*."""

    name, local, value, starred = "Four Quads", "Coong Coong", Money(4 * MUN), True
    excludes = ("Four Concealed Triplets", *_SHAPES)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.STANDARD and sum(g.kind is GroupKind.KANG for g in ctx.sets) == 4


class FourConcealedTriplets(PhanPattern):
    """003: "Four Concealed Triplets (Khàn Khàn): 4 hidden sets" — 3 Mủn*."""

    name, local, value, starred = "Four Concealed Triplets", "Khàn Khàn", Money(3 * MUN), True
    excludes = _SHAPES

    def applies(self, ctx: WinContext) -> bool:
        return _all_triplets(ctx) and _hidden(ctx)


_STARRED: tuple[PhanPattern, ...] = (BigFourWinds(), SmallFourWinds(), FourQuads(), FourConcealedTriplets())


def _is_starred(ctx: WinContext) -> bool:
    return any(p.applies(ctx) for p in _STARRED)


class LimitWithoutJokers(PhanPattern):
    """003: "*+1 Mủn if no Jokers are used" — no joker in a set and none laid out."""

    name, local, value, table = "Limit Hand without Jokers", "không Joker", Money(MUN), False
    rule = ("limit_bonus", ("no_jokers_no_flowers", "no_jokers_with_flowers"))

    def applies(self, ctx: WinContext) -> bool:
        return _is_starred(ctx) and not _jokers_held(ctx)


class LimitWithoutFlowers(PhanPattern):
    """003: "... and/or Flowers are used (up to +2 Mủn)", read as "no Flowers"."""

    name, local, value, table = "Limit Hand without Flowers", "không Hoa", Money(MUN), False
    rule = ("limit_bonus", ("no_jokers_no_flowers",))

    def applies(self, ctx: WinContext) -> bool:
        return _is_starred(ctx) and not _flowers_shown(ctx.hand)


class LimitWithFlowers(PhanPattern):
    """The literal reading of "... and/or Flowers are used": +1 Mủn with a flower shown."""

    name, local, value, table = "Limit Hand with Flowers", "có Hoa", Money(MUN), False
    rule = ("limit_bonus", ("no_jokers_with_flowers",))

    def applies(self, ctx: WinContext) -> bool:
        return _is_starred(ctx) and _flowers_shown(ctx.hand)


class AllHonors(PhanPattern):
    """003: "All Honors (Toàn Chữ): All honors" — 4 Mủn."""

    name, local, value = "All Honors", "Toàn Chữ", Money(4 * MUN)
    excludes = ("All Triplets with Honors", "All Triplets", "All Called Triplets",
                "All Called Triplets with Honors", "All Sequences with Honors")

    def applies(self, ctx: WinContext) -> bool:
        return all(t.is_honor for t in ctx.tiles)


class PureStraight(common.PureStraight, PhanPattern):
    """003: "Pure Straight (Cửu Tử Liên Hoàn): Continuous from 1 to 9 in one suit"."""

    name, local, value = "Pure Straight", "Cửu Tử Liên Hoàn", Money(3 * MUN)


class ThirteenOrphans(PhanPattern):
    """003: "13 Orphans (Xập Xám Díu)" — 2 Mủn."""

    name, local, value = "13 Orphans", "Xập Xám Díu", Money(2 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.THIRTEEN_ORPHANS


class BigThreeDragons(PhanPattern):
    """003: "Big Three Dragons (Đại Tam Nguyên): 3 triplets of dragon tiles" — 2 Mủn."""

    name, local, value = "Big Three Dragons", "Đại Tam Nguyên", Money(2 * MUN)
    excludes = ("Small Three Dragons",)

    def applies(self, ctx: WinContext) -> bool:
        return sum(t in _DRAGONS for t in _pung_tiles(ctx)) == 3


class SmallThreeDragons(PhanPattern):
    """003: "Small Three Dragons (Tiểu Tam Nguyên): 2 triplets of dragon tiles and a
    pair of dragon tiles" — 1 Mủn."""

    name, local, value = "Small Three Dragons", "Tiểu Tam Nguyên", Money(MUN)

    def applies(self, ctx: WinContext) -> bool:
        pair = ctx.arrangement.pair
        return sum(t in _DRAGONS for t in _pung_tiles(ctx)) == 2 and pair is not None and pair.tiles[0] in _DRAGONS


class BlessingOfHeaven(PhanPattern):
    """003: "Blessing of Heaven (Thiên Ù): Dealer wins immediately on first draw"."""

    name, local, value = "Blessing of Heaven", "Thiên Ù", Money(2 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.first_round and ctx.self_drawn and ctx.winner_is_dealer


class BlessingOfEarth(PhanPattern):
    """003: "Blessing of Earth (Địa Ù): A win immediately after dealer's discard"."""

    name, local, value = "Blessing of Earth", "Địa Ù", Money(2 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.first_round and not ctx.self_drawn and ctx.discarder is ctx.dealer


class BlessingOfMan(PhanPattern):
    """003: "Blessing of Man (Nhân Ù): A self-draw win immediately within the first
    discard uninterrupted" — a non-dealer."""

    name, local, value = "Blessing of Man", "Nhân Ù", Money(2 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.first_round and ctx.self_drawn and not ctx.winner_is_dealer


class AllCalledTripletsWithHonors(PhanPattern):
    """003: "Tui Tui Lai Hàng Toàn Cầu Nhần: only triplets and honor tiles that have
    been called (phỗng) from other players" — 2 Mủn."""

    name, local, value = "All Called Triplets with Honors", "Tui Tui Lai Hàng Toàn Cầu Nhần", Money(2 * MUN)
    excludes = ("All Called Triplets", "All Triplets with Honors", "All Triplets", "All Sequences with Honors")

    def applies(self, ctx: WinContext) -> bool:
        return _all_triplets(ctx) and _called_sets(ctx) == len(ctx.sets) and _lai_hang(ctx)


class NoFlowersHonorsTriplets(PhanPattern):
    """003: "Không Hoa, Chữ & Tui Tui: A hand containing no flowers, honors or triplets"."""

    name, local, value = "No Flowers, Honors, or Triplets", "Không Hoa, Chữ & Tui Tui", Money(2 * MUN)
    excludes = ("No Flowers or Honors", "All Sequences")

    def applies(self, ctx: WinContext) -> bool:
        return _all_sequences(ctx) and not _has_honor(ctx) and not _flowers_shown(ctx.hand)


class AllTripletsWithHonors(PhanPattern):
    """003: "Tui Tui Lai Hàng: only triplets and honor tiles" — 1 Mủn."""

    name, local, value = "All Triplets with Honors", "Tui Tui Lai Hàng", Money(MUN)
    excludes = ("All Triplets", "All Sequences with Honors")

    def applies(self, ctx: WinContext) -> bool:
        return _all_triplets(ctx) and _lai_hang(ctx)


class AllCalledTriplets(PhanPattern):
    """003: "Tui Tui Toàn Cầu Nhần: only triplets that have been called (phỗng)"."""

    name, local, value = "All Called Triplets", "Tui Tui Toàn Cầu Nhần", Money(MUN)
    excludes = ("All Triplets",)

    def applies(self, ctx: WinContext) -> bool:
        return _all_triplets(ctx) and _called_sets(ctx) == len(ctx.sets)


class AllTripletsTerminals(PhanPattern):
    """003: "Tui Tui Lai Nhất Cửu: only triplets with at least one set containing 1s
    and one set containing 9s" — 1 Mủn."""

    name, local, value = "All Triplets with 1 & 9 Terminals", "Tui Tui Lai Nhất Cửu", Money(MUN)
    excludes = ("All Triplets",)

    def applies(self, ctx: WinContext) -> bool:
        numbers = {t.number for t in _pung_tiles(ctx) if t.is_suited}
        return _all_triplets(ctx) and {1, 9} <= numbers


class NoFlowersOrHonors(PhanPattern):
    """003: "Không Hoa, Chữ: A hand containing no flowers or honors within a hand"."""

    name, local, value = "No Flowers or Honors", "Không Hoa, Chữ", Money(MUN)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.STANDARD and not _has_honor(ctx) and not _flowers_shown(ctx.hand)


class FullFlush(common.FullFlush, PhanPattern):
    """003: "Full Flush (Toàn Hàng): All from one suit" — 1 Mủn."""

    name, local, value = "Full Flush", "Toàn Hàng", Money(MUN)


class AllSequencesWithHonors(PhanPattern):
    """003: "Lai Hàng: Any hand consisting of only sequences and honor tiles" — every
    set a chow or an honour triplet, with a chow and an honour (3 Phán). Table rule
    ``lai_hang="half_flush"``: any hand of one suit with honours."""

    name, local, value = "All Sequences with Honors", "Lai Hàng", Money(3)
    excludes = ("All Sequences",)

    def applies(self, ctx: WinContext) -> bool:
        if _half_flush_reading(ctx):
            return ctx.form is Form.STANDARD and _lai_hang(ctx) and not all(t.is_honor for t in ctx.tiles)
        sets = ctx.sets
        return (
            ctx.form is Form.STANDARD
            and all(g.kind is GroupKind.CHOW or g.tiles[0].is_honor for g in sets)
            and any(g.kind is GroupKind.CHOW for g in sets)
            and _has_honor(ctx)
        )


class AllTriplets(PhanPattern):
    """003: "All Triplets (Tui Tui): Any hand consisting of all triplets" — 3 Phán."""

    name, local, value = "All Triplets", "Tui Tui", Money(3)

    def applies(self, ctx: WinContext) -> bool:
        return _all_triplets(ctx)


class AllSequences(PhanPattern):
    """003: "All Sequences (Phình): Any hand consisting of all sequences" — 1 Phán."""

    name, local, value = "All Sequences", "Phình", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        return _all_sequences(ctx)


class ChickenHand(PhanPattern):
    """003: "Chicken Hand (Xuông): Any combination of triplets and sequences" — 0 Phán,
    shown when no other row of the hand-value table applies."""

    name, local, value = "Chicken Hand", "Xuông", Money(0)

    def applies(self, ctx: WinContext) -> bool:
        return not any(p.table and p.applies(ctx) for p in _TABLE)


class OwnFlower(PhanPattern):
    """003: "Bonus points are scored when a player has exposed his own flower" — 1 Phán
    per flower, season, emperor or empress numbered with the winner's seat."""

    name, local, value, table = "Own Flower", "Hoa", Money(1), False

    def count(self, ctx: WinContext) -> int:
        mine = seat_number(ctx.winner, ctx.dealer)
        return sum(1 for t in ctx.hand.bonus if t.seat_number == mine)


class JokersShown(PhanPattern):
    """003's joker table: Phán for each joker laid out, by seat and by whether it was
    laid out before the game started (situation ``exposed_at_deal``)."""

    name, local, value, table = "Jokers Shown", "Joker", Money(1), False

    def count(self, ctx: WinContext) -> int:
        mine = seat_number(ctx.winner, ctx.dealer)
        early = list(_tiles(ctx.extra.get("exposed_at_deal", ())))
        total = 0
        for t in ctx.hand.bonus:
            if t.is_vn_joker:
                at_deal = t in early
                if at_deal:
                    early.remove(t)
                total += joker_phan(t, mine, at_deal=at_deal)
        return total


class ThrownFlower(PhanPattern):
    """003: "Any Flowers discarded will count as a General (Tổng) tile ... the flower
    thrower will pay for everyone at the Mủn value plus any extra Phán"."""

    name, local, value, table = "Thrown Flower", "Hoa đánh ra", Money(MUN), False

    def applies(self, ctx: WinContext) -> bool:
        return bool(ctx.extra.get("thrown_flower"))


_TABLE_ORDER: tuple[PhanPattern, ...] = (
    *_STARRED,
    AllHonors(), PureStraight(), ThirteenOrphans(), BigThreeDragons(),
    BlessingOfHeaven(), BlessingOfEarth(), BlessingOfMan(),
    AllCalledTripletsWithHonors(), NoFlowersHonorsTriplets(),
    AllTripletsWithHonors(), AllCalledTriplets(), AllTripletsTerminals(), NoFlowersOrHonors(),
    FullFlush(), SmallThreeDragons(), AllSequencesWithHonors(), AllTriplets(), AllSequences(),
)
_TABLE: tuple[PhanPattern, ...] = _TABLE_ORDER

VIETNAMESE_PATTERNS: tuple[Pattern, ...] = (
    *_TABLE_ORDER,
    ChickenHand(), LimitWithoutJokers(), LimitWithoutFlowers(), LimitWithFlowers(),
    OwnFlower(), JokersShown(), ThrownFlower(),
)


# -- No Flowers, No Leaves -----------------------------------------------------------------
def _concealed(ctx: WinContext) -> bool:
    return not ctx.exposed


_NFNL_ROWS = (
    "NFNL Concealed All Triplets One Suit", "NFNL One Suit All Triplets", "NFNL Concealed All Triplets",
    "NFNL One Suit", "NFNL All Triplets", "NFNL Concealed Single Wait All Sequences",
)


class NfnlBonus(PhanPattern):
    """003's "Additional Scoring for NFNL hands" when the hand is also valid: one row
    only, the best (listed best first, each row excludes all the others)."""

    table = False
    excludes = _NFNL_ROWS

    def applies(self, ctx: WinContext) -> bool:
        raise NotImplementedError


class NfnlConcealedTripletsOneSuit(NfnlBonus):
    name, local, value = "NFNL Concealed All Triplets One Suit", "Kín, Tui Tui, Một Màu", Money(8 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return _concealed(ctx) and _all_triplets(ctx) and common.is_flush(ctx.tiles)


class NfnlOneSuitTriplets(NfnlBonus):
    name, local, value = "NFNL One Suit All Triplets", "Tui Tui, Một Màu", Money(6 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return _all_triplets(ctx) and common.is_flush(ctx.tiles)


class NfnlConcealedTriplets(NfnlBonus):
    name, local, value = "NFNL Concealed All Triplets", "Kín, Tui Tui", Money(6 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return _concealed(ctx) and _all_triplets(ctx)


class NfnlOneSuit(NfnlBonus):
    name, local, value = "NFNL One Suit", "Một Màu", Money(5 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return common.is_flush(ctx.tiles)


class NfnlAllTriplets(NfnlBonus):
    name, local, value = "NFNL All Triplets", "Tui Tui", Money(4 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        return _all_triplets(ctx)


class NfnlSingleWait(NfnlBonus):
    """003: "Concealed, All Sequences, Waiting for just 1 tile: be it the middle tile of
    the sequence or the pair tile" — the hand before the win had exactly one wait."""

    name, local, value = "NFNL Concealed Single Wait All Sequences", "Kín, Phình, Chờ 1", Money(4 * MUN)

    def applies(self, ctx: WinContext) -> bool:
        if not (_concealed(ctx) and _all_sequences(ctx)) or ctx.win_tile not in ctx.hand.concealed:
            return False
        return len(ctx.ruleset.waits(ctx.hand.remove(ctx.win_tile))) == 1


_NFNL_ORDER: tuple[NfnlBonus, ...] = (
    NfnlConcealedTripletsOneSuit(), NfnlOneSuitTriplets(), NfnlConcealedTriplets(),
    NfnlOneSuit(), NfnlAllTriplets(), NfnlSingleWait(),
)
NFNL_PATTERNS: tuple[Pattern, ...] = _NFNL_ORDER


class Nfnl(PhanPattern):
    """003: "No-Flowers-No-Leaves (Không Hoa Không Lá)": 1 Mủn; "If the player also
    started with no jokers, this is considered a pure NFNL hand" (3 Mủn)."""

    name, local, value, table = "No Flowers No Leaves", "Không Hoa Không Lá", Money(MUN), False


class PureNfnl(Nfnl):
    name, local, value = "Pure No Flowers No Leaves", "Không Hoa Không Lá (thuần)", Money(3 * MUN)


# -- instant payouts -----------------------------------------------------------------------
@dataclass(frozen=True)
class GreenJokerWin(Ambition):
    """003: "If the player discards any 3 jokers of the Green Joker Set, the player can
    go out immediately"; a red joker among them voids it."""

    def problem(self, ruleset: Ruleset, tiles: Sequence[Tile], situation: Mapping[str, object]) -> str:
        text = format_tiles(tiles)
        red = [t for t in tiles if t not in GREEN_JOKERS]
        if red:
            return f"{self.name}: {format_tiles(red)!r} is not a green joker (Thùng, Soọc, Thay, Tổng), in {text!r}"
        if len(tiles) < 3:
            return f"{self.name} needs at least 3 discarded green jokers, got {len(tiles)} in {text!r}"
        return ""


VIETNAMESE_AMBITIONS: tuple[Ambition, ...] = (
    GreenJokerWin("green jokers", "Three Green Jokers Thrown", "Không Hoa Không Lá", Money(64),
                  aliases=("three green jokers", "nfnl green jokers")),
    GreenJokerWin("six green jokers", "Six Green Jokers Thrown", "Không Hoa Không Lá", Money(128)),
)


def _tiles(value: object) -> list[Tile]:
    if isinstance(value, str):
        return parse_tiles(value)
    return [Tile.parse(t) if isinstance(t, str) else Tile(cast(int, t)) for t in cast(Sequence[object], value)]


class VietnameseScoring(ScoringRules):
    """Payout hooks for 003: Phán/Mủn, who pays which column, thrown flowers, NFNL."""

    unit: ClassVar[str] = "Phán"
    currency: ClassVar[str] = "points"  # 003: "for a total of 144 points paid out"
    patterns: ClassVar[tuple[Pattern, ...]] = VIETNAMESE_PATTERNS
    ambitions: ClassVar[tuple[Ambition, ...]] = VIETNAMESE_AMBITIONS
    situation_extras: ClassVar[frozenset[str]] = frozenset(
        {"exposed_at_deal", "discarder_nfnl", "nfnl", "nfnl_pure", "thrown_flower"}
    )

    def _rule(self, name: str) -> object:
        return cast("Ruleset", self).rule(name)

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
        """As ``ScoringRules.score``, plus 003's special wins: a thrown flower (or, from
        an NFNL player, a thrown joker) counts as a Tổng; ``nfnl=True`` scores a
        No-Flowers-No-Leaves hand, which need not be complete.

        >>> from engine.ruleset import find_ruleset
        >>> find_ruleset("vietnamese").score("123m456p789s2z [777m] / 5f", win_tile="5f",
        ...                                  winner="S", discarder="N").payments[Seat.NORTH]
        Fraction(-128, 1)
        """
        parsed = Hand.parse(hand) if isinstance(hand, str) else hand
        tile = Tile.parse(win_tile) if isinstance(win_tile, str) else Tile(win_tile)
        args = dict(winner=winner, self_drawn=self_drawn, discarder=discarder, round_wind=round_wind,
                    dealer=dealer)
        if situation.get("nfnl"):
            return self._score_nfnl(parsed, tile, Seat.parse(winner), self_drawn, discarder, dealer, situation)
        as_general = tile.is_flower or tile.is_royalty or (tile.is_vn_joker and bool(situation.get("discarder_nfnl")))
        if as_general and not self_drawn:
            if tile is not Tile.TONG:
                parsed, tile = _as_general(parsed, tile), Tile.TONG
            situation = {**situation, "thrown_flower": True}
        return super().score(parsed, win_tile=tile, **args, **situation)  # type: ignore[arg-type]

    def dues(self, ctx: WinContext, value: Money) -> dict[Seat, Money]:
        """Discarder: the discarder column; the others: the non-discarder column.
        Self-drawn: table rule ``self_draw``. A thrown flower: the thrower pays it all."""
        remainder = self._rule("phan_remainder") == "paid"
        high = Money(payout(value, discarder=True, remainder=remainder))
        low = Money(payout(value, discarder=False, remainder=remainder))
        if ctx.extra.get("thrown_flower") and ctx.discarder is not None:
            return {ctx.discarder: high + 2 * low}
        if ctx.self_drawn:
            each = high if self._rule("self_draw") == "doubled" else low
            return {seat: each for seat in ctx.payers}
        return {seat: (high if seat is ctx.discarder else low) for seat in ctx.payers}

    def ambition_enabled(self, ambition: Ambition) -> bool:
        return bool(self._rule("nfnl"))

    def instant(
        self,
        kind: str,
        seat: Seat | str,
        *,
        dealer: Seat | str = Seat.EAST,
        tiles: Sequence[Tile] | str = (),
        **situation: object,
    ) -> InstantPayout:
        """As ``ScoringRules.instant``; "Upon discarding the 6th Green joker" the
        green-joker win pays 2 Mủn Doubled (128) from each instead of 64.

        >>> from engine.ruleset import find_ruleset
        >>> find_ruleset("vietnamese").instant("green jokers", "S", tiles="1234j12j").payments[Seat.SOUTH]
        Fraction(384, 1)
        """
        shown = _tiles(tiles)
        if self.find_ambition(kind).kind == "green jokers" and len(shown) >= 6:
            kind = "six green jokers"
        return super().instant(kind, seat, dealer=dealer, tiles=shown, **situation)

    # -- No Flowers, No Leaves -------------------------------------------------------------
    def _score_nfnl(
        self, hand: Hand, tile: Tile, winner: Seat, self_drawn: bool, discarder: Seat | str | None,
        dealer: Seat | str, situation: Mapping[str, object],
    ) -> Score:
        rs = cast("Ruleset", self)
        if not self._rule("nfnl"):
            raise InvalidWinError(f"No Flowers No Leaves is not played at this table (table rule nfnl=False): {hand}")
        by = None if discarder is None else Seat.parse(discarder)
        _check_nfnl(rs, hand, tile, winner, self_drawn, by)
        base = Nfnl() if not situation.get("nfnl_pure") else PureNfnl()
        fields = self._situation(situation)
        extras: list[tuple[Pattern, Money]] = []
        chosen: Arrangement | None = None
        for arrangement in rs.decompositions(hand):
            for group, shape in readings(arrangement, tile):
                ctx = WinContext(
                    ruleset=rs, hand=hand, arrangement=arrangement, win_tile=tile, self_drawn=self_drawn,
                    winner=winner, discarder=by, dealer=Seat.parse(dealer), wait_shapes=frozenset({shape}),
                    win_group=group, **fields,
                )
                found = apply_patterns(NFNL_PATTERNS, ctx)
                if chosen is None or sum(v for _, v in found) > sum(v for _, v in extras):
                    extras, chosen = found, arrangement
        applied = [(cast(Pattern, base), base.value), *extras]
        value = sum((v for _, v in applied), Money(0))
        high, low = Money(payout(value, discarder=True)), Money(payout(value, discarder=False))
        payers = [s for s in Seat if s is not winner]
        # 003: "If the player self-draws, everyone will pay ... Doubled"
        dues = {s: high if self_drawn or s is by else low for s in payers}
        return Score(
            patterns=tuple((p.name, v) for p, v in applied), value=value, unit=self.unit,
            payments=net_payments(winner, dues), winner=winner,
            arrangement=chosen if chosen is not None else Arrangement(Form.STANDARD, ()),
            locals=tuple(p.local for p, _ in applied), currency=self.currency,
        )


def _as_general(hand: Hand, tile: Tile) -> Hand:
    """The hand with the thrown ``tile`` replaced by a Tổng among the concealed tiles."""
    if tile in hand.bonus:
        bonus = list(hand.bonus)
        bonus.remove(tile)
        return Hand(hand.concealed + (Tile.TONG,), hand.melds, tuple(bonus))
    if tile in hand.concealed:
        return hand.remove(tile).add(Tile.TONG)
    return hand.add(Tile.TONG)


def _check_nfnl(rs: Ruleset, hand: Hand, tile: Tile, winner: Seat, self_drawn: bool, by: Seat | None) -> None:
    """003: "must not contain any winds or dragons, does not contain any jokers inside the
    hand or outside the hand (put down for points), and does not have any flowers"."""
    what = f"No Flowers No Leaves hand {str(hand)!r}"
    every = [*hand.concealed, *(t for m in hand.melds for t in m.tiles)]
    if any(t.is_honor for t in every):
        raise InvalidWinError(f"{what} holds a wind or dragon")
    if any(t.is_vn_joker for t in [*every, *hand.bonus]):
        raise InvalidWinError(f"{what} holds a joker")
    if hand.bonus:
        raise InvalidWinError(f"{what} shows flowers {format_tiles(hand.bonus)!r}")
    if not tile.is_suited:
        raise InvalidWinError(f"{what} goes out only on a suit tile, not {tile}")
    if tile not in hand.concealed and not any(tile in m.tiles for m in hand.melds):
        raise InvalidWinError(f"win tile {tile} is not in the hand {str(hand)!r}")
    if hand.tile_count != rs.hand_size + 1:
        raise NotCompleteError(
            f"{what} counts {hand.tile_count} tiles (kangs as three), a winning hand has {rs.hand_size + 1}"
        )
    if self_drawn == (by is not None):
        raise InvalidWinError("give either self_drawn=True or the discarder, not both or neither")
    if by is winner:
        raise InvalidWinError(f"the discarder {by} cannot be the winner")
