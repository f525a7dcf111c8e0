"""A player's hand: concealed tiles, declared melds and bonus tiles, with its notation.

Notation (see ``docs/notation.md``)::

    123m456p789s11z [555p] (7777s) <2222m> / 1f 3a

* bare mpsz groups: concealed tiles, in the order written;
* ``[...]`` an exposed meld: chow, pung, kang ("[5555p]"), or the Visayan special
  sets Beauty (``[567z]``) and NEWS (``[1234z]``);
* ``(....)`` a concealed kang ("secret"); ``<....>`` a kang extended from an
  exposed pung ("sagása");
* everything after ``/`` is a bonus tile laid aside (flowers, seasons, animals,
  royalty, exposed Vietnamese jokers; in basic Filipino every honour).
  Flower, animal and royalty codes are bonus tiles wherever they are written.

>>> h = Hand.parse("123m456p789s11z [555p] / 1f")
>>> h
Hand.parse('123m456p789s11z [555p] / 1f')
>>> len(h.concealed), h.melds[0].kind, h.bonus
(11, <MeldKind.PUNG: 'pung'>, (Tile.FLOWER1,))
>>> h.tile_count
14
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum, IntFlag

from engine.tiles import NUM_PLAYABLE, InvalidTileError, Tile, format_tiles, parse_tiles

__all__ = ["Hand", "Meld", "MeldKind", "HandStatus", "InvalidHandError"]


class InvalidHandError(ValueError):
    """A hand text or meld that cannot be read. The message quotes the offending part."""


class MeldKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KANG = "kang"  # exposed, called from a discard
    CONCEALED_KANG = "concealed kang"  # Filipino "secret"
    ADDED_KANG = "added kang"  # a pung extended by a drawn tile: Filipino "sagása"
    BEAUTY = "beauty"  # Visayan: one each of the three dragons
    NEWS = "news"  # Visayan: one each of the four winds

    @property
    def is_kang(self) -> bool:
        return self in (MeldKind.KANG, MeldKind.CONCEALED_KANG, MeldKind.ADDED_KANG)


_BRACKETS = {MeldKind.CONCEALED_KANG: "()", MeldKind.ADDED_KANG: "<>"}


@dataclass(frozen=True)
class Meld:
    """A declared set. ``tiles`` are sorted; ``called`` is the tile taken from a discard."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    from_seat: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))
        problem = _meld_problem(self.kind, self.tiles)
        if problem:
            raise InvalidHandError(f"{format_tiles(self.tiles)!r} is not a {self.kind.value}: {problem}")

    @classmethod
    def from_tiles(cls, tiles: list[Tile], *, concealed: bool = False, added: bool = False) -> Meld:
        """Infer the kind of a meld from its tiles.

        >>> Meld.from_tiles(parse_tiles("3s1s2s")).kind
        <MeldKind.CHOW: 'chow'>
        >>> Meld.from_tiles(parse_tiles("1234z")).kind
        <MeldKind.NEWS: 'news'>
        """
        kinds = {3: [MeldKind.CHOW, MeldKind.PUNG, MeldKind.BEAUTY], 4: [MeldKind.KANG, MeldKind.NEWS]}
        if concealed or added:
            kinds = {4: [MeldKind.CONCEALED_KANG if concealed else MeldKind.ADDED_KANG]}
        ordered = tuple(sorted(tiles))
        for kind in kinds.get(len(tiles), []):
            if not _meld_problem(kind, ordered):
                return cls(kind, ordered)
        raise InvalidHandError(f"{format_tiles(tiles)!r} is not a meld (chow, pung, kang, Beauty or NEWS)")

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KANG

    @property
    def base(self) -> Tile:
        """The lowest tile; identifies the meld."""
        return self.tiles[0]

    def __str__(self) -> str:
        brackets = _BRACKETS.get(self.kind, "[]")
        return f"{brackets[0]}{format_tiles(self.tiles)}{brackets[1]}"


def _meld_problem(kind: MeldKind, tiles: tuple[Tile, ...]) -> str:
    if any(not t.is_playable for t in tiles):
        return "only suit and honour tiles form melds"
    size = {MeldKind.CHOW: 3, MeldKind.PUNG: 3, MeldKind.BEAUTY: 3, MeldKind.NEWS: 4}.get(kind, 4)
    if len(tiles) != size:
        return f"needs {size} tiles, got {len(tiles)}"
    if kind is MeldKind.CHOW:
        first = tiles[0]
        ok = first.is_suited and first.number <= 7 and tiles == (first, first + 1, first + 2)
        return "" if ok else "a chow is three consecutive tiles of one suit"
    if kind is MeldKind.BEAUTY:
        return "" if tiles == (Tile.WHITE, Tile.GREEN, Tile.RED) else "Beauty is one of each dragon"
    if kind is MeldKind.NEWS:
        wanted = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
        return "" if tiles == wanted else "NEWS is one of each wind"
    return "" if len(set(tiles)) == 1 else "all tiles must be the same"


class HandStatus(IntFlag):
    """What is wrong with a hand that parses but cannot exist (like python-chess ``status()``).

    A camera misread must be shown to the person, not crash the page, so these
    are flags, not exceptions.
    """

    VALID = 0
    TOO_MANY_COPIES = 1  # a fifth copy of a tile (or a second copy of a unique bonus tile)
    TOO_MANY_TILES = 2  # more tiles than the variant's hand (+1 drawn) allows
    TOO_FEW_TILES = 4
    TILE_NOT_IN_SET = 8  # a tile the variant's set does not have
    BONUS_IN_HAND = 16  # a bonus tile among the concealed tiles (should be laid aside)
    FACE_DOWN = 32  # a face-down tile among tiles that should be read


_TOKEN = re.compile(r"\[[^\]]*\]|\([^)]*\)|<[^>]*>|[^\[\](<>\s]+|\S")


@dataclass(frozen=True)
class Hand:
    """One player's tiles. Immutable; ``add``/``remove`` return new hands."""

    concealed: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = field(default=())

    # -- notation ------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read the hand notation. Raises ``InvalidHandError`` naming the bad part.

        >>> Hand.parse("11m (2222p) <3333s> [123m] / 1z2f").melds[1].kind
        <MeldKind.ADDED_KANG: 'added kang'>
        >>> Hand.parse("123m [12m]")
        Traceback (most recent call last):
        ...
        engine.hand.InvalidHandError: '12m' is not a meld (chow, pung, kang, Beauty or NEWS)
        """
        if not isinstance(text, str):
            raise InvalidHandError(f"hand must be text, got {text!r}")
        main, _, bonus_text = text.partition("/")
        if "/" in bonus_text:
            raise InvalidHandError(f"{text!r} has more than one '/' (bonus tiles go after one '/')")
        concealed: list[Tile] = []
        melds: list[Meld] = []
        for token in _TOKEN.findall(main):
            melds_or_tiles = _read_token(token, text)
            if isinstance(melds_or_tiles, Meld):
                melds.append(melds_or_tiles)
            else:
                concealed.extend(melds_or_tiles)
        try:
            bonus = parse_tiles(bonus_text)
        except InvalidTileError as exc:
            raise InvalidHandError(f"bonus part of {text!r}: {exc}") from None
        moved = [t for t in concealed if t.is_bonus]
        concealed = [t for t in concealed if not t.is_bonus]
        return cls(tuple(concealed), tuple(melds), tuple(moved + bonus))

    def __str__(self) -> str:
        parts = [format_tiles(self.concealed)] if self.concealed else []
        parts += [str(m) for m in self.melds]
        text = " ".join(parts)
        if self.bonus:
            text += " / " + format_tiles(self.bonus)
        return text

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    # -- counting -------------------------------------------------------------------
    @property
    def tile_count(self) -> int:
        """Tiles that count toward the hand size: a kang counts as three, bonus tiles not at all.

        NEWS also counts as three: like a kang it is a four-tile báhay that takes a gift (doc 000).

        >>> Hand.parse("11m [1234z] (2222p)").tile_count
        8
        """
        return len(self.concealed) + sum(3 if m.kind.is_kang or m.kind is MeldKind.NEWS else len(m.tiles) for m in self.melds)

    def counts(self) -> list[int]:
        """Concealed playable tiles as a 34-long count array (jokers etc. left out).

        >>> Hand.parse("112m7z").counts()[:2], Hand.parse("112m7z").counts()[33]
        ([2, 1], 1)
        """
        counts = [0] * NUM_PLAYABLE
        for t in self.concealed:
            if t.is_playable:
                counts[t] += 1
        return counts

    def all_tiles(self) -> Counter[Tile]:
        """Every physical tile of the hand: concealed, in melds, and bonus."""
        c = Counter(self.concealed)
        for m in self.melds:
            c.update(m.tiles)
        c.update(self.bonus)
        return c

    # -- changing -------------------------------------------------------------------
    def add(self, *tiles: Tile) -> Hand:
        return Hand(self.concealed + tiles, self.melds, self.bonus)

    def remove(self, *tiles: Tile) -> Hand:
        """A new hand without these concealed tiles. Raises ``InvalidHandError`` if absent.

        >>> str(Hand.parse("123m").remove(Tile.M2))
        '13m'
        """
        rest = list(self.concealed)
        for t in tiles:
            if t not in rest:
                raise InvalidHandError(f"{t} is not among the concealed tiles of {str(self)!r}")
            rest.remove(t)
        return Hand(tuple(rest), self.melds, self.bonus)

    # -- sanity ---------------------------------------------------------------------
    def status(self) -> HandStatus:
        """Flags for what cannot exist regardless of variant (variant checks add size).

        >>> Hand.parse("11111m").status()
        <HandStatus.TOO_MANY_COPIES: 1>
        >>> Hand.parse("123m").status()
        <HandStatus.VALID: 0>
        >>> Hand.parse("123m1x").status()  # a tile the camera saw face down
        <HandStatus.FACE_DOWN: 32>
        """
        flags = HandStatus.VALID
        limits = {t: (1 if t.is_bonus else 4) for t in Tile}
        if any(n > limits[t] for t, n in self.all_tiles().items() if t is not Tile.BACK):
            flags |= HandStatus.TOO_MANY_COPIES
        if Tile.BACK in self.concealed:
            flags |= HandStatus.FACE_DOWN
        return flags


def _read_token(token: str, text: str) -> Meld | list[Tile]:
    try:
        if token[0] in "[(<":
            inner = parse_tiles(token[1:-1])
            return Meld.from_tiles(inner, concealed=token[0] == "(", added=token[0] == "<")
        return parse_tiles(token)
    except InvalidTileError as exc:
        raise InvalidHandError(f"in {text!r}: {exc}") from None
