"""Writers: YOLO layout, sidecars, data.yaml, determinism to the byte, resuming, crops, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from engine.tiles import Tile
from mahjongero.cli import main
from vision.synth.dataset import write_crops, write_scenes
from vision.synth.scenes import make_scene


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
            and p.name != "data.yaml"}


def test_scenes_layout_determinism_and_resume(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert write_scenes(a, 3, seed=4, size=(320, 240), val_frac=0.5, quiet=True) == 3
    assert write_scenes(b, 3, seed=4, size=(320, 240), val_frac=0.5, quiet=True) == 3
    assert _tree(a) == _tree(b)
    assert (a / "images/val/000000.jpg").exists() and (a / "images/train/000001.jpg").exists()
    y = (a / "data.yaml").read_text()
    assert f"path: {a.resolve()}" in y and "0: tile" in y and "1: back" in y
    meta = json.loads((a / "meta/train/000001.json").read_text())
    lines = (a / "labels/train/000001.txt").read_text().split()
    assert len(lines) == 5 * len(meta["tiles"])
    for t in meta["tiles"]:
        assert set(t) >= {"code", "face", "region", "seat", "group", "box", "cls"}
    img = cv2.imread(str(a / "images/train/000001.jpg"))
    assert img.shape == (240, 320, 3)
    # resume: only the missing scene is rendered again, to the same bytes
    before = (a / "images/train/000001.jpg").read_bytes()
    (a / "images/train/000001.jpg").unlink()
    assert write_scenes(a, 3, seed=4, size=(320, 240), val_frac=0.5, quiet=True) == 1
    assert (a / "images/train/000001.jpg").read_bytes() == before


def test_crops_cover_every_class_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "crops"
    counts = write_crops(out, 1, seed=2, val_per_class=1, size=(640, 480), quiet=True)
    codes = [str(Tile(t)) for t in range(64)]
    assert sorted(counts) == sorted(codes) and all(v == 2 for v in counts.values())
    for code in codes:
        for split in ("train", "val"):
            files = list((out / split / code).glob("*.png"))
            assert len(files) == 1
            img = cv2.imread(str(files[0]))
            assert 64 <= max(img.shape[:2]) <= 96
    # already complete: a second run renders nothing
    state = json.loads((out / ".progress.json").read_text())
    write_crops(out, 1, seed=2, val_per_class=1, size=(640, 480), quiet=True)
    assert json.loads((out / ".progress.json").read_text())["next"] == state["next"]


def test_crops_of_chosen_codes_only(tmp_path: Path) -> None:
    out = tmp_path / "crops"
    counts = write_crops(out, 2, seed=3, val_per_class=1, size=(640, 480), quiet=True, codes=["1f", "8f"])
    assert counts == {"1f": 3, "8f": 3}
    made = {p.parent.name for p in out.rglob("*.png")}
    assert made == {"1f", "8f"}
    done = json.loads((out / ".progress.json").read_text())["next"]
    write_crops(out, 2, seed=3, val_per_class=1, size=(640, 480), quiet=True, codes=["8f", "1f"])
    assert json.loads((out / ".progress.json").read_text())["next"] == done  # resumed: complete
    with pytest.raises(ValueError, match="face-up"):
        write_crops(tmp_path / "backs", 1, codes=["0x", str(Tile.BACK)], quiet=True)


def test_crops_cut_around_the_face_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``face_share=1`` every face-up tile is cut around its face (the face's box
    drawn from the tile's projected face quad); with 0 none is, and the crops stay those
    of earlier runs of the seed."""
    import vision.synth.dataset as dataset

    asked: list[list[float]] = []
    face_box = dataset.face_box

    def spy(box: list[float], quad: list[list[float]]) -> list[float]:
        asked.append(list(box))
        return face_box(box, quad)

    monkeypatch.setattr(dataset, "face_box", spy)
    before = write_crops(tmp_path / "whole", 3, seed=5, val_per_class=1, size=(640, 480), quiet=True, codes=["5m"])
    assert not asked
    again = write_crops(tmp_path / "face", 3, seed=5, val_per_class=1, size=(640, 480), quiet=True, codes=["5m"],
                        face_share=1.0)
    assert before == again == {"5m": 4} and len(asked) >= 4
    with pytest.raises(ValueError, match="1.5"):
        write_crops(tmp_path / "bad", 1, face_share=1.5, quiet=True)


def test_cli_sheet_and_scenes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", "sheet", "--out", str(tmp_path / "s.png"), "--styles", "0,1"]) == 0
    sheet = cv2.imread(str(tmp_path / "s.png"))
    assert sheet is not None and sheet.shape[0] > 200
    assert main(["synth", "scenes", "--kind", "hand", "--n", "1", "--seed", "1",
                 "--out", str(tmp_path / "sc"), "--size", "320x240", "--quiet"]) == 0
    assert (tmp_path / "sc/images/val/000000.jpg").exists()
    assert "1 scenes rendered" in capsys.readouterr().out


def test_crops_from_more_set_designs_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``styles`` bounds the set designs each scene is drawn in (the default, the scenes'
    usual 48, is checked on ``make_scene`` below)."""
    import vision.synth.dataset as dataset

    drawn: list[int] = []
    make_scene = dataset.make_scene

    def spy(*a, **k):  # type: ignore[no-untyped-def]
        scene = make_scene(*a, **k)
        drawn.append(scene.style.index)
        return scene

    monkeypatch.setattr(dataset, "make_scene", spy)
    write_crops(tmp_path / "one", 1, seed=5, val_per_class=0, size=(640, 480), quiet=True, codes=["5m"], styles=1)
    assert drawn and set(drawn) == {0}
    with pytest.raises(ValueError, match="0"):
        write_crops(tmp_path / "bad", 1, styles=0, quiet=True)


def test_scene_styles_widen_the_set_designs() -> None:
    from vision.synth.faces import NUM_STYLES

    usual = [make_scene(9, i).style.index for i in range(40)]
    assert usual == [make_scene(9, i, styles=NUM_STYLES).style.index for i in range(40)]
    assert max(usual) < NUM_STYLES
    wide = [make_scene(9, i, styles=1000).style.index for i in range(40)]
    assert max(wide) >= NUM_STYLES
