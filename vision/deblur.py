"""A streak and its undoing: a photo taken by a hand that moved, and a tile read as if it had not.

A hand that moves while the phone takes the photo smears each point along a short line
(``line_blur``, which the training data and ``benchmarks/bench_real_perturbed.py`` use to
make such photos). Knowing the line, a Wiener filter undoes most of it (``unstreaked``); not
knowing it, the classifier reads a tile it is unsure of again undone along a few lines and
weighs those readings in (``vision.classifier.TileClassifier``, its deblurred look).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

__all__ = ["line_kernel", "line_blur", "unstreaked", "unstreaked_copies", "STREAK_LENGTH", "STREAK_ANGLES",
           "STREAK_NOISE", "STREAK_SIDE"]

# The deblurred look undoes a streak this many photo pixels long at each of these angles (degrees),
# with this noise-to-signal power in the Wiener filter. Chosen on the 45 real validation photos
# shaken 5 px and blurred by 1 px (models/README.md, "A deblurred look"), and checked on them shaken
# 3, 5 and 7 px at other angles, which did not choose it.
STREAK_LENGTH = 5
STREAK_ANGLES = (0.0, 45.0, 90.0, 135.0)
STREAK_NOISE = 0.01
STREAK_SIDE = 64  # a crop is shrunk to at most this many pixels a side before it is undone


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
    return _undone(image, length, (degrees,), noise)[0]


def _undone(image: np.ndarray, length: int, angles: Sequence[float], noise: float) -> list[np.ndarray]:
    """``image`` undone along a streak at each of ``angles``, each plane's spectrum taken once
    (OpenCV's DFT: four times numpy's speed on a tile's crop)."""
    h, w = image.shape[:2]
    if min(h, w) < 2 * length:
        return [image for _ in angles]
    planes = [cv2.dft(p.astype(np.float32), flags=cv2.DFT_COMPLEX_OUTPUT) for p in cv2.split(image)]
    out = []
    for degrees in angles:
        line = _spectrum_of_line((h, w), length, degrees)
        power = line[:, :, 0] ** 2 + line[:, :, 1] ** 2 + noise
        inverse = np.dstack([line[:, :, 0] / power, -line[:, :, 1] / power])  # conj(H) / (|H|² + noise)
        undone = [cv2.idft(cv2.mulSpectrums(p, inverse, 0), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
                  for p in planes]
        out.append(np.clip(cv2.merge(undone), 0, 255).astype(np.uint8).reshape(image.shape))
    return out


def unstreaked_copies(image: np.ndarray, length: int = STREAK_LENGTH, angles: Sequence[float] = STREAK_ANGLES,
                      longest: int = STREAK_SIDE) -> list[np.ndarray]:
    """``image`` undone along a streak ``length`` photo pixels long at each of ``angles`` (the
    way a hand moved is not known), first shrunk to at most ``longest`` px a side: the
    classifier sees 64, and the smaller the picture the cheaper the filter. No copies when the
    streak is under 2 px at that size: a large tile hardly shows it.

    >>> [c.shape for c in unstreaked_copies(np.zeros((200, 150, 3), np.uint8))]
    [(64, 48, 3), (64, 48, 3), (64, 48, 3), (64, 48, 3)]
    >>> unstreaked_copies(np.zeros((300, 225, 3), np.uint8))
    []
    """
    h, w = image.shape[:2]
    scale = min(1.0, longest / max(h, w))
    streak = int(round(length * scale))
    if streak < 2:
        return []
    if scale < 1:
        image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return _undone(image, streak, angles, STREAK_NOISE)
