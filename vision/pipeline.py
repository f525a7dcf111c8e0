"""The camera pipeline: one photo -> ``HandReading``; live video -> readings and events.

Entry points (what the web UI and the CLI use)::

    from vision.pipeline import read_hand_photo, LivePipeline, annotate
    from vision.capture import Capture
    from vision.regions import TableLayout

    # one photo of one hand (a path, or a BGR numpy image); a hand whose tiles come out
    # small is detected again in the part around it (CloserLook)
    reading = read_hand_photo("hand.jpg", "filipino")   # HandReading (doubts flagged)
    hand = reading.to_hand()                            # engine Hand, e.g. for Ruleset.waits
    reading.tiles_json()                                # [{box, tile, confidence, region, group}]
    png = annotate(image, reading)                      # BGR image with every tile outlined

    # live video from a camera placed once (East sits at the image's bottom edge)
    pipe = LivePipeline(variant="filipino", layout=TableLayout(bottom=Seat.EAST),
                        first=Seat.EAST, observer=game_or_None)
    with Capture(0) as cam:            # or a file / RTSP / HTTP URL; reconnects by itself
        pipe.run(cam, on_update=send, stop=stop_event)  # each LiveUpdate: reading, events, fps
    # or, frame by frame:  update = pipe.process(bgr_image, t=time.monotonic())
    pipe.reset(first=Seat.SOUTH)       # a new hand: forget tiles and events, keep the placement
    update.as_json()                   # tiles (box, tile, confidence, region, seat, group), events, fps

    # a game rendered with a known script, as a demo source (no camera needed)
    from vision.scripted import ScriptedTable          # frames() -> VideoFrame(image, labels, ...)

``observer`` is any callable taking one event and returning None (accepted) or the
reason it was refused: ``vision.events.RefereeFeed(Game(variant, mode="observed"))``
feeds the referee (its ``announcements`` are the referee's sentences).

``LiveUpdate`` holds the smoothed ``TableReading`` (per seat: concealed count,
melds, flowers; discards; walls), the new ``TableEvent``s (discards with who,
melds, flowers, kangs with their gift), what the referee refused and why, and
timings. ``reader`` is anything callable ``BGR image -> Detections`` (the shipped
``TileReader`` by default; tests pass ground truth); ``calibration`` names a set
taught with ``mahjongero calibrate`` whose prototypes then name the tiles.

Stages, each an object with one verb: reader (image -> Detections) -> TileSmoother
(.update -> steady tiles) -> TableRegions (call -> TableReading) -> EventDetector
(.update -> events) -> observer (referee's observed game).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from engine.seats import Seat
from engine.tiles import Tile
from vision.capture import Capture
from vision.detections import Detections
from vision.events import EventDetector, TableEvent
from vision.readings import Box, HandReading, TableReading
from vision.regions import (
    HandRegions,
    NoTilesError,
    SteadyRegions,
    TableLayout,
    TableRegions,
    tile_scale,
)
from vision.smoothing import TileSmoother
from vision.upright import boxes_levelled, boxes_through, boxes_turned_back, turn_quarters

if TYPE_CHECKING:
    from vision.reader import LevelPass

__all__ = [
    "read_hand_photo",
    "CloserLook",
    "LivePipeline",
    "LiveUpdate",
    "annotate",
    "load_ruleset",
    "default_reader",
    "Reader",
]

Reader = Callable[[np.ndarray], Detections]


def load_ruleset(variant: str | None, **table_rules: Any) -> Any:
    """The engine's ruleset for ``variant`` (``None`` when no variant is given).

    Raises the engine's ``UnknownRulesetError`` (a ``ValueError``) for an unknown name.
    """
    if variant is None:
        return None
    from engine.ruleset import find_ruleset

    return find_ruleset(variant, **table_rules)


def _is_bonus(ruleset: Any) -> Callable[[Tile], bool]:
    """Which tiles are laid aside outside the concealed row: the variant's bonus tiles, and
    exposed Vietnamese jokers (put down with the flowers)."""
    hook = getattr(ruleset, "is_bonus", None)
    if not callable(hook):
        return lambda t: t.is_bonus or t.is_vn_joker
    return lambda t: bool(hook(t)) or t.is_vn_joker


def default_reader(calibration: str | None = None, live: bool = False) -> Reader:
    """The shipped models (``models/*.onnx``), optionally naming tiles by a calibrated set;
    ``live``: a ``VideoReader`` for a fixed camera over the whole table."""
    from vision.classifier import CROP_MARGIN
    from vision.holes import DownFaces, RowEnds, RowHoles, UnboxedFaces
    from vision.pieces import TilePieces
    from vision.reader import (
        LIVE_BALANCE,
        LIVE_MARGINS,
        TileReader,
        VideoReader,
        shipped_classifier,
    )

    # live video reads with the flower look since stop 70: the flowers and seasons of 40 held-out
    # rendered tables at 1080p, 183 of 256 named right with it against 142 without (222 with
    # the crops of tiles lying across turned upright too: ``VideoReader.stand_up``; models/README.md,
    # "Live video: the flower look, and tiles lying across turned upright"). Without the number
    # look: on top of both, it named 3 more of 3,356 tiles
    reader = TileReader(classifier=shipped_classifier(number_look=None) if live else None)
    classify: Any = reader.classifier
    if calibration is not None:
        from vision.calibrate import CalibratedReader, load_set

        # whole crops, a photo's too: the detector boxes faces, and cut (PHOTO_CUTS) they lose face
        calibrated = CalibratedReader(reader, load_set(calibration))
        if not live:
            return calibrated
        classify = calibrated.classifier
    # a set is taught in its photo's own colours and names crops in them (``vision.balance``);
    # tiles missed in a row are looked for between their neighbours (``vision.holes``), and
    # tiles boxed in two pieces boxed whole (``vision.pieces``); faces boxed face down in a row
    # of faces are turned face up, and faces no box found, or missed at a row's end, are boxed
    # (``vision.holes``). The shipped classifier reads each tile cut two ways (``LIVE_MARGINS``);
    # a set was taught on crops cut one way
    shipped = calibration is None
    return VideoReader(reader.detector, classify, balance=LIVE_BALANCE if shipped else None,
                       holes=RowHoles(), pieces=TilePieces(), down_faces=DownFaces(), unboxed=UnboxedFaces(),
                       ends=RowEnds(), margins=LIVE_MARGINS if shipped else (CROP_MARGIN,)) if live else reader


@functools.lru_cache(maxsize=4)
def _photo_reader(calibration: str | None, stamp: tuple[str, float] | None) -> Reader:
    """``default_reader`` kept between photos (loading the models takes ~0.12 s); ``stamp``
    (where and when the set was last taught) makes a set taught again load afresh."""
    return default_reader(calibration)


def _set_stamp(calibration: str | None) -> tuple[str, float] | None:
    if calibration is None:
        return None
    from vision.calibrate import check_name, sets_dir

    meta = sets_dir() / check_name(calibration) / "set.json"
    return (str(meta), meta.stat().st_mtime) if meta.is_file() else None


def _image(photo: str | Path | np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    """The pixels to read, and what their boxes are multiplied by to land in the photo's
    (a big JPEG is decoded at a fraction of its size: ``vision.imageio.load_photo``)."""
    if isinstance(photo, np.ndarray):
        if photo.ndim != 3 or photo.shape[0] == 0 or photo.shape[1] == 0:
            raise ValueError(f"not a colour image: array of shape {photo.shape!r}")
        return photo, (1.0, 1.0)
    from vision.imageio import load_photo

    return load_photo(photo)


@dataclass(frozen=True)
class CloserLook:
    """Stage: a hand photo read, whose hand's tiles came out small -> read again with the
    part around the hand detected once more, cut out: the detector sees it at its input
    size, the tiles larger. A hand photographed from afar has its tiles near the detector's
    smallest (stop 32 measured it finding 0.83 of the face-up tiles 8-12 px wide at its input
    and 0.94 of those 12-20 px, against 0.986 from 20 px), and a tile missed leaves the hand
    short.

    ``below``: the concealed row's median short side, as a share of the photo's long side,
    under which it looks again (1/16: 30 px at the detector's 480); ``margin``: tile lengths
    around the hand's tiles (its melds and flowers too) to cut out; ``most``: the part's long
    side at most this share of the photo's, else it would be seen no larger. Boxes centred
    inside the part, ``edge`` tile lengths from its cut sides, are the closer look's; the
    others stay. A closer reading that is refused (no tiles, two hands) leaves the first.

    Since stop 41 (``models/HISTORY.md``): rules-dealt hand photos read by the shipped models
    (``benchmarks/bench_hand_regions.py``), seeds 4062-4109, it looked again at 707 of
    14,400 and held the hand's tiles exactly in 7,770 -> 7,831 (in place 7,417 -> 7,473,
    named all right 4,762 -> 4,768); at 93.8 ms against 51.6 a 1280x960 photo (median of
    those of seed 4062). No real photo's tiles are that small: they read as before.
    """

    below: float = 1 / 16
    margin: float = 1.5
    most: float = 0.8
    edge: float = 0.5

    def window(self, reading: HandReading) -> tuple[float, float, float, float] | None:
        """The part of the photo to look at again (photo pixels), or None."""
        if reading.image_size is None or len(reading.concealed) < 2:
            return None
        w, h = reading.image_size
        short, long = tile_scale(reading.concealed)
        if short >= self.below * max(w, h):
            return None
        boxes = np.array([i.box for i, region, _ in reading.items() if region != "other"])
        m = self.margin * long
        x1, y1 = max(0.0, boxes[:, 0].min() - m), max(0.0, boxes[:, 1].min() - m)
        x2, y2 = min(float(w), boxes[:, 2].max() + m), min(float(h), boxes[:, 3].max() + m)
        return (x1, y1, x2, y2) if max(x2 - x1, y2 - y1) <= self.most * max(w, h) else None

    def __call__(self, image: np.ndarray, dets: Detections, reading: HandReading, reader: Reader,
                 regions: HandRegions, scale: tuple[float, float] = (1.0, 1.0)) -> HandReading:
        """``reading`` of ``dets`` (found in ``image``, whose pixels are ``scale`` times
        smaller than the photo's) read again after a closer look, or itself."""
        part = self.window(reading)
        if part is None:
            return reading
        sx, sy = scale
        x1, y1, x2, y2 = (int(part[0] / sx), int(part[1] / sy), int(np.ceil(part[2] / sx)), int(np.ceil(part[3] / sy)))
        closer = reader(image[y1:y2, x1:x2]).moved(x1, y1).scaled(sx, sy)
        pad = self.edge * tile_scale(reading.concealed)[1]
        w, h = reading.image_size or (0, 0)
        inner = (part[0] + pad * (part[0] > 0), part[1] + pad * (part[1] > 0),
                 part[2] - pad * (part[2] < w), part[3] - pad * (part[3] < h))
        merged = Detections.concat([dets[~_centred_in(dets, inner)], closer[_centred_in(closer, inner)]])
        try:
            return regions(merged, reading.image_size)
        except ValueError:
            return reading


def _centred_in(dets: Detections, box: tuple[float, float, float, float]) -> np.ndarray:
    """Which of ``dets`` have their centre inside ``box``."""
    cx, cy = (dets.xyxy[:, 0] + dets.xyxy[:, 2]) / 2, (dets.xyxy[:, 1] + dets.xyxy[:, 3]) / 2
    out: np.ndarray = (cx > box[0]) & (cx < box[2]) & (cy > box[1]) & (cy < box[3])
    return out


def read_hand_photo(
    photo: str | Path | np.ndarray,
    variant: str | None = None,
    *,
    reader: Reader | None = None,
    calibration: str | None = None,
    ruleset: Any = None,
) -> HandReading:
    """Read one hand from a photo: concealed row, melds, flowers; doubts flagged for the variant.

    The regions are read where the reader read the tiles: in the photo turned a quarter or
    round, and turned level where its longest row runs off level (``TileReader.read_levelled``,
    ``_read_level``; the real validation photos tilted 10 / 20 degrees either way held
    the hand exactly in 39 -> 40.5 and 37.5 -> 38.5 of 45, ``models/HISTORY.md``, stop 60).
    The boxes come back in the photo's pixels, as the reader found them.

    Raises ``NoTilesError`` for a photo without tiles, ``TwoHandsError`` for two hands,
    ``ImageLoadError`` for a file that is not a usable image (all ``ValueError``).
    """
    image, (sx, sy) = _image(photo)
    ruleset = ruleset if ruleset is not None else load_ruleset(variant)
    reader = reader or _photo_reader(calibration, _set_stamp(calibration))
    photo_size = (round(image.shape[1] * sx), round(image.shape[0] * sy))
    image, dets, quarters, levelled = _read_upright(reader, image)
    shaken = _looks_shaken(reader, image, dets)  # turned by quarters at most: not resampled
    if quarters % 2:
        sx, sy = sy, sx
    image, dets, level = _read_level(image, dets, levelled)
    dets, level = dets.scaled(sx, sy), level.scaled(sx, sy) if level is not None else None
    size = (round(image.shape[1] * sx), round(image.shape[0] * sy))
    regions = HandRegions(is_bonus=_is_bonus(ruleset))
    try:
        reading = regions(dets, size)
    except NoTilesError:
        where = f"{str(photo)!r}" if not isinstance(photo, np.ndarray) else "the picture"
        raise NoTilesError(f"no tiles found in {where}") from None
    reading = replace(CloserLook()(image, dets, reading, reader, regions, (sx, sy)), shaken=shaken).check(ruleset)
    if not quarters and level is None:
        return reading
    shape = (photo_size[1], photo_size[0])

    def back(box: Box) -> Box:
        box = level(box) if level is not None else box
        return _box(boxes_turned_back(np.array(box), shape, quarters)[0]) if quarters else box

    return reading.with_boxes(back, photo_size)


def _looks_shaken(reader: Reader, image: np.ndarray, dets: Detections) -> bool:
    """Whether the reader (one that judges, ``TileReader.streak``) finds ``image`` smeared
    along a line by its tiles ``dets``: a hand that moved as the photo was taken. Of the 45
    real validation photos none as photographed, and all 90 shaken 5 px across or up (of the
    113 training photos 1, and 224 of 226; models/HISTORY.md, stop 64). A shaken photo's hand
    is read right less often (26.5 of 41 against 35), so the photo page asks for another."""
    judge = getattr(reader, "streak", None)
    return callable(judge) and judge(image, dets) is not None


def _read_level(image: np.ndarray, dets: Detections, levelled: LevelPass | None
                ) -> tuple[np.ndarray, Detections, LevelledBoxes | None]:
    """Where the hand's regions are read: the photo as the reader levelled it to name its
    tiles (``levelled``: ``TileReader.read_levelled``), ``dets`` in it (boxes
    ``boxes_levelled``) and the way their boxes go back; else the photo as it is, and None."""
    if levelled is None:
        return image, dets, None
    level, matrix = levelled[0], levelled[1]
    boxes = boxes_levelled(dets.xyxy, matrix).astype(np.float32)
    return level, replace(dets, xyxy=boxes), LevelledBoxes(boxes, dets.xyxy, cv2.invertAffineTransform(matrix))


@dataclass(frozen=True)
class LevelledBoxes:
    """The way back from a photo levelled (``_read_level``): a box of ``level`` goes back to
    the box of ``first`` it was made from (the box the reader found), any other (found by a
    closer look) to the box around it turned back through ``back``."""

    level: np.ndarray
    first: np.ndarray
    back: np.ndarray

    def scaled(self, sx: float, sy: float) -> LevelledBoxes:
        """The same in pixels ``sx`` by ``sy`` times larger (``Detections.scaled``)."""
        scale = np.array([sx, sy, sx, sy], np.float32)
        into = np.diag([sx, sy, 1.0])
        back = (into @ np.vstack([self.back, [0, 0, 1]]) @ np.linalg.inv(into))[:2]
        return LevelledBoxes(self.level * scale, self.first * scale, back)

    def __call__(self, box: Box) -> Box:
        off = np.abs(self.level - np.asarray(box, np.float32)).sum(1) if len(self.level) else np.zeros(0)
        if len(off) and off.min() < 1e-2:
            return _box(self.first[int(off.argmin())])
        return _box(boxes_through(np.array([box], np.float64), self.back)[0])


def _box(xyxy: np.ndarray) -> Box:
    x1, y1, x2, y2 = (float(v) for v in xyxy)
    return x1, y1, x2, y2


def _read_upright(reader: Reader, image: np.ndarray) -> tuple[np.ndarray, Detections, int, LevelPass | None]:
    """The photo as read, turned ``quarters`` clockwise where its rows ran up it (a reader
    that turns photos: ``TileReader.read_levelled``), its tiles found in it, ``quarters``, and
    the pass over it levelled that named them (None: none). The hand's regions are read in
    it too: they were shaped on rows across the picture."""
    read_levelled = getattr(reader, "read_levelled", None)
    if not callable(read_levelled):
        return image, reader(image), 0, None
    dets, _, quarters, levelled = read_levelled(image)
    return turn_quarters(image, quarters), dets, quarters, levelled


@dataclass
class LiveUpdate:
    """What one processed frame produced."""

    index: int
    time: float  # the frame's arrival time (monotonic seconds)
    reading: TableReading
    events: list[TableEvent]
    refused: list[tuple[TableEvent, str]] = field(default_factory=list)
    detections: int = 0
    seconds: float = 0.0  # processing time of this frame
    fps: float = 0.0  # processed frames per second, recent average

    def as_json(self) -> dict[str, Any]:
        tiles = [dict(item.as_json(region, group), seat=str(seat) if seat is not None else None)
                 for item, region, seat, group in self.reading.items()]
        return {
            "index": self.index,
            "tiles": tiles,
            "walls": self.reading.wall_length,
            "concealed_counts": {str(s): self.reading.seat(s).concealed_count for s in Seat},
            "events": [e.as_json() for e in self.events],
            "refused": [{"event": e.as_json(), "reason": why} for e, why in self.refused],
            "fps": round(self.fps, 1),
        }


class LivePipeline:
    """Reader -> smoothing -> table regions -> events (-> the referee's observed game)."""

    def __init__(
        self,
        reader: Reader | None = None,
        *,
        variant: str | None = None,
        ruleset: Any = None,
        layout: TableLayout | None = None,
        first: Seat | None = None,
        dealer: Seat = Seat.EAST,
        observer: Callable[[TableEvent], str | None] | None = None,
        smoother: TileSmoother | None = None,
        calibration: str | None = None,
        on_status: Callable[[str], None] | None = None,
    ) -> None:
        self.ruleset = ruleset if ruleset is not None else load_ruleset(variant)
        self._reader = reader
        self._calibration = calibration
        self.layout = layout or TableLayout()
        self.smoother = smoother or TileSmoother()
        self.regions = SteadyRegions(TableRegions(self.layout, is_bonus=_is_bonus(self.ruleset)))
        self.events = EventDetector(first=first, ruleset=self.ruleset, dealer=dealer,
                                    seat_of=self._landed)
        self.observer = observer
        self.on_status = on_status or (lambda msg: None)
        self.processed = 0
        self._times: list[float] = []
        self._centre: np.ndarray | None = None
        self._reader_forgets()

    def reset(self, first: Seat | None = None, dealer: Seat | None = None) -> None:
        """A new hand: forget the tracked tiles and what was seen (the camera stays placed)."""
        self.smoother.reset()
        self.events = EventDetector(first=first, ruleset=self.ruleset,
                                    dealer=dealer if dealer is not None else self.events.dealer,
                                    seat_of=self._landed)
        self._reader_forgets()

    def _reader_forgets(self) -> None:
        """A pipeline reads one hand: a live reader's votes on each tile are the last hand's.
        A flower laid where the last hand's flower lay, its thumbnail a few grey levels off,
        kept the old tile's name and was heard nowhere (``VideoReader.forget``)."""
        forget = getattr(self._reader, "forget", None)
        if callable(forget):
            forget()

    @property
    def reader(self) -> Reader:
        if self._reader is None:
            self._reader = default_reader(self._calibration, live=True)
        return self._reader

    def _landed(self, item: Any) -> Seat:
        centre = self._centre if self._centre is not None else np.zeros(2)
        return self.regions.regions._seat(item.centre, centre)

    def process(self, image: np.ndarray, t: float | None = None, index: int | None = None) -> LiveUpdate:
        """One frame through every stage."""
        start = time.perf_counter()
        now = time.monotonic() if t is None else t
        dets = self.reader(image)
        steady = self.smoother.update(dets, now)
        size = (image.shape[1], image.shape[0])
        self._centre = np.array(self.layout.centre or (size[0] / 2, size[1] / 2), dtype=np.float64)
        reading = self.regions(steady, size)
        if self.ruleset is not None:
            reading = reading.check(self.ruleset)
        events = self.events.update(reading, now)
        refused = self._refused(events)
        reading = self.events.as_announced(reading)  # the overlay names what the referee recorded
        took = time.perf_counter() - start
        self._times = (self._times + [took])[-30:]
        self.processed += 1
        fps = len(self._times) / sum(self._times) if sum(self._times) > 0 else 0.0
        return LiveUpdate(self.processed - 1 if index is None else index, now, reading, events,
                          refused, len(dets), took, fps)

    def _refused(self, events: list[TableEvent]) -> list[tuple[TableEvent, str]]:
        """Each event to the observer (the referee); those it refused, with why.

        A refusal leaves the camera's turn order as the camera saw the table: a refused
        discard is nearly always a real one misread, or one the referee cannot take because
        an earlier misread put its book out of step, and the next seat plays next all the
        same. (The turn once went back to the refused seat: with the shipped models, a seat
        whose pung the referee had refused then had every later discard refused too, and
        two Visayan hands kept 60 of their 158 actions in order against 98.)"""
        refused: list[tuple[TableEvent, str]] = []
        if self.observer is None:
            return refused
        for e in events:
            try:
                why = self.observer(e)
            except ValueError as exc:  # the referee's IllegalActionError says which rule
                why = str(exc)
            if why:
                refused.append((e, why))
        return refused

    def run(
        self,
        capture: Capture,
        on_update: Callable[[LiveUpdate], None],
        stop: threading.Event | None = None,
        max_frames: int | None = None,
    ) -> int:
        """Process the newest frame whenever one is ready, until ``stop`` or the video ends.

        Returns the number of frames processed. Frames that arrive while one is being
        processed are dropped (the capture keeps only the newest).
        """
        stop = stop or threading.Event()
        last, done = -1, 0
        while not stop.is_set() and (max_frames is None or done < max_frames):
            frame = capture.wait(after=last, timeout=0.5)
            if frame is None:
                if capture.finished:
                    break
                continue
            capture.mark_taken(frame)
            last = frame.index
            on_update(self.process(frame.image, frame.time, frame.index))
            done += 1
        return done


# -- drawing -----------------------------------------------------------------------------------

_COLOURS = {  # BGR
    "hand": (60, 180, 60), "meld": (200, 120, 0), "flower": (180, 0, 180),
    "discard": (0, 140, 255), "wall": (120, 120, 120), "other": (90, 90, 90),
}


def annotate(image: np.ndarray, reading: HandReading | TableReading) -> np.ndarray:
    """A copy of ``image`` with every tile outlined in its region's colour and labelled.

    Doubtful tiles get a red outline and a "?" for the person to confirm.

    >>> from vision.readings import TileItem
    >>> r = HandReading(concealed=(TileItem(Tile.M1, (2, 2, 20, 30), 0.9),))
    >>> bool(annotate(np.zeros((40, 40, 3), np.uint8), r).sum() > 0)
    True
    """
    import cv2

    out = np.ascontiguousarray(np.clip(image, 0, 255).astype(np.uint8) if image.dtype != np.uint8 else image.copy())
    scale = max(0.4, min(out.shape[:2]) / 900)
    rows: list[tuple[Any, str, Seat | None, int | None]]
    if isinstance(reading, HandReading):
        rows = [(i, r, None, g) for i, r, g in reading.items()]
    else:
        rows = list(reading.items())
    for item, region, _seat, group in rows:
        x1, y1, x2, y2 = (int(round(v)) for v in item.box)
        colour = (0, 0, 255) if item.doubt else _COLOURS.get(region, (255, 255, 255))
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, max(1, int(2 * scale)))
        label = str(item.tile) + ("?" if item.doubt else "") + (f" g{group}" if group is not None else "")
        cv2.putText(out, label, (x1, max(10, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour,
                    max(1, int(scale * 1.5)), cv2.LINE_AA)
    return out
