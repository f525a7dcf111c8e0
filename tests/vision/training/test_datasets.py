"""Training-set assembly: rendered scenes boxed by their faces, as the real photos are."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.synth.dataset import write_scenes
from vision.training.datasets import face_box, face_box_scenes


def _boxes(label: Path, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    rows = np.loadtxt(label, ndmin=2)
    cls, (x, y, bw, bh) = rows[:, 0].astype(int), rows[:, 1:].T * [[w], [h], [w], [h]]
    return cls, np.stack([x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2], 1)


def test_face_up_tiles_are_boxed_by_their_face_inside_their_whole_box(tmp_path: Path) -> None:
    scenes, twin = tmp_path / "scenes", tmp_path / "faces"
    write_scenes(scenes, 3, seed=4, kind="hand", size=(320, 240), val_frac=0.5, quiet=True)
    assert face_box_scenes(scenes, twin) == 3
    shrunk = 0
    for meta in sorted(scenes.glob("meta/*/*.json")):
        side = json.loads(meta.read_text())
        label = twin / "labels" / meta.parent.name / f"{meta.stem}.txt"
        assert (twin / "images" / meta.parent.name / side["image"]).resolve().is_file()
        cls, boxes = _boxes(label, 320, 240)
        assert list(cls) == [t["cls"] for t in side["tiles"]]
        twin_side = json.loads((twin / "meta" / meta.parent.name / meta.name).read_text())
        assert np.allclose([t["box"] for t in twin_side["tiles"]], boxes, atol=0.01)
        assert [t["tile_box"] for t in twin_side["tiles"]] == [t["box"] for t in side["tiles"]]
        for t, box in zip(side["tiles"], boxes, strict=True):
            whole = np.asarray(t["box"], float)
            assert (box[:2] >= whole[:2] - 0.01).all() and (box[2:] <= whole[2:] + 0.01).all()
            if t["cls"] == 1:
                assert np.allclose(box, whole, atol=0.01)
            shrunk += int(np.prod(box[2:] - box[:2]) < 0.9 * np.prod(whole[2:] - whole[:2]))
    assert shrunk > 0  # a hand photo shows the tiles' sides: their faces are smaller


def test_a_face_hidden_behind_the_box_keeps_the_whole_box() -> None:
    assert face_box([0, 0, 20, 30], [[25, 0], [40, 0], [40, 30], [25, 30]]) == [0, 0, 20, 30]
