"""Real training crops: cut as before without blur, blurred where asked, never from a validation photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.training import real_crops
from vision.training.real_crops import LeakError, write_real

PHOTO = "hand_7_jpg.rf.abc.jpg"


@pytest.fixture
def real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A one-photo real folder (a sharp checkerboard tile) and its labels CSV."""
    (tmp_path / "real" / "images").mkdir(parents=True)
    img = np.full((200, 200, 3), 90, np.uint8)
    img[60:140, 70:130] = (np.indices((80, 60)).sum(0) // 4 % 2 * 255)[..., None]
    cv2.imwrite(str(tmp_path / "real" / "images" / PHOTO), img)
    csv = tmp_path / "tiles.csv"
    csv.write_text(f"image,x1,y1,x2,y2,code,in_hand\n{PHOTO},70,60,130,140,5m,1\n")
    monkeypatch.setattr(real_crops, "load_split", lambda: {"val": ["other_jpg.rf.x.jpg"]})
    return tmp_path / "real", csv


def _sharpness(path: Path) -> float:
    return float(cv2.Laplacian(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE), cv2.CV_64F).var())


def test_blurred_copies_are_the_same_cuts_blurred(real: tuple[Path, Path], tmp_path: Path) -> None:
    real_dir, csv = real
    sharp, blurred = tmp_path / "sharp", tmp_path / "blurred"
    assert write_real(csv, real_dir, sharp, copies=6, size=64, seed=5) == 1
    assert write_real(csv, real_dir, blurred, copies=6, size=64, seed=5, blur_share=1.0) == 1
    names = sorted(p.name for p in (sharp / "train" / "5m").iterdir())
    assert len(names) == 6 and names == sorted(p.name for p in (blurred / "train" / "5m").iterdir())
    for name in names:
        a, b = sharp / "train" / "5m" / name, blurred / "train" / "5m" / name
        assert _sharpness(b) < 0.8 * _sharpness(a), name
        # the same cut: the blurred crop is close to the sharp one blurred, not another region
        diff = np.abs(cv2.imread(str(a)).astype(int).mean() - cv2.imread(str(b)).astype(int).mean())
        assert diff < 8, name


def test_shaken_copies_are_the_same_cuts_smeared(real: tuple[Path, Path], tmp_path: Path) -> None:
    real_dir, csv = real
    write_real(csv, real_dir, tmp_path / "sharp", copies=6, size=64, seed=5)
    write_real(csv, real_dir, tmp_path / "shaken", copies=6, size=64, seed=5, shake_share=1.0)
    for a in (tmp_path / "sharp" / "train" / "5m").iterdir():
        b = tmp_path / "shaken" / "train" / "5m" / a.name
        assert _sharpness(b) < 0.8 * _sharpness(a), a.name
        diff = np.abs(cv2.imread(str(a)).astype(int).mean() - cv2.imread(str(b)).astype(int).mean())
        assert diff < 8, a.name


def test_no_blur_asked_cuts_exactly_as_before(real: tuple[Path, Path], tmp_path: Path) -> None:
    real_dir, csv = real
    write_real(csv, real_dir, tmp_path / "a", copies=3, size=64, seed=5)
    write_real(csv, real_dir, tmp_path / "b", copies=3, size=64, seed=5, blur_share=0.0, shake_share=0.0)
    for p in (tmp_path / "a" / "train" / "5m").iterdir():
        assert p.read_bytes() == (tmp_path / "b" / "train" / "5m" / p.name).read_bytes()


def test_a_validation_photo_is_refused_by_name(real: tuple[Path, Path], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    real_dir, csv = real
    monkeypatch.setattr(real_crops, "load_split", lambda: {"val": [PHOTO]})
    with pytest.raises(LeakError, match="hand_7_jpg"):
        write_real(csv, real_dir, tmp_path / "out", copies=1, size=64, seed=5)
