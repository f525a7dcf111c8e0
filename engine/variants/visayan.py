"""Visayan mahjong (doc 000): Filipino play with winds and dragons as playable tiles.

Beauty (one of each dragon) and NEWS (one of each wind) are declared special
báhay that count as sets; only flowers and seasons are laid aside. Payouts are
Filipino's, without thirteen flowers, with Beauty and NEWS as first-round
ambitions and 000's wait payouts (back to back, single, paníngit).

>>> from engine.hand import Hand
>>> rs = Visayan()
>>> rs.is_bonus(Tile.EAST), rs.is_complete(Hand.parse("123m456p789s11z [567z] [1234z]"))
(False, True)
>>> rs.instant("NEWS", "W", tiles="1234z").payments[Seat.WEST], rs.instant("news", "W").gift
(Fraction(3, 4), True)
>>> "thirteen flowers" in rs.instant_kinds
False
"""

from __future__ import annotations

from typing import ClassVar

from engine.hand import MeldKind
from engine.ruleset import TableRule
from engine.scoring.filipino import VisayanScoring
from engine.seats import Seat  # noqa: F401  (doctest)
from engine.tiles import Tile
from engine.variants.filipino import FILIPINO_RULES, Filipino, flag

__all__ = ["Visayan"]


def _visayan_rules() -> dict[str, TableRule]:
    rules = dict(FILIPINO_RULES)
    rules["seven_pairs"] = TableRule(
        "seven_pairs", "pair_plus_pung", ("pair_plus_pung", "pair_plus_any_set"),
        "Seven pairs plus a pung (doc 000's payout table).",
    )
    rules["wait_payouts"] = TableRule(
        "wait_payouts", "visayan", rules["wait_payouts"].choices, rules["wait_payouts"].doc,
    )
    rules["thirteen_flowers"] = TableRule(
        "thirteen_flowers", False, (True, False),
        "000: 'the 13 flowers hand has been removed from payout' (only 8 flowers).", flag,
    )
    rules["first_dealer"] = TableRule(
        "first_dealer", "winds", ("dice", "winds"),
        "000: 'shuffle one each of the wind tiles face-down, then have each player turn one up'.",
    )
    return rules


class Visayan(VisayanScoring, Filipino):
    name: ClassVar[str] = "visayan"
    special_melds: ClassVar[frozenset[MeldKind]] = frozenset({MeldKind.BEAUTY, MeldKind.NEWS})
    table_rules: ClassVar[dict[str, TableRule]] = _visayan_rules()
    presets: ClassVar[dict[str, dict[str, object]]] = {"default": {}, "000": {}}

    def is_bonus(self, tile: Tile) -> bool:
        return tile.is_bonus
