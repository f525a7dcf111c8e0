"""South Vietnamese mahjong (doc 003): 160 tiles, eight jokers with their own scopes.

Thùng / Soọc / Thay stand for any dots / bamboo / characters tile, Tổng for
any tile, Hợp for any suited tile, Hỷ for any wind, Nguyên for any dragon,
Hoa for any flower (so never for a tile of a set). Emperors and empresses are
flowers. 13-tile hands, no seven pairs, thirteen orphans. Scoring (Phán and Mủn,
flowers and jokers by seat, thrown flowers, No-Flowers-No-Leaves) comes from
``engine.scoring.vietnam``; the table rules below give 003 a defensible reading
(``docs/rules/vietnamese.md``).

>>> from engine.hand import Hand
>>> rs = Vietnamese()
>>> sum(rs.tiles.values()), rs.is_complete(Hand.parse("123m456p789s11z 55s 2j"))
(160, True)
>>> rs.score("123m456p789s22z [777m]", win_tile="2z", winner="S", discarder="W").total
Fraction(3, 1)
>>> Vietnamese(limit_bonus="always")
Traceback (most recent call last):
...
engine.ruleset.TableRuleError: table rule limit_bonus='always' is not one of 'no_jokers_no_flowers', 'no_jokers_with_flowers', 'none'
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from engine.ruleset import Ruleset, TableRule, TableRuleError, standard_tiles
from engine.scoring.vietnam import VietnameseScoring
from engine.shapes import Form
from engine.tiles import Tile
from engine.variants.filipino import flag

__all__ = ["Vietnamese", "VIETNAMESE_RULES", "SCOPES"]


def _tiles() -> Counter[Tile]:
    c = standard_tiles()
    c.update({Tile(t): 1 for t in range(Tile.THUNG, Tile.EMPRESS4 + 1)})
    return c


def _range(first: int, last: int) -> frozenset[Tile]:
    return frozenset(Tile(t) for t in range(first, last + 1))


SCOPES: dict[Tile, frozenset[Tile]] = {
    Tile.THUNG: _range(Tile.P1, Tile.P9),
    Tile.SOOC: _range(Tile.S1, Tile.S9),
    Tile.THAY: _range(Tile.M1, Tile.M9),
    Tile.TONG: _range(Tile.M1, Tile.SEASON4),  # any tile, flowers included
    Tile.HOA: _range(Tile.FLOWER1, Tile.SEASON4),
    Tile.HY: _range(Tile.EAST, Tile.NORTH),
    Tile.NGUYEN: _range(Tile.WHITE, Tile.RED),
    Tile.HOP: _range(Tile.M1, Tile.S9),
}

VIETNAMESE_RULES: dict[str, TableRule] = {
    "limit_bonus": TableRule(
        "limit_bonus", "no_jokers_no_flowers", ("no_jokers_no_flowers", "no_jokers_with_flowers", "none"),
        "003: '*+1 Mủn if no Jokers are used and/or Flowers are used (up to +2 Mủn)': +1 for no jokers "
        "and +1 for no flowers (default), +1 for no jokers and +1 for a flower shown, or no bonus.",
    ),
    "phan_remainder": TableRule(
        "phan_remainder", "paid", ("paid", "dropped"),
        "Phán left over above whole Mủn: paid on top (003's '128+16' example) or dropped.",
    ),
    "self_draw": TableRule(
        "self_draw", "doubled", ("doubled", "single"),
        "What each player pays on a self-drawn win: the discarder column (as 003's NFNL text) or the other.",
    ),
    "lai_hang": TableRule(
        "lai_hang", "sequences_and_honours", ("sequences_and_honours", "half_flush"),
        "'Lai Hàng' (All Sequences with Honors, 3 Phán; and in Tui Tui Lai Hàng): as 003's English "
        "'only sequences and honor tiles', or one suit with honours (a half flush).",
    ),
    "nfnl": TableRule(
        "nfnl", True, (True, False), "Play No-Flowers-No-Leaves and its automatic green-joker wins.", flag,
    ),
}


class Vietnamese(VietnameseScoring, Ruleset):
    name: ClassVar[str] = "vietnamese"
    aliases: ClassVar[tuple[str, ...]] = ("south-vietnamese", "vietnam")
    hand_size: ClassVar[int] = 13
    tiles: ClassVar[Counter[Tile]] = _tiles()
    forms: ClassVar[frozenset[Form]] = frozenset({Form.STANDARD, Form.THIRTEEN_ORPHANS})
    table_rules: ClassVar[dict[str, TableRule]] = VIETNAMESE_RULES
    presets: ClassVar[dict[str, dict[str, object]]] = {"default": {}, "003": {}}

    def joker_scope(self, tile: Tile) -> frozenset[Tile]:
        return SCOPES.get(tile, frozenset())

    @classmethod
    def preset(cls, name: str, **overrides: object) -> Ruleset:
        """A named bundle of table rules, overridable one rule at a time.

        >>> Vietnamese.preset("003", self_draw="single")
        find_ruleset('vietnamese', self_draw='single')
        """
        if name not in cls.presets:
            raise TableRuleError(f"{cls.name} has no preset {name!r} (known: {', '.join(cls.presets)})")
        return cls(**{**cls.presets[name], **overrides})
