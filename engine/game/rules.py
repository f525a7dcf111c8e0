"""Table rules of each variant's game flow: one class per variant, class attributes + hooks.

Like python-chess variants, a variant is a subclass that sets attributes (tile set,
hand size, dead wall, deal, who keeps the deal) and overrides a few hooks (which
tiles are bonus, which may be discarded). Scoring is the ruleset's business
(``engine/ruleset.py``, ``engine/scoring``); this is only what a referee enforces.

>>> r = rules_for("filipino")
>>> r.hand_size, r.sets, len(r.tile_set()), r.is_bonus(Tile.EAST)
(16, 5, 144, True)
>>> [len(rules_for(v).tile_set()) for v in ("visayan", "singaporean", "vietnamese")]
[144, 148, 160]
>>> rules_for("klondike")
Traceback (most recent call last):
...
engine.game.rules.UnknownVariantError: unknown variant 'klondike': use filipino, visayan, singaporean, vietnamese

Every table rule of the variant's ruleset is a table option too; it reaches the scoring:

>>> rules_for("filipino", seven_pairs="pair_plus_any_set", quick_win_value=1).table_rules
{'seven_pairs': 'pair_plus_any_set', 'quick_win_value': 1}
>>> rules_for("filipino", dealer_keeps_on_draw=True, doubles=True).doubles
True
>>> rules_for("singapore", seven_pairs="pair_plus_pung")
Traceback (most recent call last):
...
engine.ruleset.TableRuleError: singaporean has no table option 'seven_pairs' (known: all_chows, ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any, ClassVar

from engine.tiles import Tile

__all__ = [
    "GameRules",
    "FilipinoRules",
    "VisayanRules",
    "SingaporeanRules",
    "VietnameseRules",
    "rules_for",
    "VARIANTS",
    "UnknownVariantError",
]


class UnknownVariantError(ValueError):
    """A variant name the referee does not know."""


@dataclass(frozen=True)
class GameRules:
    """The flow rules one table plays by. Instances carry the table options.

    Table options (instance fields) with their defaults:

    * ``doubles``: a doubles roll on the dice doubles every payout (000, 001).
    * ``dealer_keeps_on_draw``: whether the dealer keeps the deal after an
      exhaustive draw (the documents are silent; default: no, the deal passes).
    * ``instant_payouts``: pay ambitions as they are declared (Singapore: "an
      optional rule", default on everywhere).
    * ``announce_waits``: emit "X is ready — waits on ..." events (full mode only).
    * ``draw_game_slack``: observed mode: a person may declare the hand drawn
      (``DrawGame``) while the referee still counts at most this many tiles to draw
      (a missed flower replacement or two); default 8.
    * ``jai_alai_share``: Filipino and Visayan, when the table plays jai alái (the
      ruleset's ``jai_alai``): what each player puts into the pot, "a share, typically
      $1" (000, 001); the referee pays the four shares to the seat that takes the pot.
    * ``table_rules``: the ruleset's own table rules (``find_ruleset(name, **table_rules)``:
      seven pairs, quick win, wait payouts, doubles, jai alái...), used to price wins.
    """

    name: ClassVar[str] = "base"
    ruleset_name: ClassVar[str] = "base"
    hand_size: ClassVar[int] = 13
    deal_chunks: ClassVar[tuple[int, ...]] = (4, 4, 4, 1)
    wall_stacks: ClassVar[tuple[int, int, int, int]] = (18, 18, 18, 18)
    dead_wall: ClassVar[int] = 0  # tiles left unplayed: the hand is drawn when only these remain
    taboo_own_wall: ClassVar[bool] = False  # 001: never deal from the dealer's own wall
    dealer_keeps_when_winning: ClassVar[bool] = False  # Filipino máno
    seven_pairs: ClassVar[bool] = False  # Filipino siete pares (seven pairs + a set)
    thirteen_orphans: ClassVar[bool] = False
    special_sets: ClassVar[bool] = False  # Visayan Beauty and NEWS
    locked_discard: ClassVar[bool] = False  # Singapore: no win on a tile one discarded
    bao: ClassVar[bool] = False  # Singapore pay-for-all
    robbing_kang: ClassVar[bool] = False  # others may win on the tile added to a pung
    discard_bonus_as_tong: ClassVar[bool] = False  # Vietnam: a discarded flower or joker
    nfnl: ClassVar[bool] = False  # Vietnam: No-Flowers-No-Leaves and its green-joker wins
    jai_alai: ClassVar[bool] = False  # Filipino, Visayan: the jai alái pot (if the table plays it)
    instant_on_deal: ClassVar[tuple[str, ...]] = ()  # ambitions checked when the deal closes
    unit: ClassVar[str] = "$"

    doubles: bool = False
    dealer_keeps_on_draw: bool = False
    instant_payouts: bool = True
    announce_waits: bool = False
    draw_game_slack: int = 8
    jai_alai_share: Fraction = Fraction(1)
    table_rules: dict[str, Any] = field(default_factory=dict)

    @property
    def sets(self) -> int:
        """Sets in a winning hand besides the eye."""
        return self.hand_size // 3

    def tile_set(self) -> list[Tile]:
        """Every physical tile of the set, four of each playable tile plus the extras."""
        tiles = [Tile(t) for t in range(34) for _ in range(4)]
        return tiles + [Tile(t) for t in range(Tile.FLOWER1, Tile.SEASON4 + 1)]

    # -- hooks ----------------------------------------------------------------------
    def is_bonus(self, tile: Tile) -> bool:
        """Bonus tiles are laid aside and replaced; they never form sets."""
        return tile.is_flower or tile.is_animal or tile.is_royalty

    def must_declare(self, tile: Tile) -> bool:
        """A bonus tile that must be laid aside before its holder may discard."""
        return self.is_bonus(tile)

    def may_discard(self, tile: Tile) -> bool:
        return not self.must_declare(tile)

    def may_declare(self, tile: Tile) -> bool:
        """Tiles a player may lay aside as bonus (Vietnam: jokers too, by choice)."""
        return self.is_bonus(tile)

    def plays(self, rule: str) -> bool:
        """Whether this table plays an optional rule of its ruleset (``nfnl``, ``jai_alai``,
        ``bao``): the variant must have it (class attribute) and the table rule must be on
        (its default when not given: the Vietnamese ``nfnl`` and the Singaporean ``bao`` are
        on, the Filipino ``jai_alai`` off).

        >>> rules_for("vietnamese").plays("nfnl"), rules_for("vn", nfnl=False).plays("nfnl")
        (True, False)
        >>> rules_for("filipino").plays("jai_alai"), rules_for("ph", jai_alai=True).plays("jai_alai")
        (False, True)
        >>> rules_for("singaporean").plays("bao"), rules_for("sg", bao=False).plays("bao")
        (True, False)
        """
        from engine.variants.filipino import flag  # table rules may be given as text ("off")

        defaults = {"nfnl": True, "jai_alai": False, "bao": True}
        return bool(getattr(self, rule, False)) and flag(self.table_rules.get(rule, defaults.get(rule, False)))

    def with_options(self, **options: Any) -> GameRules:
        """A copy with table options changed (unknown names raise TypeError)."""
        return replace(self, **options)


@dataclass(frozen=True)
class FilipinoRules(GameRules):
    """Basic Filipino (001, 002): every honour is a flower, 16 tiles, máno keeps the deal."""

    name: ClassVar[str] = "filipino"
    ruleset_name: ClassVar[str] = "filipino"
    hand_size: ClassVar[int] = 16
    deal_chunks: ClassVar[tuple[int, ...]] = (8, 8)
    taboo_own_wall: ClassVar[bool] = True
    dealer_keeps_when_winning: ClassVar[bool] = True
    seven_pairs: ClassVar[bool] = True
    jai_alai: ClassVar[bool] = True
    instant_on_deal: ClassVar[tuple[str, ...]] = ("no flowers",)

    def is_bonus(self, tile: Tile) -> bool:
        return not tile.is_suited


@dataclass(frozen=True)
class VisayanRules(FilipinoRules):
    """Visayan (000): winds and dragons are playable; Beauty and NEWS in the first round."""

    name: ClassVar[str] = "visayan"
    ruleset_name: ClassVar[str] = "visayan"
    taboo_own_wall: ClassVar[bool] = False
    special_sets: ClassVar[bool] = True

    def is_bonus(self, tile: Tile) -> bool:
        return GameRules.is_bonus(self, tile)


@dataclass(frozen=True)
class SingaporeanRules(GameRules):
    """Singapore (004): 148 tiles with animals, dead wall of 15, locked discard, bao."""

    name: ClassVar[str] = "singaporean"
    ruleset_name: ClassVar[str] = "singaporean"
    wall_stacks: ClassVar[tuple[int, int, int, int]] = (19, 18, 19, 18)
    dead_wall: ClassVar[int] = 15
    thirteen_orphans: ClassVar[bool] = True
    locked_discard: ClassVar[bool] = True
    bao: ClassVar[bool] = True
    robbing_kang: ClassVar[bool] = True

    def tile_set(self) -> list[Tile]:
        return super().tile_set() + [Tile.CAT, Tile.RAT, Tile.ROOSTER, Tile.CENTIPEDE]


@dataclass(frozen=True)
class VietnameseRules(GameRules):
    """South Vietnam (003): 160 tiles with jokers and royalty; discarded flowers count as Tổng."""

    name: ClassVar[str] = "vietnamese"
    ruleset_name: ClassVar[str] = "vietnamese"
    wall_stacks: ClassVar[tuple[int, int, int, int]] = (20, 20, 20, 20)
    thirteen_orphans: ClassVar[bool] = True
    discard_bonus_as_tong: ClassVar[bool] = True
    nfnl: ClassVar[bool] = True
    unit: ClassVar[str] = "Phán"

    def tile_set(self) -> list[Tile]:
        jokers = [Tile(t) for t in range(Tile.THUNG, Tile.HOP + 1)]
        royalty = [Tile(t) for t in range(Tile.EMPEROR1, Tile.EMPRESS4 + 1)]
        return super().tile_set() + jokers + royalty

    def must_declare(self, tile: Tile) -> bool:
        # 003: flowers may be thrown (they then count as Tổng); royalty is never played.
        return tile.is_royalty

    def may_discard(self, tile: Tile) -> bool:
        return not tile.is_royalty

    def may_declare(self, tile: Tile) -> bool:
        return self.is_bonus(tile) or tile.is_vn_joker


VARIANTS: dict[str, type[GameRules]] = {
    cls.name: cls for cls in (FilipinoRules, VisayanRules, SingaporeanRules, VietnameseRules)
}
_ALIASES = {"ph": "filipino", "philippine": "filipino", "bisaya": "visayan", "sg": "singaporean",
            "singapore": "singaporean", "vn": "vietnamese", "vietnam": "vietnamese",
            "south vietnamese": "vietnamese"}


def rules_for(variant: str, **options: Any) -> GameRules:
    """The game rules of a variant by name (aliases: ph, sg, vn, singapore, vietnam...).

    ``options`` are the referee's own table options (``doubles``, ``dealer_keeps_on_draw``,
    ``instant_payouts``, ``announce_waits``) and any table rule of the variant's ruleset
    (``seven_pairs``, ``min_tai``...), given by name or inside ``table_rules={...}``; a
    name in both (Singapore ``instant_payouts``, Filipino ``doubles``) sets both. An
    unknown name or a bad value raises ``TableRuleError`` (a ValueError) quoting it.
    """
    key = variant.strip().lower()
    key = _ALIASES.get(key, key)
    cls = VARIANTS.get(key)
    if cls is None:
        raise UnknownVariantError(f"unknown variant {variant!r}: use {', '.join(VARIANTS)}")
    return cls(**_split_options(cls, options))


def _split_options(cls: type[GameRules], options: Mapping[str, Any]) -> dict[str, Any]:
    """The dataclass fields of ``cls`` for ``options``, the scoring ones in ``table_rules``."""
    from engine.ruleset import TableRuleError, find_ruleset

    given = dict(options)
    extra = given.pop("table_rules", None) or {}
    if not isinstance(extra, Mapping):
        raise TableRuleError(f"table_rules={extra!r} must be a mapping of table-rule names to values")
    table_rules = dict(extra)
    scoring = find_ruleset(cls.ruleset_name).table_rules
    own = {f.name for f in fields(cls)} - {"table_rules"}
    game: dict[str, Any] = {}
    for name, value in given.items():
        if name not in own and name not in scoring:
            known = ", ".join(sorted(own | set(scoring)))
            raise TableRuleError(f"{cls.name} has no table option {name!r} (known: {known})")
        if name in scoring:
            table_rules[name] = value
        else:
            game[name] = _option(name, value, getattr(cls, name))
    ruleset = find_ruleset(cls.ruleset_name, **table_rules)  # a bad value raises here, quoted
    for name in own & set(table_rules):  # one value for a name both halves know
        game[name] = bool(ruleset.rule(name))
    return {**game, "table_rules": table_rules}


def _option(name: str, value: Any, default: Any) -> Any:
    """A referee option checked against the type of its default (a flag or a count)."""
    from engine.ruleset import TableRuleError

    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise TableRuleError(f"table option {name}={value!r} must be True or False")
    elif isinstance(default, Fraction):  # an amount of money: 1, "1/2", "0.50"
        from engine.scoring.money import parse_money

        try:
            money = parse_money(value)
        except (TypeError, ValueError):
            money = Fraction(-1)
        if money < 0:
            raise TableRuleError(f"table option {name}={value!r} must be an amount, 0 or more")
        return money
    elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TableRuleError(f"table option {name}={value!r} must be a whole number, 0 or more")
    return value
