"""Singaporean scoring (doc 004): the tai table, the 5/10-tai limits, the minimum,
the discard and self-pick payout tables, bao, and the instant payouts.

One class per row of 004's "Point Value Table"; where rows overlap or the text is
garbled a table rule decides (``docs/rules/singapore.md``).

>>> from engine.ruleset import find_ruleset
>>> rs = find_ruleset("singapore")
>>> s = rs.score("123m456p222z99p [777z]", win_tile="9p", winner="S", discarder="W")
>>> s.patterns, s.value, s.unit
((('Dragon Pung', Fraction(1, 1)), ('Seat Wind Pung', Fraction(1, 1))), Fraction(2, 1), 'tai')
>>> [int(s.payments[seat]) for seat in Seat]
[-2, 8, -4, -2]
>>> base_payment(5), base_payment(10)
(Fraction(16, 1), Fraction(32, 1))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

from engine.hand import Meld, MeldKind
from engine.scoring import common
from engine.scoring.ambition import Ambition, normalize_kind
from engine.scoring.context import WinContext
from engine.scoring.errors import InvalidAmbitionError
from engine.scoring.money import Money
from engine.scoring.pattern import Pattern
from engine.scoring.result import InstantPayout
from engine.scoring.rules import ScoringRules
from engine.seats import Seat
from engine.shapes import Form, Group, GroupKind
from engine.tiles import Tile, format_tiles, parse_tiles

if TYPE_CHECKING:
    from engine.ruleset import Ruleset

__all__ = [
    "SingaporeScoring",
    "SINGAPORE_PATTERNS",
    "SINGAPORE_AMBITIONS",
    "base_payment",
    "seat_number",
    "seat_wind",
    "own_flowers",
    "honours_worth_tai",
    "shown_tai",
]

LIMIT, GREAT_LIMIT = 5, 10
_PUNGLIKE = (GroupKind.PUNG, GroupKind.KANG)
_WINDS = frozenset({Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH})
_DRAGONS = frozenset({Tile.WHITE, Tile.GREEN, Tile.RED})
_GREEN = frozenset({Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN})


def base_payment(tai: int | Money) -> Money:
    """What each non-discarder pays on a discard win (004's first payout table).

    The discarder pays twice this; on a self-pick every player pays twice this.

    >>> [int(base_payment(t)) for t in (1, 2, 3, 4, 5, 10)]
    [1, 2, 4, 8, 16, 32]
    """
    tai = int(tai)
    if tai >= GREAT_LIMIT:
        return Money(32)
    return Money(2) ** (min(tai, LIMIT) - 1)


def seat_number(winner: Seat, dealer: Seat) -> int:
    """1 for the dealer (East), 2 for the next seat, ...: the number on "your" flower.

    >>> seat_number(Seat.NORTH, Seat.WEST), seat_number(Seat.EAST, Seat.EAST)
    (2, 1)
    """
    return winner.relative_to(dealer) + 1


def seat_wind(winner: Seat, dealer: Seat) -> Tile:
    """The wind a seat holds this hand: the dealer is East.

    >>> seat_wind(Seat.SOUTH, Seat.SOUTH)
    Tile.EAST
    """
    return Tile(Tile.EAST + winner.relative_to(dealer))


def own_flowers(seat: Seat, dealer: Seat) -> frozenset[Tile]:
    """The flower and season numbered with ``seat`` (counted from the dealer): a flower bitten.

    >>> sorted(own_flowers(Seat.SOUTH, Seat.EAST)), sorted(own_flowers(Seat.EAST, Seat.WEST))
    ([Tile.FLOWER2, Tile.SEASON2], [Tile.FLOWER3, Tile.SEASON3])
    """
    n = seat_number(seat, dealer)
    return frozenset({Tile(Tile.FLOWER1 + n - 1), Tile(Tile.SEASON1 + n - 1)})


def _honour_tai(seat: Seat, dealer: Seat, round_wind: Seat) -> Counter[Tile]:
    """What a pung of each honour scores ``seat``: a dragon 1 (Dragon Pung), its seat wind 1
    (Seat Wind Pung), the prevailing wind 1 (Prevailing Wind Pung); a wind that is both, 2."""
    return Counter([*_DRAGONS, seat_wind(seat, dealer), round_wind.wind])


def honours_worth_tai(seat: Seat, dealer: Seat, round_wind: Seat) -> frozenset[Tile]:
    """The honours whose pung scores ``seat`` a tai: the dragons, its seat wind and the
    prevailing wind (004's bao row: "A dragon, prevailing wind, or seat wind").

    >>> sorted(honours_worth_tai(Seat.SOUTH, Seat.EAST, Seat.EAST))
    [Tile.EAST, Tile.SOUTH, Tile.WHITE, Tile.GREEN, Tile.RED]
    """
    return frozenset(_honour_tai(seat, dealer, round_wind))


def _flowers_scored(bonus: Sequence[Tile], seat: Seat, dealer: Seat, flowers: object) -> int:
    """The flowers and seasons among ``bonus`` that score ``seat`` a tai (table rule
    ``flowers``: ``seat``, those numbered with its seat; ``every``, all)."""
    mine = seat_number(seat, dealer)
    return sum(1 for t in bonus if t.is_flower and (flowers == "every" or t.seat_number == mine))


def shown_tai(melds: Sequence[Meld], bonus: Sequence[Tile], seat: Seat, dealer: Seat, round_wind: Seat,
              flowers: str = "seat") -> int:
    """The tai ``seat`` already shows on the table, as the point table counts them at the
    win (004's bao row: "4 or more tai visible in melded animals/flowers/seasons or honor
    pungs"): 1 an animal, 1 a flower counted (table rule ``flowers``: the seat's own number,
    or ``every``), 1 a dragon pung, 1 a pung of the seat wind and 1 of the prevailing wind
    (2 for a pung of both). Every meld laid down counts, a concealed kang too.

    >>> pung = lambda t: Meld(MeldKind.PUNG, (Tile.parse(t),) * 3, Tile.parse(t), 2)
    >>> bonus = parse_tiles("1f 2f 5f 1a")  # East's own flower and season, another flower, the cat
    >>> shown_tai([pung("7z"), pung("1z")], bonus, Seat.EAST, Seat.EAST, Seat.EAST)
    6
    >>> shown_tai([pung("7z"), pung("1z")], bonus, Seat.SOUTH, Seat.EAST, Seat.EAST, "every")
    6
    """
    worth = _honour_tai(seat, dealer, round_wind)
    pungs = sum(worth[m.tiles[0]] for m in melds if m.kind is MeldKind.PUNG or m.kind.is_kang)
    return pungs + _flowers_scored(bonus, seat, dealer, flowers) + _animals(bonus)


def _pungs(ctx: WinContext) -> list[Group]:
    return [g for g in ctx.sets if g.kind in _PUNGLIKE]


def _pung_tiles(ctx: WinContext) -> list[Tile]:
    return [g.tiles[0] for g in _pungs(ctx)]


def _all_pungs(ctx: WinContext) -> bool:
    return ctx.form is Form.STANDARD and len(_pungs(ctx)) == len(ctx.sets)


def _all_chows(ctx: WinContext) -> bool:
    return ctx.form is Form.STANDARD and all(g.kind is GroupKind.CHOW for g in ctx.sets)


def _pair_in(ctx: WinContext, tiles: frozenset[Tile]) -> bool:
    pair = ctx.arrangement.pair
    return pair is not None and pair.tiles[0] in tiles


def _animals(bonus: Sequence[Tile]) -> int:
    """The animals among ``bonus``: a tai each (004: "1 (per animal)")."""
    return sum(1 for t in bonus if t.is_animal)


class TaiPattern(Pattern):
    """A row of the point table. ``limit`` marks the limit hands; ``bonus`` the
    flower and animal rows the minimum leaves out ("excluding flowers, animal tiles")."""

    limit: ClassVar[int] = 0
    bonus: ClassVar[bool] = False


# -- 10-tai limits -----------------------------------------------------------------------
class ThreeGreatScholars(TaiPattern):
    """004: "Pong/Kong of all three Dragon tiles" (limit, 10 points)."""

    name, local, value, limit = "Three Great Scholars", "大三元", Money(10), GREAT_LIMIT
    excludes = ("Three Lesser Scholars",)
    rule = ("great_honours", ("limit",))

    def applies(self, ctx: WinContext) -> bool:
        return sum(t in _DRAGONS for t in _pung_tiles(ctx)) == 3


class FourGreatBlessings(TaiPattern):
    """004: "Pong/Kong of all four Wind tiles" (limit, 10 points)."""

    name, local, value, limit = "Four Great Blessings", "大四喜", Money(10), GREAT_LIMIT
    excludes = ("Four Lesser Blessings",)
    rule = ("great_honours", ("limit",))

    def applies(self, ctx: WinContext) -> bool:
        return sum(t in _WINDS for t in _pung_tiles(ctx)) == 4


class AllDragonGame(ThreeGreatScholars):
    """004: "All Dragon Game ... a PONG or KONG of all three Dragon tiles" (2), at
    tables that do not play the 10-tai limit (``great_honours="points"``)."""

    name, value, limit = "All Dragon Game", Money(2), 0
    rule = ("great_honours", ("points",))


class AllWindGame(FourGreatBlessings):
    """004: "All Wind Game ... a PONG or KONG of all four Wind tiles" (3)."""

    name, value, limit = "All Wind Game", Money(3), 0
    rule = ("great_honours", ("points",))


# -- 5-tai limits ------------------------------------------------------------------------
class HiddenTreasure(TaiPattern):
    """004: "Triplets hand with all triplets hidden (concealed)". A pung finished by
    a discard is not hidden, so a discard win must complete the eye."""

    name, local, value, limit = "Hidden Treasure", "四暗刻", Money(5), LIMIT

    def applies(self, ctx: WinContext) -> bool:
        if not _all_pungs(ctx) or not all(g.concealed for g in ctx.sets):
            return False
        return ctx.self_drawn or (ctx.win_group is not None and ctx.win_group.kind is GroupKind.PAIR)


class NineGates(TaiPattern):
    """004: "Nine specific tiles from the same suit": 1112345678999 plus any one."""

    name, local, value, limit = "Nine Gates", "九莲宝灯", Money(5), LIMIT

    def applies(self, ctx: WinContext) -> bool:
        tiles = ctx.tiles
        if ctx.declared or not common.is_flush(tiles):
            return False
        counts = [0] * 10
        for t in tiles:
            counts[t.number] += 1
        return counts[1] >= 3 and counts[9] >= 3 and all(counts[n] >= 1 for n in range(2, 9))


class ThirteenWonders(TaiPattern):
    """004: "One and nine of each suit plus each unique Honor tile and an pair"."""

    name, local, value, limit = "13 Wonders", "十三幺", Money(5), LIMIT
    excludes = ("Mixed Terminals", "Half Ones and Nines Game")

    def applies(self, ctx: WinContext) -> bool:
        return ctx.form is Form.THIRTEEN_ORPHANS


class PureTerminals(TaiPattern):
    """004: "Pure Terminals: Ones and nines only" (limit), the same hand as "All Ones
    and Nines Game: Mahjong with ones and nines only" (5): counted once."""

    name, local, value, limit = "Pure Terminals", "清幺九", Money(5), LIMIT
    excludes = ("Mixed Terminals", "Half Ones and Nines Game")

    def applies(self, ctx: WinContext) -> bool:
        return all(t.is_terminal for t in ctx.tiles)


class AllHonors(TaiPattern):
    """004: "Honor tiles only (winds and dragons)"."""

    name, local, value, limit = "All Honors", "字一色", Money(5), LIMIT

    def applies(self, ctx: WinContext) -> bool:
        return all(t.is_honor for t in ctx.tiles)


class FourKongs(TaiPattern):
    """004: "Eighteen Arhats/Four Kongs: Four kongs"."""

    name, local, value, limit = "Four Kongs", "十八罗汉", Money(5), LIMIT

    def applies(self, ctx: WinContext) -> bool:
        return sum(g.kind is GroupKind.KANG for g in ctx.sets) == 4


class HeavenlyHand(TaiPattern):
    """004: "Dealer wins on the first drawn tile"."""

    name, local, value, limit = "Heavenly Hand", "天胡", Money(5), LIMIT

    def applies(self, ctx: WinContext) -> bool:
        return ctx.first_round and ctx.self_drawn and ctx.winner_is_dealer


class EarthlyHand(TaiPattern):
    """004: "Non-dealer wins on the dealer's first discarded tile"."""

    name, local, value, limit = "Earthly Hand", "地胡", Money(5), LIMIT
    excludes = ("Humanly Hand",)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.first_round and not ctx.self_drawn and ctx.discarder is ctx.dealer


class HumanlyHand(TaiPattern):
    """004: "Non-dealer wins within the first round of discards without anyone
    forming a meld" (``first_round``: nobody has called, nobody has played twice)."""

    name, local, value, limit = "Humanly Hand", "人胡", Money(5), LIMIT

    def applies(self, ctx: WinContext) -> bool:
        return ctx.first_round and not ctx.winner_is_dealer


# -- 4 tai -------------------------------------------------------------------------------
class PingWu(TaiPattern):
    """004: "Ping Wu Game: All Chow game with no flower or animal tiles" (4); the
    row "Sequence Hand: Four sequences and a pair" (4) is read as its other name."""

    name, local, value = "Ping Wu Game", "清平胡", Money(4)
    excludes = ("All Chow Game",)
    rule = ("all_chows", ("ping_wu",))

    def applies(self, ctx: WinContext) -> bool:
        return _all_chows(ctx) and not any(t.is_flower or t.is_animal for t in ctx.hand.bonus)


class FullColor(TaiPattern):
    """004: "Mahjong with one suit only"."""

    name, local, value = "Full Color Game", "清一色", Money(4)
    excludes = ("Half Color Game",)

    def applies(self, ctx: WinContext) -> bool:
        return common.is_flush(ctx.tiles)


class MixedTerminals(TaiPattern):
    """004: "Mixed Terminals: Ones and nines combined with Honor tiles" — every tile a
    terminal or an honour, both present."""

    name, local, value = "Mixed Terminals", "混幺九", Money(4)
    excludes = ("Half Ones and Nines Game",)

    def applies(self, ctx: WinContext) -> bool:
        tiles = ctx.tiles
        return (
            all(t.is_terminal or t.is_honor for t in tiles)
            and any(t.is_terminal for t in tiles)
            and any(t.is_honor for t in tiles)
        )


class PureGreen(TaiPattern):
    """004: "Consisting only of 2, 3, 4, 6, 8 of Bamboo and Green Dragon"."""

    name, local, value = "Pure Green Suit", "绿一色", Money(4)

    def applies(self, ctx: WinContext) -> bool:
        return all(t in _GREEN for t in ctx.tiles)


class FourLesserBlessings(TaiPattern):
    """004: "Pongs or Kongs of three Wind tiles and an eye of the fourth Wind tile"."""

    name, local, value = "Four Lesser Blessings", "小四喜", Money(4)

    def applies(self, ctx: WinContext) -> bool:
        return sum(t in _WINDS for t in _pung_tiles(ctx)) == 3 and _pair_in(ctx, _WINDS)


# -- 3 and 2 tai -------------------------------------------------------------------------
class ThreeLesserScholars(TaiPattern):
    """004: "PONG/KONG of two Dragon tiles and an eye of the third Dragon tile"."""

    name, local, value = "Three Lesser Scholars", "小三元", Money(3)

    def applies(self, ctx: WinContext) -> bool:
        return sum(t in _DRAGONS for t in _pung_tiles(ctx)) == 2 and _pair_in(ctx, _DRAGONS)


class AllPong(TaiPattern):
    """004: "All Pong Game: One pair and four PONGs or KONGs"."""

    name, local, value = "All Pong Game", "对对胡", Money(2)

    def applies(self, ctx: WinContext) -> bool:
        return _all_pungs(ctx)


class TripletsHand(AllPong):
    """004: "Triplets Hand: Four triplets and a pair of eyes" — the same hand as All
    Pong Game; it adds only at tables that count both rows (``all_pungs="both"``)."""

    name, local = "Triplets Hand", "碰碰胡"
    rule = ("all_pungs", ("both",))


class HalfColor(TaiPattern):
    """004: "Mahjong with one suit combined with Honor Suit tiles"."""

    name, local, value = "Half Color Game", "混一色", Money(2)

    def applies(self, ctx: WinContext) -> bool:
        tiles = ctx.tiles
        suits = {t.suit for t in tiles if t.is_suited}
        return len(suits) == 1 and any(t.is_honor for t in tiles)


# -- 1 tai -------------------------------------------------------------------------------
class DragonPung(TaiPattern):
    """004: "Triplet of Dragon Tile" — 1 per dragon pung or kang."""

    name, local, value = "Dragon Pung", "中发白", Money(1)

    def count(self, ctx: WinContext) -> int:
        return sum(t in _DRAGONS for t in _pung_tiles(ctx))


class SeatWindPung(TaiPattern):
    """004: "Triplet of Seat Wind" — the winner's wind counted from the dealer."""

    name, local, value = "Seat Wind Pung", "门风", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        return seat_wind(ctx.winner, ctx.dealer) in _pung_tiles(ctx)


class PrevailingWindPung(TaiPattern):
    """004: "Triplet of Prevailing Wind"."""

    name, local, value = "Prevailing Wind Pung", "圈风", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.round_wind.wind in _pung_tiles(ctx)


class Flower(TaiPattern):
    """004: "1 (per flower) All Flowers & Seasons". Table rule ``flowers``: ``seat``
    counts the flower and season numbered with the winner's seat; ``every`` all."""

    name, local, value, bonus = "Flower", "花", Money(1), True

    def count(self, ctx: WinContext) -> int:
        return _flowers_scored(ctx.hand.bonus, ctx.winner, ctx.dealer, ctx.ruleset.rule("flowers"))


class Animal(TaiPattern):
    """004: "1 (per animal) All Animal Tiles"."""

    name, local, value, bonus = "Animal", "动物", Money(1), True

    def count(self, ctx: WinContext) -> int:
        return _animals(ctx.hand.bonus)


class AllChowGame(TaiPattern):
    """004: "All Chow Game: One pair and four CHOWs"."""

    name, local, value = "All Chow Game", "平胡", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        return _all_chows(ctx)


class ReplacementTile(TaiPattern):
    """004: "Winning by drawing a tile to replace a flower or kong"."""

    name, local, value = "Winning on Replacement Tile", "杠上开花", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.kang_replacement


class RobbingTheKong(TaiPattern):
    """004: "Winning by taking a tile that an opponent used to declare a kong"."""

    name, local, value = "Robbing the Kong", "抢杠", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.robbing_kang


class LastTile(TaiPattern):
    """004: "Winning with the last available tile"."""

    name, local, value = "Winning on Last Tile", "海底捞月", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        return ctx.last_tile


class HalfOnesAndNines(TaiPattern):
    """004: "Half Ones and Nines Game: Ones and nines combined with Honor Suit tiles"
    (1) — read as every set and the eye holding a terminal or honour, with chows
    (the all-pung form is Mixed Terminals, 4) and at least one honour."""

    name, local, value = "Half Ones and Nines Game", "混全带幺", Money(1)

    def applies(self, ctx: WinContext) -> bool:
        if ctx.form is not Form.STANDARD:
            return False
        groups = ctx.groups
        return (
            all(any(t.is_terminal or t.is_honor for t in g.tiles) for g in groups)
            and any(g.kind is GroupKind.CHOW for g in groups)
            and any(t.is_honor for t in ctx.tiles)
        )


class FullyConcealed(common.ConcealedHand, TaiPattern):
    """004: "Winning with no exposed tiles except flowers/animals" (a concealed kang is
    laid face down, not exposed)."""

    name, local, value = "Fully Concealed Hand", "门前清", Money(1)


SINGAPORE_PATTERNS: tuple[Pattern, ...] = (
    ThreeGreatScholars(), FourGreatBlessings(), AllDragonGame(), AllWindGame(),
    HiddenTreasure(), NineGates(), ThirteenWonders(), PureTerminals(), AllHonors(), FourKongs(),
    HeavenlyHand(), EarthlyHand(), HumanlyHand(),
    PingWu(), FullColor(), MixedTerminals(), PureGreen(), FourLesserBlessings(),
    ThreeLesserScholars(), AllPong(), TripletsHand(), HalfColor(),
    DragonPung(), SeatWindPung(), PrevailingWindPung(), Flower(), Animal(), AllChowGame(),
    ReplacementTile(), RobbingTheKong(), LastTile(), HalfOnesAndNines(), FullyConcealed(),
)


# -- instant payouts ---------------------------------------------------------------------
_BITTEN_PAIRS = (frozenset({Tile.CAT, Tile.RAT}), frozenset({Tile.ROOSTER, Tile.CENTIPEDE}))


@dataclass(frozen=True)
class TileSetAmbition(Ambition):
    """An ambition declared by showing one exact set of bonus tiles (``wanted``, any
    one of them); ``at_deal_double``: worth twice as much "at the start of the game"."""

    wanted: tuple[frozenset[Tile], ...] = ()
    at_deal_double: bool = False

    def problem(self, ruleset: Ruleset, tiles: Sequence[Tile], situation: Mapping[str, object]) -> str:
        if not tiles or not self.wanted or frozenset(tiles) in self.wanted and len(tiles) == len(set(tiles)):
            return super().problem(ruleset, tiles, situation)
        choices = " or ".join(repr(format_tiles(w)) for w in self.wanted)
        return f"{self.name} is {choices}, got {format_tiles(tiles)!r}"


SINGAPORE_AMBITIONS: tuple[Ambition, ...] = (
    TileSetAmbition("bitten", "Bitten", "咬", Money(2), aliases=("bitten on open",),
                    wanted=_BITTEN_PAIRS, at_deal_double=True),
    TileSetAmbition("flower bitten", "Flower Bitten", "花咬", Money(2),
                    aliases=("flower bitten on open",), at_deal_double=True),
    TileSetAmbition("four red flowers", "4 Red Flowers", "四花", Money(4), aliases=("four flowers",),
                    wanted=(frozenset(parse_tiles("1234f")),)),
    TileSetAmbition("four blue flowers", "4 Blue Flowers", "四季", Money(4), aliases=("four seasons",),
                    wanted=(frozenset(parse_tiles("5678f")),)),
    Ambition("open kang", "Open Kang", "明杠", Money(1), gift=True, shape="kang",
             aliases=("kang", "added kang", "kong", "open kong", "sagasa")),
    Ambition("concealed kang", "Concealed Kang", "暗杠", Money(2), gift=True, shape="kang",
             aliases=("secret", "concealed kong")),
    TileSetAmbition("all animals", "Complete Set of Animals", "四动物", Money(4),
                    aliases=("complete set of animals",), wanted=(frozenset(parse_tiles("1234a")),)),
    TileSetAmbition("eight flowers", "Eight Flowers", "花胡", base_payment(LIMIT) * 2,
                    aliases=("eight flower suit tile game",), wanted=(frozenset(parse_tiles("12345678f")),)),
)
_ALWAYS = frozenset({"eight flowers"})  # a win, not an optional instant payout


class SingaporeScoring(ScoringRules):
    """Payout hooks for 004: tai capped at the limits, the minimum, the payout tables."""

    unit: ClassVar[str] = "tai"
    currency: ClassVar[str] = "S$"  # 004's payout tables: "S$1 S$2 S$4"
    patterns: ClassVar[tuple[Pattern, ...]] = SINGAPORE_PATTERNS
    ambitions: ClassVar[tuple[Ambition, ...]] = SINGAPORE_AMBITIONS
    situation_extras: ClassVar[frozenset[str]] = frozenset({"locked_discard", "at_deal", "holder", "liable"})

    def _rule(self, name: str) -> object:
        return cast("Ruleset", self).rule(name)

    def hand_value(self, ctx: WinContext, applied: Sequence[tuple[Pattern, Money]]) -> Money:
        """The sum of the tai, capped at 5; 10 for a 10-tai limit hand."""
        if any(_limit(p) == GREAT_LIMIT for p, _ in applied):
            return Money(GREAT_LIMIT)
        return min(sum((v for _, v in applied), Money(0)), Money(LIMIT))

    def win_problem(self, ctx: WinContext, applied: Sequence[tuple[Pattern, Money]], value: Money) -> str:
        if ctx.extra.get("locked_discard") and not ctx.self_drawn:
            return f"locked discard: the winner threw {ctx.win_tile} earlier and may only self-draw it"
        minimum = cast(int, self._rule("min_tai"))
        with_bonus = bool(self._rule("min_tai_counts_bonus"))
        counted = sum((v for p, v in applied if with_bonus or not _is_bonus(p)), Money(0))
        if counted < minimum:
            aside = "" if with_bonus else " excluding flowers and animals"
            return f"needs at least {minimum} tai{aside} to win, has {counted}"
        return ""

    def dues(self, ctx: WinContext, value: Money) -> dict[Seat, Money]:
        """004's tables: discard win — each non-winner the base, the discarder twice;
        self-pick — everyone twice the base. Bao: the liable seat pays it all."""
        base = base_payment(value)
        if ctx.self_drawn:
            owed = {seat: 2 * base for seat in ctx.payers}
        else:
            owed = {seat: (2 * base if seat is ctx.discarder else base) for seat in ctx.payers}
        if ctx.liable is not None and self._rule("bao"):
            return _all_on(ctx.liable, owed)
        return owed

    # -- instant payouts -------------------------------------------------------------------
    def ambition_enabled(self, ambition: Ambition) -> bool:
        return ambition.kind in _ALWAYS or bool(self._rule("instant_payouts"))

    def instant(
        self,
        kind: str,
        seat: Seat | str,
        *,
        dealer: Seat | str = Seat.EAST,
        tiles: Sequence[Tile] | str = (),
        **situation: object,
    ) -> InstantPayout:
        """As ``ScoringRules.instant``; a flower bitten must show the declarer's own
        flower and season (their number is the seat's, counted from the dealer).

        >>> from engine.ruleset import find_ruleset
        >>> rs = find_ruleset("singapore")
        >>> rs.instant("flower bitten", "S", tiles="2f6f").payments[Seat.SOUTH]
        Fraction(6, 1)
        >>> rs.instant("Bitten on open", "S", tiles="1a2a").payments[Seat.EAST]
        Fraction(-4, 1)
        """
        ambition = self.find_ambition(kind)
        if normalize_kind(kind).endswith(" on open"):  # 004's "Bitten (On Open)" rows
            situation = {**situation, "at_deal": True}
        if ambition.kind == "flower bitten" and tiles:
            own = sorted(own_flowers(Seat.parse(seat), Seat.parse(dealer)))
            shown = parse_tiles(tiles) if isinstance(tiles, str) else list(tiles)
            if sorted(shown) != own:
                n = seat_number(Seat.parse(seat), Seat.parse(dealer))
                raise InvalidAmbitionError(
                    f"Flower Bitten for {Seat.parse(seat)} (seat {n}) is {format_tiles(own)!r}, "
                    f"got {format_tiles(shown)!r}"
                )
        return super().instant(kind, seat, dealer=dealer, tiles=tiles, **situation)

    def bonus_instants(
        self, bonus: Sequence[Tile], seat: Seat | str, dealer: Seat | str = Seat.EAST
    ) -> list[tuple[str, tuple[Tile, ...]]]:
        """The instant payouts ``seat``'s shown bonus tiles earn, as (kind, tiles) for
        ``instant``: each bitten pair, the seat's own flower bitten, each colour of four
        flowers, the complete set of animals (paid on top of the bittens, 004's footnote).
        The referee asks this, so it pays exactly what this table defines.

        >>> from engine.ruleset import find_ruleset
        >>> [k for k, _ in find_ruleset("singapore").bonus_instants(parse_tiles("1234a2f6f"), "S")]
        ['bitten', 'bitten', 'flower bitten', 'all animals']
        """
        shown = frozenset(bonus)
        who, first = Seat.parse(seat), Seat.parse(dealer)
        found: list[tuple[str, tuple[Tile, ...]]] = []
        for ambition in self.ambitions:
            if not isinstance(ambition, TileSetAmbition) or ambition.kind in _ALWAYS:
                continue
            if not self.ambition_enabled(ambition):
                continue
            wanted = ambition.wanted or (own_flowers(who, first),)  # flower bitten: the seat's own
            found += [(ambition.kind, tuple(sorted(w))) for w in wanted if w <= shown]
        return found

    def instant_dues(
        self, ambition: Ambition, seat: Seat, dealer: Seat, amount: Money, situation: Mapping[str, object]
    ) -> dict[Seat, Money]:
        """Each other player pays the value ("On Open": twice); ``holder`` (eight flowers)
        or ``liable`` (a kang fed in the last tiles) pays all three shares."""
        if isinstance(ambition, TileSetAmbition) and ambition.at_deal_double and situation.get("at_deal"):
            amount *= 2
        owed = {s: amount for s in Seat if s is not seat}
        for key in ("holder", "liable"):
            payer = situation.get(key)
            if payer is not None and (key == "holder" or self._rule("bao")):
                return _all_on(Seat.parse(cast(str, payer)), owed)
        return owed


def _limit(pattern: Pattern) -> int:
    return pattern.limit if isinstance(pattern, TaiPattern) else 0


def _is_bonus(pattern: Pattern) -> bool:
    return isinstance(pattern, TaiPattern) and pattern.bonus


def _all_on(payer: Seat, owed: Mapping[Seat, Money]) -> dict[Seat, Money]:
    """Pay-for-all: ``payer`` owes the total (the framework refuses the winner as payer)."""
    total = sum(owed.values(), Money(0))
    return {payer: total} if payer in owed else {payer: total, **{s: Money(0) for s in owed}}
