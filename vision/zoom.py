"""Zoom: a photo whose tiles came out small at the detector's input is detected again larger.

The detector finds a tile by how many of its input pixels the tile spans, not by the
photo's size: on the rendered held-out scenes at its trained 480 it found 0.48 of the tiles
under 8 px wide at its input, 0.78 of those 8-12 px, 0.91 of 12-20 px and 0.94 from 20 px
(``mahjongero eval``'s ``recall_at_input_*``), and the same shares again at 640, where more
tiles are large. A hand photo's tiles span 20-80 px at 480; those of a table photographed
whole, 8-20 px. Sizing the input by the tiles a first pass finds puts both where the
detector reads best, and costs a second pass only where it pays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detections import Detections
from vision.detector import largest_input, letterbox_scale

__all__ = ["Zoom", "DEFAULT_ZOOM", "median_short_side"]


def median_short_side(xyxy: np.ndarray) -> float:
    """The median of the boxes' short sides, in their pixels: how large the tiles came out.

    >>> median_short_side(np.array([[0, 0, 10, 14], [0, 0, 30, 20], [0, 0, 8, 6.]]))
    10.0
    """
    return float(np.median(np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])))


@dataclass(frozen=True)
class Zoom:
    """Stage: a first pass's detections -> the input long side for a second pass, or None.

    ``below``: the median short side of the boxes found, in pixels of the detector's input,
    under which a photo is detected again; ``target``: that median's size at the second
    pass's input; ``most``: its long side at most (and never above the photo's own, rounded
    up to the network's 32-pixel grid: a photo is not blown up past its pixels); ``flip``:
    the second pass also looks at the photo mirrored (``TileDetector(flip=True)``). Small
    tiles are where a second view finds most: on 150 rendered scenes of seed 520, mAP50
    0.9116 -> 0.9188 (every pass mirrored: 0.9234), for a second pass twice as costly on
    the photos that get one (``models/HISTORY.md``, stop 55).

    Chosen on 200 rendered scenes never trained on (``scenes-s320-faces``, training part,
    the first 200; ``models/HISTORY.md``, stop 50): mAP50 0.780 at 480 alone, 0.852 with
    these settings, 0.846-0.852 for ``below`` 16-20 and ``target`` 20-22. No real photo's
    tiles are that small (the smallest median of the 158: 19.7 px), so they read as before.

    >>> zoom = Zoom()
    >>> far = Detections(np.array([[0, 0, 40, 56], [50, 0, 90, 56.]]), np.ones(2), np.ones(2, bool))
    >>> zoom.size(far, (1080, 1920, 3), 480)  # tiles 10 px wide at 480: 22 px wanted 1056
    960
    >>> zoom.size(far, (960, 1280, 3), 480)  # 15 px: to 22 px, within the photo's own pixels
    704
    >>> zoom.size(far, (400, 600, 3), 480) is None  # 32 px at 480: large enough
    True
    """

    below: float = 18.0
    target: float = 22.0
    most: int = 960
    grid: int = 32
    flip: bool = True

    def size(self, dets: Detections, shape: tuple[int, ...], imgsz: int) -> int | None:
        """The long side to detect ``dets``' photo (of ``shape``) at again, having found
        them at ``imgsz``; None where the first pass stands."""
        if len(dets) == 0:
            return None
        median = median_short_side(dets.xyxy) * letterbox_scale(shape, imgsz)
        if median >= self.below or median <= 0:
            return None
        wanted = round(imgsz * self.target / median / self.grid) * self.grid
        size = min(wanted, self.most, largest_input(shape, self.grid))
        return size if size > imgsz else None


# what the photo reader serves (``vision.reader.TileReader``); live video keeps its own size
DEFAULT_ZOOM = Zoom()
