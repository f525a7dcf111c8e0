"""From consecutive table readings to what a referee needs to hear.

``EventDetector.update(reading)`` compares the steady table (tiles carry the
tracker's ids) with what it saw before and says what changed: a new discard and
by whom, a new meld (the called tile comes from the last discard), a new flower,
a kang (exposed, secret, or sagása: a pung grown to four) with its gift when the
variant's ruleset pays one. The first reading is the baseline: a game already in
progress produces no events for what is already on the table.

Who discarded: turn order when it is known (after a discard the next seat plays;
after a meld, the seat that melded discards), otherwise the seat on whose side
the tile landed.

>>> from vision.readings import TableReading, TileItem
>>> t = lambda code, k: TileItem(Tile.parse(code), (100.0 * k, 0, 100.0 * k + 10, 14), 0.9, track=k)
>>> det = EventDetector(first=Seat.EAST)
>>> det.update(TableReading(), now=0.0)
[]
>>> [str(e) for e in det.update(TableReading(discards=(t("3m", 1),)), now=1.0)]
['East discards 3m (3 characters)']
>>> [str(e) for e in det.update(TableReading(discards=(t("3m", 1), t("7p", 2))), now=2.0)]
['South discards 7p (7 dots)']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from engine.hand import MeldKind
from engine.seats import Seat
from engine.tiles import Tile, format_tiles
from vision.detections import box_cover, box_iou
from vision.readings import Box, MeldReading, ReadingError, SeatReading, TableReading, TileItem

__all__ = [
    "TableEvent",
    "DiscardSeen",
    "MeldSeen",
    "KangSeen",
    "FlowerSeen",
    "EventDetector",
]


@dataclass(frozen=True)
class TableEvent:
    """Something the camera saw happen; ``time`` is when the reading that showed it was taken."""

    seat: Seat
    time: float

    @property
    def kind(self) -> str:
        return type(self).__name__.removesuffix("Seen").lower()

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind, "seat": str(self.seat), "time": round(self.time, 3),
                               "text": str(self)}
        for name in ("tile", "tiles", "called", "from_seat", "meld"):
            value = getattr(self, name, None)
            if value is None:
                continue
            if isinstance(value, tuple):
                out[name] = [str(t) for t in value]
            elif isinstance(value, MeldKind):
                out[name] = value.value
            else:
                out[name] = str(value)
        return out


@dataclass(frozen=True)
class DiscardSeen(TableEvent):
    tile: Tile = Tile.BACK
    track: int | None = None

    def __str__(self) -> str:
        return f"{self.seat} discards {self.tile} ({self.tile.english})"


@dataclass(frozen=True)
class FlowerSeen(TableEvent):
    tile: Tile = Tile.BACK

    def __str__(self) -> str:
        return f"{self.seat} lays a flower: {self.tile} ({self.tile.english})"


@dataclass(frozen=True)
class MeldSeen(TableEvent):
    meld: MeldKind = MeldKind.PUNG
    tiles: tuple[Tile, ...] = ()
    called: Tile | None = None  # the tile taken from a discard
    from_seat: Seat | None = None  # who discarded it

    def __str__(self) -> str:
        where = f" from {self.from_seat}" if self.from_seat is not None else ""
        return f"{self.seat}: {self.meld.value} of {format_tiles(self.tiles)}{where}"


@dataclass(frozen=True)
class KangSeen(MeldSeen):
    gift: Any = None  # the ruleset's InstantPayout, when it pays one

    def __str__(self) -> str:
        text = super().__str__()
        return f"{text} — {self.gift}" if self.gift is not None else text


Signature = tuple[MeldKind, tuple[Tile, ...], Tile | None]  # a meld's kind, tiles and sideways tile


def _signature(m: MeldReading) -> Signature | None:
    try:
        meld = m.to_meld()
    except ReadingError:
        return None  # not a meld yet (still being laid down, or misread): wait
    turned = next((i.tile for i in m.items if i.turned), None) if m.called else None
    return meld.kind, meld.tiles, turned


SAME_TILE_IOU = 0.3
STRADDLE_COVER = 0.75  # two boxes lying apart that cover this much of a third: it is a second box
STRADDLE_EACH = 0.2  # ... each covering this much of it at least


def _apart(a: Box, b: Box, tiles: float) -> bool:
    """Whether two boxes' centres lie more than ``tiles`` of the longer one's long side apart.

    >>> _apart((0, 0, 30, 40), (100, 0, 130, 40), 2.0), _apart((0, 0, 30, 40), (50, 0, 80, 40), 2.0)
    (True, False)
    """
    long = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1])
    dist = math.hypot((a[0] + a[2] - b[0] - b[2]) / 2, (a[1] + a[3] - b[1] - b[3]) / 2)
    return dist > tiles * long


def one_box_a_tile(items: Iterable[TileItem], iou: float = SAME_TILE_IOU) -> list[TileItem]:
    """The pool's (or a flower row's) tiles, a second box over a tile dropped, whatever it was
    read as: discards lie flat side by side (the renderer's boxes of two discards overlap by
    0.16 at most), so two boxes overlapping by ``iou`` or more are one tile the detector boxed
    twice. The surer box is kept. A web demo run saw North's 3p boxed so (IoU 0.49, just under
    the detector's NMS) as East discarding a 3p, and then East's 4p as South's; a Vietnamese
    bot hand read live, South's 6s boxed again half over the 7s beside it and the box read as
    7s (IoU 0.39), as East discarding a 7s.

    A box lying over two boxes that lie apart is the second box half over two tiles, and goes
    first, however sure: Filipino North's 1z boxed again half over the 6z below it, surer than
    either, had kept its place and dropped the 6z, and North's second 6z was never heard (set
    style 0, seed 1, action 25). Lying over is told by how much of the box the two cover
    (``STRADDLE_COVER`` together), not by IoU: Visayan North's 1s boxed again half over the 2p
    below it overlapped each by IoU 0.30 and 0.29, and the frame its IoU with the 1s fell
    under 0.3 it was North discarding a fifth 1s (set style 0, seed 1, action 41).

    >>> t = lambda code, x, c: TileItem(Tile.parse(code), (x, 0.0, x + 40, 32), c)
    >>> [str(i.tile) for i in one_box_a_tile([t("3p", 0, 0.5), t("3p", 2, 0.9), t("3p", 40, 0.8), t("4p", 1, 0.7)])]
    ['3p', '3p']
    >>> [str(i.tile) for i in one_box_a_tile([t("1z", 0, 0.5), t("1z", 20, 0.9), t("6z", 40, 0.6)])]
    ['6z', '1z']
    >>> [str(i.tile) for i in one_box_a_tile([t("1s", 0, 0.7), t("2p", 46, 0.6), t("1s", 23, 0.3)])]
    ['1s', '2p']
    """
    return _one_box_a_tile(items, iou)[0]


def _one_box_a_tile(items: Iterable[TileItem], iou: float = SAME_TILE_IOU) -> tuple[list[TileItem], list[TileItem]]:
    """``one_box_a_tile``'s tiles, and the boxes it dropped as lying half over two tiles."""
    ranked = sorted(items, key=lambda i: -i.confidence)
    boxes = np.array([i.box for i in ranked], dtype=np.float64).reshape(-1, 4)
    over = box_iou(boxes, boxes) >= iou
    np.fill_diagonal(over, False)
    cover = box_cover(boxes, boxes)
    np.fill_diagonal(cover, 0.0)
    left = _straddlers_out(cover, over, np.array([i.face_up for i in ranked], dtype=bool))
    kept: list[int] = []
    for n in np.flatnonzero(left):
        if not any(ranked[n].face_up and over[k, n] for k in kept):
            kept.append(int(n))
    return [ranked[n] for n in kept], [ranked[n] for n in np.flatnonzero(~left)]


def _straddlers_out(cover: np.ndarray, over: np.ndarray, up: np.ndarray) -> np.ndarray:
    """Which boxes are left once the face-up boxes lying over two others that lie apart are
    out, the least sure first (boxes ranked surest first), each time among those left: the
    detector's second box half over a 7s and the box of the 7s itself, half under it, each
    lie over two boxes, and only the second box goes (Vietnamese bot-played hand read live,
    seed 0, the 7s between a 6s and a 9m)."""
    left = np.ones(len(up), dtype=bool)
    while True:
        among = np.where(left[None, :], cover, 0.0)
        out = [n for n in np.flatnonzero(left & up) if _straddles(among, over, int(n))]
        if not out:
            return left
        left[out[-1]] = False


def clear_of(items: Iterable[TileItem], others: Iterable[TileItem]) -> tuple[TileItem, ...]:
    """``items`` but those ``one_box_a_tile`` drops among ``others`` too: a second box over a
    surer tile of another region, or half over two of them. Filipino South's chow, laid where
    the bottom flowers lay, bore a box left there from the flower row: the flower row had it,
    IoU 0.49 over the chow's 8p read in the hand row, and it was South laying a flower as read
    under that box, a Spring (bot-played tables read live, seed 1, action 75).

    >>> t = lambda code, x, c: TileItem(Tile.parse(code), (x, 0.0, x + 40, 32), c)
    >>> [str(i.tile) for i in clear_of([t("5f", 0, 0.3), t("8f", 60, 0.5)], [t("8p", 4, 0.7)])]
    ['8f']
    """
    items = tuple(items)
    kept = {id(i) for i in one_box_a_tile((*items, *(o for o in others if o.face_up)))}
    return tuple(i for i in items if id(i) in kept or not i.face_up)


def _row_tiles(seat: SeatReading) -> tuple[TileItem, ...]:
    """A seat's tiles in its hand row and melds."""
    return (*seat.concealed, *(i for m in seat.melds for i in m.items))


def _straddles(cover: np.ndarray, over: np.ndarray, n: int) -> bool:
    """Whether box ``n`` lies over two boxes that lie apart: ``cover[n, k]``, the share of box
    ``n`` that box ``k`` covers; ``over``, which boxes lie over which (one tile boxed twice).
    Neighbours in the pool cover a quarter of each other at most (the renderer's overlap by
    IoU 0.16 at most), so only a box half over each of two tiles is covered so."""
    under = np.flatnonzero(cover[n] >= STRADDLE_EACH)
    return any(not over[a, b] and cover[n, a] + cover[n, b] >= STRADDLE_COVER
               for k, a in enumerate(under) for b in under[k + 1:])


@dataclass
class EventDetector:
    """Stage: steady ``TableReading`` after steady ``TableReading`` -> new ``TableEvent``s.

    Changes are counted per tile (not per tracked box), so tiles that are pushed
    around, re-laid or briefly hidden do not repeat their event: melds and flowers
    only ever grow (a pung becoming a kang is a sagása), and a discard that leaves
    the pool is forgotten only after ``forget`` readings without it (or at once
    when a meld claims it).
    """

    first: Seat | None = None  # who plays first (the dealer), when known
    seat_of: Callable[[TileItem], Seat] | None = None  # where a discard landed -> whose
    ruleset: Any = None  # for kang gifts: anything with ``instant(kind, seat, dealer=...)``
    dealer: Seat = Seat.EAST
    forget: int = 20
    same_place: float = 0.5  # IoU of a pool tile with where one of its name lay before: the same tile
    renamed_iou: float = 0.9  # IoU of a new pool track with one gone since the last reading: renamed in place
    copy_after: int = 3  # readings a second copy of a laid-out flower must stay to be a flower of its own
    free_least: float = 0.1  # the least runner-up confidence a flower that lost its name is named by
    turn: Seat | None = None
    last_discard: tuple[Seat, Tile] | None = None
    _pool: Counter[Tile] = field(default_factory=Counter)
    _gone: dict[Tile, int] = field(default_factory=dict)
    _claimed: Counter[Tile] = field(default_factory=Counter)
    _named: dict[int, Tile] = field(default_factory=dict)  # pool tile's track id -> its name so far
    # pool tile's track id -> its name and box when last seen; the claimed one's place is freed
    _places: dict[int, tuple[Tile, Box]] = field(default_factory=dict)
    _last_track: int | None = None  # the last discard's track id
    _second_boxes: set[int] = field(default_factory=set)  # pool tracks found half over two tiles
    _pool_tracks: set[int] = field(default_factory=set)  # the pool's face-up tracks in the last reading
    _flowers: dict[Seat, Counter[Tile]] = field(default_factory=dict)
    _doubt: dict[Seat, Counter[Tile]] = field(default_factory=dict)  # readings a second copy has stayed
    # an announced flower's track id -> its seat and the name it was announced by
    _flower_tracks: dict[int, tuple[Seat, Tile]] = field(default_factory=dict)
    _announced_when: dict[int, int] = field(default_factory=dict)  # a flower track's reading of announcing
    _since: dict[int, int] = field(default_factory=dict)  # a flower track's first reading
    _on_table: dict[int, Seat] = field(default_factory=dict)  # the flowers' tracks in this reading -> seat
    _readings: int = 0  # flower rows read, counted seat by seat
    _melds: dict[Seat, Counter[Any]] = field(default_factory=dict)
    _shown: dict[Seat, Counter[Any]] = field(default_factory=dict)  # melds in this reading, per seat
    _started: bool = False

    def __post_init__(self) -> None:
        if self.turn is None:
            self.turn = self.first

    def update(self, reading: TableReading, now: float = 0.0) -> list[TableEvent]:
        """Events since the last reading (none for the first one: it is the baseline)."""
        events: list[TableEvent] = []
        baseline = not self._started
        self._started = True
        sigs = {seat: [sig for sig in map(_signature, reading.seat(seat).melds) if sig is not None] for seat in Seat}
        # counted by kind and tiles only: which tile lies sideways is read from a box's shape,
        # which can flip for a frame, and the meld is still the one already announced
        self._shown = {seat: Counter((kind, tiles) for kind, tiles, _ in sigs[seat]) for seat in Seat}
        self._on_table = {i.track: seat for seat in Seat for i in reading.seat(seat).flowers if i.track is not None}
        for seat in Seat:
            events += self._flowers_of(seat, clear_of(reading.seat(seat).flowers, _row_tiles(reading.seat(seat))), now)
            events += self._melds_of(seat, sigs[seat], now, baseline)
        events += self._new_discards(reading.discards, now, baseline)
        return [] if baseline else events

    # -- flowers -------------------------------------------------------------------------------
    def _flowers_of(self, seat: Seat, items: Iterable[TileItem], now: float) -> list[TableEvent]:
        """Flowers new at ``seat``, counted by name: a Filipino table plays every honour as a
        flower, so a seat may lay out two West winds, the second one a flower of its own."""
        known = self._flowers.setdefault(seat, Counter())
        # laid out side by side like discards, so two boxes well over each other are one tile
        # boxed twice (Filipino South's third North wind, boxed again 0.45 over itself, was
        # laid out a fourth time as the White dragon came beside it: ``--seam 0.7``)
        up = one_box_a_tile(i for i in items if i.face_up)
        self._readings += 1
        for i in up:
            if i.track is not None:
                self._since.setdefault(i.track, self._readings)
        # a flower already announced that comes to be read under another name in its place
        # is the same tile, not a new one: the web demo's far Summer, a coin toss between
        # Summer and Spring for the classifier, was read as Spring once a hand had passed
        # over it, and "South declares Spring" reached the referee
        # a newcomer whose one-of-a-kind name went to a settled tile (confidence 0, its name
        # no runner-up's) is not yet read: Visayan West's Summer, moved over for a chow, was read
        # so for 5 frames, named by its runner-up, and it was West laying a Spring
        named = [(i, name) for i in up if not self._unread(i, name := self._name_of(i, seat, up))]
        names = Counter(name for _, name in named)
        # a flower is new only by its names as read as well as by its names as announced:
        # Filipino South's White dragon came on a new track read as a South wind, which named
        # the track, and read right later it made her South wind, back on a new track after
        # its box was lost, a second one (set style 5, seed 3, action 67)
        fresh = (names - known) & (Counter(self._read_name(i, name, seat) for i, name in named) - known)
        # a second copy of a name already laid out is announced once it has stayed for
        # ``copy_after`` readings: for a frame or two, a flower moved over to make room for a
        # meld can show at its new place while its old place, now the meld's, still bears its name
        doubt = Counter({t: n for t, n in self._doubt.get(seat, Counter()).items() if fresh[t]})
        for tile in [t for t in fresh if known[t]]:
            doubt[tile] += 1
            if doubt[tile] < self.copy_after:
                del fresh[tile]
        known.update(fresh)
        self._doubt[seat] = Counter({t: n for t, n in doubt.items() if not fresh[t]})
        for i, name in named:
            if i.track is not None and name in known and self._announced_at(i.track) is not seat:
                self._flower_tracks[i.track] = (seat, name)
                self._announced_when[i.track] = self._readings
        return [FlowerSeen(seat, now, t) for t in sorted(fresh.elements())]

    def _name_of(self, item: TileItem, seat: Seat, up: list[TileItem]) -> Tile:
        """``item``'s name at ``seat``: the one it was announced by; or, where it lost its
        one-of-a-kind name (confidence 0, ``vision.classifier.one_of_each``) to a flower of
        ``up`` announced here before ``item`` was first seen, its runner-up when that is free:
        the tile laid first was announced first, so the newcomer is the misread one. Visayan
        West's Orchid laid beside her Plum, read as Plum, never reached the referee, and
        Vietnamese West's Empress 2 beside her Empress 1 was a second Empress 1. Flowers moved
        over for a meld are all newcomers, and the surer may be the misread one: none renamed.
        A newcomer read as a one-of-a-kind flower announced at another seat, whose tile lies
        there still, is named by its free runner-up too (``_lies_elsewhere``): flowers never
        move from seat to seat, and a tile already announced anywhere keeps its name."""
        name = self._announced_name(item, seat)
        second = item.runner_up
        if item.track is None or second is None or not self._free(second, item.runner_up_confidence):
            return name
        if self._announced_at(item.track) is None and name.is_bonus and self._lies_elsewhere(name, seat):
            return second
        if name != item.tile or item.confidence > 0 or not item.tile.is_bonus:
            return name
        first_seen = self._since[item.track]
        # the one laid before still read so: Visayan West's Summer, moved over for a chow, lost
        # its name to its old place, which the chow's 4s covered and was read as 1f now
        held = any(i.track is not None and self._announced_at(i.track) is seat and self._announced_name(i, seat) == name
                   and i.tile == name and self._announced_when.get(i.track, first_seen) < first_seen for i in up)
        return second if held else name

    def _read_name(self, item: TileItem, name: Tile, seat: Seat) -> Tile:
        """``item``'s name as read now where its track was announced at ``seat``, else
        ``name`` (the name it is counted by); a name lost to a surer tile (confidence 0) is
        no read, and leaves ``name``."""
        announced = item.track is not None and self._announced_at(item.track) is seat
        return item.tile if announced and item.confidence > 0 else name

    def _unread(self, item: TileItem, name: Tile) -> bool:
        """Whether ``item``, named ``name``, is a newcomer that no read has named yet."""
        return item.confidence <= 0 and name is item.tile and (item.track is None or self._announced_at(item.track) is None)

    def _free(self, name: Tile, confidence: float) -> bool:
        """Whether a flower may be named ``name`` (its runner-up, this sure): no seat laid one."""
        return confidence >= self.free_least and not any(self._flowers.get(s, Counter())[name] for s in Seat)

    def _lies_elsewhere(self, name: Tile, seat: Seat) -> bool:
        """Whether a flower announced as ``name`` at another seat than ``seat`` lies there now.
        A set has one of it, so a newcomer read so at ``seat`` is misread: Visayan West's
        Autumn, read as Summer at the far side (runner-up Autumn), was refused as a second
        Summer beside South's, and West went without its flower until its meld moved it."""
        return any(s is not seat and self._flower_tracks.get(t) == (s, name) for t, s in self._on_table.items())

    def _announced_name(self, item: TileItem, seat: Seat) -> Tile:
        """The name ``item`` was announced by at ``seat``, or else its name now."""
        announced = self._flower_tracks.get(item.track) if item.track is not None else None
        return announced[1] if announced is not None and announced[0] is seat else item.tile

    def _announced_at(self, track: int) -> Seat | None:
        return self._flower_tracks[track][0] if track in self._flower_tracks else None

    def as_announced(self, reading: TableReading) -> TableReading:
        """``reading`` with each flower on an announced track under the name it was announced
        by, so that the overlay names the tile the referee recorded (the web demo's far Summer,
        read as Spring once a hand had passed over it, was labelled F5 beside the panel's F6),
        and each meld's tiles as its meld names them (``MeldReading.named``: a tile misread in
        a meld group may be named by its runner-up).

        >>> from vision.readings import SeatReading
        >>> det = EventDetector()
        >>> south = lambda name: TableReading({Seat.SOUTH: SeatReading(Seat.SOUTH,
        ...     flowers=(TileItem(Tile.parse(name), (0, 0, 30, 40), track=7),))})
        >>> _ = det.update(TableReading()), det.update(south("6f"))
        >>> det.as_announced(south("5f")).seat(Seat.SOUTH).flowers[0].tile
        Tile.SEASON2
        """
        def named(i: TileItem) -> TileItem:
            announced = self._flower_tracks.get(i.track) if i.track is not None and i.face_up else None
            return i if announced is None or announced[1] is i.tile else replace(i, tile=announced[1])

        seats = {seat: replace(sr, flowers=tuple(map(named, sr.flowers)), melds=tuple(m.named() for m in sr.melds))
                 for seat, sr in reading.seats.items()}
        return replace(reading, seats=seats)

    # -- melds ---------------------------------------------------------------------------------
    def _moved(self, seat: Seat, sig: Any) -> bool:
        """Whether a meld new at ``seat`` is one announced for another seat that no longer
        shows it: melds never change hands, but a meld near a corner of the table can be
        read on the other side of the line between two seats for a frame (a hand passing
        over the table moves where the readings put the table's centre). Handed over
        silently, so it moves back silently too."""
        for other, known in self._melds.items():
            if other is not seat and known[sig] > self._shown[other][sig]:
                known[sig] -= 1
                known += Counter()  # drop zero counts
                self._melds.setdefault(seat, Counter())[sig] += 1
                return True
        return False

    def _melds_of(self, seat: Seat, sigs: list[Signature], now: float, baseline: bool) -> list[TableEvent]:
        """Events for the melds ``seat`` shows now (``sigs``, counted in ``_shown``)."""
        known = self._melds.setdefault(seat, Counter())
        cur = self._shown[seat]
        turned_of: dict[Any, Tile | None] = {}
        for kind, tiles, turned in sigs:  # the sideways tile, where any copy shows one
            if turned_of.get((kind, tiles)) is None:  # not ``or``: the 1m is tile 0, and falsy
                turned_of[kind, tiles] = turned
        fresh = cur - known
        out: list[TableEvent] = []
        for kind, tiles in sorted(fresh.elements(), key=str):
            if self._moved(seat, (kind, tiles)):
                continue
            turned = turned_of[kind, tiles]
            grown = [k for k in known if k[0] is MeldKind.PUNG and k[1][0] == tiles[0]] if kind.is_kang else []
            if grown:  # a pung grown to four: sagása
                known[grown[0]] -= 1
                known += Counter()  # drop zero counts
                if not baseline:
                    out.append(self._kang(seat, now, MeldKind.ADDED_KANG, tiles, None, None))
                continue
            if kind is MeldKind.PUNG and any(k[0].is_kang and k[1][0] == tiles[0] for k in known):
                continue  # a kang read as its pung for a while (a box lost): melds never shrink
            if not baseline:
                out.append(self._new_meld(seat, now, kind, tiles, turned))
        known |= cur
        return out

    def _new_meld(self, seat: Seat, now: float, kind: MeldKind, tiles: tuple[Tile, ...],
                  turned: Tile | None) -> TableEvent:
        called, from_seat = None, None
        if turned is not None or kind in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KANG):
            if self.last_discard is not None and self.last_discard[1] in tiles:
                from_seat, called = self.last_discard
                self._claimed[called] += 1  # it leaves the pool: forget it as soon as it is gone
                if self._last_track is not None:  # a discard may land where it lay
                    self._places.pop(self._last_track, None)
                self.last_discard = None
            else:
                called = turned
        if kind.is_kang:
            return self._kang(seat, now, kind, tiles, called, from_seat)
        self.turn = seat  # whoever melds discards next
        return MeldSeen(seat, now, kind, tiles, called, from_seat)

    def _kang(self, seat: Seat, now: float, kind: MeldKind, tiles: tuple[Tile, ...],
              called: Tile | None, from_seat: Seat | None) -> KangSeen:
        """A kang; its seat discards next, but for a sagása seen after its seat's discard: it
        was made before that discard, and the camera saw it late (or took a second box for a
        fourth tile), and the next seat plays all the same. West's White dragon pung, a fourth
        box put in it, was heard as a sagása after West's discard, and North's discard went to
        West, and each after it to the seat before. A secret, four tiles laid at once, is no
        box's mistake: it says whose turn it is, and mends a turn order the camera lost (a
        Visayan East's, after a discard heard at the seat before its own)."""
        late = kind is MeldKind.ADDED_KANG and self.last_discard is not None and self.last_discard[0] is seat
        if not late:
            self.turn = seat
        return KangSeen(seat, now, kind, tiles, called, from_seat, self._gift(kind, seat, tiles))

    def _gift(self, kind: MeldKind, seat: Seat, tiles: tuple[Tile, ...]) -> Any:
        instant = getattr(self.ruleset, "instant", None)
        if instant is None:
            return None
        wanted = {MeldKind.KANG: ("kang", "exposed kang"),
                  MeldKind.CONCEALED_KANG: ("secret", "concealed kang"),
                  MeldKind.ADDED_KANG: ("sagása", "sagasa", "added kang")}[kind]
        kinds = set(getattr(self.ruleset, "instant_kinds", ()) or ())
        for name in wanted:
            if kinds and name not in kinds:
                continue
            try:
                return instant(name, seat, dealer=self.dealer, tiles=tiles)
            except (ValueError, TypeError):
                continue
        return None

    # -- discards --------------------------------------------------------------------------------
    def _new_discards(self, items: Iterable[TileItem], now: float, baseline: bool) -> list[TableEvent]:
        # a box once found half over two pool tiles is no tile while its track lasts: Singaporean
        # South's 6s, boxed again half over the 1z below it, was claimed for a chow, and the
        # second box, held on, now lay over one tile only: West discarding a West wind
        seen, straddling = _one_box_a_tile(i for i in items if i.track is None or i.track not in self._second_boxes)
        self._second_boxes |= {i.track for i in straddling if i.track is not None}
        cur = Counter(i.tile for i in seen if i.face_up)
        here = {i.track for i in seen}
        renamed = self._renamed(seen, here)
        new = [i for i in seen if i.face_up and not self._back(i, here)]
        self._named |= {i.track: i.tile for i in seen if i.face_up and i.track is not None}
        fresh = (cur - self._pool - renamed) & Counter(i.tile for i in new)
        fresh += self._landed_by_a_hidden_twin(new, fresh, here)
        self._forget_gone(cur)
        self._places |= {i.track: (i.tile, i.box) for i in seen if i.face_up and i.track is not None}
        self._pool_tracks = {i.track for i in seen if i.face_up and i.track is not None}
        out: list[TableEvent] = []
        if baseline:
            return out
        for tile in sorted(fresh.elements()):
            item = next(i for i in new if i.tile == tile)
            new.remove(item)
            seat = self._discarder(item)
            self.last_discard = (seat, tile)
            self._last_track = item.track
            self.turn = seat.next
            out.append(DiscardSeen(seat, now, tile, item.track))
        return out

    def _renamed(self, seen: list[TileItem], here: set[int | None]) -> Counter[Tile]:
        """The new names of pool tiles the reader renamed: the same tiles, not new discards
        (a borderline 九 that now reads 五; heard as a discard, it skipped a player's turn).
        Each old name leaves the pool's counts at once: held there for ``forget`` readings,
        a discard of that name landing meanwhile went unheard (Vietnamese West's 9m, set style
        12, action 36, as a 9m renamed 5m still counted).

        Renamed on its track, or on a new track lying where a track of another name lay last
        reading, gone now: the smoother's rule for a tile laid where another lay
        (``TileSmoother``) renamed it in place. Vietnamese South's 9m, long read as 5m, came
        to read as 9m as East laid a 5m in a chow, and was East discarding a 9m (action 32)."""
        out: Counter[Tile] = Counter()
        gone = [(t, *self._places[t]) for t in self._pool_tracks - here if t in self._places]
        for item in seen:
            if not item.face_up or item.track is None:
                continue
            old = self._named.get(item.track)
            if old is None and gone:  # a new track: where one of another name lay?
                iou = box_iou(np.array([item.box]), np.array([box for _, _, box in gone]))[0]
                k = int(iou.argmax())
                if iou[k] >= self.renamed_iou and gone[k][1] is not item.tile:
                    track, old, _ = gone.pop(k)
                    self._places.pop(track)
            if old is not None and old is not item.tile:
                out[item.tile] += 1
                self._pool[old] -= min(1, self._pool[old])
        return out

    def _landed_by_a_hidden_twin(self, new: list[TileItem], fresh: Counter[Tile],
                                 here: set[int | None]) -> Counter[Tile]:
        """New pool tiles the counts missed: each lands while a pool tile of its name, one the
        counts still hold though it is not seen now (hidden, most often under the discarder's
        hand, or lost for fewer than ``forget`` readings), lay more than two tiles away. The
        count stayed as it was, and the discard was heard nowhere: South's 9m, laid as a hand
        passed over West's 9m (a Filipino hand read live, set style 0), and every later
        discard went to the seat before its own; North's White dragon, laid 12 readings after
        South's, blank and weakly boxed, had gone (Singaporean, set style 12, action 19)."""
        extra: Counter[Tile] = Counter()
        seen_before = here - {i.track for i in new}
        for tile in {i.tile for i in new}:
            unseen = self._pool[tile] - sum(1 for t in seen_before if t is not None and self._named.get(t) is tile)
            hidden = [box for t, (name, box) in self._places.items()
                      if t not in here and name is tile and self._named.get(t) is tile]
            for item in [i for i in new if i.tile is tile][fresh[tile]:]:  # those the counts missed
                if extra[tile] < min(len(hidden), unseen) and all(_apart(item.box, box, 2.0) for box in hidden):
                    extra[tile] += 1
        return extra

    def _back(self, item: TileItem, here: set[int | None]) -> bool:
        """Whether ``item`` is a pool tile seen before under its name: on its track, or back in a
        place where one lay whose track is not ``here`` (the tracks seen now). The detector can
        lose a tile for longer than ``forget`` readings (a Singaporean hand read live: North's
        6s, in a column of side discards boxed half a tile off, gone for 60 frames), and found
        again it was North discarding a 6s that North had discarded 12 steps before."""
        if item.track is not None and self._named.get(item.track) is item.tile:
            return True
        places = [box for track, (tile, box) in self._places.items() if tile is item.tile and track not in here]
        return bool(places) and float(box_iou(np.array([item.box]), np.array(places)).max()) >= self.same_place

    def _forget_gone(self, cur: Counter[Tile]) -> None:
        """The pool's counts down to ``cur`` for what stayed away long enough, or was claimed."""
        for tile in list(self._pool):
            if cur[tile] < self._pool[tile]:
                self._gone[tile] = self._gone.get(tile, 0) + 1
                if self._claimed[tile] > 0:
                    self._claimed[tile] -= 1
                    self._pool[tile] -= 1
                    self._gone.pop(tile)
                elif self._gone[tile] >= self.forget:
                    self._pool[tile] = cur[tile]
                    self._gone.pop(tile)
            else:
                self._gone.pop(tile, None)
        self._pool |= cur
        self._pool += Counter()

    def _discarder(self, item: TileItem) -> Seat:
        if self.turn is not None:
            return self.turn
        if self.seat_of is not None:
            return self.seat_of(item)
        return Seat.EAST


class RefereeFeed:
    """Stage: camera events -> the referee's observed ``Game`` (``engine.game``).

    Called with one event, it returns ``None`` when the referee accepted it and the
    reason (the referee's own words) when it refused; a refused event leaves the
    game untouched. When the camera missed the draw that must come before a flower
    or a secret, the implied ``Draw`` is pushed first (all or nothing).
    ``announcements`` collects the referee's sentences for the page.
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self.announcements: list[Any] = []

    def action(self, event: TableEvent) -> Any:
        from engine.game import (
            AddedKang,
            Chow,
            ConcealedKang,
            DeclareBeauty,
            DeclareFlower,
            DeclareNews,
            Discard,
            Kang,
            Pung,
        )

        if isinstance(event, DiscardSeen):
            return Discard(event.seat, event.tile)
        if isinstance(event, FlowerSeen):
            return DeclareFlower(event.seat, event.tile)
        if isinstance(event, MeldSeen):
            kind, seat, first = event.meld, event.seat, event.tiles[0]
            if kind is MeldKind.CHOW:
                return Chow(seat, min(event.tiles))
            if kind is MeldKind.PUNG:
                return Pung(seat)
            if kind is MeldKind.KANG:
                return Kang(seat)
            if kind is MeldKind.CONCEALED_KANG:
                return ConcealedKang(seat, first)
            if kind is MeldKind.ADDED_KANG:
                return AddedKang(seat, first)
            called = event.called is not None  # laid with a discard (its tile turned), as a chow is
            return DeclareBeauty(seat, called) if kind is MeldKind.BEAUTY else DeclareNews(seat, called)
        raise ValueError(f"no referee action for {event!r}")

    def __call__(self, event: TableEvent) -> str | None:
        from engine.game import Draw, observe

        action = self.action(event)
        try:
            self.announcements += observe(self.game, action)
            return None
        except ValueError as first:
            reason = str(first)
        # the camera rarely sees a draw: try the one the turn order implies
        seat = event.seat
        try:
            drawn = self.game.push(Draw(seat))
        except ValueError:
            return reason
        try:
            self.announcements += drawn + self.game.push(action)
            return None
        except ValueError as after_draw:  # the seat was due to draw: this is the real reason
            self.game.pop()
            return str(after_draw)
