"""What a hand is made of: groups, arrangements, waits and their shapes.

These are the plain result types of the hand engine (``engine.decompose`` and
``engine.waits`` compute them; ``Ruleset`` methods return them).

>>> from engine.tiles import parse_tiles
>>> g = Group(GroupKind.CHOW, tuple(parse_tiles("345m")))
>>> g
Group(GroupKind.CHOW, (Tile.M3, Tile.M4, Tile.M5))
>>> str(g), g.concealed
('345m', True)
>>> str(Wait(Tile.M6, frozenset({WaitShape.OPEN_ENDED})))
'6m'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.hand import Meld, MeldKind
from engine.tiles import Tile, format_tiles

__all__ = ["Form", "GroupKind", "Group", "Arrangement", "WaitShape", "Wait"]


class _Named(Enum):
    """Enums whose repr pastes back as code (``Form.STANDARD``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class Form(_Named):
    """The overall shape of a complete hand."""

    STANDARD = "standard"  # n sets + one eye
    SEVEN_PAIRS = "seven pairs"  # Filipino siete pares: seven pairs + one set
    THIRTEEN_ORPHANS = "thirteen orphans"  # Singapore "13 wonders", Vietnamese Xập Xám Díu


class GroupKind(_Named):
    CHOW = "chow"
    PUNG = "pung"
    KANG = "kang"
    PAIR = "pair"
    BEAUTY = "beauty"  # Visayan special set, only ever a declared meld
    NEWS = "news"  # Visayan special set, only ever a declared meld
    SINGLE = "single"  # a lone tile: the twelve unpaired kinds of thirteen orphans

    @property
    def is_set(self) -> bool:
        """Sets (báhay) as opposed to pairs and lone tiles."""
        return self not in (GroupKind.PAIR, GroupKind.SINGLE)


_MELD_GROUP = {
    MeldKind.CHOW: GroupKind.CHOW,
    MeldKind.PUNG: GroupKind.PUNG,
    MeldKind.KANG: GroupKind.KANG,
    MeldKind.CONCEALED_KANG: GroupKind.KANG,
    MeldKind.ADDED_KANG: GroupKind.KANG,
    MeldKind.BEAUTY: GroupKind.BEAUTY,
    MeldKind.NEWS: GroupKind.NEWS,
}


@dataclass(frozen=True)
class Group:
    """One set, pair or lone tile of an arrangement.

    ``tiles`` are the tiles the group stands for, sorted, with every joker
    replaced by what it represents; ``jokers`` are the physical joker tiles in
    it and ``stands_for`` (parallel to ``jokers``) what each one represents.
    ``meld`` is the declared meld the group comes from (``None`` when it is
    formed from concealed tiles).

    >>> g = Group(GroupKind.PUNG, (Tile.P7,) * 3, (Tile.TONG,), stands_for=(Tile.P7,))
    >>> g.naturals, g.has_jokers
    ((Tile.P7, Tile.P7), True)
    """

    kind: GroupKind
    tiles: tuple[Tile, ...]
    jokers: tuple[Tile, ...] = ()
    meld: Meld | None = None
    stands_for: tuple[Tile, ...] = ()

    @classmethod
    def from_meld(cls, meld: Meld) -> Group:
        """The group a declared meld forms.

        >>> from engine.tiles import parse_tiles
        >>> Group.from_meld(Meld.from_tiles(parse_tiles("7777z"), concealed=True)).kind
        GroupKind.KANG
        """
        return cls(_MELD_GROUP[meld.kind], meld.tiles, meld=meld)

    @property
    def concealed(self) -> bool:
        """Formed in the hand: not declared, or a concealed kang ("secret")."""
        return self.meld is None or self.meld.kind is MeldKind.CONCEALED_KANG

    @property
    def has_jokers(self) -> bool:
        return bool(self.jokers)

    @property
    def naturals(self) -> tuple[Tile, ...]:
        """The tiles of the group that are not jokers (what the player physically holds)."""
        rest = list(self.tiles)
        for t in self.stands_for:
            rest.remove(t)
        return tuple(rest)

    @property
    def base(self) -> Tile:
        """The lowest tile it stands for."""
        return self.tiles[0]

    def __str__(self) -> str:
        text = format_tiles(self.tiles)
        if self.jokers:
            text += "(" + format_tiles(self.jokers) + ")"
        if self.meld is not None:
            text = str(self.meld)
        return text

    def __repr__(self) -> str:
        args = [f"GroupKind.{self.kind.name}", repr(self.tiles)]
        if self.jokers:
            args.append(repr(self.jokers))
        if self.meld is not None:
            args.append(f"meld={self.meld!r}")
        if self.stands_for:
            args.append(f"stands_for={self.stands_for!r}")
        return f"Group({', '.join(args)})"


def _group_key(g: Group) -> tuple[object, ...]:
    return (g.tiles, g.kind.value, g.jokers, g.stands_for, g.meld is not None)


@dataclass(frozen=True)
class Arrangement:
    """One way a complete hand splits into groups (declared melds included).

    Standard form: the sets and one ``PAIR`` (the eye). Seven pairs: seven
    ``PAIR`` groups and one set. Thirteen orphans: one ``PAIR`` for the doubled
    kind and twelve ``SINGLE`` groups. Groups are kept in a canonical order
    (by tiles), so equal arrangements compare equal.

    >>> a = Arrangement(Form.STANDARD, (Group(GroupKind.PAIR, (Tile.M1, Tile.M1)),))
    >>> a.pair.tiles, a.sets
    ((Tile.M1, Tile.M1), ())
    """

    form: Form
    groups: tuple[Group, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", tuple(sorted(self.groups, key=_group_key)))

    @property
    def pair(self) -> Group | None:
        """The eye of a standard hand (``None`` for the other forms)."""
        if self.form is not Form.STANDARD:
            return None
        return next((g for g in self.groups if g.kind is GroupKind.PAIR), None)

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind.is_set)

    @property
    def jokers(self) -> tuple[Tile, ...]:
        """Every physical joker used, in group order."""
        return tuple(j for g in self.groups for j in g.jokers)

    def __str__(self) -> str:
        return " ".join(str(g) for g in self.groups)

    def __repr__(self) -> str:
        return f"Arrangement({self.form!r}, {self.groups!r})"


class WaitShape(_Named):
    """How the winning tile fits: the Filipino scoring pays for some of these."""

    OPEN_ENDED = "open-ended"  # 45 waiting on 3 or 6
    EDGE = "edge"  # 12 waiting on 3, 89 waiting on 7
    MIDDLE = "middle"  # 46 waiting on 5: the Filipino paníngit
    SINGLE = "single"  # waiting on the eye (tanki)
    BACK_TO_BACK = "back to back"  # two pairs, either becomes a pung (shanpon)
    OTHER = "other"  # seven pairs, thirteen orphans, or completing a group that holds a joker


@dataclass(frozen=True)
class Wait:
    """A tile that completes the hand, with every shape it completes it in.

    >>> w = Wait(Tile.P5, frozenset({WaitShape.MIDDLE}))
    >>> str(w), w.english
    ('5p', '5 dots')
    """

    tile: Tile
    shapes: frozenset[WaitShape]

    def __str__(self) -> str:
        return str(self.tile)

    @property
    def english(self) -> str:
        return self.tile.english

    def __repr__(self) -> str:
        shapes = ", ".join(f"WaitShape.{s.name}" for s in sorted(self.shapes, key=lambda s: s.value))
        return f"Wait({self.tile!r}, frozenset({{{shapes}}}))"
