"""The tiles' own faces as the white reference: crops of a photo taken under warm or cool
light are turned back to the colour of daylight before they are named.

A phone's white balance leaves a lamp's colour in the picture: an evening game under a
tungsten bulb comes out orange, one in the shade of a porch blue. The classifiers learned
tiles under the light of the real training photos and the renderer, and their colours
carry names (the red and green of the dragons, the blue and green of the bamboos, the
coloured numerals of flowers). On the 45 real validation photos given a tungsten cast
(``benchmarks/bench_real_perturbed.py``), whole hands read right fell from 34 to 25 of 41;
with their crops turned back here, 32 (in the blue of the shade 28 -> 35; as photographed
34 -> 35: ``models/HISTORY.md``, stop 61).

Every face-up tile's face is the same ivory or white, so the brightest part of each crop is
a sample of the light. Their median, against the face colour of the real training photos
(``FACE``, blue and red over green), gives one gain per channel that turns the picture's
light back; the crops' brightness stays as it was. OpenCV's white balancers
(``cv2.xphoto``, in the contrib build only) look at a whole picture, whose table cloth and
tile backs are not grey; here the reference is known to be white.

>>> warm = np.full((20, 20, 3), (150, 200, 235), np.uint8)  # a face under a tungsten bulb
>>> FaceBalance()([warm])[0][0, 0].tolist()
[190, 197, 197]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["FaceBalance", "DEFAULT_BALANCE", "FACE", "balanced"]

# The tiles' faces in the 113 real training photos (``datasets/real-split.json``), blue and
# red over green, the median of each photo's face colour (``FaceBalance.face``): ivory,
# a little short of blue. The 45 validation photos: 0.957 and 1.006.
FACE = (0.969, 1.0, 1.0)
# pixels across the grid a crop's face colour is sampled on (``_brightest``)
SAMPLE = 32


@dataclass(frozen=True)
class FaceBalance:
    """Turns one picture's crops of face-up tiles to daylight (see the module's text).

    ``bright``: the share of a crop's pixels, the brightest, taken as its face's colour;
    ``most``: the most a channel is scaled either way (a picture whose crops show no face,
    backs taken for faces, is not painted over); ``dark``: the faces' least brightness (0-255)
    to go by (in the dark the brightest pixels are noise); ``least``: where every gain is
    within this share of 1, the crops are left as they are (a light no farther from the
    reference than sets' faces are from each other)."""

    face: tuple[float, float, float] = FACE
    bright: float = 0.2
    most: float = 2.0
    dark: float = 24.0
    least: float = 0.0

    def light(self, crops: Sequence[np.ndarray]) -> np.ndarray | None:
        """The colour (BGR) of the faces in ``crops``: the median over the crops of the mean
        of each one's brightest pixels; None without a colour crop.

        >>> FaceBalance().light([np.full((4, 4, 3), (100, 120, 140), np.uint8)]).tolist()
        [100.0, 120.0, 140.0]
        """
        faces = [_brightest(c, self.bright) for c in crops if c.ndim == 3 and c.shape[2] == 3 and c.size]
        return np.median(np.array(faces), 0) if faces else None

    def gains(self, crops: Sequence[np.ndarray]) -> np.ndarray | None:
        """The gain of each channel (BGR) that takes the faces' colour to ``face`` at the same
        brightness, each within ``most`` either way; None where ``light`` is None or darker
        than ``dark``, or every gain is within ``least`` of 1.

        >>> FaceBalance(least=0.1).gains([np.full((4, 4, 3), (190, 200, 210), np.uint8)]) is None
        True
        """
        light = self.light(crops)
        if light is None or light.mean() < self.dark or light.min() <= 0:
            return None
        gains = np.array(self.face) * light[1] / light
        gains *= light.mean() / (gains * light).mean()
        if np.all(np.abs(gains - 1) <= self.least):
            return None
        return np.asarray(np.clip(gains, 1 / self.most, self.most), np.float32)

    def __call__(self, crops: Sequence[np.ndarray]) -> list[np.ndarray]:
        """``crops`` (one picture's) under daylight: each channel times its gain (``gains``)."""
        return balanced(crops, self.gains(crops))


def balanced(crops: Sequence[np.ndarray], gains: np.ndarray | None) -> list[np.ndarray]:
    """Each colour crop (uint8) of ``crops`` with each channel (BGR) times its gain, by one
    look-up table for them all; None: as they are.

    >>> balanced([np.full((1, 1, 3), 100, np.uint8)], np.array([0.5, 1.0, 3.0]))[0].tolist()
    [[[50, 100, 255]]]
    """
    if gains is None:
        return list(crops)
    scaled = np.clip(np.arange(256, dtype=np.float32)[:, None] * np.asarray(gains, np.float32), 0, 255)
    table = scaled.astype(np.uint8).reshape(256, 1, 3)
    return [cv2.LUT(c, table) if c.ndim == 3 and c.shape[2] == 3 and c.dtype == np.uint8 else c for c in crops]


def _brightest(crop: np.ndarray, share: float, side: int = SAMPLE) -> np.ndarray:
    """The mean colour of the brightest ``share`` of ``crop``'s pixels, of every pixel of a
    grid about ``side`` across (a crop of a hand photo is ~160 px: its face's colour needs
    not every pixel, and sorting them all cost 12 ms a hand)."""
    step = max(1, max(crop.shape[:2]) // side)
    pixels = crop[::step, ::step].reshape(-1, 3).astype(np.float32)
    brightness = pixels.sum(1)
    keep = max(1, round(share * len(brightness)))
    return np.asarray(pixels[np.argpartition(brightness, -keep)[-keep:]].mean(0))


DEFAULT_BALANCE = FaceBalance()
