"""The streak undone (vision.deblur) and the classifier's deblurred look that reads with it."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjongero.commands._classifier import add_classifier_options, classifier_from
from vision.classifier import DEBLUR_BELOW, DEBLURRED_MOST, TileClassifier, crop_boxes
from vision.deblur import STREAK_ANGLES, line_blur, line_kernel, unstreaked, unstreaked_copies
from vision.reader import CLASSIFIER_PATH, TileReader

IMAGE = "tests/data/vision/images/hand_7_1.jpg"


@given(st.integers(1, 9), st.floats(0, 180))
@settings(max_examples=30, deadline=None)
def test_a_line_kernel_keeps_the_light(length: int, degrees: float) -> None:
    kernel = line_kernel(length, degrees)
    assert kernel.shape == (length, length)
    assert kernel.sum() == pytest.approx(1.0, abs=1e-5)
    assert (kernel >= 0).all()


def test_a_streak_undone_along_its_own_line_comes_back_nearer_than_across_it() -> None:
    sharp = np.full((64, 48, 3), 235, np.uint8)
    sharp[:, 22:25] = 30  # a stroke up the face, smeared sideways
    smeared = line_blur(sharp, 5, 0)
    err = lambda img: float(np.abs(img.astype(float) - sharp)[8:-8, 8:-8].mean())  # noqa: E731
    assert err(unstreaked(smeared, 5, 0)) < err(smeared)
    assert err(unstreaked(smeared, 5, 0)) < err(unstreaked(smeared, 5, 90))


def test_a_crop_too_small_for_the_streak_comes_back_as_it_is() -> None:
    tiny = np.arange(48, dtype=np.uint8).reshape(6, 8)
    assert unstreaked(tiny, 5) is tiny


def test_copies_come_one_for_each_angle_shrunk_and_none_for_a_large_tile() -> None:
    copies = unstreaked_copies(np.zeros((40, 30, 3), np.uint8))
    assert [c.shape for c in copies] == [(40, 30, 3)] * len(STREAK_ANGLES)
    assert unstreaked_copies(np.zeros((1000, 750, 3), np.uint8)) == []


@pytest.fixture(scope="module")
def shaken_crops() -> list[np.ndarray]:
    image = cv2.imread(IMAGE)
    reader = TileReader()
    found = reader.detector(image)
    return crop_boxes(line_blur(image, 9, 30), found.xyxy)


def test_the_deblurred_look_changes_only_the_least_sure_crops_and_at_most_as_many_as_asked(
        shaken_crops: list[np.ndarray]) -> None:
    plain = TileClassifier(CLASSIFIER_PATH).probabilities(shaken_crops)
    looked = TileClassifier(CLASSIFIER_PATH, deblurred_most=2).probabilities(shaken_crops)
    changed = np.flatnonzero(np.abs(looked - plain).max(1) > 1e-6)
    assert 0 < len(changed) <= 2
    assert (plain[changed].max(1) < DEBLUR_BELOW).all()
    unsure = np.flatnonzero(plain.max(1) < DEBLUR_BELOW)
    assert set(changed.tolist()) <= set(unsure[np.argsort(plain[unsure].max(1))][:2].tolist())
    assert looked.sum(1) == pytest.approx(np.ones(len(looked)), abs=1e-4)


def test_the_option_asks_for_the_deblurred_look_and_it_is_not_served_without() -> None:
    p = argparse.ArgumentParser()
    add_classifier_options(p)
    assert classifier_from(p.parse_args([])).deblurred_most == 0
    assert classifier_from(p.parse_args(["--deblurred-look"])).deblurred_most == DEBLURRED_MOST
    assert classifier_from(p.parse_args(["--deblurred-look"]), crops=True).deblurred_most > 10**6
