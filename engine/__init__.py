"""Pure mahjong rules: tiles, hands, decomposition, waits and the variants' rulesets.

>>> from engine import Hand, find_ruleset
>>> rs = find_ruleset("singapore")
>>> [str(w) for w in rs.waits(Hand.parse("1112345678999m"))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from engine.hand import Hand, HandStatus, InvalidHandError, Meld, MeldKind
from engine.ruleset import (
    Ruleset,
    TableRule,
    TableRuleError,
    UnknownRulesetError,
    find_ruleset,
)
from engine.shapes import Arrangement, Form, Group, GroupKind, Wait, WaitShape
from engine.tiles import InvalidTileError, Tile, format_tiles, parse_tiles

__all__ = [
    "Tile",
    "Hand",
    "Meld",
    "MeldKind",
    "HandStatus",
    "find_ruleset",
    "Ruleset",
    "TableRule",
    "Wait",
    "WaitShape",
    "Arrangement",
    "Group",
    "GroupKind",
    "Form",
    "InvalidTileError",
    "InvalidHandError",
    "UnknownRulesetError",
    "TableRuleError",
    "parse_tiles",
    "format_tiles",
]
