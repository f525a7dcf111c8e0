"""A streak and its undoing: a photo taken by a hand that moved, and a tile read as if it had not.

A hand that moves while the phone takes the photo smears each point along a short line
(``line_blur``, which the training data and ``benchmarks/bench_real_perturbed.py`` use to
make such photos). Knowing the line, a Wiener filter undoes most of it (``unstreaked``). The
line's angle shows in the photo: along it, neighbouring pixels differ far less than pixels
two apart (``steps``, ``streak_of``). The classifier reads the tiles it is unsure of in a
photo that looks smeared again undone along that angle, and weighs those readings in
(``vision.classifier.TileClassifier``, its deblurred look).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Streak", "line_kernel", "line_blur", "unstreaked", "unstreaked_shrunk", "steps", "streak_of", "STREAK_LENGTH",
           "STREAK_ANGLES", "STREAK_NOISE", "STREAK_SIDE", "STREAKED_BELOW", "STREAKED_BELOW_ALONE", "STREAK_CONTRAST"]

# The deblurred look undoes a streak this many photo pixels long, at the one of these angles
# (degrees) along which the photo looks smeared, with this noise-to-signal power in the Wiener
# filter. The length and noise were chosen on the 45 real validation photos shaken 5 px and
# blurred by 1 px (stop 63), and checked on them shaken 3, 5 and 7 px at other angles.
STREAK_LENGTH = 5
STREAK_ANGLES = (0.0, 45.0, 90.0, 135.0)
STREAK_NOISE = 0.01
STREAK_SIDE = 64  # a crop is shrunk to at most this many pixels a side before it is undone
# One pixel and two along each angle, as (rows, columns): 45 degrees runs up and to the right.
_STEPS = ((0, 1), (-1, 1), (1, 0), (1, 1))
# A photo looks smeared where, along some angle, its tiles' 1-px steps hold less than this
# share of their 2-px steps (``steps``), pooled over the crops of one photo; one crop on its
# own, noisier, below the second. Chosen on the 113 real training photos (their crops as
# photographed: pooled, the least 0.317 and the 5th percentile 0.334; one crop, 0.8 % under
# 0.30. Shaken 5 px across or up: pooled, the 95th percentile 0.30 and the most 0.32; one
# crop, 87-91 % under 0.30), and checked on the 45 validation photos (models/HISTORY.md, stop 64).
STREAKED_BELOW = 0.32
STREAKED_BELOW_ALONE = 0.30
# And smeared along a line, not all round (out of focus), where the share along the angle
# across it is at least this many times its own (the training photos blurred evenly by 1 px:
# 1.056 at the 95th percentile; shaken 5 px: 1.16 at the 5th). Without it, upscaled, warped and
# levelled photos, and the renderer's soft crops, were judged smeared and lost (stop 64).
STREAK_CONTRAST = 1.1


@dataclass(frozen=True)
class Streak:
    """A smear along a line: its angle in degrees, anticlockwise on screen from the picture's
    x axis (0-180), and its length in the picture's pixels.

    >>> Streak(45.0).turned(-90.0), Streak(0.0).turned(30.0, 0.5)
    (Streak(degrees=135.0, length=5.0), Streak(degrees=30.0, length=2.5))
    """

    degrees: float
    length: float = float(STREAK_LENGTH)

    def turned(self, degrees: float, scale: float = 1.0) -> Streak:
        """The same smear in the picture turned ``degrees`` anticlockwise and scaled by ``scale``."""
        return Streak((self.degrees + degrees) % 180.0, self.length * scale)


def line_kernel(length: int, degrees: float = 0.0) -> np.ndarray:
    """A ``length``×``length`` kernel summing to 1 along a line through its middle at ``degrees``.

    >>> line_kernel(3).astype(float).round(3).tolist()
    [[0.0, 0.0, 0.0], [0.333, 0.333, 0.333], [0.0, 0.0, 0.0]]
    """
    if length < 1:
        raise ValueError(f"a streak is at least 1 px long, not {length!r}")
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2] = 1
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), degrees, 1.0)
    turned = cv2.warpAffine(kernel, turn, (length, length))
    out: np.ndarray = turned / turned.sum()
    return out


def line_blur(image: np.ndarray, length: int, degrees: float = 0.0) -> np.ndarray:
    """``image`` blurred along a line ``length`` px long at ``degrees``: a hand or camera that
    moved while the photo was taken.

    >>> img = np.zeros((9, 9, 3), np.uint8); img[4, 4] = 90
    >>> line_blur(img, 3)[4, 3:6, 0].tolist()
    [30, 30, 30]
    >>> line_blur(img, 3, 90)[3:6, 4, 0].tolist()
    [30, 30, 30]
    """
    out: np.ndarray = cv2.filter2D(image, -1, line_kernel(length, degrees))
    return out


def _spectrum_of_line(shape: tuple[int, int], length: int, degrees: float) -> np.ndarray:
    """The DFT (OpenCV's two-channel complex) of ``line_kernel(length, degrees)`` laid, centred
    on pixel (0, 0), in an image of ``shape``."""
    kernel = np.zeros(shape, np.float32)
    kernel[:length, :length] = line_kernel(length, degrees)
    rolled = np.ascontiguousarray(np.roll(kernel, (-(length // 2), -(length // 2)), (0, 1)))
    spectrum: np.ndarray = cv2.dft(rolled, flags=cv2.DFT_COMPLEX_OUTPUT)
    return spectrum


def unstreaked(image: np.ndarray, length: int = STREAK_LENGTH, degrees: float = 0.0,
               noise: float = STREAK_NOISE) -> np.ndarray:
    """``image`` (uint8, grey or colour) with a streak ``length`` px long at ``degrees`` undone
    by a Wiener filter; ``noise``, the noise-to-signal power, keeps it from amplifying what
    the streak wiped out. An image too small for the streak comes back as it is.

    A stroke 3 px wide (ink 30 on a face of 235), smeared sideways over 5 px and undone:

    >>> sharp = np.full((64, 48), 235, np.uint8); sharp[:, 22:25] = 30
    >>> smeared = line_blur(sharp, 5)
    >>> smeared[32, 20:27].tolist()
    [194, 153, 112, 112, 112, 153, 194]
    >>> unstreaked(smeared, 5)[32, 20:27].tolist()
    [211, 197, 57, 43, 57, 197, 211]
    """
    h, w = image.shape[:2]
    if min(h, w) < 2 * length:
        return image
    line = _spectrum_of_line((h, w), length, degrees)
    power = line[:, :, 0] ** 2 + line[:, :, 1] ** 2 + noise
    inverse = np.dstack([line[:, :, 0] / power, -line[:, :, 1] / power])  # conj(H) / (|H|² + noise)
    # each plane through OpenCV's DFT: four times numpy's speed on a tile's crop
    planes = [cv2.dft(p.astype(np.float32), flags=cv2.DFT_COMPLEX_OUTPUT) for p in cv2.split(image)]
    undone = [cv2.idft(cv2.mulSpectrums(p, inverse, 0), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE) for p in planes]
    out: np.ndarray = np.clip(cv2.merge(undone), 0, 255).astype(np.uint8).reshape(image.shape)
    return out


def unstreaked_shrunk(image: np.ndarray, streak: Streak, longest: int = STREAK_SIDE) -> np.ndarray | None:
    """``image`` with ``streak`` undone, first shrunk to at most ``longest`` px a side: the
    classifier sees 64, and the smaller the picture the cheaper the filter. None when the
    streak is under 2 px at that size (a large tile hardly shows it) or the picture is too
    small for it.

    >>> unstreaked_shrunk(np.zeros((200, 150, 3), np.uint8), Streak(90.0)).shape
    (64, 48, 3)
    >>> unstreaked_shrunk(np.zeros((300, 225, 3), np.uint8), Streak(0.0)) is None
    True
    """
    h, w = image.shape[:2]
    scale = min(1.0, longest / max(h, w))
    length = int(round(streak.length * scale))
    if length < 2 or min(h, w) * scale < 2 * length:
        return None
    if scale < 1:
        image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return unstreaked(image, length, streak.degrees)


def steps(picture: np.ndarray) -> np.ndarray:
    """(4, 2): the summed squared differences of ``picture``'s grey between pixels 1 and 2
    steps apart along each of ``STREAK_ANGLES``. A streak along an angle leaves its 1-px steps
    a smaller share of its 2-px ones: a sharp edge 0.5, one smeared sideways over 5 px less.

    >>> edge = np.zeros((20, 20), np.uint8); edge[:, 10:] = 200
    >>> s = steps(edge); round(float(s[0, 0] / s[0, 1]), 2)
    0.5
    >>> s = steps(line_blur(edge, 5)); round(float(s[0, 0] / s[0, 1]), 2)
    0.28
    """
    grey = picture if picture.ndim == 2 else cv2.cvtColor(picture[:, :, :3], cv2.COLOR_BGR2GRAY)
    return np.array([[_squared_step(grey, dy * k, dx * k) for k in (1, 2)] for dy, dx in _STEPS])


def _squared_step(grey: np.ndarray, dy: int, dx: int) -> float:
    """The summed squared difference between ``grey`` and itself moved ``dy`` rows and ``dx``
    columns (OpenCV's norm of two views: ten times numpy's speed, no copies)."""
    h, w = grey.shape
    ahead = grey[max(0, dy):h + min(0, dy), max(0, dx):w + min(0, dx)]
    here = grey[max(0, -dy):h - max(0, dy), max(0, -dx):w - max(0, dx)]
    return float(cv2.norm(ahead, here, cv2.NORM_L2SQR))


def streak_of(pictures: Sequence[np.ndarray], below: float = STREAKED_BELOW,
              contrast: float = STREAK_CONTRAST) -> Streak | None:
    """The streak ``STREAK_LENGTH`` px long along which ``pictures`` (the crops of one photo,
    uncut and unturned, or one crop) look smeared, at the likeliest of ``STREAK_ANGLES``; or
    None where they look sharp: their steps (:func:`steps`, summed) along no angle have a
    1-px share under ``below``. Of the two pairs of perpendicular angles, the pair that
    differs more names it: a tile's own strokes run mostly across and up, so the one angle
    with the least share alone would often point there. None too where the pair differs by
    less than ``contrast`` times: smeared all round, out of focus.

    A face of strokes 3 px wide, across and up, sharp, smeared and out of focus:

    >>> face = np.full((60, 44, 3), 235, np.uint8)
    >>> for k in range(4): face[10 + 10 * k:13 + 10 * k] = 30; face[:, 8 + 9 * k:11 + 9 * k] = 30
    >>> streak_of([face]) is None
    True
    >>> [streak_of([line_blur(face, 5, a)]).degrees for a in (0, 45, 90, 135)]
    [0.0, 45.0, 90.0, 135.0]
    >>> streak_of([cv2.GaussianBlur(face, (0, 0), 1.5)]) is None
    True
    """
    total = sum((steps(p) for p in pictures if min(p.shape[:2]) >= 8), np.zeros((len(_STEPS), 2)))
    if not total[:, 1].all():
        return None  # a blank picture, or none big enough to judge
    share = total[:, 0] / total[:, 1]
    if share.min() >= below:
        return None
    pair = max(((0, 2), (1, 3)), key=lambda ij: share[list(ij)].max() / max(share[list(ij)].min(), 1e-9))
    if share[list(pair)].max() < contrast * share[list(pair)].min():
        return None  # smeared all round: out of focus, which no line undoes
    return Streak(STREAK_ANGLES[min(pair, key=lambda i: share[i])])
