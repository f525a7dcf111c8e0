"""Chairs, remotes and phones: drawn where they would be seen, never labelled, and the rest
of each scene as it was before they existed."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import vision.synth.clutter as clutter
from vision.synth.render import Box
from vision.synth.scenes import make_scene, render_scene


def _with_chairs(seed: int = 778) -> list[int]:
    return [i for i in range(60) if make_scene(seed, i).below]


def _gadget(scene) -> list[Box]:  # noqa: ANN001
    return [o for o in scene.objects if isinstance(o, Box) and o.label is None
            and o.size in (clutter.REMOTE_SIZE, clutter.PHONE_SIZE)]


def _without_gadgets(scene) -> list:  # noqa: ANN001
    gadgets = {id(g) for g in _gadget(scene)}
    return [o for o in scene.objects if id(o) not in gadgets]


def test_clutter_leaves_every_other_draw_of_a_scene_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    with_clutter = [make_scene(778, i) for i in range(30)]
    monkeypatch.setattr(clutter, "CHAIR_SHARE", 0.0)
    monkeypatch.setattr(clutter, "GADGET_SHARE", 0.0)
    plain = [make_scene(778, i) for i in range(30)]
    assert sum(bool(s.below) for s in with_clutter) >= 3 and sum(bool(_gadget(s)) for s in with_clutter) >= 3
    for a, b in zip(with_clutter, plain, strict=True):
        assert not b.below and not _gadget(b)
        assert np.array_equal(a.cam.R, b.cam.R) and np.array_equal(a.cam.eye, b.cam.eye)
        tiles_a = _without_gadgets(a)
        assert len(tiles_a) == len(b.objects)
        assert all(np.array_equal(x.center, y.center) for x, y in zip(tiles_a, b.objects, strict=True))


@pytest.mark.parametrize("i", _with_chairs()[:3])
def test_a_chair_shows_below_the_table_edge_and_changes_no_label(i: int) -> None:
    scene = make_scene(778, i)
    bare = dataclasses.replace(scene, below=[], objects=_without_gadgets(scene))
    got, want = render_scene(scene, effects=False), render_scene(bare, effects=False)
    assert [lab["box"] for lab in got.labels] == [lab["box"] for lab in want.labels]
    assert [lab["code"] for lab in got.labels] == [lab["code"] for lab in want.labels]


def test_the_table_top_hides_a_chair_pushed_under_it() -> None:
    i = _with_chairs()[0]
    scene = make_scene(778, i)
    lo, hi = scene.floor[2][:, :2].min(0), scene.floor[2][:, :2].max(0)
    middle = np.array([*(lo + hi) / 2, 0.0])
    moved = [dataclasses.replace(b, center=b.center - np.array([*b.center[:2], 0.0]) + middle)
             for b in scene.below]
    hidden = render_scene(dataclasses.replace(scene, below=moved), effects=False).image
    bare = render_scene(dataclasses.replace(scene, below=[]), effects=False).image
    shown = render_scene(scene, effects=False).image
    assert np.array_equal(hidden, bare)
    assert (np.abs(shown.astype(int) - bare).max(axis=2) > 30).mean() > 0.005
