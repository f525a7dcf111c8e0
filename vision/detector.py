"""Tile detector: a YOLO ONNX model (classes face-up tile, face-down tile) on a letterboxed frame."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.detections import Detections, box_intersection, box_iou
from vision.onnx_runtime import ModelLoadError, OnnxModel

__all__ = ["TileDetector", "DetectorSettingError", "check_settings", "Letterbox", "letterbox", "shrink",
           "letterbox_scale", "largest_input", "nms", "drop_nested", "refit", "serving_settings",
           "ServingSettingsError", "fuse_views", "DEFAULT_CONF", "DEFAULT_IOU", "DEFAULT_NESTED", "CONF_KEY",
           "BOX_OFFSETS_KEY", "FLIP_PASS_CONF", "FLIP_ALONE", "FLIP_MATCH"]

# The fine-tuned detector (model card, v3) scores tiles lower than the first one did: at
# 0.25 it missed 17 % of the rendered test hands' tiles, at 0.2 14 %, with the same hands
# read right on the real validation photos (58.5 %).
DEFAULT_CONF = 0.2
# Tiles lying apart never nest: a box this much inside a surer one is a second guess at part
# of that tile (its face, say), which NMS keeps because the two boxes' IoU is small. Off by
# default: on real hand rows and busy tables it also dropped true tiles (real recall 0.949 ->
# 0.943, rendered 0.680 -> 0.667 at 0.75); calibration, whose tiles lie apart, uses it.
DEFAULT_NESTED: float | None = None
# NMS overlap: a face-boxing detector (v6) now and then puts a box across the seam of two
# touching tiles lying flat, IoU 0.53 with one of them; at 0.6 it stayed and was read as a
# tile of its own (a second 7p discard in the rendered demo game), at 0.5 it goes.
DEFAULT_IOU = 0.5
# A detector may carry its own serving settings in its ONNX metadata, written beside it when
# it is measured (``vision.training.box_offsets``): the confidence it is served at, and the
# mean offsets of its boxes' sides from the labelled ones, as fractions of the labelled box
# (x1, y1, x2, y2), which ``refit`` takes back off. A detector trained mostly on rendered
# scenes (GPU-3, stop 47) boxed real faces about 6 % wider than their labels, though it boxed
# rendered ones as labelled, and the crops cut around its real boxes were read worse.
CONF_KEY = "mahjongero_conf"
BOX_OFFSETS_KEY = "mahjongero_box_offsets"
# ``TileDetector(flip=True)`` looks at the frame a second time mirrored left to right and fuses
# the two views box by box (``fuse_views``): each view keeps boxes FLIP_PASS_CONF sure, a box
# of one view overlapping one of the other by FLIP_MATCH is one tile at their mean confidence
# and their confidence-weighted mean box, and a box one view alone found keeps FLIP_ALONE of
# its confidence; then the served confidence applies. Chosen on 150 rendered scenes of seed
# 520 (never trained on) among pass / alone of 0.1-0.2 / 0.5-0.75: mAP50 0.9116 -> 0.9234,
# end to end 86.96 -> 88.06 % (f52). It costs a second pass of the detector, which a hand
# photo's 60 ms cannot spare (65 ms): served only in the zoom's second pass, on photos whose
# tiles come out small (``vision.zoom.Zoom.flip``), else off unless asked (models/HISTORY.md,
# stop 55).
FLIP_PASS_CONF = 0.1
FLIP_ALONE = 0.75
FLIP_MATCH = 0.55
# Offsets this large are not a detector's habit but a broken value: refit by them would turn
# boxes inside out or double them.
MOST_OFFSET = 0.5


class ServingSettingsError(ModelLoadError):
    """A detector's metadata names a serving confidence or box offsets that cannot be used."""


class DetectorSettingError(ValueError):
    """A detector setting asked for that cannot mean anything: an input size under the
    network's 32-pixel grid, a confidence or an overlap outside 0 to 1."""


def check_settings(imgsz: int | None = None, conf: float | None = None, iou: float | None = None,
                   nested: float | None = None) -> None:
    """Refuse, naming it, a setting no detector pass can use (None: not asked).

    >>> check_settings(imgsz=480, conf=0.2, iou=0.5)
    >>> check_settings(conf=2.0)
    Traceback (most recent call last):
    ...
    vision.detector.DetectorSettingError: confidence 2.0: a box's confidence lies between 0 and 1
    """
    if imgsz is not None and imgsz < 32:
        raise DetectorSettingError(f"input size {imgsz!r}: the detector's input is at least 32 pixels (its grid)")
    if conf is not None and not 0.0 <= conf <= 1.0:
        raise DetectorSettingError(f"confidence {conf!r}: a box's confidence lies between 0 and 1")
    for name, share in (("NMS overlap", iou), ("nested share", nested)):
        if share is not None and not 0.0 < share <= 1.0:
            raise DetectorSettingError(f"{name} {share!r}: a share of a box, above 0 and at most 1")


def serving_settings(metadata: dict[str, str], path: str | Path = "<model>"
                     ) -> tuple[float | None, tuple[float, ...] | None]:
    """The confidence and box offsets stored in a detector's ``metadata`` (None where absent),
    checked when the model loads rather than failing later inside ``refit``.

    >>> serving_settings({CONF_KEY: "0.35", BOX_OFFSETS_KEY: "-0.04,-0.02,0.03,0.02"})
    (0.35, (-0.04, -0.02, 0.03, 0.02))
    >>> serving_settings({BOX_OFFSETS_KEY: "0.1,0.2"}, "d.onnx")
    Traceback (most recent call last):
    ...
    vision.detector.ServingSettingsError: 'd.onnx': mahjongero_box_offsets '0.1,0.2' is not 4 numbers each within ±0.5
    """
    conf_text, offsets_text = metadata.get(CONF_KEY), metadata.get(BOX_OFFSETS_KEY)
    conf = None if conf_text is None else _numbers(conf_text)
    if conf is not None and not (len(conf) == 1 and 0.0 < conf[0] < 1.0):  # NaN fails too
        raise ServingSettingsError(f"{str(path)!r}: {CONF_KEY} {conf_text!r} is not a confidence between 0 and 1")
    offsets = None if offsets_text is None else _numbers(offsets_text)
    if offsets is not None and not (len(offsets) == 4 and all(abs(v) <= MOST_OFFSET for v in offsets)):
        raise ServingSettingsError(
            f"{str(path)!r}: {BOX_OFFSETS_KEY} {offsets_text!r} is not 4 numbers each within ±{MOST_OFFSET:g}")
    return (None if conf is None else conf[0]), offsets


def _numbers(text: str) -> tuple[float, ...]:
    """The comma-separated numbers in ``text``; none at all when any of them is not a number."""
    try:
        return tuple(float(v) for v in text.split(","))
    except ValueError:
        return ()


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the network input: ``net = img * scale + pad``."""

    scale: float
    pad_x: float
    pad_y: float


def letterbox_scale(shape: tuple[int, ...], size: int) -> float:
    """The network input's pixels per image pixel when an image of ``shape`` is letterboxed
    to long side ``size``.

    >>> letterbox_scale((960, 1280, 3), 480)
    0.375
    """
    return size / max(shape[:2])


def largest_input(shape: tuple[int, ...], grid: int = 32) -> int:
    """The largest input long side worth giving the detector for an image of ``shape``: its
    own long side rounded up to the network's ``grid`` (beyond it the image is only blown up).

    >>> largest_input((1080, 1920, 3)), largest_input((500, 650, 3))
    (1920, 672)
    """
    return -(-max(shape[:2]) // grid) * grid


def shrink(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """``image`` resized down to ``width`` × ``height`` by averaging the pixels under each
    output pixel, as ``cv2.INTER_AREA`` does. OpenCV's area resize is fast only by a whole
    factor (1280×960 to 480×360 took 2.4 ms, a twentieth of a hand photo's read), so a
    shrink by 2 or more is done as the whole factor by area, then the rest, under 2, by
    linear interpolation, which at such a step skips no pixel (0.5 ms; the two pictures
    differ by 0.25 of 255 on average). The far edge's last pixels that do not fill a whole
    factor are dropped: at most a pixel of the input per whole factor.

    >>> shrink(np.zeros((960, 1280, 3), np.uint8), 480, 360).shape
    (360, 480, 3)
    >>> float(shrink(np.full((9, 9), 200, np.uint8), 2, 2).mean())
    200.0
    """
    h, w = image.shape[:2]
    k = min(w // width, h // height)
    if k >= 2:
        image = cv2.resize(image[: h // k * k, : w // k * k], (w // k, h // k), interpolation=cv2.INTER_AREA)
        if image.shape[:2] == (height, width):
            return image
        return cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)


def letterbox(image: np.ndarray, size: int, stride: int = 32,
              shrinker: Callable[[np.ndarray, int, int], np.ndarray] = shrink) -> tuple[np.ndarray, Letterbox]:
    """Resize so the long side is ``size`` (down by ``shrinker``); pad the short side up to a
    multiple of ``stride``.

    >>> net, lb = letterbox(np.zeros((1080, 1920, 3), np.uint8), 640)
    >>> net.shape, lb.scale
    ((384, 640, 3), 0.3333333333333333)
    """
    h, w = image.shape[:2]
    scale = letterbox_scale(image.shape, size)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    resized = shrinker(image, nw, nh) if scale < 1 else cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    tw, th = -(-nw // stride) * stride, -(-nh // stride) * stride
    px, py = (tw - nw) / 2, (th - nh) / 2
    top, left = int(round(py - 0.1)), int(round(px - 0.1))
    out = cv2.copyMakeBorder(
        resized, top, th - nh - top, left, tw - nw - left, cv2.BORDER_CONSTANT, value=(114, 114, 114)
    )
    return out, Letterbox(scale, float(left), float(top))


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Greedy NMS (OpenCV's): kept indices by decreasing score; a box goes when it overlaps a
    surer kept box by more than ``iou``. A live table frame has ~200 candidates: a Python
    loop over them took 16 ms a frame, OpenCV's takes well under one.

    >>> nms(np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30.]]), np.array([.9, .8, .7]), .5).tolist()
    [0, 2]
    """
    if not len(boxes):
        return np.zeros(0, dtype=np.int64)
    xywh = np.concatenate([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]], 1).astype(np.float64)
    keep = cv2.dnn.NMSBoxes(xywh.tolist(), np.asarray(scores, np.float64).tolist(), 0.0, iou)
    return np.asarray(keep, dtype=np.int64).reshape(-1)


def drop_nested(boxes: np.ndarray, order: np.ndarray, share: float, grid: int = 16) -> np.ndarray:
    """Of ``order`` (indices, surest first), those not lying ``share`` or more (of their own
    area) inside the boxes kept before them, together: a second guess at part of one tile,
    or a box across the seam of two touching tiles, half in each (a face-boxing detector
    puts one there now and then, with a middling score, and NMS keeps it). Coverage is
    counted on a ``grid`` × ``grid`` of points in the box.

    >>> boxes = np.array([[0, 0, 10, 10], [2, 2, 8, 9], [10, 0, 20, 10], [5, 0, 15, 10.]])
    >>> drop_nested(boxes, np.arange(4), 0.75).tolist()  # box 3 straddles the seam of 0 and 2
    [0, 2]
    """
    keep: list[int] = []
    steps = (np.arange(grid) + 0.5) / grid
    inter = box_intersection(boxes, boxes)
    for i in order.tolist():
        near = [k for k in keep if inter[i, k] > 0]
        if near:
            x0, y0, x1, y1 = boxes[i]
            px, py = np.meshgrid(x0 + steps * (x1 - x0), y0 + steps * (y1 - y0))
            px, py = px.ravel()[:, None], py.ravel()[:, None]
            b = boxes[near]
            inside = (px >= b[:, 0]) & (px <= b[:, 2]) & (py >= b[:, 1]) & (py <= b[:, 3])
            if float(inside.any(1).mean()) >= share:
                continue
        keep.append(i)
    return np.asarray(keep, dtype=np.int64)


class TileDetector:
    """Find tiles (face up or down) in a BGR image; boxes come back in input pixels.

    ``shrinker``: how a frame larger than the network input is shrunk to it (``shrink``; a
    subclass may set another, as ``benchmarks/bench_vision.py`` does to time the difference)."""

    shrinker: Callable[[np.ndarray, int, int], np.ndarray] = staticmethod(shrink)

    def __init__(
        self, path: str | Path, imgsz: int | None = None, conf: float | None = None, iou: float = DEFAULT_IOU,
        nested: float | None = DEFAULT_NESTED, flip: bool = False,
    ) -> None:
        check_settings(imgsz, conf, iou, nested)
        self.model = OnnxModel(path)
        self.imgsz = imgsz or self.trained_size()
        own_conf, self.box_offsets = serving_settings(self.model.metadata, path)
        # None: the confidence the model's metadata names, else DEFAULT_CONF
        self.conf = conf if conf is not None else (own_conf if own_conf is not None else DEFAULT_CONF)
        self.iou = iou
        self.nested = nested  # None: keep nested boxes (see DEFAULT_NESTED)
        self.flip = flip  # look again mirrored and fuse the two views (see FLIP_PASS_CONF)
        names = self.model.names or {0: "tile", 1: "back"}
        self.down_classes = {k for k, v in names.items() if v in {"back", "face_down", "down"}}

    def trained_size(self) -> int:
        """The long side the model was trained at (ultralytics metadata), else 640."""
        return self.model.trained_size(640)

    def preprocess(self, image: np.ndarray, imgsz: int | None = None) -> tuple[np.ndarray, Letterbox]:
        net, lb = letterbox(image, imgsz or self.imgsz, shrinker=self.shrinker)
        # BGR HWC uint8 -> RGB NCHW float in [0, 1] in one pass (a third of numpy's time)
        return cv2.dnn.blobFromImage(net, 1 / 255.0, swapRB=True), lb

    def postprocess(self, out: np.ndarray, lb: Letterbox, shape: tuple[int, ...],
                    conf_at: float | None = None) -> Detections:
        """The network's output ``out`` as boxes in the image's pixels, those at least
        ``conf_at`` sure (default: ``conf``) after NMS."""
        pred = out[0].T  # (anchors, 4 + nc)
        scores = pred[:, 4:]
        cls = scores.argmax(1)
        conf = scores[np.arange(len(cls)), cls]
        m = conf >= (self.conf if conf_at is None else conf_at)
        pred, cls, conf = pred[m], cls[m], conf[m]
        if not len(pred):
            return Detections.empty()
        cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
        keep = nms(xyxy, conf, self.iou)  # class-agnostic: a tile is either up or down
        if self.nested is not None:
            keep = drop_nested(xyxy, keep, self.nested)
        xyxy, cls, conf = xyxy[keep], cls[keep], conf[keep]
        xyxy[:, [0, 2]] = (xyxy[:, [0, 2]] - lb.pad_x) / lb.scale
        xyxy[:, [1, 3]] = (xyxy[:, [1, 3]] - lb.pad_y) / lb.scale
        if self.box_offsets is not None:
            xyxy = refit(xyxy, self.box_offsets)
        hgt, wid = shape[:2]
        xyxy[:, [0, 2]] = xyxy[:, [0, 2]].clip(0, wid)
        xyxy[:, [1, 3]] = xyxy[:, [1, 3]].clip(0, hgt)
        face_up = np.array([int(c) not in self.down_classes for c in cls], dtype=bool)
        return Detections(xyxy=xyxy, confidence=conf, face_up=face_up)

    def __call__(self, image: np.ndarray, imgsz: int | None = None,
                 region: tuple[int, int, int, int] | None = None, flip: bool | None = None,
                 conf: float | None = None) -> Detections:
        """Tiles in ``image``; ``imgsz`` overrides the input's long side for this call,
        ``flip`` whether it looks again mirrored (default: ``self.flip``), and ``conf`` the
        confidence boxes are kept down to (default: ``self.conf``, the served one).

        ``region`` (x0, y0, x1, y1 in image pixels): look only there. The network input is
        the whole frame's, cut on its 32-pixel grid around the region, so a tile inside is
        seen exactly as in a whole-frame pass, for a fraction of the cost.
        """
        x, lb = self.preprocess(image, imgsz)
        if region is not None:
            x, lb = _cut(x, lb, region)
        keep = self.conf if conf is None else conf
        if not (self.flip if flip is None else flip):
            return self.postprocess(self.model(x), lb, image.shape, keep)
        mirrored = self.model(np.ascontiguousarray(x[:, :, :, ::-1])).copy()
        mirrored[:, 0] = x.shape[3] - mirrored[:, 0]  # box centres back to the frame's side
        each = min(keep, FLIP_PASS_CONF)
        seen, seen_mirrored = (self.postprocess(out, lb, image.shape, each) for out in (self.model(x), mirrored))
        return fuse_views(seen, seen_mirrored, conf=keep)


def fuse_views(a: Detections, b: Detections, conf: float, match: float = FLIP_MATCH,
               alone: float = FLIP_ALONE) -> Detections:
    """The tiles two views of one frame found (``TileDetector(flip=True)``), surest first: the
    pairs overlapping by ``match`` or more, matched greedily by overlap, as one box at their
    confidence-weighted mean with their mean confidence and the surer one's face; a box of
    one view alone with ``alone`` of its confidence; any under ``conf`` left out.
    (``ensemble-boxes`` does this for many views, by class, and pulls in pandas and numba.)

    >>> a = Detections(np.array([[0, 0, 10, 10], [20, 0, 30, 10.]]), np.array([.8, .3]), np.array([True, True]))
    >>> b = Detections(np.array([[2, 0, 12, 10.]]), np.array([.4]), np.array([False]))
    >>> f = fuse_views(a, b, conf=0.2)
    >>> f.xyxy.astype(float).round(2).tolist(), f.confidence.astype(float).round(3).tolist(), f.face_up.tolist()
    ([[0.67, 0.0, 10.67, 10.0], [20.0, 0.0, 30.0, 10.0]], [0.6, 0.225], [True, True])
    >>> len(fuse_views(a, b, conf=0.25))  # the lone box, 0.3 * 0.75, goes
    1
    """
    iou = box_iou(a.xyxy, b.xyxy) if len(a) and len(b) else np.zeros((len(a), len(b)))
    pairs: list[tuple[int, int]] = []
    free_a, free_b = np.ones(len(a), bool), np.ones(len(b), bool)
    ii, jj = np.nonzero(iou >= match)
    for i, j in sorted(zip(ii.tolist(), jj.tolist(), strict=True), key=lambda ij: -iou[ij]):
        if free_a[i] and free_b[j]:
            free_a[i] = free_b[j] = False
            pairs.append((i, j))
    pa, pb = np.array([p[0] for p in pairs], np.int64), np.array([p[1] for p in pairs], np.int64)
    wa, wb = a.confidence[pa, None], b.confidence[pb, None]
    xyxy = np.concatenate([(a.xyxy[pa] * wa + b.xyxy[pb] * wb) / (wa + wb), a.xyxy[free_a], b.xyxy[free_b]])
    confidence = np.concatenate([(wa + wb)[:, 0] / 2, a.confidence[free_a] * alone, b.confidence[free_b] * alone])
    face_up = np.concatenate([np.where(wa[:, 0] >= wb[:, 0], a.face_up[pa], b.face_up[pb]),
                              a.face_up[free_a], b.face_up[free_b]])
    order = np.argsort(-confidence, kind="stable")
    order = order[confidence[order] >= conf]
    return Detections(xyxy[order], confidence[order], face_up[order])


def refit(xyxy: np.ndarray, offsets: tuple[float, ...]) -> np.ndarray:
    """Boxes ``xyxy`` with a detector's mean ``offsets`` (x1, y1, x2, y2, each a fraction of
    the labelled box's side: ``(found - labelled) / side``) taken back off.

    A box found 10 % too far left and right on a tile 100 wide (110 wide) comes back 100 wide:

    >>> refit(np.array([[-10, 0, 110, 50.]]), (-0.1, 0.0, 0.1, 0.0)).tolist()
    [[0.0, 0.0, 100.0, 50.0]]
    """
    dx1, dy1, dx2, dy2 = offsets
    w = (xyxy[:, 2] - xyxy[:, 0]) / (1 + dx2 - dx1)  # the labelled side the offsets are fractions of
    h = (xyxy[:, 3] - xyxy[:, 1]) / (1 + dy2 - dy1)
    return np.asarray(xyxy - np.stack([dx1 * w, dy1 * h, dx2 * w, dy2 * h], 1))


def _cut(x: np.ndarray, lb: Letterbox, region: tuple[int, int, int, int], grid: int = 32
         ) -> tuple[np.ndarray, Letterbox]:
    """The part of network input ``x`` covering ``region`` (image pixels), on the ``grid``.

    >>> x = np.zeros((1, 3, 544, 960), np.float32)
    >>> part, lb = _cut(x, Letterbox(0.5, 0.0, 2.0), (400, 300, 1000, 700))
    >>> part.shape, lb
    ((1, 3, 224, 320), Letterbox(scale=0.5, pad_x=-192.0, pad_y=-126.0))
    """
    h, w = x.shape[2:]
    nx0, ny0 = (int(v * lb.scale + p) // grid * grid for v, p in ((region[0], lb.pad_x), (region[1], lb.pad_y)))
    nx1 = min(w, -(-int(np.ceil(region[2] * lb.scale + lb.pad_x)) // grid) * grid)
    ny1 = min(h, -(-int(np.ceil(region[3] * lb.scale + lb.pad_y)) // grid) * grid)
    nx0, ny0 = max(0, min(nx0, nx1 - grid)), max(0, min(ny0, ny1 - grid))
    part = np.ascontiguousarray(x[:, :, ny0:ny1, nx0:nx1])
    return part, Letterbox(lb.scale, lb.pad_x - nx0, lb.pad_y - ny0)
