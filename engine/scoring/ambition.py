"""Ambitions: instant payouts declared during play (kang, secret, sagása, Beauty...).

Like patterns, one small object each: ``kind`` (the key callers pass), English
``name``, the variant's ``local`` word, ``value`` per payer, whether the declarer
takes a ``gift`` tile, and ``problem(ruleset, tiles, situation)`` saying why a
declaration is not allowed (or "" when it is).

>>> KANG = Ambition("kang", "Open kang", "kang", Money(1, 4), gift=True, shape="kang")
>>> KANG.problem(None, parse_tiles("5555p"), {})  # type: ignore[arg-type]
''
>>> KANG.problem(None, parse_tiles("555p6p"), {})  # type: ignore[arg-type]
"kang needs four of one tile, got '5556p'"
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.scoring.money import Money, parse_money
from engine.tiles import Tile, format_tiles, parse_tiles  # noqa: F401  (parse_tiles: doctest)

if TYPE_CHECKING:
    from engine.ruleset import Ruleset

__all__ = ["Ambition", "normalize_kind"]

_WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
_DRAGONS = (Tile.WHITE, Tile.GREEN, Tile.RED)


def normalize_kind(kind: str) -> str:
    """Lower case, accents and punctuation folded: ``"Sagása"`` -> ``"sagasa"``.

    >>> normalize_kind(" Sagása "), normalize_kind("no-flowers"), normalize_kind("NEWS")
    ('sagasa', 'no flowers', 'news')
    """
    folded = unicodedata.normalize("NFKD", kind.strip().lower())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return " ".join(plain.replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True)
class Ambition:
    """One instant payout of a variant.

    ``shape`` checks the declared tiles when given: "kang" (four of a kind),
    "beauty" (one of each dragon), "news" (one of each wind), "flowers"
    (``count`` bonus tiles), "no flowers" (no bonus tiles), "" (no check).
    ``first_round_only``: refused when ``first_round=False`` is passed.
    """

    kind: str
    name: str
    local: str
    value: Money
    gift: bool = False
    shape: str = ""
    count: int = 0
    first_round_only: bool = False
    aliases: tuple[str, ...] = ()
    value_rule: str | None = None  # a table rule holding the value, when tables differ

    def matches(self, kind: str) -> bool:
        key = normalize_kind(kind)
        return key == normalize_kind(self.kind) or key in {normalize_kind(a) for a in self.aliases}

    def worth(self, ruleset: Ruleset) -> Money:
        if self.value_rule is not None:
            return parse_money(ruleset.rule(self.value_rule))
        return self.value

    def problem(self, ruleset: Ruleset, tiles: Sequence[Tile], situation: Mapping[str, object]) -> str:
        """Why this declaration cannot be paid, or ``""``."""
        if self.first_round_only and situation.get("first_round") is False:
            return f"{self.name} can only be declared in the first round"
        if not tiles:
            return ""
        text = format_tiles(tiles)
        if self.shape == "kang" and (len(tiles) != 4 or len(set(tiles)) != 1 or not tiles[0].is_playable):
            return f"{self.kind} needs four of one tile, got {text!r}"
        if self.shape == "beauty" and tuple(sorted(tiles)) != _DRAGONS:
            return f"{self.name} is one of each dragon (567z), got {text!r}"
        if self.shape == "news" and tuple(sorted(tiles)) != _WINDS:
            return f"{self.name} is one of each wind (1234z), got {text!r}"
        if self.shape in ("flowers", "no flowers"):
            return self._flower_problem(ruleset, tiles, text)
        return ""

    def _flower_problem(self, ruleset: Ruleset, tiles: Sequence[Tile], text: str) -> str:
        flowers = [t for t in tiles if ruleset.is_bonus(t)]
        if self.shape == "no flowers":
            return f"{self.name}: the player shows flowers {format_tiles(flowers)!r}" if flowers else ""
        if len(flowers) < self.count:
            return f"{self.name} needs {self.count} flowers, got {len(flowers)} in {text!r}"
        return ""
