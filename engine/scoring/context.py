"""The one context object every pattern predicate reads: the hand, the arrangement
being scored, the win tile and how it came, seats, and the table situation.

``readings`` lists, for one arrangement, each group the win tile may have completed
with the wait shape that makes; the scoring loop builds one ``WinContext`` per reading
and keeps the one that pays most (a player may claim the most favourable reading).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.hand import Hand, MeldKind
from engine.seats import Seat
from engine.shapes import Arrangement, Form, Group, GroupKind, WaitShape
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.ruleset import Ruleset

__all__ = ["WinContext", "SITUATION_FIELDS", "readings", "wait_shape"]


@dataclass(frozen=True)
class WinContext:
    """Everything a pattern may look at. Built by the scoring loop, one per reading."""

    ruleset: Ruleset
    hand: Hand
    arrangement: Arrangement
    win_tile: Tile
    self_drawn: bool
    winner: Seat
    discarder: Seat | None
    round_wind: Seat = Seat.EAST
    dealer: Seat = Seat.EAST
    wait_shapes: frozenset[WaitShape] = frozenset()
    win_group: Group | None = None  # the group the win tile completed in this reading
    # -- the situation: what the camera / referee knows about the moment of the win --
    turn: int | None = None  # the winner's draws so far (None: unknown)
    discards_before_win: int | None = None  # discards the winner made before winning
    kang_replacement: bool = False  # won on the gift drawn after a kang
    robbing_kang: bool = False  # won on a tile another player added to a pung
    last_tile: bool = False  # won on the last tile of the wall
    first_round: bool = False  # no discard has been claimed and nobody has played twice
    dice_doubles: int = 0  # dice rolls this game that came up doubles
    jai_alai: int = 0  # jai alái markers the winner held before this win
    liable: Seat | None = None  # a seat that must pay for all (bao), when the variant has it
    extra: Mapping[str, object] = field(default_factory=dict)  # variant-specific situation

    # -- views patterns share ----------------------------------------------------
    @property
    def form(self) -> Form:
        return self.arrangement.form

    @property
    def sets(self) -> tuple[Group, ...]:
        return self.arrangement.sets

    @property
    def groups(self) -> tuple[Group, ...]:
        return self.arrangement.groups

    @property
    def tiles(self) -> list[Tile]:
        """The tiles the groups stand for (jokers read as what they represent)."""
        return [t for g in self.arrangement.groups for t in g.tiles]

    @property
    def declared(self) -> tuple[Group, ...]:
        """Sets laid down before the win: exposed melds and secrets (a secret is declared)."""
        return tuple(g for g in self.arrangement.groups if g.meld is not None)

    @property
    def exposed(self) -> tuple[Group, ...]:
        """Declared sets other players could see whole (secrets are face down)."""
        return tuple(g for g in self.declared if g.meld is not None and not g.meld.is_concealed)

    @property
    def payers(self) -> tuple[Seat, ...]:
        return tuple(s for s in Seat if s is not self.winner)

    @property
    def winner_is_dealer(self) -> bool:
        return self.winner is self.dealer


SITUATION_FIELDS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(WinContext) if f.name not in {
        "ruleset", "hand", "arrangement", "win_tile", "self_drawn", "winner", "discarder",
        "round_wind", "dealer", "wait_shapes", "win_group", "extra",
    }
)


def wait_shape(group: Group, tile: Tile, form: Form) -> WaitShape:
    """The wait a group had before ``tile`` completed it.

    >>> from engine.shapes import Group, GroupKind, Form
    >>> chow = Group(GroupKind.CHOW, (Tile.M1, Tile.M2, Tile.M3))
    >>> [wait_shape(chow, t, Form.STANDARD).value for t in (Tile.M1, Tile.M2, Tile.M3)]
    ['open-ended', 'middle', 'edge']
    >>> wait_shape(Group(GroupKind.PAIR, (Tile.P5, Tile.P5)), Tile.P5, Form.STANDARD).value
    'single'
    """
    if form is not Form.STANDARD or tile not in group.tiles:
        return WaitShape.OTHER
    if group.kind is GroupKind.PAIR:
        return WaitShape.SINGLE
    if group.kind is GroupKind.PUNG:
        return WaitShape.BACK_TO_BACK
    if group.kind is not GroupKind.CHOW:
        return WaitShape.OTHER
    low, mid, high = group.tiles
    if tile == mid:
        return WaitShape.MIDDLE
    if (tile == high and low.number == 1) or (tile == low and high.number == 9):
        return WaitShape.EDGE
    return WaitShape.OPEN_ENDED


def readings(arrangement: Arrangement, win_tile: Tile) -> Iterator[tuple[Group, WaitShape]]:
    """Each group the win tile may have completed, with its wait shape.

    A group formed from concealed tiles qualifies when it holds the win tile (or
    the joker it is); a declared meld qualifies only when the win tile is not
    among the concealed tiles (it was claimed to complete that meld). Kangs never
    complete a hand.
    """
    seen: set[tuple[GroupKind, tuple[Tile, ...], bool]] = set()
    in_concealed = any(g.meld is None and _holds(g, win_tile) for g in arrangement.groups)
    for group in arrangement.groups:
        if not _holds(group, win_tile) or group.kind is GroupKind.KANG:
            continue
        if group.meld is not None and (in_concealed or group.meld.kind not in _CLAIMABLE):
            continue
        key = (group.kind, group.tiles, group.meld is None)
        if key in seen:  # two identical groups give the same reading
            continue
        seen.add(key)
        shape = WaitShape.OTHER if win_tile in group.jokers else wait_shape(
            group, win_tile, arrangement.form
        )
        yield group, shape


_CLAIMABLE = {MeldKind.CHOW, MeldKind.PUNG, MeldKind.BEAUTY}


def _holds(group: Group, tile: Tile) -> bool:
    """Whether the player physically holds ``tile`` in the group (as itself or as a joker)."""
    return tile in group.naturals or tile in group.jokers
