"""Filipino mahjong "as we play it" (doc 001, scoring doc 002).

Every honour is a flower here (laid aside, never played); 16 tiles in hand;
five báhay + an eye, or siete pares (seven pairs + one báhay); an optional
joker tile whose copies stand for any suited tile. Scoring (final payout,
ambitions, who pays) comes from ``engine.scoring.filipino``; the table rules
below settle where the documents disagree (``docs/rules/filipino.md``).

>>> from engine.hand import Hand
>>> rs = Filipino()
>>> rs.is_bonus(Tile.EAST), sum(rs.tiles.values())
(True, 144)
>>> [str(w) for w in rs.waits(Hand.parse("123456789m123p44s56s"))]
['4s', '7s']
>>> score = rs.score("11m 345p 678s 789s [234m] [789p] / 3f4f124z", win_tile="9s",
...                  winner="S", discarder="E")
>>> score.patterns, score.payments[Seat.EAST], score.total
((('winning', Fraction(1, 1)), ('all chows', Fraction(1, 4))), Fraction(-5, 2), Fraction(5, 1))
>>> Filipino.preset("001")
find_ruleset('filipino', seven_pairs='pair_plus_any_set', quick_win='before_5th', quick_win_value=Fraction(1, 1))
"""

from __future__ import annotations

from typing import ClassVar

from engine.ruleset import Ruleset, TableRule, TableRuleError
from engine.scoring.filipino import FilipinoScoring
from engine.scoring.money import Money, parse_money
from engine.seats import Seat  # noqa: F401  (doctest)
from engine.shapes import Form
from engine.tiles import Tile

__all__ = ["Filipino", "flag", "amount", "count"]

SUITED = frozenset(Tile(t) for t in range(27))


def _joker_tile(value: object) -> Tile | None:
    if value is None or value == "" or value == "none":
        return None
    tile = value if isinstance(value, Tile) else Tile.parse(str(value))
    if not tile.is_suited:
        raise ValueError(f"the joker must be a suited tile, not {tile}")
    return tile


def flag(value: object) -> bool:
    """A yes/no table rule from a bool or text (``"on"``, ``"false"``...).

    >>> flag("yes"), flag(False), flag("0")
    (True, False, False)
    """
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on", "y"):
        return True
    if text in ("0", "false", "no", "off", "n"):
        return False
    raise ValueError(f"{value!r} is not yes or no")


def amount(value: object) -> Money:
    """A non-negative amount (``1``, ``"1/4"``, ``"0.25"``)."""
    money = parse_money(value)
    if money < 0:
        raise ValueError(f"{value!r} is negative")
    return money


def count(value: object) -> int:
    """A positive whole number."""
    if isinstance(value, bool) or int(str(value)) < 1:
        raise ValueError(f"{value!r} is not a positive whole number")
    return int(str(value))


_YES_NO = (True, False)

FILIPINO_RULES: dict[str, TableRule] = {
    "joker": TableRule(
        "joker", None, None,
        "The tile turned up after the deal; every copy stands for any suited tile (None: no joker).",
        _joker_tile,
    ),
    "seven_pairs": TableRule(
        "seven_pairs", "pair_plus_pung", ("pair_plus_pung", "pair_plus_any_set"),
        "Siete pares: seven pairs plus a pung only (docs 000, 002) or plus a chow or pung (001).",
    ),
    "quick_win": TableRule(
        "quick_win", "within_5", ("within_5", "before_5th"),
        "Quick win: 'Winning within 5 discards' (000, 002) or 'before the fifth discard' (001).",
    ),
    "quick_win_value": TableRule(
        "quick_win_value", Money(1, 4), None, "What the quick win pays: $.25 (000, 002) or +1 (001).", amount,
    ),
    "wait_payouts": TableRule(
        "wait_payouts", "ambitions", ("ambitions", "difficult", "visayan", "none"),
        "Which waits pay +1/4: single, back to back, paníngit (001); back to back and a "
        "difficult edge/middle/single wait (002); back to back, single (edge or eye) and "
        "paníngit (000); none.",
    ),
    "all_up_allows_secret": TableRule(
        "all_up_allows_secret", True, _YES_NO,
        "Whether a secret (concealed kang) keeps a hand 'all up' / concealed (002: 'no open melds').", flag,
    ),
    "thirteen_flowers": TableRule(
        "thirteen_flowers", True, _YES_NO, "Pay the thirteen-flowers ambition (001, 002; not 000).", flag,
    ),
    "no_flowers_at_win": TableRule(
        "no_flowers_at_win", True, _YES_NO, "Pay no flowers again at the win ('at deal and at win').", flag,
    ),
    "first_dealer": TableRule(
        "first_dealer", "dice", ("dice", "winds"),
        "First máno: high dice roll (001) or drawn wind tiles (000, 003, 004).",
    ),
    "doubles": TableRule(
        "doubles", True, _YES_NO, "A roll of doubles doubles all payouts (optional rule).", flag,
    ),
    "jai_alai": TableRule(
        "jai_alai", False, _YES_NO, "Play the jai alái pot: markers per win (optional rule).", flag,
    ),
    "jai_alai_markers": TableRule(
        "jai_alai_markers", 5, None, "Markers that win the jai alái pot.", count,
    ),
}


class Filipino(FilipinoScoring, Ruleset):
    name: ClassVar[str] = "filipino"
    hand_size: ClassVar[int] = 16
    forms: ClassVar[frozenset[Form]] = frozenset({Form.STANDARD, Form.SEVEN_PAIRS})
    seven_pairs_extra_set: ClassVar[bool] = True
    table_rules: ClassVar[dict[str, TableRule]] = FILIPINO_RULES
    presets: ClassVar[dict[str, dict[str, object]]] = {
        "default": {},
        # 001, "Mahjong, as we play it"
        "001": {"seven_pairs": "pair_plus_any_set", "quick_win": "before_5th", "quick_win_value": 1},
        # 002, the scoring table
        "002": {"wait_payouts": "difficult"},
    }

    @classmethod
    def preset(cls, name: str, **overrides: object) -> Ruleset:
        """A named bundle of table rules, overridable one rule at a time.

        >>> Filipino.preset("002", quick_win_value="1/2").rule("wait_payouts")
        'difficult'
        >>> Filipino.preset("house")
        Traceback (most recent call last):
        ...
        engine.ruleset.TableRuleError: filipino has no preset 'house' (known: default, 001, 002)
        """
        if name not in cls.presets:
            raise TableRuleError(f"{cls.name} has no preset {name!r} (known: {', '.join(cls.presets)})")
        return cls(**{**cls.presets[name], **overrides})

    def is_bonus(self, tile: Tile) -> bool:
        return tile.is_bonus or tile.is_honor

    def joker_scope(self, tile: Tile) -> frozenset[Tile]:
        return SUITED if tile is self.rule("joker") else frozenset()

    def seven_pairs_chow(self) -> bool:
        return self.rule("seven_pairs") == "pair_plus_any_set"
