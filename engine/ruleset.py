"""The rules of one variant: hand size, tile set, winning forms, jokers, table rules.

A variant is a subclass that sets class attributes and overrides a few hooks
(``is_bonus``, ``joker_scope``), like python-chess boards. Table rules (house
options) are named, typed and defaulted, merged along the class hierarchy.

>>> rs = find_ruleset("singapore")
>>> rs
find_ruleset('singapore')
>>> from engine.hand import Hand
>>> [str(w) for w in rs.waits(Hand.parse("123m456p789s1122z"))]
['1z', '2z']
>>> rs.shanten(Hand.parse("123m456p789s1135z"))
1
>>> find_ruleset("klingon")
Traceback (most recent call last):
...
engine.ruleset.UnknownRulesetError: no ruleset 'klingon'; known: filipino, singapore (singaporean), vietnamese (south-vietnamese, vietnam), visayan
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.decompose import Layout, Prepared, arrangements, is_complete
from engine.hand import Hand, HandStatus, MeldKind
from engine.scoring.rules import ScoringRules  # score() and instant(): see engine.scoring
from engine.shapes import Arrangement, Form, Wait
from engine.tiles import NUM_PLAYABLE, Tile
from engine.waits import shanten as _shanten
from engine.waits import waits as _waits

__all__ = [
    "Ruleset",
    "TableRule",
    "UnknownRulesetError",
    "TableRuleError",
    "find_ruleset",
    "standard_tiles",
]


class UnknownRulesetError(ValueError):
    """A ruleset name nobody registered. The message lists the known names."""


class TableRuleError(ValueError):
    """An unknown table-rule name or a value it does not accept. The message quotes it."""


@dataclass(frozen=True)
class TableRule:
    """A named house option with its default.

    ``choices`` lists the accepted values (``None``: any value ``convert`` accepts);
    ``convert`` normalises a value (e.g. a tile code to a ``Tile``) and raises
    ``ValueError`` for a bad one.
    """

    name: str
    default: object
    choices: tuple[object, ...] | None = None
    doc: str = ""
    convert: Callable[[object], object] | None = None

    def check(self, value: object) -> object:
        if self.convert is not None:
            try:
                value = self.convert(value)
            except ValueError as exc:
                raise TableRuleError(f"table rule {self.name}={value!r}: {exc}") from None
        if self.choices is not None and value not in self.choices:
            raise TableRuleError(
                f"table rule {self.name}={value!r} is not one of {', '.join(map(repr, self.choices))}"
            )
        return value


def standard_tiles() -> Counter[Tile]:
    """The 144-tile Chinese set: four of each suit and honour tile, eight flowers.

    >>> sum(standard_tiles().values())
    144
    """
    c: Counter[Tile] = Counter({Tile(t): 4 for t in range(NUM_PLAYABLE)})
    c.update({Tile(t): 1 for t in range(Tile.FLOWER1, Tile.SEASON4 + 1)})
    return c


_REGISTRY: dict[str, type[Ruleset]] = {}
_NATURAL, _JOKER, _ASIDE, _DEAD = range(4)

# Whole-segment groups the core works with: the suits, the winds, the dragons.
_SEGMENTS = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 4, False), (31, 3, False))


class Ruleset(ScoringRules):
    """Base of the variants. Holds the table rules in force; answers hand questions.

    Scoring (``score``, ``instant``, ``instant_kinds`` and the payout hooks) comes
    from ``engine.scoring.rules.ScoringRules``.
    """

    name: ClassVar[str] = "base"
    aliases: ClassVar[tuple[str, ...]] = ()
    hand_size: ClassVar[int] = 13
    tiles: ClassVar[Counter[Tile]] = standard_tiles()
    forms: ClassVar[frozenset[Form]] = frozenset({Form.STANDARD})
    seven_pairs_extra_set: ClassVar[bool] = False
    special_melds: ClassVar[frozenset[MeldKind]] = frozenset()
    table_rules: ClassVar[dict[str, TableRule]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        merged: dict[str, TableRule] = {}
        for base in reversed(cls.__mro__):
            merged.update(base.__dict__.get("table_rules", {}))
        cls.table_rules = merged
        if "name" in cls.__dict__:
            for key in (cls.name, *cls.aliases):
                _REGISTRY[key] = cls

    def __init__(self, **table_rules: object) -> None:
        values = {name: rule.default for name, rule in self.table_rules.items()}
        for name, value in table_rules.items():
            if name not in self.table_rules:
                known = ", ".join(sorted(self.table_rules)) or "none"
                raise TableRuleError(f"{self.name} has no table rule {name!r} (known: {known})")
            values[name] = self.table_rules[name].check(value)
        self._rules = values
        self._layout = self._build_layout()
        self._as_joker = frozenset(t for t in range(NUM_PLAYABLE) if self.joker_scope(Tile(t)))
        self._roles = tuple(self._role(t) for t in Tile)

    def __repr__(self) -> str:
        args = [repr(self.name)]
        for name, value in self._rules.items():
            if value != self.table_rules[name].default:
                shown = str(value) if isinstance(value, Tile) else value
                args.append(f"{name}={shown!r}")
        return f"find_ruleset({', '.join(args)})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Ruleset) and other._rules == self._rules

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted((k, repr(v)) for k, v in self._rules.items()))))

    # -- hooks ------------------------------------------------------------------------
    def rule(self, name: str) -> object:
        """The value in force for a table rule."""
        try:
            return self._rules[name]
        except KeyError:
            raise TableRuleError(f"{self.name} has no table rule {name!r}") from None

    def joker_scope(self, tile: Tile) -> frozenset[Tile]:
        """What a concealed ``tile`` may stand for; empty if it is not a joker here."""
        return frozenset()

    def is_bonus(self, tile: Tile) -> bool:
        """Laid aside rather than played (flowers, seasons, animals, royalty by default)."""
        return tile.is_bonus

    def seven_pairs_chow(self) -> bool:
        """Whether the set of a seven-pairs hand may be a chow (Filipino table rule)."""
        return False

    # -- the core's view ------------------------------------------------------------------
    def _build_layout(self) -> Layout:
        segments = tuple(
            seg for seg in _SEGMENTS if not any(self.is_bonus(Tile(t)) for t in range(seg[0], seg[0] + seg[1]))
        )
        masks: dict[Tile, int] = {}
        for t in Tile:
            scope = self.joker_scope(t)
            if not scope:
                continue
            mask = 0
            for s, (first, n, _) in enumerate(segments):
                covered = sum(Tile(x) in scope for x in range(first, first + n))
                if covered == n:
                    mask |= 1 << s
                elif covered:
                    raise TableRuleError(f"joker {t} covers part of a tile group; scopes must be whole suits, winds or dragons")
            masks[t] = mask
        return Layout(
            segments=segments,
            joker_masks=masks,
            forms=self.forms,
            sets_needed=(self.hand_size - 1) // 3,
            seven_pairs_chow=self.seven_pairs_chow(),
            special_melds=self.special_melds,
        )

    def _role(self, t: Tile) -> int:
        """What a concealed tile is here: 0 natural, 1 joker, 2 laid aside, 3 unplayable."""
        if self.is_bonus(t):
            return _ASIDE
        if t in self._layout.joker_masks:
            return _JOKER if self._layout.joker_masks[t] else _DEAD
        return _NATURAL if t.is_playable and self._layout.seg_of(t)[0] >= 0 else _DEAD

    def _prepare(self, hand: Hand) -> Prepared:
        counts = [0] * NUM_PLAYABLE
        jokers: list[Tile] = []
        dead = laid_aside = 0
        roles = self._roles
        for t in hand.concealed:
            role = roles[t]
            if role == _NATURAL:
                counts[t] += 1
            elif role == _JOKER:
                jokers.append(t)
            elif role == _ASIDE:
                laid_aside += 1
            else:
                dead += 1
        size = len(hand.concealed) - laid_aside
        for m in hand.melds:
            size += 3 if len(m.tiles) == 4 else len(m.tiles)  # kangs and NEWS count as three
        jokers.sort()
        return Prepared(counts, tuple(jokers), dead, hand.melds, size)

    def held(self, hand: Hand, tile: Tile) -> int:
        """Physical copies of ``tile`` among the concealed tiles and declared melds."""
        return hand.concealed.count(tile) + sum(m.tiles.count(tile) for m in hand.melds)

    # -- questions ------------------------------------------------------------------------
    def status(self, hand: Hand) -> HandStatus:
        """``hand.status()`` plus what this variant adds: size, tiles it lacks, bonus tiles in hand.

        >>> from engine.hand import Hand
        >>> find_ruleset("filipino").status(Hand.parse("123m1z"))
        <HandStatus.TOO_FEW_TILES|BONUS_IN_HAND: 20>
        """
        flags = hand.status()
        for t, n in hand.all_tiles().items():
            if t is Tile.BACK:
                continue
            if not self.tiles[t]:
                flags |= HandStatus.TILE_NOT_IN_SET
            elif n > self.tiles[t]:
                flags |= HandStatus.TOO_MANY_COPIES
        if any(self.is_bonus(t) for t in hand.concealed):
            flags |= HandStatus.BONUS_IN_HAND
        size = self._prepare(hand).size
        if size > self.hand_size + 1:
            flags |= HandStatus.TOO_MANY_TILES
        elif size < self.hand_size:
            flags |= HandStatus.TOO_FEW_TILES
        return flags

    def decompositions(self, hand: Hand) -> list[Arrangement]:
        """Every arrangement of a complete hand (``hand_size + 1`` tiles); ``[]`` if not complete.

        >>> from engine.hand import Hand
        >>> [str(a) for a in find_ruleset("singapore").decompositions(Hand.parse("111222333m789p11z"))]
        ['123m 123m 123m 789p 11z', '111m 222m 333m 789p 11z']
        """
        prepared = self._prepare(hand)
        if prepared.size != self.hand_size + 1:
            return []
        return arrangements(self._layout, prepared)

    def is_complete(self, hand: Hand) -> bool:
        """Whether the hand is a winning shape (any form of this variant)."""
        prepared = self._prepare(hand)
        return prepared.size == self.hand_size + 1 and is_complete(self._layout, prepared)

    def waits(self, hand: Hand) -> list[Wait]:
        """Tiles that complete a hand one tile short, sorted, each with its shapes.

        A tile the hand already holds four of is not a wait; jokers are not
        listed (a joker whose scope covers a wait completes the hand too).
        ``[]`` when the hand is not ``hand_size`` tiles.
        """
        prepared = self._prepare(hand)
        if prepared.size != self.hand_size:
            return []
        held = prepared.counts
        if hand.melds or prepared.jokers:
            held = list(held)
            for t in prepared.jokers:
                if t < NUM_PLAYABLE:  # a Filipino joker is a suited tile too
                    held[t] += 1
            for m in hand.melds:
                for t in m.tiles:
                    held[t] += 1
        return _waits(self._layout, prepared, held, self._as_joker)

    def shanten(self, hand: Hand) -> int:
        """Tiles away from ready: -1 complete, 0 ready, 1 one tile from ready, ...

        Exact without jokers; with jokers exact for -1 and 0, otherwise a lower
        bound (each joker counted as filling one missing tile).
        """
        prepared = self._prepare(hand)
        if prepared.size == self.hand_size + 1 and is_complete(self._layout, prepared):
            return -1
        if prepared.size == self.hand_size and self.waits(hand):
            return 0
        value = _shanten(self._layout, prepared, self.hand_size)
        if prepared.size == self.hand_size:  # not ready: at least one
            value = max(value, 1)
        elif prepared.size == self.hand_size + 1:  # not complete: at least ready
            value = max(value, 0)
        return value


def find_ruleset(name: str, **table_rules: object) -> Ruleset:
    """The ruleset of a variant by name, with table rules set.

    >>> find_ruleset("Filipino", joker="5p").rule("joker")
    Tile.P5
    """
    import engine.variants  # noqa: F401  (registers the variants)

    key = "-".join(str(name).lower().replace("_", " ").split())
    if key not in _REGISTRY:
        seen: dict[type[Ruleset], None] = dict.fromkeys(_REGISTRY.values())
        known = ", ".join(
            c.name + (f" ({', '.join(c.aliases)})" if c.aliases else "") for c in seen
        )
        raise UnknownRulesetError(f"no ruleset {name!r}; known: {known}")
    return _REGISTRY[key](**table_rules)
