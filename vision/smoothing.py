"""Temporal smoothing for live video: tiles that stay put, named by a vote.

A tile is reported once it has been seen ``appear`` frames in a row at the same
place (IoU matching of boxes), and dropped only after it has been missing for
``disappear`` frames. Its name is a confidence-weighted vote over its last
``votes`` reads. A hand passing over the table hides tiles for a few frames (they
stay: misses are not even counted while a large share of the table is hidden at
once) and carries tiles through the picture (they never stay put long enough to
be reported).

A tile that moves leaves its old place at once: missing there, it is dropped as
soon as it is confirmed elsewhere; and when another tile was laid where it lay
(the flowers shift over to make room for a new meld, whose first tile lands on
the old flower's place), the track there, whose reads since then all name that
other tile, is renamed at once instead of waiting until the new reads outvote
the old name. A tile misread in place, or half hidden by a hand, is never renamed
this way: that takes its own name showing up steadily somewhere else. Nor does a
tile long seen face up turn face down in place on a few face-down reads
(``TileSmoother.turn_over``).

>>> import numpy as np
>>> from vision.detections import Detections
>>> s = TileSmoother(appear=2, disappear=2)
>>> d = Detections(np.array([[0, 0, 10, 14.]]), np.ones(1), np.ones(1, bool)).with_codes(
...     np.array([4]), np.ones(1))
>>> [len(s.update(d)) for _ in range(3)]
[0, 1, 1]
>>> [len(s.update(Detections.empty())) for _ in range(3)]
[1, 0, 0]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.tiles import Tile
from vision.detections import Detections, box_iou
from vision.readings import TileItem
from vision.regions import to_items

__all__ = ["TileSmoother", "Track"]


@dataclass
class Track:
    """One physical tile followed over frames."""

    id: int
    box: np.ndarray
    votes: deque[tuple[Tile, float]]
    runner_ups: deque[tuple[Tile | None, float]] = field(default_factory=deque)  # each vote's next name
    hits: int = 1  # consecutive frames seen (while tentative)
    misses: int = 0  # consecutive frames missed
    hidden: int = 0  # consecutive frames missed while much of the table was hidden
    confirmed: bool = False
    first_seen: float = 0.0  # time of the first sighting (for latency)
    confirmed_at: float = 0.0
    seeking: int = 0  # frames left to look for the place a newly confirmed tile moved from
    up_reads: int = 0  # reads naming a face, in all
    down_run: int = 0  # face-down reads in a row, up to the latest
    turn_over: int = 0  # see ``TileSmoother.turn_over`` (0: the votes alone decide)

    def name(self) -> tuple[Tile, float]:
        """The vote winner and its share of the (confidence-weighted) votes; a face outvoted by
        face-down reads where the tile was long seen face up and is not yet seen face down
        ``turn_over`` times in a row (``TileSmoother.turn_over``).

        >>> tr = Track(0, np.zeros(4), deque([(Tile.S9, .35)] * 3 + [(Tile.BACK, .29)] * 12),
        ...            up_reads=40, down_run=12, turn_over=30)
        >>> tile, share = tr.name()
        >>> tile, round(share, 3)
        (Tile.S9, 0.232)
        >>> tr.down_run = 30
        >>> tr.name()[0]
        Tile.BACK
        """
        tally: dict[Tile, float] = {}
        for tile, conf in self.votes:
            tally[tile] = tally.get(tile, 0.0) + max(conf, 1e-3)
        total = sum(tally.values())
        if self.up_reads >= self.turn_over > self.down_run and len(tally) > 1:
            tally.pop(Tile.BACK, None)
        tile, weight = max(tally.items(), key=lambda kv: kv[1])
        return tile, weight / total

    def count_face(self, tile: Tile) -> None:
        """Count one read's face for ``name``: face up, or one more face down in a row."""
        self.down_run = self.down_run + 1 if tile is Tile.BACK else 0
        self.up_reads += tile is not Tile.BACK

    def runner_up(self, tile: Tile) -> tuple[Tile | None, float]:
        """The likeliest name but ``tile`` over the votes (each vote's own name where it is
        another, and its runner-up), and its mean confidence a vote; None, 0 if there is none.

        >>> tr = Track(0, np.zeros(4), deque([(Tile.S4, .9), (Tile.S6, .7)]), deque([(Tile.S6, .1), (Tile.S4, .3)]))
        >>> tr.runner_up(Tile.S4)
        (Tile.S6, 0.4)
        """
        tally: dict[Tile, float] = {}
        for (name, conf), (second, second_conf) in zip(self.votes, self.runner_ups, strict=False):
            for other, weight in ((name, conf), (second, second_conf)):
                if other is not None and other != tile:
                    tally[other] = tally.get(other, 0.0) + weight
        if not tally:
            return None, 0.0
        other, weight = max(tally.items(), key=lambda kv: kv[1])
        return other, round(weight / len(self.votes), 4)

    def item(self) -> TileItem:
        tile, share = self.name()
        confs = [c for t, c in self.votes if t == tile]
        box = tuple(self.box.tolist())  # every steady tile, every frame: plain Python is faster here
        second, second_conf = self.runner_up(tile) if tile is not Tile.BACK else (None, 0.0)
        return TileItem(tile, box, round(share * float(sum(confs)) / len(confs), 4), track=self.id,
                        runner_up=second, runner_up_confidence=second_conf)


@dataclass
class TileSmoother:
    """Stage: per-frame detections -> the steady tiles (``TileItem`` with ``track`` ids)."""

    appear: int = 3
    disappear: int = 15
    iou: float = 0.4  # a detection continues a track when their boxes overlap this much
    votes: int = 15
    occluded: float = 0.3  # when this share of the steady tiles vanishes at once, misses don't count
    smoothing: float = 0.5  # weight of the new box in the running box
    # a tile read face up this many times is taken as turned face down only after this many
    # face-down reads in a row: no tile on a table turns over in place during a hand, but the
    # detector's face flickers on a box astride two tiles. Visayan North's third 9s, its box
    # half over the second, was read face down for 12 frames: named a back by the votes, it
    # made her pung a concealed kang, heard as a sagása (set style 5, seed 2, action 63)
    turn_over: int = 30
    tracks: list[Track] = field(default_factory=list)
    _next_id: int = 0
    frames: int = 0

    def update(self, dets: Detections | Sequence[TileItem], t: float | None = None) -> list[TileItem]:
        """Feed one frame's detections; returns the steady tiles, ordered by track id."""
        now = float(self.frames if t is None else t)
        self.frames += 1
        items = to_items(dets)
        boxes = np.array([i.box for i in items], dtype=np.float64).reshape(-1, 4)
        pairs = self._match(boxes)
        matched_tracks = {ti for ti, _ in pairs}
        matched_dets = {di for _, di in pairs}
        for ti, di in pairs:
            self._hit(self.tracks[ti], boxes[di], items[di], now)
        steady = [k for k, tr in enumerate(self.tracks) if tr.confirmed]
        lost = [k for k in steady if k not in matched_tracks]
        freeze = len(steady) >= 3 and len(lost) >= self.occluded * len(steady)
        survivors = []
        for k, tr in enumerate(self.tracks):
            if k not in matched_tracks:
                if not tr.confirmed:
                    continue  # a tentative tile that did not stay: a tile in a moving hand, noise
                tr.hidden = tr.hidden + 1 if freeze else 0
                if not freeze or tr.hidden > 4 * self.disappear:  # not forever: the table may be cleared
                    tr.misses += 1
                if tr.misses >= self.disappear:
                    continue
            survivors.append(tr)
        self.tracks = survivors
        for di, item in enumerate(items):
            if di not in matched_dets:
                self._new(boxes[di], item, now)
        self._moved(now)
        return [tr.item() for tr in self.tracks if tr.confirmed]

    def _moved(self, now: float) -> None:
        """A face-up tile confirmed at a new place has moved when the same tile is gone from
        its old place (a flower re-laid, a discard taken into a meld): drop the old one now
        instead of ``disappear`` frames later. When another tile took the old place (reads
        there name another tile since at least ``appear`` frames), that track is the new
        tile: renamed, and in turn checked (flowers shifting over by one tile each).

        A new tile looks for another tile laid in its old place for ``votes`` frames after it
        is confirmed, not only on that frame: a hand passing over the table as a meld is laid
        hides the old place, whose reads name the meld's tile only ``appear`` frames after the
        hand has gone (a flower left named in the meld's place for 14 frames put the meld after
        the next discard, ``benchmarks/bench_camera_referee.py``)."""
        fresh = []
        for tr in self.tracks:
            if tr.confirmed and tr.confirmed_at == now and tr.misses == 0 and tr.hits >= self.appear:
                tr.seeking = self.votes
            if tr.seeking > 0 and tr.misses == 0:
                fresh.append(tr)
            tr.seeking = max(0, tr.seeking - 1)
        while fresh:
            tr = fresh.pop(0)
            tile, _ = tr.name()
            if tile is Tile.BACK:
                tr.seeking = 0
                continue
            # a tile gone from its old place is looked for only as the new one is confirmed: later,
            # a tile of the same name hidden by a passing hand would pass for the one that moved
            stale = ([o for o in self.tracks if o.confirmed and o.misses >= 2 and o.name()[0] == tile]
                     if tr.confirmed_at == now else [])
            if stale:
                self.tracks.remove(max(stale, key=lambda o: o.misses))
                tr.seeking = 0
            # looked for all the same: the stale one may be the tile's second box, gone as the row
            # moved (Filipino South's flowers moved three places over for a chow: the 1z's second
            # box went, its old place kept the name 1z under an 8f, and South laid out a second 1z)
            taken = [o for o in self.tracks if o is not tr and o.confirmed and o.misses == 0
                     and o.name()[0] == tile and self._replaced_by(o) is not None]
            if taken:
                old = taken[0]
                recent = max(1, self.appear)
                new = Track(self._next_id, old.box.copy(), deque(list(old.votes)[-recent:], maxlen=self.votes),
                            deque(list(old.runner_ups)[-recent:], maxlen=self.votes), hits=old.hits,
                            confirmed=True, first_seen=now, confirmed_at=now, seeking=self.votes,
                            turn_over=self.turn_over)
                for t, _ in new.votes:
                    new.count_face(t)
                self._next_id += 1
                self.tracks[self.tracks.index(old)] = new
                tr.seeking = 0
                fresh.append(new)

    def _replaced_by(self, tr: Track) -> Tile | None:
        """The other tile that the last ``appear`` reads of ``tr`` all name, if any."""
        recent = [t for t, _ in list(tr.votes)[-max(1, self.appear):]]
        if len(recent) < max(1, self.appear) or len(set(recent)) != 1 or recent[0] == tr.name()[0]:
            return None
        return recent[0]

    def _match(self, boxes: np.ndarray) -> list[tuple[int, int]]:
        """Greedy matching, best overlap first (one track per detection and vice versa)."""
        if not self.tracks or not len(boxes):
            return []
        iou = box_iou(np.array([tr.box for tr in self.tracks]), boxes)
        pairs = []
        used_t: set[int] = set()
        used_d: set[int] = set()
        for flat in np.argsort(-iou, axis=None):
            ti, di = divmod(int(flat), iou.shape[1])
            if iou[ti, di] < self.iou:
                break
            if ti in used_t or di in used_d:
                continue
            used_t.add(ti)
            used_d.add(di)
            pairs.append((ti, di))
        return pairs

    def _hit(self, tr: Track, box: np.ndarray, item: TileItem, now: float) -> None:
        a = self.smoothing
        tr.box = (1 - a) * tr.box + a * box
        tr.votes.append((item.tile, item.confidence))
        tr.runner_ups.append((item.runner_up, item.runner_up_confidence))
        tr.misses = 0
        tr.hits += 1
        tr.count_face(item.tile)
        if not tr.confirmed and tr.hits >= self.appear:
            tr.confirmed = True
            tr.confirmed_at = now

    def _new(self, box: np.ndarray, item: TileItem, now: float) -> None:
        votes: deque[tuple[Tile, float]] = deque([(item.tile, item.confidence)], maxlen=self.votes)
        seconds: deque[tuple[Tile | None, float]] = deque([(item.runner_up, item.runner_up_confidence)],
                                                         maxlen=self.votes)
        tr = Track(self._next_id, box.copy(), votes, seconds, first_seen=now, turn_over=self.turn_over)
        tr.count_face(item.tile)
        if self.appear <= 1:
            tr.confirmed, tr.confirmed_at = True, now
        self._next_id += 1
        self.tracks.append(tr)

    def reset(self) -> None:
        self.tracks.clear()
