"""The streak judged and undone (vision.deblur) and the classifier's deblurred look that reads with it."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjongero.commands._classifier import add_classifier_options, classifier_from
from vision.classifier import DEBLUR_BELOW, DEBLURRED_MOST, TileClassifier, crop_boxes
from vision.deblur import (
    STREAK_LENGTH,
    Streak,
    line_blur,
    line_kernel,
    unstreaked,
    unstreaked_shrunk,
)
from vision.reader import CLASSIFIER_PATH, TileReader, shipped_classifier
from vision.upright import rotated


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


def test_a_crop_is_shrunk_before_it_is_undone_and_a_large_tile_is_left_alone() -> None:
    assert unstreaked_shrunk(np.zeros((40, 30, 3), np.uint8), Streak(0.0)).shape == (40, 30, 3)
    assert unstreaked_shrunk(np.zeros((1000, 750, 3), np.uint8), Streak(0.0)) is None


def test_a_streak_turned_with_the_picture_is_undone_where_it_runs_there() -> None:
    # smeared sideways, then the photo levelled 30 degrees (vision.upright.rotated turns
    # anticlockwise, as Streak.turned counts): the smear now runs at 30 degrees
    sharp = np.full((96, 96, 3), 235, np.uint8)
    sharp[40:56, 40:56] = 30  # a square: a streak at any angle shows on it
    level = rotated(line_blur(sharp, 5, 0), 30)[0]
    truth = rotated(sharp, 30)[0]
    err = lambda img: float(np.abs(img.astype(float) - truth)[20:-20, 20:-20].mean())  # noqa: E731
    along = Streak(0.0).turned(30.0)
    assert along.degrees == 30.0
    best = min(range(0, 180, 15), key=lambda degrees: err(unstreaked(level, 5, degrees)))
    assert best == along.degrees


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    """A rendered phone photo of one hand, sharp (the one benchmarks/bench_vision.py times)."""
    from vision.synth.scenes import make_scene, render_scene

    return np.ascontiguousarray(render_scene(make_scene(1000, 0, kind="hand", size=(1280, 960))).image[:, :, ::-1])


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader()


@pytest.mark.parametrize("degrees", [0.0, 90.0])
def test_a_photo_shaken_across_or_up_is_judged_smeared_along_it(photo: np.ndarray, reader: TileReader,
                                                                degrees: float) -> None:
    found = reader.detector(photo)
    assert reader.streak(photo, found) is None
    assert reader.streak(line_blur(photo, STREAK_LENGTH, degrees), found) == Streak(degrees)


def test_a_photo_shaken_at_any_angle_is_never_judged_smeared_along_a_line_far_from_it(
        photo: np.ndarray, reader: TileReader) -> None:
    found = reader.detector(photo)
    judged = []
    for length in (3, 5, 7):
        for degrees in range(0, 180, 15):
            streak = reader.streak(line_blur(photo, length, degrees), found)
            if streak is not None:
                off = abs(streak.degrees - degrees)
                assert min(off, 180 - off) <= 30, (length, degrees, streak)
                judged.append(streak)
    assert len(judged) >= 12  # and most are judged smeared at all


def test_a_photo_out_of_focus_is_not_judged_smeared_along_a_line(photo: np.ndarray, reader: TileReader) -> None:
    assert reader.streak(cv2.GaussianBlur(photo, (0, 0), 1.5), reader.detector(photo)) is None


def test_a_sharp_photo_reads_as_without_the_look(photo: np.ndarray, reader: TileReader) -> None:
    looking = TileReader(reader.detector, shipped_classifier(deblurred_most=DEBLURRED_MOST))
    plain, looked = reader(photo), looking(photo)
    assert np.array_equal(plain.code, looked.code)
    assert np.array_equal(plain.code_confidence, looked.code_confidence)


@pytest.fixture(scope="module")
def shaken_crops(photo: np.ndarray, reader: TileReader) -> list[np.ndarray]:
    return crop_boxes(line_blur(photo, 9, 30), reader.detector(photo).xyxy)


def test_the_deblurred_look_changes_only_the_least_sure_crops_it_is_given_a_streak_for(
        shaken_crops: list[np.ndarray]) -> None:
    plain = TileClassifier(CLASSIFIER_PATH).probabilities(shaken_crops)
    look = TileClassifier(CLASSIFIER_PATH, deblurred_most=2)
    n = len(shaken_crops)
    assert np.array_equal(look.probabilities(shaken_crops, [None] * n), plain)
    looked = look.probabilities(shaken_crops, [Streak(30.0, 9.0)] * n)
    changed = np.flatnonzero(np.abs(looked - plain).max(1) > 1e-6)
    assert 0 < len(changed) <= 2
    assert (plain[changed].max(1) < DEBLUR_BELOW).all()
    unsure = np.flatnonzero(plain.max(1) < DEBLUR_BELOW)
    assert set(changed.tolist()) <= set(unsure[np.argsort(plain[unsure].max(1))][:2].tolist())
    assert looked.sum(1) == pytest.approx(np.ones(len(looked)), abs=1e-4)


def test_crops_without_a_picture_are_each_judged_on_their_own(shaken_crops: list[np.ndarray],
                                                               photo: np.ndarray, reader: TileReader) -> None:
    look = TileClassifier(CLASSIFIER_PATH, deblurred_most=len(shaken_crops))
    plain = TileClassifier(CLASSIFIER_PATH).probabilities(shaken_crops)
    assert not np.array_equal(look.probabilities(shaken_crops), plain)
    sharp_crops = crop_boxes(photo, reader.detector(photo).xyxy)
    assert np.array_equal(look.probabilities(sharp_crops), TileClassifier(CLASSIFIER_PATH).probabilities(sharp_crops))


def test_the_option_asks_for_the_deblurred_look_and_it_is_not_served_without() -> None:
    p = argparse.ArgumentParser()
    add_classifier_options(p)
    assert classifier_from(p.parse_args([])).deblurred_most == 0
    assert classifier_from(p.parse_args(["--deblurred-look"])).deblurred_most == DEBLURRED_MOST
    assert classifier_from(p.parse_args(["--deblurred-look"]), crops=True).deblurred_most > 10**6
