"""The detector's NMS (OpenCV's) keeps exactly what a plain greedy NMS keeps; its shrink is an area resize
in a fraction of the time; a frame looked at again mirrored (``flip``) fuses the two views' boxes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detections import Detections, box_iou
from vision.detector import DetectorSettingError, TileDetector, fuse_views, nms, shrink
from vision.imageio import load_image
from vision.reader import DETECTOR_PATH

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"


def greedy_nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    """The textbook loop, the oracle: surest first, drop what overlaps it by more than ``iou``."""
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    while order.size:
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        order = rest[box_iou(boxes[i : i + 1], boxes[rest])[0] <= iou]
    return keep


@st.composite
def box_sets(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    n = draw(st.integers(0, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 100, (n, 2))
    boxes = np.concatenate([xy, xy + rng.uniform(1, 30, (n, 2))], 1)
    # few distinct scores, so ties (kept in input order) are common
    scores = rng.uniform(0.2, 1.0, n).round(draw(st.integers(1, 3)))
    return boxes, scores


@settings(max_examples=300, deadline=None)
@given(box_sets(), st.sampled_from([0.3, 0.45, 0.6, 0.8]))
def test_nms_matches_the_greedy_loop(case: tuple[np.ndarray, np.ndarray], iou: float) -> None:
    boxes, scores = case
    assert nms(boxes, scores, iou).tolist() == greedy_nms(boxes, scores, iou)


def test_nms_of_nothing_is_empty() -> None:
    out = nms(np.zeros((0, 4)), np.zeros(0), 0.5)
    assert out.dtype == np.int64 and out.shape == (0,)


def _photo(h: int, w: int) -> np.ndarray:
    """A picture with detail at every scale: smooth gradients and sharp-edged blocks."""
    rng = np.random.default_rng(5)
    y, x = np.mgrid[0:h, 0:w]
    base = (127 + 60 * np.sin(x / 37.0) + 60 * np.cos(y / 23.0)).astype(np.float32)
    blocks = np.kron(rng.integers(0, 80, (h // 16 + 1, w // 16 + 1)), np.ones((16, 16)))[:h, :w]
    return np.dstack([base, base + blocks, 255 - base]).clip(0, 255).astype(np.uint8)


@pytest.mark.parametrize("shape,size", [((960, 1280), (480, 360)), ((3024, 4032), (480, 360)), ((1000, 1503), (480, 319))])
def test_shrink_is_close_to_an_area_resize(shape: tuple[int, int], size: tuple[int, int]) -> None:
    image = _photo(*shape)
    area = cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    got = shrink(image, *size)
    assert got.shape == area.shape
    assert np.abs(got - area).mean() < 1.5  # the linear step weighs a pixel's neighbours differently


def test_shrink_skips_no_pixel_where_a_linear_resize_would() -> None:
    image = _photo(3024, 4032)  # a phone's photo to the detector's input: 8.4 times smaller
    area = cv2.resize(image, (480, 360), interpolation=cv2.INTER_AREA).astype(np.float32)
    linear = cv2.resize(image, (480, 360), interpolation=cv2.INTER_LINEAR)
    assert np.abs(shrink(image, 480, 360) - area).mean() < np.abs(linear - area).mean() / 3


@pytest.mark.parametrize("shape,size", [((1080, 1920), (480, 270)), ((640, 640), (480, 480)), ((700, 1000), (600, 420))])
def test_shrink_by_a_whole_factor_or_by_less_than_two_is_an_area_resize(shape: tuple[int, int], size: tuple[int, int]) -> None:
    image = _photo(*shape)
    np.testing.assert_array_equal(shrink(image, *size), cv2.resize(image, size, interpolation=cv2.INTER_AREA))


@st.composite
def views(draw: st.DrawFn) -> Detections:
    """One view's tiles, as a detector gives them: no two boxes overlapping by 0.5 (its NMS)."""
    boxes, scores = draw(box_sets())
    keep = nms(boxes, scores, 0.5)
    up = np.random.default_rng(len(keep)).random(len(keep)) < 0.7
    return Detections(boxes[keep], scores[keep], up)


@settings(max_examples=200, deadline=None)
@given(views())
def test_two_views_that_agree_fuse_into_that_view(view: Detections) -> None:
    fused = fuse_views(view, view, conf=0.2)
    order = np.argsort(-view.confidence, kind="stable")
    assert np.allclose(fused.xyxy, view.xyxy[order]) and np.allclose(fused.confidence, view.confidence[order])
    assert fused.face_up.tolist() == view.face_up[order].tolist()


@settings(max_examples=200, deadline=None)
@given(views(), views(), st.sampled_from([0.1, 0.2, 0.4]))
def test_fused_views_keep_each_tile_once_and_only_sure_ones(a: Detections, b: Detections, conf: float) -> None:
    fused = fuse_views(a, b, conf=conf)
    assert len(fused) <= len(a) + len(b)
    assert (fused.confidence >= conf).all() and (np.diff(fused.confidence) <= 0).all()
    for view in (a, b):  # each box of a view is in at most one fused box
        near = box_iou(view.xyxy, fused.xyxy) >= 0.999 if len(view) and len(fused) else np.zeros((1, 1), bool)
        assert (near.sum(1) <= 1).all()
    both = fuse_views(b, a, conf=conf)
    assert len(both) == len(fused)  # which view is first does not change what is found


@pytest.mark.skipif(not DETECTOR_PATH.is_file(), reason="shipped detector not present")
def test_flipped_detection_finds_the_rendered_tiles_and_reads_a_mirrored_photo_alike() -> None:
    from vision.evaluation import iter_dataset

    plain, flip = TileDetector(DETECTOR_PATH), TileDetector(DETECTOR_PATH, flip=True)
    for gt in iter_dataset(DATA):
        image = load_image(gt.image)
        found = {"plain": plain(image), "flip": flip(image)}
        iou = {name: box_iou(gt.xyxy, d.xyxy) for name, d in found.items()}
        recall, precision = ({k: float((v.max(axis) >= 0.5).mean()) for k, v in iou.items()} for axis in (1, 0))
        assert recall["flip"] >= recall["plain"] - 0.07, gt.image  # 14 of 15 tiles
        assert precision["flip"] >= precision["plain"] - 0.03, gt.image  # its boxes lie on tiles
        mirrored = flip(np.ascontiguousarray(image[:, ::-1]))
        back = mirrored.xyxy[:, [2, 1, 0, 3]] * [-1, 1, -1, 1] + [image.shape[1], 0, image.shape[1], 0]
        assert (box_iou(found["flip"].xyxy, back).max(1) >= 0.9).mean() >= 0.95, gt.image
        asked = plain(image, flip=True)  # one call may ask for it; the detector stays as it was
        assert np.array_equal(asked.xyxy, found["flip"].xyxy) and len(plain(image)) == len(found["plain"])


@pytest.mark.parametrize(("setting", "words"), [
    ({"imgsz": 16}, "input size 16"), ({"imgsz": -5}, "input size -5"),
    ({"conf": 1.5}, "confidence 1.5"), ({"conf": -0.1}, "confidence -0.1"),
    ({"iou": 0.0}, "NMS overlap 0.0"), ({"nested": 1.2}, "nested share 1.2"),
])
def test_a_setting_no_pass_can_use_is_refused_by_its_value(setting: dict[str, float], words: str) -> None:
    with pytest.raises(DetectorSettingError, match=words):
        TileDetector(DETECTOR_PATH, **setting)  # type: ignore[arg-type]
