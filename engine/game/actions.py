"""Everything a player can do, as small frozen dataclasses with a one-line text form.

``repr`` pastes back as code; ``str`` is the log notation the ledger stores and the
web page accepts (``"S pung"``, ``"E discard 5p"``, ``"W chow 3p"``)::

>>> a = Discard(Seat.EAST, Tile.P5)
>>> a
Discard(Seat.EAST, Tile.P5)
>>> str(a), parse_action("E discard 5p") == a
('E discard 5p', True)
>>> parse_action("n win 123m456p789s11z")
Win(Seat.NORTH, revealed=(Tile.M1, Tile.M2, Tile.M3, Tile.P4, Tile.P5, Tile.P6, Tile.S7, Tile.S8, Tile.S9, Tile.EAST, Tile.EAST))
>>> parse_action("E dance")
Traceback (most recent call last):
...
engine.game.actions.InvalidActionTextError: unknown action 'dance' in 'E dance': use draw, discard, chow, pung, kang, secret, sagasa, flower, beauty, news, win, drawgame
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.seats import InvalidSeatError, Seat
from engine.tiles import InvalidTileError, Tile, format_tiles, parse_tiles

__all__ = [
    "Action",
    "Draw",
    "Discard",
    "Chow",
    "Pung",
    "Kang",
    "ConcealedKang",
    "AddedKang",
    "DeclareFlower",
    "DeclareBeauty",
    "DeclareNews",
    "Win",
    "DrawGame",
    "InvalidActionTextError",
    "parse_action",
    "CLAIM_PRIORITY",
]


class InvalidActionTextError(ValueError):
    """Action text that cannot be read; the message quotes it."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base: every action is taken by one seat."""

    seat: Seat

    verb = ""

    def _args(self) -> str:
        return ""

    def __str__(self) -> str:
        args = self._args()
        return f"{self.seat.name[0]} {self.verb}" + (f" {args}" if args else "")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.seat!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(Action):
    """Draw from the wall. ``tile`` is None when unseen (observed mode) or left to the wall."""

    tile: Tile | None = None
    verb = "draw"

    def _args(self) -> str:
        return str(self.tile) if self.tile is not None else ""

    def __repr__(self) -> str:
        return f"Draw({self.seat!r})" if self.tile is None else f"Draw({self.seat!r}, {self.tile!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Discard(Action):
    tile: Tile
    verb = "discard"

    def _args(self) -> str:
        return str(self.tile)

    def __repr__(self) -> str:
        return f"Discard({self.seat!r}, {self.tile!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Chow(Action):
    """Claim the last discard into the chow starting at ``low`` (``low`` .. ``low + 2``)."""

    low: Tile
    verb = "chow"

    def _args(self) -> str:
        return str(self.low)

    def __repr__(self) -> str:
        return f"Chow({self.seat!r}, {self.low!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Pung(Action):
    """Claim the last discard into a pung."""

    verb = "pung"


@dataclass(frozen=True, slots=True, repr=False)
class Kang(Action):
    """Claim the last discard into an exposed kang; a gift is drawn from the back."""

    verb = "kang"


@dataclass(frozen=True, slots=True, repr=False)
class ConcealedKang(Action):
    """Declare four concealed copies (Filipino "secret"); a gift is drawn from the back."""

    tile: Tile
    verb = "secret"

    def _args(self) -> str:
        return str(self.tile)

    def __repr__(self) -> str:
        return f"ConcealedKang({self.seat!r}, {self.tile!r})"


@dataclass(frozen=True, slots=True, repr=False)
class AddedKang(Action):
    """Add the drawn fourth tile to one's exposed pung (Filipino "sagása")."""

    tile: Tile
    verb = "sagasa"

    def _args(self) -> str:
        return str(self.tile)

    def __repr__(self) -> str:
        return f"AddedKang({self.seat!r}, {self.tile!r})"


@dataclass(frozen=True, slots=True, repr=False)
class DeclareFlower(Action):
    """Lay a bonus tile aside (flower, season, animal, royalty, Vietnamese joker) and replace it."""

    tile: Tile
    verb = "flower"

    def _args(self) -> str:
        return str(self.tile)

    def __repr__(self) -> str:
        return f"DeclareFlower({self.seat!r}, {self.tile!r})"


@dataclass(frozen=True, slots=True, repr=False)
class DeclareBeauty(Action):
    """Visayan Beauty (one of each dragon), from the hand or completing it with the last discard."""

    called: bool = False
    verb = "beauty"

    def _args(self) -> str:
        return "called" if self.called else ""

    def __repr__(self) -> str:
        return f"DeclareBeauty({self.seat!r}" + (", called=True)" if self.called else ")")


@dataclass(frozen=True, slots=True, repr=False)
class DeclareNews(Action):
    """Visayan NEWS (one of each wind); takes a gift like a kang."""

    called: bool = False
    verb = "news"

    def _args(self) -> str:
        return "called" if self.called else ""

    def __repr__(self) -> str:
        return f"DeclareNews({self.seat!r}" + (", called=True)" if self.called else ")")


@dataclass(frozen=True, slots=True, repr=False)
class Win(Action):
    """Declare a win: on the last discard when one is pending, else self-drawn.

    ``revealed`` lists the concealed tiles shown at the win, winning tile included;
    observed mode needs it (the referee never saw them), full mode checks it if given.
    For a self-drawn win whose draw nobody saw, the winning tile is written last.
    """

    revealed: tuple[Tile, ...] | None = None
    verb = "win"

    def _args(self) -> str:
        return format_tiles(self.revealed, sort=False) if self.revealed else ""

    def __repr__(self) -> str:
        if self.revealed is None:
            return f"Win({self.seat!r})"
        return f"Win({self.seat!r}, revealed={self.revealed!r})"


@dataclass(frozen=True, slots=True, repr=False)
class DrawGame(Action):
    """Observed mode: a person declares the hand drawn (exhaustive draw: the wall is
    empty and nobody claims the last discard). ``seat`` is the one due to draw.

    >>> parse_action("S drawgame"), str(DrawGame(Seat.WEST)), parse_action("n exhausted")
    (DrawGame(Seat.SOUTH), 'W drawgame', DrawGame(Seat.NORTH))
    """

    verb = "drawgame"


# Who gets a discard several seats want: higher first (then nearest after the discarder).
CLAIM_PRIORITY: dict[type[Action], int] = {
    Win: 3,
    Kang: 2,
    Pung: 2,
    Chow: 1,
    DeclareBeauty: 1,
    DeclareNews: 1,
    Draw: 0,
}

_VERBS: dict[str, type[Action]] = {
    cls.verb: cls
    for cls in (Draw, Discard, Chow, Pung, Kang, ConcealedKang, AddedKang, DeclareFlower,
                DeclareBeauty, DeclareNews, Win, DrawGame)
}
_ALIASES = {"sagása": "sagasa", "concealed_kang": "secret", "added_kang": "sagasa", "chi": "chow",
            "pong": "pung", "kong": "kang", "bonus": "flower", "hu": "win", "todas": "win",
            "tódas": "win", "bunot": "win", "búnot": "win", "mahjong": "win",
            "draw_game": "drawgame", "exhausted": "drawgame", "wall_empty": "drawgame"}


def parse_action(text: str) -> Action:
    """Read ``"<seat> <verb> [tiles]"``; raises ``InvalidActionTextError`` (or a seat/tile error).

    >>> parse_action("W sagasa 5p"), parse_action("south beauty called")
    (AddedKang(Seat.WEST, Tile.P5), DeclareBeauty(Seat.SOUTH, called=True))
    """
    parts = text.split()
    if len(parts) < 2:
        raise InvalidActionTextError(f"cannot read action {text!r}: expected '<seat> <verb> [tiles]'")
    try:
        seat = Seat.parse(parts[0])
    except InvalidSeatError as exc:
        raise InvalidActionTextError(f"in {text!r}: {exc}") from None
    verb = _ALIASES.get(parts[1].lower(), parts[1].lower())
    cls = _VERBS.get(verb)
    if cls is None:
        raise InvalidActionTextError(
            f"unknown action {parts[1]!r} in {text!r}: use {', '.join(_VERBS)}"
        )
    rest = " ".join(parts[2:])
    try:
        tiles = parse_tiles(rest) if rest and rest != "called" else []
    except InvalidTileError as exc:
        raise InvalidActionTextError(f"in {text!r}: {exc}") from None
    if cls in (DeclareBeauty, DeclareNews):
        return cls(seat, rest == "called")
    if cls is Win:
        return Win(seat, tuple(tiles) if tiles else None)
    if cls in (Pung, Kang, DrawGame):
        if tiles:
            raise InvalidActionTextError(f"{text!r}: {verb} takes no tiles")
        return cls(seat)
    if cls is Draw:
        if len(tiles) > 1:
            raise InvalidActionTextError(f"{text!r}: a draw is one tile")
        return Draw(seat, tiles[0] if tiles else None)
    if len(tiles) != 1:
        raise InvalidActionTextError(f"{text!r}: {verb} needs exactly one tile")
    return cls(seat, tiles[0])  # type: ignore[call-arg]
