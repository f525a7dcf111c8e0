"""A detector's serving settings: measured, written into its ONNX, read back when served."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detector import (
    BOX_OFFSETS_KEY,
    CONF_KEY,
    DEFAULT_CONF,
    ServingSettingsError,
    TileDetector,
    refit,
)
from vision.imageio import load_image
from vision.reader import DETECTOR_PATH
from vision.training.box_offsets import (
    NoMatchedBoxesError,
    mean_offsets,
    side_offsets,
    write_serving,
)

HAND = Path(__file__).resolve().parents[2] / "data" / "vision" / "images" / "hand_7_0.jpg"


@pytest.fixture()
def plain_detector(tmp_path: Path) -> Path:
    """A copy of the shipped detector with serving settings that undo none of its boxes."""
    path = tmp_path / "detector.onnx"
    shutil.copyfile(DETECTOR_PATH, path)
    write_serving(path, DEFAULT_CONF, (0.0, 0.0, 0.0, 0.0))
    return path


def test_the_settings_written_are_served(plain_detector: Path, tmp_path: Path) -> None:
    image = load_image(HAND)
    plain = TileDetector(plain_detector)(image)
    shifted = tmp_path / "shifted.onnx"
    shutil.copyfile(plain_detector, shifted)
    write_serving(shifted, DEFAULT_CONF, (-0.05, -0.02, 0.03, 0.01))
    served = TileDetector(shifted)
    assert served.conf == DEFAULT_CONF and served.box_offsets == (-0.05, -0.02, 0.03, 0.01)
    boxes = served(image).xyxy
    assert len(plain.xyxy) >= 5 and len(boxes) == len(plain.xyxy)
    h, w = image.shape[:2]
    want = refit(plain.xyxy, (-0.05, -0.02, 0.03, 0.01)).clip(0, [w, h, w, h])
    np.testing.assert_allclose(boxes, want, atol=1e-3)


def test_a_written_confidence_is_the_default_and_an_asked_one_wins(plain_detector: Path) -> None:
    write_serving(plain_detector, 0.6, (0.0, 0.0, 0.0, 0.0))
    assert TileDetector(plain_detector).conf == 0.6
    assert TileDetector(plain_detector, conf=0.3).conf == 0.3
    image = load_image(HAND)
    assert (TileDetector(plain_detector)(image).confidence >= 0.6).all()


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-0.2, 0.2), min_size=4, max_size=4),
       st.floats(0, 500), st.floats(0, 500), st.floats(5, 200), st.floats(5, 200))
def test_refit_undoes_the_offsets_it_is_given(offsets: list[float], x: float, y: float, w: float, h: float) -> None:
    labelled = np.array([[x, y, x + w, y + h]])
    dx1, dy1, dx2, dy2 = offsets
    found = labelled + np.array([[dx1 * w, dy1 * h, dx2 * w, dy2 * h]])
    np.testing.assert_allclose(side_offsets(labelled, found, iou=0.0), [offsets], atol=1e-9)
    np.testing.assert_allclose(refit(found, tuple(offsets)), labelled, atol=1e-6)


def test_no_photos_is_a_clear_error(plain_detector: Path) -> None:
    with pytest.raises(NoMatchedBoxesError, match="detector.onnx"):
        mean_offsets(TileDetector(plain_detector), [])


@pytest.mark.parametrize("key, value", [
    (BOX_OFFSETS_KEY, "0.1,0.2"), (BOX_OFFSETS_KEY, "a,b,c,d"), (BOX_OFFSETS_KEY, "0,0,0,nan"),
    (BOX_OFFSETS_KEY, "0,0,0,0.9"), (CONF_KEY, "high"), (CONF_KEY, "1.5"), (CONF_KEY, "0"),
])
def test_broken_settings_stop_the_detector_loading_and_name_the_value(
        plain_detector: Path, key: str, value: str) -> None:
    model = onnx.load(str(plain_detector))
    for prop in model.metadata_props:
        if prop.key == key:
            prop.value = value
    onnx.save(model, str(plain_detector))
    with pytest.raises(ServingSettingsError, match=f"detector.onnx.*{key} {value!r}"):
        TileDetector(plain_detector)


def test_settings_that_cannot_be_served_are_not_written(plain_detector: Path) -> None:
    before = plain_detector.read_bytes()
    with pytest.raises(ServingSettingsError, match="0.7"):
        write_serving(plain_detector, DEFAULT_CONF, (0.0, 0.0, 0.7, 0.0))
    with pytest.raises(ServingSettingsError, match="1.2"):
        write_serving(plain_detector, 1.2, (0.0, 0.0, 0.0, 0.0))
    assert plain_detector.read_bytes() == before
