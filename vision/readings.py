"""What the camera read, in the shape the rules need: ``HandReading`` and ``TableReading``.

Every item keeps its box and confidence so a page can outline it and a person can
correct it. ``check_against`` flags doubtful tiles (a fifth copy, a tile the
variant's set lacks, a weak read) for the person to confirm; nothing is dropped.

>>> it = lambda code, x: TileItem(Tile.parse(code), (x, 0.0, x + 10.0, 14.0), 0.9)
>>> hand = HandReading(concealed=tuple(it(c, 11.0 * i) for i, c in enumerate("1m 2m 3m".split())),
...                    melds=(MeldReading(tuple(it("5p", 100.0 + 11 * i) for i in range(3)), called=True),),
...                    flowers=(it("2f", 200.0),))
>>> str(hand.to_hand())
'123m [555p] / 2f'
>>> hand.tile_count
6
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.hand import Hand, InvalidHandError, Meld, MeldKind
from engine.seats import Seat
from engine.tiles import Tile

__all__ = [
    "Box",
    "TileItem",
    "MeldReading",
    "HandReading",
    "SeatReading",
    "TableReading",
    "ReadingError",
    "check_against",
    "LOW_CONFIDENCE",
]

Box = tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels of the input image
LOW_CONFIDENCE = 0.5  # below this a read is shown as doubtful
# A tile's runner-up (the reader's likeliest other name for it) may name it in a meld group
# that makes no meld as read only when at least this likely (``MeldReading.to_meld``).
RUNNER_UP_FLOOR = 0.05


class ReadingError(ValueError):
    """What was read cannot become a hand (e.g. a meld group that is no meld). Quotes the tiles."""


@dataclass(frozen=True)
class TileItem:
    """One tile seen: its code (``Tile.BACK`` when face down), box, confidence and doubts."""

    tile: Tile
    box: Box
    confidence: float = 1.0
    turned: bool = False  # lying across the row: the called tile of a meld
    doubt: str = ""  # why a person should confirm it; "" when the read is trusted
    track: int | None = None  # live video: the tracker's id for this tile
    found: float = 1.0  # the detector's confidence that a tile lies here (``confidence`` is the lesser of it and the name's)
    runner_up: Tile | None = None  # its likeliest other name (``Detections.runner_up``) ...
    runner_up_confidence: float = 0.0  # ... and how likely that is

    @property
    def face_up(self) -> bool:
        return self.tile is not Tile.BACK

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2, (y1 + y2) / 2)

    def by_runner_up(self, why: str) -> TileItem:
        """This tile named by its runner-up, its name the runner-up now, doubted for ``why``
        (unless doubted already).

        >>> i = TileItem(Tile.S1, (0, 0, 1, 1), 0.45, runner_up=Tile.parse("1f"), runner_up_confidence=0.41)
        >>> renamed = i.by_runner_up("among flowers")
        >>> str(renamed.tile), renamed.confidence, str(renamed.runner_up), renamed.doubt
        ('1f', 0.41, '1s', 'among flowers')
        """
        if self.runner_up is None:
            raise ValueError(f"{self.tile} at {self.box} has no runner-up to be named by")
        return replace(self, tile=self.runner_up, confidence=self.runner_up_confidence, runner_up=self.tile,
                       runner_up_confidence=self.confidence, doubt=self.doubt or why)

    def as_json(self, region: str, group: int | None = None) -> dict[str, Any]:
        """The ``tiles`` entry of ``mahjongero score --json``.

        >>> TileItem(Tile.M1, (1, 2, 3, 4), 0.5).as_json("hand")["tile"]
        '1m'
        """
        out: dict[str, Any] = {
            "box": [round(float(v), 1) for v in self.box],
            "tile": str(self.tile),
            "confidence": round(float(self.confidence), 3),
            "region": region,
            "group": group,
        }
        if self.turned:
            out["turned"] = True
        if self.doubt:
            out["doubt"] = self.doubt
        return out


@dataclass(frozen=True)
class MeldReading:
    """One exposed (or concealed-kang) group, tiles left to right as laid."""

    items: tuple[TileItem, ...]
    called: bool = False  # a turned tile: taken from a discard
    concealed: bool = False  # face-down outer tiles: a secret (concealed kang)
    added: bool = False  # a tile stacked on the turned one: sagása (added kang)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The meld's tiles; the face-down outer tiles of a secret take the face-up tiles' code."""
        faces = [i.tile for i in self.items if i.face_up]
        if self.concealed and faces and len(set(faces)) == 1:
            return (faces[0],) * len(self.items)
        return tuple(i.tile for i in self.items)

    def to_meld(self) -> Meld:
        """The engine's meld. Raises ``ReadingError`` quoting the tiles if they form none.

        Where the tiles as named form none, but do with some named by their runner-ups (the
        likeliest other name of each, at least ``RUNNER_UP_FLOOR`` likely), the likeliest
        such meld: a tile misread in a meld group is most often misread as its look-alike,
        and a group laid as a meld is one.

        >>> b = TileItem(Tile.BACK, (0, 0, 1, 1)); f = TileItem(Tile.P2, (0, 0, 1, 1))
        >>> str(MeldReading((b, f, f, b), concealed=True).to_meld())
        '(2222p)'
        >>> s = lambda code, conf=0.9: TileItem(Tile.parse(code), (0, 0, 1, 1), conf)
        >>> turned = replace(s("4s", 0.8), turned=True, runner_up=Tile.S6, runner_up_confidence=0.1)
        >>> meld = MeldReading((turned, s("7s"), s("8s")), called=True).to_meld()
        >>> str(meld), meld.called
        ('[678s]', Tile.S6)
        >>> MeldReading((replace(turned, runner_up_confidence=0.01), s("7s"), s("8s"))).to_meld()
        Traceback (most recent call last):
        ...
        vision.readings.ReadingError: meld '4s 7s 8s' is not a meld: '478s' is not a meld (chow, pung, kang, Beauty or NEWS)
        """
        meld = self._first_meld()[1]
        return meld if meld is not None else self._as_named()  # none: raises, quoting the tiles as read

    def named(self) -> MeldReading:
        """This group with its tiles named as ``to_meld`` reads them: itself when its tiles as
        read form a meld or no runner-ups make one, else with the runner-ups that do (the
        overlay then names the tiles the meld was announced with)."""
        return self._first_meld()[0]

    def _first_meld(self) -> tuple[MeldReading, Meld | None]:
        """The first of this group as read and then by runner-ups (``_by_runner_ups``) that
        makes a meld, and the meld; this group and None if none does."""
        for reading in itertools.chain((self,), self._by_runner_ups()):
            try:
                return reading, reading._as_named()
            except ReadingError:
                continue
        return self, None

    def _by_runner_ups(self) -> Iterator[MeldReading]:
        """This group with one tile or more named by its runner-up, likeliest first (the
        product of the names' confidences)."""
        choices = [[(i, max(i.confidence, 1e-3))] for i in self.items]
        for k, i in enumerate(self.items):
            if i.face_up and i.runner_up not in (None, Tile.BACK) and i.runner_up_confidence >= RUNNER_UP_FLOOR:
                why = f"read as {i.tile} ({i.confidence:.2f} sure); {i.runner_up}, its runner-up, makes the meld"
                choices[k].append((i.by_runner_up(why), i.runner_up_confidence))
        combos = list(itertools.product(*choices))[1:]  # the first is every tile as read
        for combo in sorted(combos, key=lambda combo: -math.prod(conf for _, conf in combo)):
            yield replace(self, items=tuple(item for item, _ in combo))

    def _as_named(self) -> Meld:
        tiles = list(self.tiles)
        if Tile.BACK in tiles:
            raise ReadingError(f"meld {_codes(self.items)!r}: face-down tiles whose face is unknown")
        try:
            meld = Meld.from_tiles(tiles, concealed=self.concealed and len(tiles) == 4,
                                   added=self.added and len(tiles) == 4)
        except InvalidHandError as exc:
            raise ReadingError(f"meld {_codes(self.items)!r} is not a meld: {exc}") from None
        turned = [i.tile for i in self.items if i.turned]
        return replace(meld, called=turned[0]) if turned and meld.kind is not MeldKind.CONCEALED_KANG else meld


def _codes(items: Iterable[TileItem]) -> str:
    return " ".join(str(i.tile) for i in items)


@dataclass(frozen=True)
class HandReading:
    """A single hand from a photo: the concealed row left to right, melds, flowers, and the rest."""

    concealed: tuple[TileItem, ...] = ()
    melds: tuple[MeldReading, ...] = ()
    flowers: tuple[TileItem, ...] = ()
    others: tuple[TileItem, ...] = ()  # seen but not this hand's: scattered tiles, the wall
    image_size: tuple[int, int] | None = None  # width, height
    shaken: bool = False  # the photo looks smeared along a line: a hand that moved (vision.deblur)

    @property
    def tile_count(self) -> int:
        """Tiles that count toward the hand size (a kang counts as three, a flower stood in
        the row not at all)."""
        return sum(not i.tile.is_bonus for i in self.concealed) + sum(min(3, len(m.items)) for m in self.melds)

    def items(self) -> Iterator[tuple[TileItem, str, int | None]]:
        """Every item with its region and group number (melds 0, 1, ...)."""
        for i in self.concealed:
            yield i, "hand", None
        for g, m in enumerate(self.melds):
            for i in m.items:
                yield i, "meld", g
        for i in self.flowers:
            yield i, "flower", None
        for i in self.others:
            yield i, "other", None

    @property
    def doubtful(self) -> tuple[TileItem, ...]:
        return tuple(i for i, region, _ in self.items() if i.doubt and region != "other")

    def to_hand(self) -> Hand:
        """The engine's ``Hand`` (concealed tiles in the order seen). A flower, season,
        animal or royal tile stood in the row is a bonus tile, as ``Hand.parse`` reads it:
        many players keep their flowers in the row, and counted there it made a ready hand
        a tile too long to score.

        Raises ``ReadingError`` when a meld group forms no meld.
        """
        melds = tuple(m.to_meld() for m in self.melds)
        tiles = [i.tile for i in self.concealed]
        aside = tuple(t for t in tiles if t.is_bonus)
        return Hand(tuple(t for t in tiles if not t.is_bonus), melds, aside + tuple(i.tile for i in self.flowers))

    def tiles_json(self) -> list[dict[str, Any]]:
        return [item.as_json(region, group) for item, region, group in self.items()]

    def cut_by_edge(self) -> tuple[TileItem, ...]:
        """The tiles of the hand, or lying by it, that reach the picture's edge (see
        ``cut_by_edge``): when a hand reads short, part of it may be outside the photo."""
        if self.image_size is None:
            return ()
        pairs = [(item, region) for item, region, _ in self.items()]
        cut = cut_by_edge([i.box for i, _ in pairs], [region for _, region in pairs], self.image_size,
                          face_down=[not i.face_up for i, _ in pairs])
        return tuple(pairs[k][0] for k in cut)

    def with_boxes(self, box: Callable[[Box], Box], image_size: tuple[int, int] | None) -> HandReading:
        """This reading with every tile's box taken through ``box``: the same tiles in the
        pixels of another picture, of ``image_size`` (the photo a turned one was cut from).

        >>> r = HandReading((TileItem(Tile.M1, (1, 2, 3, 4)),), others=(TileItem(Tile.BACK, (5, 6, 7, 8)),))
        >>> moved = r.with_boxes(lambda b: (b[0] + 10, b[1], b[2] + 10, b[3]), (40, 30))
        >>> [i.box for i, _, _ in moved.items()], moved.image_size
        ([(11, 2, 13, 4), (15, 6, 17, 8)], (40, 30))
        """
        def move(item: TileItem) -> TileItem:
            return replace(item, box=box(item.box))

        return replace(
            self,
            concealed=tuple(map(move, self.concealed)),
            melds=tuple(replace(m, items=tuple(map(move, m.items))) for m in self.melds),
            flowers=tuple(map(move, self.flowers)),
            others=tuple(map(move, self.others)),
            image_size=image_size,
        )

    def check(self, ruleset: Any) -> HandReading:
        """This reading with doubtful tiles flagged against the variant (see ``check_against``)."""
        flagged = check_against([i for i, region, _ in self.items() if region != "other"], ruleset)
        return _rebuild_hand(self, flagged)


def _rebuild_hand(reading: HandReading, flagged: dict[int, str]) -> HandReading:
    def fix(item: TileItem) -> TileItem:
        why = flagged.get(id(item))
        return replace(item, doubt=why) if why and not item.doubt else item

    return replace(
        reading,
        concealed=tuple(map(fix, reading.concealed)),
        melds=tuple(replace(m, items=tuple(map(fix, m.items))) for m in reading.melds),
        flowers=tuple(map(fix, reading.flowers)),
    )


@dataclass(frozen=True)
class SeatReading:
    """One seat seen from above: the concealed row (read, or only counted when edge-on)."""

    seat: Seat
    concealed: tuple[TileItem, ...] = ()  # the standing row's boxes (faces unknown when edge-on)
    melds: tuple[MeldReading, ...] = ()
    flowers: tuple[TileItem, ...] = ()

    @property
    def concealed_count(self) -> int:
        return len(self.concealed)


@dataclass(frozen=True)
class TableReading:
    """The whole table from above: four seats, the discard pool, the walls."""

    seats: dict[Seat, SeatReading] = field(default_factory=dict)
    discards: tuple[TileItem, ...] = ()
    walls: tuple[TileItem, ...] = ()  # face-down wall tiles (a stack of two may show as one box)
    others: tuple[TileItem, ...] = ()
    image_size: tuple[int, int] | None = None

    @property
    def wall_length(self) -> int:
        """Wall boxes seen (stacks count once: from above a stack of two is one box)."""
        return len(self.walls)

    def seat(self, seat: Seat) -> SeatReading:
        return self.seats.get(seat, SeatReading(seat))

    def items(self) -> Iterator[tuple[TileItem, str, Seat | None, int | None]]:
        """Every item with its region, seat and group (groups numbered per seat)."""
        for s in Seat:
            sr = self.seat(s)
            for i in sr.concealed:
                yield i, "hand", s, None
            for g, m in enumerate(sr.melds):
                for i in m.items:
                    yield i, "meld", s, g
            for i in sr.flowers:
                yield i, "flower", s, None
        for i in self.discards:
            yield i, "discard", None, None
        for i in self.walls:
            yield i, "wall", None, None
        for i in self.others:
            yield i, "other", None, None

    def check(self, ruleset: Any) -> TableReading:
        """Flag doubtful face-up tiles over the whole table (hands edge-on are not counted)."""
        seen = [i for i, region, _, _ in self.items() if region in ("meld", "flower", "discard")]
        flagged = check_against(seen, ruleset)

        def fix(item: TileItem) -> TileItem:
            why = flagged.get(id(item))
            return replace(item, doubt=why) if why and not item.doubt else item

        return self.map_items(fix)

    def map_items(self, fn: Callable[[TileItem], TileItem]) -> TableReading:
        """The same regions and groups with every item replaced by ``fn(item)``.

        >>> r = TableReading(discards=(TileItem(Tile.M1, (0, 0, 1, 1)),))
        >>> r.map_items(lambda i: replace(i, confidence=0.5)).discards[0].confidence
        0.5
        """
        def each(items: tuple[TileItem, ...]) -> tuple[TileItem, ...]:
            return tuple(map(fn, items))

        seats = {
            s: replace(r, concealed=each(r.concealed), flowers=each(r.flowers),
                       melds=tuple(replace(m, items=each(m.items)) for m in r.melds))
            for s, r in self.seats.items()
        }
        return replace(self, seats=seats, discards=each(self.discards), walls=each(self.walls),
                       others=each(self.others))


def _set_of(ruleset: Any) -> Counter[Tile] | None:
    tiles = getattr(ruleset, "tiles", None)
    return Counter(tiles) if tiles else None


def at_edge(box: Sequence[float], size: tuple[int, int], margin: float = 3.0) -> bool:
    """Whether ``box`` reaches within ``margin`` pixels of the edge of a picture of ``size``
    (width, height).

    >>> at_edge((0, 10, 30, 50), (640, 480)), at_edge((10, 10, 40, 50), (640, 480))
    (True, False)
    """
    return bool(min(box[0], box[1], size[0] - box[2], size[1] - box[3]) < margin)


def cut_by_edge(boxes: Sequence[Box], regions: Sequence[str], size: tuple[int, int], margin: float = 3.0,
                reach: float = 2.6, face_down: Sequence[bool] | None = None) -> list[int]:
    """Indices of the tiles whose boxes reach within ``margin`` pixels of the picture's edge
    (``size``: width, height) and are the hand's (a region other than "other") or lie face
    up within ``reach`` tile lengths of its concealed row ("hand"): a meld cut by the photo's
    edge to one or two tiles is no meld, and is read among the others; face-down tiles among
    the others (``face_down``) are a wall or another player's hand.

    >>> row = [(60 + 31 * k, 300, 90 + 31 * k, 340) for k in range(10)]
    >>> cut = [(0, 345, 25, 385), (28, 345, 58, 385)]  # two tiles of a meld at the left edge
    >>> far = (600, 0, 630, 40)  # a discard at the top edge, far from the hand
    >>> cut_by_edge([*row, *cut, far], ["hand"] * 10 + ["other"] * 3, (640, 480))
    [10]
    """
    hand = [b for b, region in zip(boxes, regions, strict=True) if region == "hand"]
    around = (min(h[0] for h in hand), min(h[1] for h in hand), max(h[2] for h in hand), max(h[3] for h in hand),
              sorted(max(h[2] - h[0], h[3] - h[1]) for h in hand)[len(hand) // 2]) if hand else None

    def by_hand(b: Box) -> bool:  # its centre within reach of the box around the concealed row
        if around is None:
            return False
        left, top, right, bottom, tile = around  # tile: the row's median tile length
        x, y = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        return math.hypot(max(left - x, 0.0, x - right), max(top - y, 0.0, y - bottom)) < reach * tile

    down = face_down if face_down is not None else [False] * len(boxes)
    return [k for k, (b, region, back) in enumerate(zip(boxes, regions, down, strict=True))
            if at_edge(b, size, margin) and (region != "other" or (not back and by_hand(b)))]


# What to tell a player whose photo looks shaken (``HandReading.shaken``): a shaken photo's hand
# is read right less often (the 45 real validation photos shaken 5 px: 26.5 of 41 against 35).
SHAKEN_NOTE = ("The photo looks shaken: its tiles are smeared along a line, so some may be misread. "
               "Hold the phone still and take it again for a surer reading.")


def edge_note(n: int) -> str:
    """What to tell a player whose hand reads short when ``n`` tiles by it reach the photo's
    edge (``cut_by_edge``). Of the rendered hand photos the shipped models read short, it was
    said of 804 of 1,129, and 750 of those hands had tiles outside the picture; of the real
    photos read short, of 59 of 150, and 35 of those have a labelled hand tile at the edge
    (``models/HISTORY.md``, stop 35).

    >>> edge_note(2)
    "2 tiles by the hand reach the photo's edge: part of the hand may be outside the picture"
    """
    verb = "reaches" if n == 1 else "reach"
    return f"{n} tile{'s' if n != 1 else ''} by the hand {verb} the photo's edge: part of the hand may be outside the picture"


def check_against(items: Iterable[TileItem], ruleset: Any = None,
                  low: float = LOW_CONFIDENCE) -> dict[int, str]:
    """Doubts keyed by ``id(item)``: weak reads, tiles the set lacks, more copies than it has.

    ``ruleset`` is anything with a ``tiles`` Counter (the engine's ``Ruleset``); without
    one, a standard set is assumed (4 of each playable tile, 1 of each bonus tile).
    Every copy of an over-counted tile is flagged: which one is the misread is for
    the person to say.

    >>> items = [TileItem(Tile.M3, (0, 0, 1, 1), 0.9) for _ in range(5)] + [TileItem(Tile.M4, (0, 0, 1, 1), 0.3)]
    >>> sorted(set(check_against(items).values()))
    ['5 copies of 3m: a set has 4', 'unsure which tile (named 0.30 sure)']
    """
    items = list(items)
    tile_set = _set_of(ruleset)
    counts = Counter(i.tile for i in items if i.face_up)
    doubts: dict[int, str] = {}
    for item in items:
        if not item.face_up:
            continue
        have = tile_set[item.tile] if tile_set is not None else (1 if item.tile.is_bonus else 4)
        if tile_set is not None and have == 0:
            name = getattr(ruleset, "name", "this variant")
            doubts[id(item)] = f"{item.tile} ({item.tile.english}) is not in the {name} set"
        elif counts[item.tile] > have:
            doubts[id(item)] = f"{counts[item.tile]} copies of {item.tile}: a set has {have}"
        elif item.found < low:  # the detector's doubt: a die, a coin, a tile's second box
            doubts[id(item)] = f"perhaps no tile (found {item.found:.2f} sure): leave it out if so"
        elif item.confidence < low:
            doubts[id(item)] = f"unsure which tile (named {item.confidence:.2f} sure)"
    return doubts
