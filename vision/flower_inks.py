"""One set inks its flowers one colour and its seasons the other: read the group from the set.

A flower and the season of the same number differ on many real sets by little more than
the ink of their index and name: blue for the flowers and red for the seasons on every set
in the real photos (the renderer draws the reverse on a quarter of its styles). A reader
that names a tile's number right can still put it in the wrong group when its plant looks
like the other group's (a real blue 4-flower bamboo read as the 4 season, 0.98 sure, beside
a blue 1 and 2 flower and a red 二 season of the same set). Within one picture of one set
the inks settle it: the tiles of one ink are all flowers or all seasons, and the picture's
other flowers and seasons say which.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from engine.tiles import Tile

__all__ = ["BLUE", "RED", "index_ink", "blue_are_flowers", "by_set_ink", "INK_SATURATION", "INK_SHARE", "INK_DOMINANCE", "INK_EVIDENCE"]

BLUE, RED = 1, -1
# A corner's pixel is ink where its saturation is over INK_SATURATION (of 255); the corners'
# ink is named where that hue's inked pixels are at least INK_SHARE of them and INK_DOMINANCE
# times the other ink's. Chosen on the 101 flowers and seasons of the real *training* photos
# (tests/data/real_train_tiles.csv; their sets ink flowers blue and seasons red): 68 named
# right, 1 wrong (a red blossom reaching the corner), 32 unnamed; saturation 50 named 69
# right and 4 wrong.
INK_SATURATION = 60
INK_SHARE = 0.01
INK_DOMINANCE = 3.0
# The set's inks are assigned only when one way round is at least this many times as likely
# as the other given the classifier's readings of the picture's flowers and seasons.
INK_EVIDENCE = 20.0
_FLOOR = 0.01  # no reading rules a way round out alone


def index_ink(crop: np.ndarray) -> int:
    """``BLUE``, ``RED`` or 0 (grey, pale, or both): the saturated ink in the crop's two
    top corners, where a flower or season carries its index and name. Plants rise in the
    middle, so the middle fifth is left out.

    >>> tile = np.full((60, 40, 3), 235, np.uint8)
    >>> index_ink(tile)
    0
    >>> tile[5:15, 3:12] = (200, 40, 30)  # BGR: a blue index at the top left
    >>> index_ink(tile) == BLUE
    True
    """
    if crop.ndim != 3 or crop.shape[2] < 3:  # grey: no ink to see
        return 0
    h, w = crop.shape[:2]
    top = crop[int(h * 0.04) : max(int(h * 0.32), 1), :, :3]
    corners = np.concatenate([top[:, : max(int(w * 0.4), 1)].reshape(-1, 3), top[:, int(w * 0.6) :].reshape(-1, 3)])
    if not len(corners):
        return 0
    hue, sat, val = cv2.cvtColor(corners[None], cv2.COLOR_BGR2HSV)[0].astype(np.int32).T
    inked = (sat > INK_SATURATION) & (val > 40)
    blue = float(((hue >= 95) & (hue <= 140) & inked).mean())
    red = float((((hue <= 10) | (hue >= 160)) & inked).mean())
    if blue >= INK_SHARE and blue >= INK_DOMINANCE * red:
        return BLUE
    if red >= INK_SHARE and red >= INK_DOMINANCE * blue:
        return RED
    return 0


def _bonus_columns(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Class columns of flowers 1-4 and seasons 1-4, in number order, or None if any is missing."""
    where = {int(c): i for i, c in enumerate(codes)}
    flowers = [where.get(int(Tile.FLOWER1) + n) for n in range(4)]
    seasons = [where.get(int(Tile.SEASON1) + n) for n in range(4)]
    if None in flowers or None in seasons:
        return None
    return np.array(flowers), np.array(seasons)


def blue_are_flowers(share_f: np.ndarray, ink: np.ndarray) -> bool | None:
    """Whether the set inks its flowers blue (True), red (False), or no telling (None), from
    each voting row's share of flower mass in its flower-or-season reading and its ink: one
    way round must be ``INK_EVIDENCE`` times as likely as the other, with both inks seen.

    >>> blue_are_flowers(np.array([0.99, 0.02, 0.01]), np.array([BLUE, BLUE, RED]))
    True
    >>> blue_are_flowers(np.array([0.99, 0.02]), np.array([BLUE, BLUE])) is None  # one ink
    True
    """
    if not ((ink == BLUE).any() and (ink == RED).any()):
        return None
    share = np.clip(share_f, _FLOOR, 1 - _FLOOR)
    if_blue_flowers = np.where(ink == BLUE, share, 1 - share)
    evidence = float(np.log(if_blue_flowers).sum() - np.log(1 - if_blue_flowers).sum())
    if abs(evidence) < np.log(INK_EVIDENCE):
        return None
    return evidence > 0


def by_set_ink(probs: np.ndarray, codes: np.ndarray, inks: Sequence[int]) -> np.ndarray:
    """``probs`` (N, classes, class order ``codes``) with a picture's flowers and seasons
    moved into the group their ink holds on this set (``inks``: ``index_ink`` of each row's
    crop, 0 where unknown or not asked).

    Rows read as a flower or season with a known ink vote on which way round the set inks
    them (:func:`blue_are_flowers`). Where that is clear, a row read in the other group than
    its ink's takes its number (the two groups' mass for each number added) in its ink's
    group, but only if another row of its ink reads in that group and no row reads as the
    tile it would become; every other row is left as it was.

    >>> codes = np.array([int(Tile.FLOWER1) + k for k in range(8)])
    >>> row = lambda k, p=0.98: np.eye(8)[k] * p + (1 - p) / 8
    >>> p = np.array([row(0), row(1), row(7), row(5)])  # 1f, 2f, 8f?, 6f
    >>> [str(Tile(int(codes[i]))) for i in by_set_ink(p, codes, [BLUE, BLUE, BLUE, RED]).argmax(1)]
    ['1f', '2f', '4f', '6f']
    >>> by_set_ink(p, codes, [BLUE, BLUE, BLUE, BLUE]).argmax(1).tolist()  # one ink: no say
    [0, 1, 7, 5]
    """
    cols = _bonus_columns(codes)
    ink = np.asarray(inks, dtype=np.int64).reshape(-1)
    if cols is None or not len(probs):
        return probs
    flowers, seasons = cols
    pick = probs.argmax(1)
    voting = np.isin(pick, np.concatenate([flowers, seasons])) & (ink != 0)
    mass_f, mass_s = probs[:, flowers].sum(1), probs[:, seasons].sum(1)
    blue_flowers = blue_are_flowers((mass_f / np.maximum(mass_f + mass_s, 1e-9))[voting], ink[voting])
    if blue_flowers is None:
        return probs
    out = probs.copy()
    for r in np.flatnonzero(voting):
        keep, other = (flowers, seasons) if (ink[r] == BLUE) == blue_flowers else (seasons, flowers)
        merged = probs[r, flowers] + probs[r, seasons]
        becomes = keep[merged.argmax()]
        mates = voting & (ink == ink[r]) & np.isin(pick, keep)
        if pick[r] in keep or becomes in pick or not mates.any():
            continue
        out[r, keep] = merged
        out[r, other] = 0.0
    return out
