"""TileReader: photo -> every tile with its box, face and code.

Detection runs on a downscaled letterboxed frame; each face-up tile is then named by
the classifier from a crop of the full-resolution frame. Face-down tiles are ``Tile.BACK``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import Tile
from vision.balance import DEFAULT_BALANCE, FaceBalance, balanced
from vision.classifier import (
    CROP_MARGIN,
    NUMBER_MOST,
    ONE_IN_A_SET,
    SECOND_MOST,
    TileClassifier,
    crop_boxes,
    one_of_each,
    top_k,
)
from vision.deblur import STREAKED_BELOW, Streak, streak_of
from vision.detections import UNKNOWN, Detections, box_cover, box_iou, match
from vision.detector import TileDetector, largest_input
from vision.holes import DownFaces, RowEnds, RowHoles, UnboxedFaces
from vision.pieces import TilePieces, joined
from vision.regions import BoxRows, rows_of_boxes
from vision.row_crops import cut_along_rows, cut_along_rows_turned
from vision.upright import (
    DEFAULT_UPRIGHT,
    Upright,
    boxes_through,
    rotated,
    turn_quarters,
    turned_back,
)
from vision.way_up import WayUp
from vision.zoom import DEFAULT_ZOOM, Zoom

__all__ = ["TileReader", "VideoReader", "shipped_classifier", "MODELS_DIR", "DETECTOR_PATH", "CLASSIFIER_PATH",
           "SECOND_LOOK_PATH", "FLOWER_LOOK_PATH", "NUMBER_LOOK_PATH", "WAY_UP_PATH", "LIVE_DETECT_SIZE",
           "LIVE_BALANCE", "LIVE_MARGINS", "UNSURE_ACROSS", "tile_shaped", "upright_crops"]

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DETECTOR_PATH = MODELS_DIR / "detector.onnx"
CLASSIFIER_PATH = MODELS_DIR / "classifier.onnx"
# A classifier trained at 96 px that reads again the crops the 64-px one is least sure of
# (``TileClassifier.second``; models/README.md, "A second look at 96 px").
SECOND_LOOK_PATH = MODELS_DIR / "second_look.onnx"
# A classifier of the flowers and seasons alone, trained at 128 px, that splits a crop's flower
# probability among them (``TileClassifier.flowers``; models/README.md, "A flower look at 128 px").
FLOWER_LOOK_PATH = MODELS_DIR / "flower_look.onnx"
# A classifier of the 25 tiles told apart only by a numeral or small index (characters,
# Vietnamese jokers, royals), trained at 128 px, that then splits a crop's probability on them
# among them (``TileClassifier.numbers``; models/README.md, "A number look at 128 px").
NUMBER_LOOK_PATH = MODELS_DIR / "number_look.onnx"
# A probe on the classifier's features that tells a row of tiles photographed from across the
# table (``vision.way_up``; fitted by ``python -m vision.training.way_up``).
WAY_UP_PATH = MODELS_DIR / "way_up.npz"
# How far a box found in a photo levelled (``TileReader._levelled``), turned back, must
# overlap a first-pass box to give it its names. Turned back it is the box around a tilted
# face, as the first pass boxes it. Matched one to one at 0.5, the 45 real validation photos
# tilted 20 degrees read end to end 93.2 % (the nearest box over 0.3: 92.5 %; models/HISTORY.md, stop 59).
LEVEL_IOU = 0.5
# A camera over the whole table sees tiles ~35 px wide in a 1080p frame: ~9 px at the
# detector's trained 480, too few to find them all. At 960 every tile of the rendered
# table was found and named (benchmarks/bench_live.py --reader models).
LIVE_DETECT_SIZE = 960
# Live video turns a light to daylight only where it is more than 10 % off (``FaceBalance.least``):
# the rendered game video's faces are 5 % off the real photos' (gains 1.05 / 0.99 / 0.97),
# and turned they cost an event (West's discarded 2m read as 1m: the live reader has no number
# look); under a tungsten bulb they are about 1.3 / 1.0 / 0.8 (models/HISTORY.md, stop 61).
LIVE_BALANCE = FaceBalance(least=0.1)
# Live video reads each fresh tile cut as the classifier's training crops were (CROP_MARGIN) and
# cut wider, and averages the two: the detector boxes a face without the tile's edge. On the
# held-out rendered tables (seeds 200-209) 3,225 of 3,300 tiles were named right so against
# 3,211, and the demo video's West 2m, boxed short of its second stroke, stopped reading as 1m
# (models/HISTORY.md, stop 78).
LIVE_MARGINS = (CROP_MARGIN, 0.15)
# A box between these times wider than tall is stood up by where it lies, not by its shape
# (``tops_up``): West's Autumn across the table, boxed short of its foot 27 x 23 px, was turned
# a quarter as if lying across and read as Summer (models/HISTORY.md, stop 87).
UNSURE_ACROSS = (0.9, 1.3)
# A photo turned level, the 2x3 matrix that took it there, the tiles found in it, and for
# each tile found in the photo the index of the one found levelled that matches it (or -1):
# ``TileReader.level_pass``.
LevelPass = tuple[np.ndarray, np.ndarray, Detections, np.ndarray]


def shipped_classifier(
    path: str | Path | None = None,
    second_look: str | Path | None = SECOND_LOOK_PATH,
    second_most: int = SECOND_MOST,
    way_up: str | Path | None = WAY_UP_PATH,
    flower_look: str | Path | None = FLOWER_LOOK_PATH,
    number_look: str | Path | None = NUMBER_LOOK_PATH,
    number_most: int = NUMBER_MOST,
    deblurred_most: int = 0,
) -> TileClassifier:
    """The classifier at ``path`` (default: the shipped one) with a second look at the crops
    it is unsure of by the classifier at ``second_look`` (None: no second look), at most
    ``second_most`` of them a call: a picture's time bound; crops cut beforehand can have
    every one looked at. ``way_up``: the probe that turns a row photographed from across the
    table (``vision.way_up``; None: none), used only with the classifier whose features it
    was fitted on. ``flower_look``: the classifier of flowers and seasons alone that reads again
    the crops likely to be one (None: none); ``number_look``: then the classifier of the tiles
    told apart by a numeral, at most ``number_most`` crops a call (None: none); and, where
    the crops look smeared, the deblurred look at most ``deblurred_most`` (0, as served: none;
    ``DEBLURRED_MOST`` is the bound it was measured with)."""
    second = TileClassifier(second_look, turns=(0,), trim=0) if second_look is not None else None
    flowers = TileClassifier(flower_look, turns=(0,), trim=0) if flower_look is not None else None
    numbers = TileClassifier(number_look, turns=(0,), trim=0) if number_look is not None else None
    clf = TileClassifier(path or CLASSIFIER_PATH, second=second, second_most=second_most, flowers=flowers,
                         numbers=numbers, number_most=number_most, deblurred_most=deblurred_most)
    if way_up is not None and clf.has_features:
        probe = WayUp.load(way_up)
        clf.way_up = probe if probe.key == clf.key else None
    return clf


class TileReader:
    """Both models together; call with a BGR image.

    ``zoom``: where the tiles a first pass finds are small at the detector's input (a
    table photographed whole), detect again at the input size that makes them readable
    (``vision.zoom``; None: one pass at the detector's size). ``upright``: where the rows
    a first pass finds run up the photo, read it turned a quarter, and where its longest row
    reads upside down, turned round (``vision.upright``; None: as it is). ``balance``: the
    crops of one picture turned to daylight before they are named, the tiles' faces the
    white reference (``vision.balance``; None: as they are)."""

    def __init__(
        self,
        detector: TileDetector | None = None,
        classifier: TileClassifier | None = None,
        zoom: Zoom | None = DEFAULT_ZOOM,
        upright: Upright | None = DEFAULT_UPRIGHT,
        balance: FaceBalance | None = DEFAULT_BALANCE,
    ) -> None:
        self.detector = detector or TileDetector(DETECTOR_PATH)
        self.classifier = classifier or shipped_classifier()
        self.zoom = zoom
        self.upright = upright
        self.balance = balance

    def detect(self, image: np.ndarray) -> tuple[Detections, int]:
        """The tiles in ``image``, and the detector input's long side they were found at."""
        dets = self.detector(image)
        size = self.zoom.size(dets, image.shape, self.detector.imgsz) if self.zoom is not None else None
        if self.zoom is None or size is None:
            return dets, self.detector.imgsz
        return self.pass_at(image, size), size

    def pass_at(self, image: np.ndarray, size: int, conf: float | None = None) -> Detections:
        """The detector's pass over ``image`` at input long side ``size`` as ``detect`` makes
        it (the zoom's second pass looks at the photo mirrored too), its boxes kept down to
        ``conf`` (default: the served confidence). ``mahjongero eval`` counts mAP50 again
        from the boxes of the pass the reader chose, kept down to 0.001 as ultralytics and
        COCO count it (``vision.evaluation.AP_FLOOR``)."""
        if size == self.detector.imgsz or self.zoom is None:
            return self.detector(image, size, conf=conf)
        # a zoom that does not mirror leaves it to the detector (``--flip`` mirrors every pass)
        return self.detector(image, size, flip=True if self.zoom.flip else None, conf=conf)

    def classify(self, image: np.ndarray, dets: Detections, rows: BoxRows | None = None) -> Detections:
        """Name the face-up tiles of ``dets`` from crops of ``image``, cut along their rows
        (``vision.row_crops``), together: one picture shows one set, so no flower, season,
        animal or royal tile is named twice, and a row that looks upside down is read
        turned (``TileClassifier.one_picture``). Each keeps its runner-up too
        (``Detections.runner_up``): a meld group may be named by it. ``rows``: the face-up
        boxes' rows (``rows_of_boxes``), where already worked out."""
        return self._classify(image, dets, rows, self._looked_streak(image, dets))[0]

    def streak(self, image: np.ndarray, dets: Detections) -> Streak | None:
        """The streak a hand that moved left across ``image`` (a photo as taken, or turned by
        quarters: not resampled, which smooths it), judged on its face-up tiles ``dets``
        together (``vision.deblur.streak_of``); None where it looks sharp."""
        if not dets.face_up.any():
            return None
        return streak_of(crop_boxes(image, dets.xyxy[dets.face_up]), STREAKED_BELOW)

    def _looked_streak(self, image: np.ndarray, dets: Detections) -> Streak | None:
        """``streak``, judged only for a classifier with a deblurred look."""
        return self.streak(image, dets) if self.classifier.deblurred_most else None

    def _classify(self, image: np.ndarray, dets: Detections, rows: BoxRows | None,
                  streak: Streak | None) -> tuple[Detections, bool]:
        """``classify``, with ``streak`` the smear ``image`` shows (``streak``), and whether
        the longest run of touching tiles was read turned half round (the way-up probe judged
        it upside down: the photo taken from across the table)."""
        if not dets.face_up.any():
            return dets.with_face_up_names(np.zeros((0, 2), np.int64), np.zeros((0, 2), np.float32)), False
        crops, runs, turns = cut_along_rows_turned(image, dets.xyxy[dets.face_up], rows=rows)
        if self.balance is not None:
            crops = self.balance(crops)
        streaks = [streak and streak.turned(degrees, scale) for degrees, scale in turns]
        codes, probs, turned = self.classifier.one_picture_turned(crops, runs, streaks)
        longest = max(range(len(runs)), key=lambda k: len(runs[k]), default=None)
        return dets.with_face_up_names(codes, probs), longest is not None and turned[longest]

    def read(self, image: np.ndarray) -> tuple[Detections, int]:
        """Every tile of ``image`` found and named, and the detector input's long side they
        were found at: where the photo is read turned (``read_upright``), as found in it
        turned, their boxes turned back."""
        dets, size, quarters = self.read_upright(image)
        return (turned_back(dets, image.shape, quarters) if quarters else dets), size

    def read_upright(self, image: np.ndarray) -> tuple[Detections, int, int]:
        """Every tile of ``image`` found and named in it turned ``quarters`` clockwise, boxes
        in the turned picture's pixels; the detector input's long side they were found at;
        and ``quarters``: 0 as it is; 1 or 3 where its rows run up it (``quarters``); 2 where
        they run across it, the longest row was read turned half round (``Upright.half_turn``:
        a hand photographed from across the table) and the detector is as sure of the tiles
        it finds in the photo turned round (``Upright.keeps``)."""
        return self.read_levelled(image)[:3]

    def read_levelled(self, image: np.ndarray) -> tuple[Detections, int, int, LevelPass | None]:
        """``read_upright``, and the pass over the photo (as read) levelled that named its
        tiles (``level_pass``), or None where it was level."""
        dets, size = self.detect(image)
        rows = rows_of_boxes(dets.xyxy[dets.face_up])  # put in rows once: to look which way they run, and to cut
        streak = self._looked_streak(image, dets)  # judged once, on the photo as taken
        quarters = self.quarters(image, dets, rows)
        if not quarters:
            named, upside_down = self._classify(image, dets, rows, streak)
            if not (upside_down and self.upright is not None and self.upright.half_turn(dets)):
                named, levelled = self._levelled(image, named, rows, streak)
                return named, size, 0, levelled
            turned = turn_quarters(image, 2)  # a line turned half round runs as it did
            again, again_size = self.detect(turned)
            if not self.upright.keeps(dets, again):
                named, levelled = self._levelled(image, named, rows, streak)
                return named, size, 0, levelled
            named, levelled = self._named_level(turned, again, streak)
            return named, again_size, 2, levelled
        turned = turn_quarters(image, quarters)
        dets, size = self.detect(turned)
        named, levelled = self._named_level(turned, dets, streak and streak.turned(-90.0 * quarters))
        return named, size, quarters, levelled

    def _named_level(self, image: np.ndarray, dets: Detections, streak: Streak | None
                     ) -> tuple[Detections, LevelPass | None]:
        """``dets`` found in ``image`` (a photo turned, showing ``streak``), named, and named
        again as read levelled where their longest row is tilted (``_levelled``): a phone held
        the other way is no more level than one held upright."""
        rows = rows_of_boxes(dets.xyxy[dets.face_up])
        return self._levelled(image, self._classify(image, dets, rows, streak)[0], rows, streak)

    def _levelled(self, image: np.ndarray, named: Detections, rows: BoxRows, streak: Streak | None
                  ) -> tuple[Detections, LevelPass | None]:
        """``named`` (found and named in ``image`` as it is, which shows ``streak``), its
        face-up tiles named again as read in the photo levelled where ``upright`` finds its
        longest row tilted (``level_pass``): the boxes stay as found, each takes the names of
        the levelled photo's face-up box matched to it, if any; and that pass (None: none)."""
        levelled = self.level_pass(image, named, rows)
        if levelled is None:
            return named, None
        level, matrix, found, pair = levelled
        degrees = float(np.degrees(np.arctan2(matrix[0, 1], matrix[0, 0])))  # the turn that levelled it
        again = self._classify(level, found, None, streak and streak.turned(degrees))[0]
        hit = pair >= 0
        names = {}
        for field in ("code", "code_confidence", "runner_up", "runner_up_confidence"):
            column = getattr(named, field).copy()
            column[hit] = getattr(again, field)[pair[hit]]
            names[field] = column
        return replace(named, **names), levelled

    def level_pass(self, image: np.ndarray, dets: Detections, rows: BoxRows | None = None
                   ) -> LevelPass | None:
        """Where ``upright`` finds the longest row of ``dets`` (found in ``image``; ``rows``:
        their face-up boxes' rows, where already worked out) tilted (``Upright.tilt``): the
        photo levelled, the 2x3 matrix that took it there (``rotated``), the tiles the
        detector finds there, and for each of ``dets`` the index of the face-up tile found
        there that matches it one to one (turned back, IoU ``LEVEL_IOU`` or more:
        ``vision.detections.match``; no tile takes its neighbour's name), or -1. None where
        the photo is level."""
        degrees = self.upright.tilt(dets, rows[1] if rows is not None else None) if self.upright is not None else 0.0
        if not degrees:
            return None
        level, matrix = rotated(image, degrees)
        found = self.detect(level)[0]
        pair = np.full(len(dets), -1, np.int64)
        up, theirs = np.flatnonzero(dets.face_up), np.flatnonzero(found.face_up)
        if len(up) and len(theirs):
            back = boxes_through(found.xyxy[theirs], cv2.invertAffineTransform(matrix)).astype(np.float32)
            matched = match(dets.xyxy[up], back, LEVEL_IOU)
            pair[up[matched >= 0]] = theirs[matched[matched >= 0]]
        return level, matrix, found, pair

    def quarters(self, image: np.ndarray, dets: Detections, rows: BoxRows | None = None) -> int:
        """Quarter turns clockwise that stand the tiles ``dets`` found in ``image`` upright:
        0 unless ``upright`` turns the photo; then 1, or 3 where the tiles of the rows of
        touching tiles running up the picture look more upright to the way-up probe turned
        that way (``TileClassifier.uprightness``; without a probe, 1). ``rows``: the face-up
        boxes' rows (``rows_of_boxes``), where already worked out."""
        if self.upright is None or not self.upright.turn(dets, rows[1] if rows is not None else None):
            return 0
        boxes = dets.xyxy[dets.face_up]
        crops, runs = cut_along_rows(image, boxes, rows=rows)
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        up = [r for r in runs if np.ptp(centres[r, 1]) > np.ptp(centres[r, 0])]
        if not up:
            return 1
        # a row running up the picture is cut with its tiles lying sideways (vision.row_crops);
        # every such row's tiles vote, not the longest row's alone: a meld of three can read
        # near even either way (stop 62: -11.0 against -10.6), its neighbour clearly one way
        tiles = np.concatenate(up).tolist()
        clockwise = self.classifier.uprightness([np.ascontiguousarray(np.rot90(crops[i], -1)) for i in tiles])
        if clockwise is None:
            return 1
        anticlockwise = self.classifier.uprightness([np.ascontiguousarray(np.rot90(crops[i], 1)) for i in tiles])
        return 3 if anticlockwise is not None and anticlockwise > clockwise else 1

    def __call__(self, image: np.ndarray) -> Detections:
        return self.read(image)[0]


Classify = Callable[[Sequence[np.ndarray]], tuple[np.ndarray, np.ndarray]]


_KINDS = max(int(t) for t in Tile) + 1
# Names a read of a tile keeps, likeliest first, where the classifier ranks them (``ranked``):
# the ones after the first add up to a tile's runner-up, the name a meld group that makes no
# meld may take instead (``vision.readings.MeldReading.to_meld``).
GUESSES = 3


@dataclass
class _Seen:
    """Last frame's face-up tiles: boxes, thumbnails, the weight of each name read for each
    tile, frames since it was last read, and frames it has been in its place."""

    boxes: np.ndarray
    thumbs: np.ndarray
    votes: np.ndarray  # (n, _KINDS): summed classifier confidence per tile code
    guesses: np.ndarray  # (n, _KINDS): summed probability of each read's ``GUESSES`` likeliest codes
    age: np.ndarray
    steady: np.ndarray


class VideoReader:
    """Reads frames of a fixed camera cheaply enough for live video.

    - Detection at ``imgsz`` for the whole frame (never above the frame's own long side).
      Once every ``full_every`` frames the whole frame is searched; in between, only the
      region where tiles were found then (plus ``margin`` tiles around it), cut from the
      same network input on its grid: the floor around the table costs nothing, and a tile
      is seen as in a whole-frame pass (a differently framed crop made tiles flicker).
    - A face-up box below ``up_conf`` is dropped: at the table's edge-on hand rows the
      detector half-sees faces (confidence ~0.25) that flicker in and out, and each flicker
      would be a tile laid or taken. Face-down boxes only count, so they keep the
      detector's own threshold. A tile kept last frame is held in its place down to
      ``hold_conf``, as a tracker continues its tracks on weak detections: Visayan South's 2s,
      alone at the head of a new pool column, came at 0.372 on whole-frame passes and 0.341
      between them, so it was never seen two frames running, and its discard was never heard
      (set style 0, seed 1, action 78).
    - A tile whose box and pixels are as they were last frame keeps its name, so the
      classifier runs only on tiles that arrived, moved or changed (a hand passing over
      them), on a newcomer for its first ``settle`` frames, and on every tile once each
      ``refresh`` frames. A tile's name is the vote of all its reads since it last changed:
      a borderline tile (九 or 五?) does not flip on one read, which would look to the
      smoother like a new tile laid in the old one's place.
    - ``holes``: a ``vision.holes.RowHoles`` takes a tile's width of face between two
      face-up tiles of a row for a tile the detector missed (most often a blank White
      dragon); it is added face up at ``up_conf`` and named as any other (served live since
      stop 73; None: not looked for).
    - ``down_faces``: a ``vision.holes.DownFaces`` takes a face-down box lying alone in a row
      of face-up tiles, or beside one as its twin (or a few such between two), with the
      colour of their paper, for a face (a blank White dragon the detector took for a back):
      it is turned face up at ``up_conf`` at least and named as any other (None: not looked
      for).
    - ``unboxed``: a ``vision.holes.UnboxedFaces`` takes a tile-sized patch of the tiles' paper
      that no box covers for a face (most often a blank White dragon lying alone); it is added
      face up at ``up_conf`` and named as any other (None: not looked for).
    - ``ends``: a ``vision.holes.RowEnds`` takes a tile's face one step past the last two
      face-up tiles of a row, where no box lies, for a tile the detector missed (a pung's
      last tile at the foot of its column); it is added face up at ``up_conf`` and named as
      any other (None: not looked for).
    - ``pieces``: a ``vision.pieces.TilePieces`` finds a tile boxed as two pieces (most often
      a called tile lying across a meld), whose two boxes give way to one around both, named
      as any other (served live since stop 75; None: not looked for).
    - ``margins``: each fresh tile is read from crops cut with each of these margins around
      its box, and the reads' probabilities averaged. The detector boxes a face without the
      tile's edge, and the classifier was taught on crops of the whole tile: the demo video's
      West 2m, boxed to just above its second stroke, read as 1m cut with 0.06 alone.
    - Each tile also carries its runner-up: the likeliest other name over the same reads,
      by the probabilities of each read's ``GUESSES`` likeliest names (``Detections.runner_up``).
    - ``stand_up``: a tile lying across the picture (the seats at the camera's left and right)
      is named from its crop turned upright (``tops_up``): on 40 rendered bot-played tables
      the flowers and seasons were named right 86.7 % of the time so, 71.5 % as cut.
    - ``across`` (with ``stand_up``): a tile standing above the frame's middle (across the
      table from the camera, its top toward the camera) is named from its crop turned half
      round (the table's middle taken for the frame's, as for a tile lying across): on the 40
      held-out rendered tables the tiles so named right went from 815 to 832 of 842 (the
      classifier reads an unsure crop turned half round too, but a sure misreading stays).
    - ``unsure`` (with ``stand_up`` and ``across``): a box between these times wider than tall
      is taken to lie across where it lies further from the frame's middle sideways than up
      or down, and to stand otherwise (``tops_up``): a face boxed short of its foot came out
      wider than tall and was turned a quarter.

    - ``balance``: the crops are turned to daylight before they are named, by the light of
      all the face-up tiles as found on the last whole-frame pass (``vision.balance``; the
      lamp over a table changes seldom, and a light worked out every frame would make names
      flicker with it), where it is more than 10 % off (``LIVE_BALANCE``). None: named in
      the frame's own colours (a calibrated set was taught in them).

    ``classify`` names crops: a ``TileClassifier`` or a calibrated set's ``PrototypeClassifier``
    (whose ``ranked`` gives the runner-ups; any other callable gives none).
    """

    def __init__(self, detector: TileDetector, classify: Classify, imgsz: int = LIVE_DETECT_SIZE,
                 same_iou: float = 0.85, same_pixels: float = 10.0, refresh: int = 10,
                 full_every: int = 20, margin: float = 2.0, up_conf: float = 0.35, hold_conf: float = 0.25,
                 settle: int = 5,
                 balance: FaceBalance | None = LIVE_BALANCE, stand_up: bool = True, across: bool = True,
                 holes: RowHoles | None = None, pieces: TilePieces | None = None,
                 down_faces: DownFaces | None = None, unboxed: UnboxedFaces | None = None,
                 ends: RowEnds | None = None, margins: Sequence[float] = (CROP_MARGIN,),
                 unsure: tuple[float, float] | None = UNSURE_ACROSS) -> None:
        self.detector = detector
        self.classify = classify
        self.imgsz = imgsz
        self.same_iou = same_iou
        self.same_pixels = same_pixels  # mean grey-level change of an 8x8 thumbnail, 0-255
        self.refresh = refresh
        self.full_every = full_every
        self.margin = margin
        self.up_conf = up_conf
        self.hold_conf = hold_conf  # a tile kept last frame is held in its place down to this
        self.settle = settle  # frames a newcomer is read afresh before its name is kept
        self.balance = balance
        self.stand_up = stand_up  # crops of tiles lying across turned upright (``tops_up``)
        self.across = across  # crops of tiles across the table turned half round (``tops_up``)
        self.holes = holes  # finds tiles the detector missed in a row (None: none looked for)
        self.pieces = pieces  # finds tiles boxed in two pieces (None: none looked for)
        self.down_faces = down_faces  # finds faces boxed face down (None: none looked for)
        self.unboxed = unboxed  # finds faces no box found (None: none looked for)
        self.ends = ends  # finds tiles missed at a row's end (None: none looked for)
        self.margins = tuple(margins)  # each fresh tile is read cut with each margin, and the reads averaged
        self.unsure = unsure  # boxes this square-ish lie across or stand by their place (``tops_up``)
        self.gains: np.ndarray | None = None  # the balance's gains, as of the last whole-frame pass
        self.classified = 0  # crops sent to the classifier, for the benchmark
        self._seen: _Seen | None = None
        self._region: tuple[int, int, int, int] | None = None  # x0, y0, x1, y1 searched between full frames
        self._since_full = 0

    def forget(self) -> None:
        """A new hand: forget each tile's reads and where the tiles lay, so that the first
        frame is searched whole and every tile read afresh."""
        self._seen, self._region, self._since_full = None, None, 0

    def _detect(self, image: np.ndarray) -> Detections:
        h, w = image.shape[:2]
        full = min(self.imgsz, largest_input(image.shape))
        self._since_full += 1
        if self._region is None or self._since_full >= self.full_every:
            dets = self.detector(image, full)
            self._since_full = 0
            self._region = self._region_of(dets, w, h)
            return dets
        return self.detector(image, full, region=self._region)

    def _region_of(self, dets: Detections, w: int, h: int) -> tuple[int, int, int, int] | None:
        """Where the tiles are, ``margin`` tile lengths around them; None (search the whole
        frame) when there are none, or they cover most of it anyway."""
        if not len(dets):
            return None
        b = dets.xyxy
        pad = self.margin * float(np.median(np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])))
        x0, y0 = max(0, int(b[:, 0].min() - pad)), max(0, int(b[:, 1].min() - pad))
        x1, y1 = min(w, int(np.ceil(b[:, 2].max() + pad))), min(h, int(np.ceil(b[:, 3].max() + pad)))
        return None if (x1 - x0) * (y1 - y0) > 0.9 * w * h else (x0, y0, x1, y1)

    @staticmethod
    def _thumbs(tiles: Sequence[np.ndarray]) -> np.ndarray:
        grey = [cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) if c.ndim == 3 else c for c in tiles]
        return np.array([cv2.resize(g, (8, 8), interpolation=cv2.INTER_AREA).ravel() for g in grey], np.float32)

    def _match(self, boxes: np.ndarray, thumbs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each box: the index of the same tile, unchanged, last frame (or -1); whether its
        name can be kept without a read; and the frames it has been in this place."""
        same = np.full(len(boxes), -1, np.int64)
        steady = np.zeros(len(boxes), np.int64)
        seen = self._seen
        if seen is None or not len(seen.boxes) or not len(boxes):
            return same, np.zeros(len(boxes), bool), steady
        iou = box_iou(boxes, seen.boxes)
        j = iou.argmax(1)
        placed = iou[np.arange(len(j)), j] >= self.same_iou
        steady[placed] = seen.steady[j[placed]] + 1
        unchanged = placed & (np.abs(thumbs - seen.thumbs[j]).mean(1) <= self.same_pixels)
        same[unchanged] = j[unchanged]
        # a newcomer is read every frame until it settles, so its name is a vote over several
        # reads (the first ones may be of a tile still half under a hand)
        keep = unchanged & (seen.age[j] + 1 < self.refresh) & (steady >= self.settle)
        return same, keep, steady

    def __call__(self, image: np.ndarray) -> Detections:
        dets = self._detect(image)
        dets = dets[~dets.face_up | (dets.confidence >= self.up_conf) | self._held(dets)]
        if self.down_faces is not None:
            dets = self._faces_boxed_down(image, dets, self.down_faces)
        if self.holes is not None:
            dets = self._with_found(dets, self.holes(image, dets.xyxy[dets.face_up], dets.xyxy[~dets.face_up]))
        if self.unboxed is not None:
            dets = self._with_found(dets, self.unboxed(image, dets.xyxy[dets.face_up], dets.xyxy))
        if self.ends is not None:
            dets = self._with_found(dets, self.ends(image, dets.xyxy[dets.face_up], dets.xyxy))
        if self.pieces is not None:
            dets = self._pieces_joined(dets, self.pieces)
        up = np.flatnonzero(dets.face_up)
        boxes = dets.xyxy[up]
        tiles = crop_boxes(image, boxes, 0.0) if len(up) else []
        thumbs = self._thumbs(tiles) if len(up) else np.zeros((0, 64), np.float32)
        if self.balance is not None and self._since_full == 0:  # a light within LIVE_BALANCE's tenth is None too
            self.gains = self.balance.gains(tiles)
        same, keep, steady = self._match(boxes, thumbs)
        votes = np.zeros((len(up), _KINDS), np.float32)
        guesses = np.zeros((len(up), _KINDS), np.float32)
        age = np.zeros(len(up), np.int64)
        was = same >= 0
        if self._seen is not None and was.any():  # the same tile as last frame: its votes go on
            votes[was] = self._seen.votes[same[was]]
            guesses[was] = self._seen.guesses[same[was]]
            age[was] = self._seen.age[same[was]] + 1
        fresh = np.flatnonzero(~keep)
        if len(fresh):
            codes, conf = self._read(image, boxes[fresh])
            votes[fresh, codes[:, 0]] += conf[:, 0]
            guesses[fresh[:, None], codes] += conf  # a read's names are distinct: no index twice
            age[fresh] = 0
            self.classified += len(fresh)
        self._seen = _Seen(boxes, thumbs, votes, guesses, age, steady)
        share = votes / np.maximum(votes.sum(1, keepdims=True), 1e-9)
        # one set on the table: one of each bonus tile. A tile that loses its name to a
        # surer one and was never read as anything else keeps it, at confidence 0: the
        # smoother gives it no weight. A tile settled in its place keeps its name over a
        # newcomer, however sure: the newcomer is the one misread (Visayan West's Spring,
        # laid at the far side and read as Winter, took the name from South's Winter, which
        # then came out as a second Autumn, and neither reached the referee)
        pick = one_of_each(share, ONE_IN_A_SET, first=steady >= self.settle)
        lost = share[np.arange(len(up)), pick] <= 0
        pick[lost] = share[lost].argmax(1)
        prob = np.where(lost, 0.0, share[np.arange(len(up)), pick])
        second, second_prob = _runner_up(guesses, pick)
        return dets.with_face_up_names(np.stack([pick, second], 1), np.stack([prob, second_prob], 1))

    def _held(self, dets: Detections) -> np.ndarray:
        """Which boxes are face up at ``hold_conf`` or more where a face-up tile was last frame,
        a quarter of them at most under a sure box: a weak box half over a sure one is the
        detector's second box (Vietnamese West's White dragon pung, held so, was a kang)."""
        seen = self._seen
        weak = dets.face_up & (dets.confidence >= self.hold_conf)
        if seen is None or not weak.any() or not len(seen.boxes):
            return np.zeros(len(dets), bool)
        iou = box_iou(dets.xyxy, seen.boxes)
        sure = dets.xyxy[dets.face_up & (dets.confidence >= self.up_conf)]
        under = box_cover(dets.xyxy, sure)
        held: np.ndarray = weak & (iou.max(1, initial=0.0) >= self.same_iou) & (under.max(1, initial=0.0) < 0.25)
        return held

    def _faces_boxed_down(self, image: np.ndarray, dets: Detections, look: DownFaces) -> Detections:
        """``dets`` with the face-down boxes ``look`` finds to be faces turned face up, at
        ``up_conf`` at least."""
        down = np.flatnonzero(~dets.face_up)
        faces = down[look(image, dets.xyxy[dets.face_up], dets.xyxy[down])]
        if not len(faces):
            return dets
        face_up, confidence = dets.face_up.copy(), dets.confidence.copy()
        face_up[faces] = True
        confidence[faces] = np.maximum(confidence[faces], self.up_conf)
        return replace(dets, face_up=face_up, confidence=confidence)

    def _with_found(self, dets: Detections, found: np.ndarray) -> Detections:
        """``dets`` and the boxes of tiles ``found`` that the detector missed (by ``holes``,
        ``unboxed`` or ``ends``), face up at ``up_conf``."""
        if not len(found):
            return dets
        more = Detections(found, np.full(len(found), self.up_conf, np.float32), np.ones(len(found), bool))
        return Detections.concat([dets, more])

    @staticmethod
    def _pieces_joined(dets: Detections, pieces: TilePieces) -> Detections:
        """``dets`` with each face-up tile ``pieces`` finds boxed in two pieces boxed whole, as
        sure as its surer piece."""
        up = np.flatnonzero(dets.face_up)
        pairs = pieces(dets.xyxy[up])
        if not len(pairs):
            return dets
        kept = np.ones(len(dets), bool)
        kept[up[pairs.ravel()]] = False
        whole = Detections(joined(dets.xyxy[up], pairs), dets.confidence[up[pairs]].max(1), np.ones(len(pairs), bool))
        return Detections.concat([dets[kept], whole])

    def _read(self, image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, k) codes and probabilities of the likeliest names of the tiles in ``boxes``: the
        mean over their crops cut with each of ``margins`` (a box cut short of a numeral's last
        stroke reads as a smaller number; cut wider, it shows the stroke)."""
        if self.stand_up:
            cuts = upright_crops(image, boxes, self.margins, self.across, self.unsure, self.gains)
        else:
            cuts = (balanced(crop_boxes(image, boxes, margin), self.gains) for margin in self.margins)
        reads = [self._ranked(crops) for crops in cuts]
        if len(reads) == 1:
            return reads[0]
        mean = np.zeros((len(boxes), _KINDS), np.float32)
        for codes, conf in reads:
            mean[np.arange(len(boxes))[:, None], codes] += conf / len(reads)
        return top_k(mean, np.arange(_KINDS), reads[0][0].shape[1])

    def _ranked(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(N, k) codes and probabilities of the crops' likeliest names, likeliest first: the
        classifier's ``GUESSES`` where it ranks them, else its one name."""
        ranked = getattr(self.classify, "ranked", None)
        if callable(ranked):
            codes, conf = ranked(crops, GUESSES)
            return np.asarray(codes, np.int64), np.asarray(conf, np.float32)
        codes, conf = self.classify(crops)
        return np.asarray(codes, np.int64).reshape(-1, 1), np.asarray(conf, np.float32).reshape(-1, 1)


def upright_crops(image: np.ndarray, boxes: np.ndarray, margins: Sequence[float], across: bool = True,
                  unsure: tuple[float, float] | None = UNSURE_ACROSS,
                  gains: np.ndarray | None = None) -> Iterator[list[np.ndarray]]:
    """The crops of ``boxes`` cut with each of ``margins`` and stood upright as live video
    names them (``VideoReader``): a square-ish box grown to a tile's shape as its place says
    (``tile_shaped``, with ``across`` and ``unsure``), each crop turned to daylight by
    ``gains`` (``vision.balance.balanced``; None: as it is) and stood up (``tops_up``).
    ``vision.training.table_crops`` cuts the flower look's training crops so too.

    >>> image = np.zeros((100, 100, 3), np.uint8)
    >>> [[c.shape for c in crops] for crops in upright_crops(image, np.array([[0, 40, 20, 50]], np.float32), (0.0,))]
    [[(20, 10, 3)]]
    """
    height = image.shape[0] if across else None
    if height is not None and unsure is not None:
        boxes = tile_shaped(boxes, image.shape[1], height, unsure)
    for margin in margins:
        crops = balanced(crop_boxes(image, boxes, margin), gains)
        yield tops_up(crops, boxes, image.shape[1], height=height, unsure=unsure)


def tops_up(crops: Sequence[np.ndarray], boxes: np.ndarray, width: int, wide: float = 1.1,
            height: int | None = None, unsure: tuple[float, float] | None = None) -> list[np.ndarray]:
    """Each crop of a box ``wide`` times wider than tall turned a quarter to stand its tile
    upright: a camera over the table sees the tiles of the seats at its left and right lying
    across, their tops toward the table's middle, so one right of the frame's middle is
    turned clockwise and one left of it anticlockwise. Across the table they stand upside
    down: given the frame's ``height``, a crop standing above its middle is turned half round.

    ``unsure`` (with ``height``): crops between these times wider than tall lie as their
    place says: across where they lie further from the frame's middle sideways than up or
    down (``_lies_across``). The detector's boxes of square-ish faces say little either way.

    >>> crop = np.arange(6, dtype=np.uint8).reshape(2, 3)  # 3 wide, 2 high
    >>> right, left = tops_up([crop, crop], np.array([[90, 0, 93, 2], [0, 0, 3, 2]], np.float32), 100)
    >>> right.tolist(), left.tolist()
    ([[3, 0], [4, 1], [5, 2]], [[2, 5], [1, 4], [0, 3]])
    >>> tall = crop.T.copy()  # 2 wide, 3 high
    >>> far, near = tops_up([tall, tall], np.array([[0, 0, 2, 3], [0, 90, 2, 93]], np.float32), 100, height=100)
    >>> far.tolist(), near.tolist()
    ([[5, 2], [4, 1], [3, 0]], [[0, 3], [1, 4], [2, 5]])
    >>> square = np.arange(4, dtype=np.uint8).reshape(2, 2)  # unsure: its place decides
    >>> top, side = tops_up([square, square], np.array([[49, 0, 51, 2], [98, 49, 100, 51]], np.float32), 100,
    ...                     height=100, unsure=(0.9, 1.3))
    >>> top.tolist(), side.tolist()
    ([[3, 2], [1, 0]], [[2, 0], [3, 1]])
    """
    out = []
    for crop, box in zip(crops, boxes, strict=True):
        h, w = crop.shape[:2]
        if _lies_across(w / max(h, 1), box, width, height, wide, unsure):
            crop = np.ascontiguousarray(np.rot90(crop, -1 if box[0] + box[2] > width else 1))
        elif height is not None and box[1] + box[3] < height:
            crop = np.ascontiguousarray(crop[::-1, ::-1])
        out.append(crop)
    return out


def tile_shaped(boxes: np.ndarray, width: int, height: int, unsure: tuple[float, float],
                long: float = 1.1) -> np.ndarray:
    """``boxes`` with each square-ish one (between ``unsure``'s bounds wider than tall) grown
    about its middle to a tile's shape as its place says it lies (``_sideways``): its long
    side ``long`` times its short one. The detector boxed a far seat's flower short of its
    foot, 30 x 26 px, and the numeral there was cut off (Filipino West's Plum read as
    Chrysanthemum, set style 5, seed 0, action 20). On the still tables of 80 held-out hands
    the face-up tiles named right went 6,654 -> 6,660 of 6,718 (models/HISTORY.md, stop 87).

    >>> tile_shaped(np.array([[40, 0, 70, 26], [0, 40, 20, 60]], np.float32), 100, 100, (0.9, 1.3)).tolist()
    [[40.0, -3.5, 70.0, 29.5], [-1.0, 40.0, 21.0, 60.0]]
    """
    out = boxes.astype(np.float32).copy()
    w, h = out[:, 2] - out[:, 0], out[:, 3] - out[:, 1]
    for i in np.flatnonzero((w > unsure[0] * h) & (w < unsure[1] * h)):
        if _sideways(out[i], width, height):  # in the band, its place says how it lies
            grow, lo, hi = long * h[i] - w[i], 0, 2
        else:
            grow, lo, hi = long * w[i] - h[i], 1, 3
        if grow > 0:
            out[i, lo] -= grow / 2
            out[i, hi] += grow / 2
    return out


def _lies_across(ratio: float, box: np.ndarray, width: int, height: int | None, wide: float,
                 unsure: tuple[float, float] | None) -> bool:
    """Whether a tile boxed ``ratio`` times wider than tall at ``box`` lies across the picture.
    Between ``unsure``'s bounds, by its place: further from the frame's middle sideways than
    up or down (in pixels). On the still tables of 80 held-out hands, of 6,718 face-up tiles
    2,950 were boxed 0.9-1.3 times wider than tall; upright faces came up to 1.15 and faces
    lying across down to 0.9 (models/HISTORY.md, stop 87).

    >>> _lies_across(1.2, np.array([40, 0, 60, 10]), 100, 100, 1.1, None)
    True
    >>> _lies_across(1.2, np.array([40, 0, 60, 10]), 100, 100, 1.1, (0.9, 1.3))
    False
    """
    if unsure is None or height is None or not unsure[0] < ratio < unsure[1]:
        return ratio > wide
    return _sideways(box, width, height)


def _sideways(box: np.ndarray, width: int, height: int) -> bool:
    """Whether ``box`` lies further from the frame's middle sideways than up or down (in
    pixels): at the seats at the camera's left and right, whose tiles lie across.

    >>> _sideways(np.array([0, 40, 10, 60]), 100, 100), _sideways(np.array([40, 0, 60, 10]), 100, 100)
    (True, False)
    """
    return bool(abs(box[0] + box[2] - width) > abs(box[1] + box[3] - height))


def _runner_up(guesses: np.ndarray, pick: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's likeliest code but ``pick``'s, and its share of the row's summed
    probability; ``UNKNOWN`` and 0 where no read gave another name.

    >>> g = np.array([[0, 6, 3, 1], [0, 5, 0, 0.]])
    >>> code, share = _runner_up(g, np.array([1, 1]))
    >>> code.tolist(), share.astype(float).round(3).tolist()
    ([2, -1], [0.3, 0.0])
    """
    other = guesses.copy()
    other[np.arange(len(pick)), pick] = 0
    best = other.argmax(1)
    weight = other[np.arange(len(pick)), best]
    share = (weight / np.maximum(guesses.sum(1), 1e-9)).astype(np.float32)
    return np.where(weight > 0, best, UNKNOWN), share
