"""Bad input never crashes and never allocates a huge buffer: a clear error naming the file."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.imageio import ImageLoadError, load_image


def _png_with_size(path: Path, width: int, height: int) -> Path:
    """A tiny PNG whose header claims ``width``×``height`` (no real pixel data needed)."""
    Image.new("RGB", (4, 4), (200, 10, 10)).save(path, format="PNG")
    data = bytearray(path.read_bytes())
    ihdr = 8 + 8  # signature, then length + type of the IHDR chunk
    data[ihdr : ihdr + 8] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[12 : ihdr + 13]))
    data[ihdr + 13 : ihdr + 17] = struct.pack(">I", crc)
    path.write_bytes(bytes(data))
    return path


def test_reads_a_good_image_as_bgr(tmp_path: Path) -> None:
    p = tmp_path / "red.png"
    Image.new("RGB", (6, 4), (255, 0, 0)).save(p)
    im = load_image(p)
    assert im.shape == (4, 6, 3) and im.dtype == np.uint8
    assert im[0, 0].tolist() == [0, 0, 255]


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.write_bytes(b""), "empty"),
        (lambda p: p.write_text("not an image at all"), "not a readable image"),
        (lambda p: p.write_bytes(_jpeg_bytes()[:400]), "truncated"),
        (lambda p: _png_with_size(p, 10_000, 10_000), "megapixels"),
        (lambda p: _png_with_size(p, 0, 10), "image"),
    ],
    ids=["zero-bytes", "text", "truncated-jpeg", "100-megapixel", "zero-size"],
)
def test_bad_input_is_a_value_error_naming_the_file(tmp_path: Path, make, words: str) -> None:
    p = tmp_path / "bad.jpg"
    make(p)
    with pytest.raises(ImageLoadError) as info:
        load_image(p)
    assert str(p) in str(info.value)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImageLoadError, match="no such file"):
        load_image(tmp_path / "nope.png")


def _jpeg_bytes() -> bytes:
    import io

    rng = np.random.default_rng(0)
    buf = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)).save(buf, "JPEG")
    return buf.getvalue()
