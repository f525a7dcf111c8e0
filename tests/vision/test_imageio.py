"""Bad input never crashes and never allocates a huge buffer: a clear error naming the file."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.imageio import PHOTO_SIDE, ImageLoadError, load_image, load_photo


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


def _pixels(load, path: Path) -> np.ndarray:
    """The pixels ``load_image`` or ``load_photo`` gives (the latter with its scale)."""
    out = load(path)
    return out[0] if isinstance(out, tuple) else out


def test_reads_a_good_image_as_bgr(tmp_path: Path) -> None:
    p = tmp_path / "red.png"
    Image.new("RGB", (6, 4), (255, 0, 0)).save(p)
    im = load_image(p)
    assert im.shape == (4, 6, 3) and im.dtype == np.uint8
    assert im[0, 0].tolist() == [0, 0, 255]


@pytest.mark.parametrize("load", [load_image, load_photo], ids=["image", "photo"])
def test_a_16_bit_grey_png_reads_as_its_8_bit_copy(tmp_path: Path, load) -> None:
    # PIL alone clips 16-bit levels at 255: such a photo came out white and read no tile
    levels = np.linspace(0, 255, 64 * 48).reshape(48, 64).astype(np.uint8)
    Image.fromarray(levels).save(tmp_path / "grey8.png")
    Image.fromarray(levels.astype(np.uint16) * 257).save(tmp_path / "grey16.png")
    eight, sixteen = load_image(tmp_path / "grey8.png"), _pixels(load, tmp_path / "grey16.png")
    assert sixteen.shape == (48, 64, 3) and np.abs(sixteen.astype(int) - eight).max() <= 1


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
@pytest.mark.parametrize("load", [load_image, load_photo], ids=["image", "photo"])
def test_bad_input_is_a_value_error_naming_the_file(tmp_path: Path, make, words: str, load) -> None:
    p = tmp_path / "bad.jpg"
    make(p)
    with pytest.raises(ImageLoadError) as info:
        load(p)
    assert str(p) in str(info.value)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_folder_is_not_an_image_file(tmp_path: Path) -> None:
    for load in (load_image, load_photo):
        with pytest.raises(ImageLoadError, match=f"{str(tmp_path)!r}: a folder, not an image file"):
            load(tmp_path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImageLoadError, match="no such file"):
        load_image(tmp_path / "nope.png")


def _jpeg_bytes() -> bytes:
    import io

    rng = np.random.default_rng(0)
    buf = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)).save(buf, "JPEG")
    return buf.getvalue()


def _big_jpeg(path: Path, width: int, height: int, orientation: int = 1) -> Path:
    """A smooth ``width``×``height`` JPEG (quick to encode) with a red square in its top left."""
    x = np.linspace(0, 255, width, dtype=np.float32)[None, :, None]
    y = np.linspace(0, 255, height, dtype=np.float32)[:, None, None]
    rgb = np.broadcast_to((x + y) / 2, (height, width, 3)).astype(np.uint8).copy()
    rgb[: height // 8, : width // 8] = (255, 0, 0)
    image = Image.fromarray(rgb)
    exif = image.getexif()
    exif[0x0112] = orientation
    image.save(path, "JPEG", quality=90, exif=exif)
    return path


def test_a_big_jpeg_photo_is_decoded_at_a_fraction_that_keeps_the_photo_side(tmp_path: Path) -> None:
    image, scale = load_photo(_big_jpeg(tmp_path / "phone.jpg", 4032, 3024))
    assert image.shape == (1512, 2016, 3) and scale == (2.0, 2.0)  # 1/2: 1/4 would fall under 1920
    assert image[10, 10].tolist() == pytest.approx([0, 0, 255], abs=8)  # BGR, the red corner
    full = load_image(tmp_path / "phone.jpg")
    assert full.shape == (3024, 4032, 3)
    image, scale = load_photo(_big_jpeg(tmp_path / "hd.jpg", 1920, 1080))
    assert image.shape == (1080, 1920, 3) and scale == (1.0, 1.0)  # a camera frame stays whole
    png = tmp_path / "big.png"
    Image.fromarray(full[:, :, ::-1]).save(png)
    assert load_photo(png)[0].shape == (3024, 4032, 3)  # only a JPEG decodes at a fraction
    assert PHOTO_SIDE == 1920


def test_a_photo_taken_holding_the_phone_upright_is_turned_and_scaled_as_shown(tmp_path: Path) -> None:
    image, (sx, sy) = load_photo(_big_jpeg(tmp_path / "portrait.jpg", 4032, 3024, orientation=6))
    assert image.shape == (2016, 1512, 3)  # EXIF 6: turned a quarter, as a viewer shows it
    assert (sx, sy) == (2.0, 2.0)
    assert load_image(tmp_path / "portrait.jpg").shape == (4032, 3024, 3)


def test_a_truncated_big_jpeg_is_refused(tmp_path: Path) -> None:
    p = _big_jpeg(tmp_path / "cut.jpg", 4032, 3024)
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    with pytest.raises(ImageLoadError, match="truncated"):
        load_photo(p)


def _heic(path: Path, width: int, height: int) -> Path:
    """A HEIC photo, as an iPhone saves one, with a red square in its top left."""
    rgb = np.full((height, width, 3), 128, np.uint8)
    rgb[: height // 4, : width // 4] = (255, 0, 0)
    Image.fromarray(rgb).save(path, "HEIF", quality=90)
    return path


@pytest.mark.parametrize("load", [load_image, load_photo], ids=["image", "photo"])
def test_a_phones_heic_photo_is_read(tmp_path: Path, load) -> None:
    image = _pixels(load, _heic(tmp_path / "IMG_0001.HEIC", 640, 480))
    assert image.shape == (480, 640, 3)
    assert image[20, 20].tolist() == pytest.approx([0, 0, 255], abs=24)  # BGR: the red corner
    assert image[400, 600].tolist() == pytest.approx([128, 128, 128], abs=12)


def test_a_truncated_heic_photo_is_refused_naming_it(tmp_path: Path) -> None:
    p = _heic(tmp_path / "cut.heic", 640, 480)
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    with pytest.raises(ImageLoadError) as info:
        load_photo(p)
    assert str(p) in str(info.value)
