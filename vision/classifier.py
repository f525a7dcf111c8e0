"""Tile classifier: names a tile (one of the 64 codes) from a crop of the full-resolution frame."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import Tile
from vision.deblur import STREAKED_BELOW_ALONE, Streak, streak_of, unstreaked_shrunk
from vision.flower_inks import by_set_ink, index_ink
from vision.onnx_runtime import OnnxModel
from vision.way_up import WayUp

__all__ = ["TileClassifier", "crop_boxes", "top_k", "trimmed", "one_of_each", "ONE_IN_A_SET", "CROP_MARGIN", "FEATURES_OUTPUT", "TRIM",
           "DEBLUR_BELOW", "DEBLURRED_MOST"]

CROP_MARGIN = 0.06  # fraction of the box size added on each side, like the training crops
FEATURES_OUTPUT = "features"  # the pooled features before the last layer (see vision.training.train)
# A crop still unsure after the turns is read once more trimmed by this share of its size on
# each side, and the two readings averaged: a box is never exactly on its tile, and a slice
# of a neighbour or of the table can tip a close call. Chosen on the rendered held-out crops
# (with the v7 classifier 89.3 -> 91.8 %; five trimmed and shifted looks gave 92.6 % at five
# times the cost); the real validation photos' true boxes went 96.4 -> 97.3 % (models/README.md).
TRIM = 0.06
TRIMMED_MOST = 24  # crops a call looks at trimmed, the least sure first: a bound on the time
# A crop still named with less than this after every look above is read by the second
# classifier too (``TileClassifier.second``): on the real validation photos 0.6 sent it 17 %
# of the crops and read as well as 0.9 did with 26 % (models/README.md, "A second look at 96 px").
SECOND_BELOW = 0.6
SECOND_MOST = 6  # crops a call reads by the second classifier, the least sure first: a bound on the time
# A crop with at least this probability on the flowers and seasons together, and named with
# less than ``sure``, is read by the flower look too (``TileClassifier.flowers``), which then
# splits that probability among them with this share of the say. Flowers are the classifier's
# weakest tiles: a set often paints one plant on all eight, so only the small index and name
# tell them apart (models/README.md, "A flower look at 128 px"). Both chosen on rendered crops
# of seed 431 (the look trained on seed 430), not on the held-out ones.
FLOWER_FROM = 0.5
FLOWER_SAY = 0.4
# Then the same by the number look (``TileClassifier.numbers``), a classifier at 128 px of
# the 25 tiles told apart only by a numeral or a small index: the characters, the Vietnamese
# jokers and the royals (trained on the flowers too, which it reads worse than the flower
# look: kept to the 25, ``vision.training.train.keep_classes``). Both chosen on rendered crops
# of seed 431 (the look trained on seed 440), and kept when its training went on with seed
# 441 too (stop 46: 0.6 / 0.5 read one crop more of 1,920 there, 0.5 / 0.4 two fewer), and
# again when it went on with seeds 442 and 443 (stop 57: 0.5 / 0.6 one crop more of 1,984). It
# reads at most ``NUMBER_MOST`` crops a call, the least sure first: a bound on a picture's time
# (models/README.md, "A number look" and "Trained on again at stop 57").
NUMBER_FROM = 0.5
NUMBER_SAY = 0.5
NUMBER_MOST = 4
# Last, when asked (``deblurred_most``; not served), in a photo that looks smeared along a line
# (``vision.deblur``: a hand that moved as the photo was taken), each crop still named with less
# than this is read again with that smear undone, and its reading averaged half and half with
# that. Crops of one photo are judged together, on the photo as taken; crops cut beforehand,
# each on its own. A photo that looks sharp costs only the judging (about 1-2 ms). At most
# ``DEBLURRED_MOST`` crops a call, the least sure first: a bound on a picture's time. Both as
# chosen at stop 63; at stop 64 they read the rendered hand photos and the real training photos
# shaken better than 32 and 0.9 did (models/README.md, "A deblurred look").
DEBLUR_BELOW = 0.6
DEBLURRED_MOST = 8
# A row of at least this many touching tiles is judged for its way up on its own
# (``TileClassifier.one_picture``): a hand's row, not a pair of discards.
WAY_UP_ROW = 5


def crop_boxes(image: np.ndarray, xyxy: np.ndarray, margin: float = CROP_MARGIN) -> list[np.ndarray]:
    """Cut each box (with ``margin``) out of ``image``; never empty.

    >>> [c.shape for c in crop_boxes(np.zeros((100, 100, 3), np.uint8), np.array([[10, 10, 30, 50.]]), 0)]
    [(40, 20, 3)]
    """
    h, w = image.shape[:2]
    crops = []
    for x1, y1, x2, y2 in np.asarray(xyxy, dtype=np.float64).reshape(-1, 4):
        mx, my = (x2 - x1) * margin, (y2 - y1) * margin
        a, b = int(max(0, np.floor(x1 - mx))), int(max(0, np.floor(y1 - my)))
        c, d = int(min(w, np.ceil(x2 + mx))), int(min(h, np.ceil(y2 + my)))
        c, d = max(c, a + 1), max(d, b + 1)
        crops.append(image[b:d, a:c] if a < w and b < h else np.zeros((1, 1, 3), np.uint8))
    return crops


def top_k(probs: np.ndarray, codes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's ``k`` likeliest ``codes`` (one per column of ``probs``), likeliest first,
    and their probabilities; ties keep the column order.

    >>> c, p = top_k(np.array([[0.1, 0.6, 0.3]]), np.array([7, 8, 9]), 2)
    >>> c.tolist(), p.tolist()
    ([[8, 9]], [[0.6, 0.3]])
    """
    k = min(k, probs.shape[1])
    order = np.argsort(-probs, axis=1, kind="stable")[:, :k]
    return codes[order], np.take_along_axis(probs, order, 1)


def trimmed(crop: np.ndarray, share: float) -> np.ndarray:
    """``crop`` less ``share`` of its size on each side (never empty).

    >>> trimmed(np.zeros((100, 50, 3), np.uint8), 0.1).shape
    (80, 40, 3)
    >>> trimmed(np.zeros((1, 1, 3), np.uint8), 0.1).shape
    (1, 1, 3)
    """
    h, w = crop.shape[:2]
    dy, dx = round(h * share), round(w * share)
    return crop[dy:max(h - dy, dy + 1), dx:max(w - dx, dx + 1)]


# which tile codes a set holds one of (flowers, seasons, animals, royalty), indexed by code
ONE_IN_A_SET = np.array([Tile(k).is_bonus for k in range(max(int(t) for t in Tile) + 1)], dtype=bool)


def one_of_each(probs: np.ndarray, single: np.ndarray, first: np.ndarray | None = None) -> np.ndarray:
    """Each row's most probable class, no class of ``single`` (a mask over the classes) named
    twice: a set holds one of each flower, season, animal and royal tile, so where crops of
    one picture read as the same one, the surest keeps it and the others take their next
    best. Rows are served surest pair first, the rows of ``first`` (a mask over the rows)
    before any other; a row whose every class is such a tile already taken keeps its own
    best (more crops than the set has of them: nothing to choose).

    >>> p = np.array([[0.6, 0.3, 0.1], [0.7, 0.1, 0.2], [0.1, 0.1, 0.8]])
    >>> one_of_each(p, np.array([True, False, False])).tolist()  # class 0 is one of a kind
    [1, 0, 2]
    >>> one_of_each(p, np.array([True, False, False]), first=np.array([True, False, False])).tolist()
    [0, 2, 2]
    >>> one_of_each(p, np.array([False, False, False])).tolist()
    [0, 0, 2]
    """
    pick = probs.argmax(1) if len(probs) else np.zeros((0,), np.int64)
    rows = np.flatnonzero(single[pick])  # only these can clash, or be moved onto a taken one
    _, counts = np.unique(pick[rows], return_counts=True)
    if not (counts > 1).any():
        return pick
    sub = probs[rows]
    if first is not None:  # probabilities are at most 1: lifted by 2, a row of ``first`` comes first
        sub = sub + 2.0 * np.asarray(first, bool)[rows, None]
    order = np.argsort(-sub, axis=None, kind="stable")
    done = np.zeros(len(rows), bool)
    used = np.zeros(len(single), bool)
    for r, c in zip(*np.unravel_index(order, sub.shape), strict=True):
        if done[r] or used[c]:
            continue
        pick[rows[r]] = c
        done[r] = True
        used[c] = bool(single[c])
        if done.all():
            break
    return pick


def _least_sure(probs: np.ndarray, rows: np.ndarray, below: float, most: int) -> np.ndarray:
    """Of ``rows``, those whose best probability is under ``below``, the least sure first,
    at most ``most`` of them.

    >>> p = np.array([[0.5, 0.5], [0.95, 0.05], [0.7, 0.3], [0.6, 0.4]])
    >>> _least_sure(p, np.arange(4), 0.9, 2).tolist()
    [0, 3]
    """
    surety = probs[rows].max(1)
    order = np.argsort(surety, kind="stable")
    chosen: np.ndarray = rows[order][surety[order] < below][:most]
    return chosen


def _bgr(crop: np.ndarray) -> np.ndarray:
    """A 3-channel view of a grey or BGRA crop (blobFromImages wants 3 channels)."""
    if crop.ndim == 2:
        return cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    return crop[:, :, :3] if crop.shape[2] == 4 else crop


class TileClassifier:
    """Squash each BGR crop to ``size``×``size`` (as in training) and name it.

    ``turns``: quarter turns whose probabilities are averaged (test-time augmentation).
    The default (0, 2), upright and upside down, reads crops of tiles across the table.
    ``sure``: a crop the first turn names with at least this probability is not looked at
    again; above 1 every crop is looked at in every turn. With the shipped classifier and
    0.9, the second look went to 12 % of the real tiles and 34 % of the rendered crops, and
    the accuracies were as with every look for every crop (real 91.4 against 91.5 %,
    rendered 85.5 against 85.4 %; upright alone 91.4 and 84.5 %): most of the gain for a
    fraction of the time.
    ``trim``: a crop still less than ``sure`` after the turns is read once more, upright and
    trimmed by this share a side, and the two readings averaged (at most ``trimmed_most`` of
    them a call, the least sure; see ``TRIM``); 0 looks no more.
    ``second``: a crop still less than ``second_below`` sure after all that is read upright by
    this other classifier too (the shipped one looks at 96 px: ``vision.reader.SECOND_LOOK_PATH``)
    and the two readings averaged (at most ``second_most`` of them a call, the least sure);
    None looks no more.
    ``flowers``: a classifier of the flowers and seasons alone (the shipped one looks at
    128 px: ``vision.reader.FLOWER_LOOK_PATH``) that reads, upright, every crop still named
    with less than ``sure`` and with at least ``flower_from`` of its probability on them after
    all that; its reading takes ``flower_say`` of the split of that probability among them.
    None looks no more.
    ``numbers``: after it, the same by a classifier of other tiles (the shipped one names the 25
    told apart by a numeral: ``vision.reader.NUMBER_LOOK_PATH``), with ``number_from`` and
    ``number_say``, for at most ``number_most`` crops a call, the least sure first.
    ``deblurred_most``: then, where the crops look smeared along a line (``vision.deblur``;
    the crops of one picture judged together, others each on its own), at most this many
    still named with less than ``DEBLUR_BELOW`` are read undone along it and their readings
    averaged with those; 0 looks no more.
    ``way_up``: a probe on this classifier's features that tells a row of tiles photographed
    from across the table (``vision.way_up``); ``one_picture`` then reads that row's crops
    turned half round. None reads every picture as it comes.
    """

    def __init__(
        self,
        path: str | Path,
        size: int | None = None,
        batch: int = 128,
        turns: tuple[int, ...] = (0, 2),
        sure: float = 0.9,
        trim: float = TRIM,
        trimmed_most: int = TRIMMED_MOST,
        second: TileClassifier | None = None,
        second_below: float = SECOND_BELOW,
        second_most: int = SECOND_MOST,
        way_up: WayUp | None = None,
        flowers: TileClassifier | None = None,
        flower_from: float = FLOWER_FROM,
        flower_say: float = FLOWER_SAY,
        numbers: TileClassifier | None = None,
        number_from: float = NUMBER_FROM,
        number_say: float = NUMBER_SAY,
        number_most: int = NUMBER_MOST,
        deblurred_most: int = 0,
    ) -> None:
        self.model = OnnxModel(path)
        self.turns = turns or (0,)
        self.sure = sure
        self.trim = trim
        self.trimmed_most = trimmed_most
        shape = self.model.input_shape
        self.size = size or (int(shape[2]) if isinstance(shape[2], int) else self.model.trained_size(64))
        self.batch = batch
        names = self.model.names
        self.codes = np.array(
            [int(Tile.parse(names[i])) for i in range(len(names))], dtype=np.int64
        )
        self.fixed_batch = shape[0] if isinstance(shape[0], int) else None
        self.has_features = FEATURES_OUTPUT in self.model.output_names
        if second is not None and not np.array_equal(second.codes, self.codes):
            raise ValueError(f"second look {str(second.model.path)!r} names other tiles than {str(self.model.path)!r}")
        self.second = second
        self.second_below = second_below
        self.second_most = second_most
        if way_up is not None and not self.has_features:
            raise ValueError(f"{str(self.model.path)!r} has no {FEATURES_OUTPUT!r} output for a way-up probe")
        self.way_up = way_up
        self.flowers = flowers
        self.flower_from = flower_from
        self.flower_say = flower_say
        self._flower_columns = self._columns_of(flowers, "flower look")
        self.numbers = numbers
        self.number_from = number_from
        self.number_say = number_say
        self.number_most = number_most
        self._number_columns = self._columns_of(numbers, "number look")
        self.deblurred_most = deblurred_most

    @functools.cached_property
    def key(self) -> str:
        """Which weights these are: a calibrated set's probe reads only its own classifier's
        features. Hashed when calibration asks, not at every start."""
        return hashlib.sha256(self.model.path.read_bytes()).hexdigest()[:16]

    def preprocess(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(N, 3, size, size) float32 RGB in [0, 1], crops squashed to a square."""
        s = self.size
        squares = [cv2.resize(_bgr(c), (s, s), interpolation=cv2.INTER_AREA) for c in crops]
        blob: np.ndarray = cv2.dnn.blobFromImages(squares, 1 / 255.0, swapRB=True)
        return blob

    def _run(self, x: np.ndarray, outputs: Sequence[str] = ()) -> list[np.ndarray]:
        """The named outputs (default: the probabilities) for a batch of preprocessed crops."""
        names = list(outputs) or self.model.output_names[:1]
        step = self.fixed_batch or self.batch
        parts: list[list[np.ndarray]] = [[] for _ in names]
        for i in range(0, len(x), step):
            chunk = x[i : i + step]
            n = len(chunk)
            if self.fixed_batch and n < self.fixed_batch:
                chunk = np.concatenate([chunk, np.zeros((self.fixed_batch - n, *chunk.shape[1:]), np.float32)])
            for part, out in zip(parts, self.model.run(chunk, names), strict=True):
                part.append(out[:n])
        return [np.concatenate(part) for part in parts]

    def _over_turns(self, x: np.ndarray, turns: Sequence[int], outputs: Sequence[str] = ()) -> list[np.ndarray]:
        """The named outputs for each preprocessed crop of ``x``, averaged over ``turns``."""
        batch = np.ascontiguousarray(np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in turns]))
        return [out.reshape(len(turns), len(x), -1).mean(0) for out in self._run(batch, outputs)]

    def probabilities(self, crops: Sequence[np.ndarray], streaks: Sequence[Streak | None] | None = None) -> np.ndarray:
        """(N, classes) probabilities, class order of ``self.codes``: the first turn's, averaged
        over all ``turns`` for the crops it names with less than ``sure``, then with a trimmed
        look (``trim``) at those still below ``sure``, then with the ``second`` classifier's
        reading of those still below ``second_below``, then the other looks. ``streaks``: for
        each crop, the smear it shows (None: it looks sharp), as judged on the photo it was cut
        from (``vision.reader.TileReader.streak``); None judges each crop on its own."""
        if not crops:
            return np.zeros((0, len(self.codes)), np.float32)
        x = self.preprocess(crops)
        [first] = self._over_turns(x, self.turns[:1])
        return self._look_again(crops, x, first, streaks)

    def _look_again(self, crops: Sequence[np.ndarray], x: np.ndarray, first: np.ndarray,
                    streaks: Sequence[Streak | None] | None) -> np.ndarray:
        """``first`` (the first turn's probabilities of the preprocessed ``x``) with the other
        turns, the trimmed look, the second classifier and the other looks, as
        ``probabilities`` describes."""
        unsure = np.flatnonzero(first.max(1) < self.sure)
        rest = self.turns[1:]
        if len(unsure) and rest:
            [more] = self._over_turns(x[unsure], rest)
            first[unsure] = (first[unsure] + more * len(rest)) / len(self.turns)
        if len(unsure) and self.trim > 0:
            still = _least_sure(first, unsure, self.sure, self.trimmed_most)
            if len(still):
                [seen] = self._over_turns(self.preprocess([trimmed(crops[i], self.trim) for i in still]), (0,))
                first[still] = (first[still] + seen) / 2
        if self.second is not None:
            still = _least_sure(first, np.arange(len(first)), self.second_below, self.second_most)
            if len(still):
                [seen] = self.second._over_turns(self.second.preprocess([crops[i] for i in still]), (0,))
                first[still] = (first[still] + seen) / 2
        if self.flowers is not None:
            self._split_by(self.flowers, self._flower_columns, self.flower_from, self.flower_say, len(crops),
                           crops, first)
        if self.numbers is not None:
            self._split_by(self.numbers, self._number_columns, self.number_from, self.number_say,
                           self.number_most, crops, first)
        if self.deblurred_most > 0:
            self._deblurred_look(crops, first, streaks)
        return first

    def _deblurred_look(self, crops: Sequence[np.ndarray], probs: np.ndarray,
                        streaks: Sequence[Streak | None] | None) -> None:
        """Average, in place, the reading of each crop still under ``DEBLUR_BELOW`` sure (at most
        ``deblurred_most``, the least sure first) with its reading with its streak undone, where
        it shows one (``streaks``, else judged on the crop alone)."""
        asked = _least_sure(probs, np.arange(len(probs)), DEBLUR_BELOW, self.deblurred_most).tolist()
        undone: dict[int, np.ndarray] = {}
        for i in asked:
            crop = _bgr(crops[i])
            streak = streak_of([crop], STREAKED_BELOW_ALONE) if streaks is None else streaks[i]
            copy = unstreaked_shrunk(crop, streak) if streak is not None else None
            if copy is not None:
                undone[i] = copy
        if not undone:
            return
        rows = np.array(list(undone), np.int64)
        [seen] = self._over_turns(self.preprocess(list(undone.values())), self.turns[:1])
        probs[rows] = (probs[rows] + seen) / 2

    def _split_by(self, look: TileClassifier, cols: np.ndarray, start: float, say: float, most: int,
                  crops: Sequence[np.ndarray], probs: np.ndarray) -> None:
        """Split, in place, the probability on ``look``'s tiles (this classifier's columns
        ``cols``) of each crop named with less than ``sure`` that has at least ``start`` there
        (at most ``most`` crops, the least sure first) partly by ``look``'s reading (``say``)."""
        mass = probs[:, cols].sum(1)
        asked = _least_sure(probs, np.flatnonzero(mass >= start), self.sure, most)
        if not len(asked):
            return
        [seen] = look._over_turns(look.preprocess([crops[i] for i in asked.tolist()]), (0,))
        part = probs[np.ix_(asked, cols)]
        probs[np.ix_(asked, cols)] = (1 - say) * part + say * mass[asked, None] * seen

    def features(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(N, D) the network's pooled features before its last layer, averaged over ``turns``:
        what a calibrated set's linear probe reads (``vision.calibrate``)."""
        return self.read(crops)[1]

    def read(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities (N, classes) and features (N, D) from one pass per turn, averaged
        over every turn (no ``sure`` shortcut: calibration reads few crops)."""
        if not self.has_features:
            raise ValueError(f"{str(self.model.path)!r} has no {FEATURES_OUTPUT!r} output: "
                             "re-export it with vision.training.train.add_features_output")
        if not len(crops):
            return np.zeros((0, len(self.codes)), np.float32), np.zeros((0, 0), np.float32)
        probs, feats = self._over_turns(self.preprocess(crops), self.turns, [self.model.output_names[0], FEATURES_OUTPUT])
        return probs, feats

    def __call__(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Tile codes (N,) and their probabilities (N,), each crop on its own."""
        codes, probs = self.ranked(crops, 1)
        return codes[:, 0], probs[:, 0]

    def ranked(self, crops: Sequence[np.ndarray], k: int = 2) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` likeliest tile codes (N, k) of each crop, on its own, and their
        probabilities (N, k), likeliest first: live video keeps a tile's next guess
        (``vision.reader.VideoReader``)."""
        return top_k(self.probabilities(crops), self.codes, k)

    def one_picture(self, crops: Sequence[np.ndarray],
                    rows: Sequence[np.ndarray] = ()) -> tuple[np.ndarray, np.ndarray]:
        """As calling it, for crops of the tiles of one picture of one set: no flower,
        season, animal or royal tile named twice (:func:`one_of_each`), and its flowers
        and seasons grouped by the set's inks (:func:`vision.flower_inks.by_set_ink`).
        ``rows``: index arrays of crops cut along one row of touching tiles
        (``vision.row_crops.cut_along_rows``); with a ``way_up`` probe, each of at least
        ``WAY_UP_ROW`` tiles that looks upside down (a hand photographed from across the
        table) is read turned half round."""
        codes, probs = self.one_picture_ranked(crops, rows)
        return codes[:, 0], probs[:, 0]

    def one_picture_ranked(self, crops: Sequence[np.ndarray],
                           rows: Sequence[np.ndarray] = ()) -> tuple[np.ndarray, np.ndarray]:
        """As ``one_picture``, with each crop's runner-up: codes (N, 2) and probabilities
        (N, 2), its name first, then the likeliest other."""
        codes, probs, _ = self.one_picture_turned(crops, rows)
        return codes, probs

    def one_picture_turned(self, crops: Sequence[np.ndarray], rows: Sequence[np.ndarray] = (),
                           streaks: Sequence[Streak | None] | None = None
                           ) -> tuple[np.ndarray, np.ndarray, list[bool]]:
        """As ``one_picture_ranked``, and for each of ``rows`` whether it was read turned half
        round (``way_up`` judged it upside down). ``streaks``: as for ``probabilities``."""
        p, crops, turned = self._photo_probabilities(crops, rows, streaks)
        if len(p):  # the ink only of crops read as one-of-a-kind tiles: a few a picture
            asked = ONE_IN_A_SET[self.codes[p.argmax(1)]]
            p = by_set_ink(p, self.codes, [index_ink(_bgr(c)) if a else 0 for c, a in zip(crops, asked, strict=True)])
        idx = one_of_each(p, self.single)
        rest = p.copy()
        rest[np.arange(len(idx)), idx] = -1.0
        order = np.stack([idx, rest.argmax(1)], 1).astype(np.int64)
        return self.codes[order], np.take_along_axis(p, order, 1), turned

    def _photo_probabilities(self, crops: Sequence[np.ndarray], rows: Sequence[np.ndarray],
                             streaks: Sequence[Streak | None] | None
                             ) -> tuple[np.ndarray, list[np.ndarray], list[bool]]:
        """``probabilities`` of one photo's crops, the crops as read, and which of ``rows``
        were read turned: a row that ``way_up`` judges upside down turned half round (the
        features come with the first look; one more pass only for a row that looks upside
        down)."""
        crops = list(crops)
        turned = [False] * len(rows)
        judged = [k for k, r in enumerate(rows) if len(r) >= WAY_UP_ROW] if self.way_up is not None else []
        if not judged:
            return self.probabilities(crops, streaks), crops, turned
        x = self.preprocess(crops)
        outputs = [self.model.output_names[0], FEATURES_OUTPUT]
        first, features = self._over_turns(x, self.turns[:1], outputs)
        for k in judged:
            row = rows[k]
            seen = self._turned_row(x[row], features[row], outputs)
            if seen is not None:
                x[row], first[row], turned[k] = x[row][:, :, ::-1, ::-1], seen, True
                for i in row:
                    crops[i] = np.ascontiguousarray(crops[i][::-1, ::-1])
        return self._look_again(crops, x, first, streaks), crops, turned

    def uprightness(self, crops: Sequence[np.ndarray]) -> float | None:
        """How upright the ``way_up`` probe finds the crops of one row of tiles: the mean
        logit that they stand as photographed (above 0) rather than turned half round; None
        without a probe or crops. Of a row's two quarter turns, the one that reads higher is
        the one its tiles stand upright in (``vision.reader.TileReader.quarters``)."""
        if self.way_up is None or not len(crops):
            return None
        outputs = [self.model.output_names[0], FEATURES_OUTPUT]
        _, features = self._over_turns(self.preprocess(crops), self.turns[:1], outputs)
        return float(self.way_up.logits(features).mean())

    def _turned_row(self, x: np.ndarray, features: np.ndarray, outputs: Sequence[str]) -> np.ndarray | None:
        """The first turn's probabilities of one row's preprocessed crops ``x`` turned half
        round when ``way_up`` judges the row upside down from its ``features``; else None.
        The turned crops are read only if the probe asks to compare."""
        assert self.way_up is not None
        reading: list[np.ndarray] = []

        def turned_features() -> np.ndarray:
            if not reading:
                reading.extend(self._over_turns(np.ascontiguousarray(x[:, :, ::-1, ::-1]), self.turns[:1], outputs))
            return reading[1]

        if not self.way_up.turned(features, turned_features):
            return None
        turned_features()
        return reading[0]

    def _columns_of(self, look: TileClassifier | None, what: str) -> np.ndarray:
        """This classifier's column of each class of ``look`` (none for no look), in the look's
        order: where it splits the probability the look reads again. A look naming a tile this
        classifier does not is refused (``what`` names it in the message)."""
        if look is None:
            return np.zeros(0, np.int64)
        column = {int(code): i for i, code in enumerate(self.codes)}
        if not all(int(code) in column for code in look.codes):
            raise ValueError(f"{what} {str(look.model.path)!r} names tiles {str(self.model.path)!r} does not")
        return np.array([column[int(code)] for code in look.codes], np.int64)

    @functools.cached_property
    def single(self) -> np.ndarray:
        """Which classes a set holds one of (``ONE_IN_A_SET``)."""
        return ONE_IN_A_SET[self.codes]
