"""Singaporean mahjong (doc 004): 148 tiles with the four animals, 13-tile hands.

No seven pairs; thirteen wonders (orphans) is a winning form. Scoring (the tai
table, limits, minimum, payout tables, bao, instant payouts) comes from
``engine.scoring.singapore``; the table rules below settle where 004 is garbled
or overlaps itself (``docs/rules/singapore.md``).

>>> from engine.hand import Hand
>>> rs = Singapore()
>>> sum(rs.tiles.values()), [str(w) for w in rs.waits(Hand.parse("19m19p19s1234567z"))][:3]
(148, ['1m', '9m', '1p'])
>>> rs.score("111z234m567m55s [888p]", win_tile="5s", winner="E", self_drawn=True).total
Fraction(12, 1)
>>> Singapore.preset("004")
find_ruleset('singapore', min_tai=2)
>>> Singapore(flowers="all")
Traceback (most recent call last):
...
engine.ruleset.TableRuleError: table rule flowers='all' is not one of 'seat', 'every'
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from engine.ruleset import Ruleset, TableRule, TableRuleError, standard_tiles
from engine.scoring.singapore import SingaporeScoring
from engine.shapes import Form
from engine.tiles import Tile
from engine.variants.filipino import count, flag

__all__ = ["Singapore", "SINGAPORE_RULES"]


def _tiles() -> Counter[Tile]:
    c = standard_tiles()
    c.update({Tile.CAT: 1, Tile.RAT: 1, Tile.ROOSTER: 1, Tile.CENTIPEDE: 1})
    return c


_YES_NO = (True, False)

SINGAPORE_RULES: dict[str, TableRule] = {
    "min_tai": TableRule(
        "min_tai", 1, (1, 2, 3, 4, 5),
        "Tai needed to win. 004: 'a two point minimum'; most tables play one.", count,
    ),
    "min_tai_counts_bonus": TableRule(
        "min_tai_counts_bonus", False, _YES_NO,
        "Whether flower and animal tai count toward the minimum (004: 'excluding flowers, animal tiles').",
        flag,
    ),
    "flowers": TableRule(
        "flowers", "seat", ("seat", "every"),
        "Which flowers score 1 tai: the winner's own-numbered flower and season (seat) or every one (every).",
    ),
    "all_pungs": TableRule(
        "all_pungs", "once", ("once", "both"),
        "All Pong Game (2) and Triplets Hand (2) are one hand (once) or both rows count (both).",
    ),
    "all_chows": TableRule(
        "all_chows", "ping_wu", ("ping_wu", "all_chow_only"),
        "All chows without flowers or animals is Ping Wu, 4 tai (ping_wu), or always All Chow Game, 1.",
    ),
    "great_honours": TableRule(
        "great_honours", "limit", ("limit", "points"),
        "Pungs of all dragons / all winds: the 10-tai limits (limit) or All Dragon Game 2 / All Wind Game 3.",
    ),
    "instant_payouts": TableRule(
        "instant_payouts", True, _YES_NO,
        "004: 'Instant Payouts are an optional rule' (bitten, flower bitten, kangs, animals).", flag,
    ),
    "bao": TableRule(
        "bao", True, _YES_NO, "Pay-for-all: the liable seat pays the whole hand (situation liable=...).", flag,
    ),
}


class Singapore(SingaporeScoring, Ruleset):
    name: ClassVar[str] = "singapore"
    aliases: ClassVar[tuple[str, ...]] = ("singaporean",)
    hand_size: ClassVar[int] = 13
    tiles: ClassVar[Counter[Tile]] = _tiles()
    forms: ClassVar[frozenset[Form]] = frozenset({Form.STANDARD, Form.THIRTEEN_ORPHANS})
    table_rules: ClassVar[dict[str, TableRule]] = SINGAPORE_RULES
    presets: ClassVar[dict[str, dict[str, object]]] = {
        "default": {},
        "004": {"min_tai": 2},  # the document as printed
    }

    @classmethod
    def preset(cls, name: str, **overrides: object) -> Ruleset:
        """A named bundle of table rules, overridable one rule at a time.

        >>> Singapore.preset("004", min_tai_counts_bonus=True).rule("min_tai")
        2
        """
        if name not in cls.presets:
            raise TableRuleError(f"{cls.name} has no preset {name!r} (known: {', '.join(cls.presets)})")
        return cls(**{**cls.presets[name], **overrides})
