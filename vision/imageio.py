"""Safe image loading: a clear ``ValueError`` naming the file, and bounded memory.

The header is read with PIL first (no pixels decoded), so a 100-megapixel image or a
decompression bomb is refused before any big allocation. HEIC / HEIF, what most phones
save their photos as, is read through pillow-heif (libheif) once ``open_heif`` has run,
as it does when this module is imported.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError
from PIL.ExifTags import Base

__all__ = ["ImageLoadError", "load_image", "load_photo", "open_heif", "MAX_PIXELS", "PHOTO_SIDE"]

MAX_PIXELS = 40_000_000  # ~ a 48 MP phone photo binned; 100 MP is refused
# A photo is read with its long side at least this: a 1080p frame's, the resolution the reader
# is built and measured for (a whole table's tiles ~35 px wide). A phone's 12 MP JPEG decodes
# at half size in its DCT (PIL's draft: 15 ms against 187, 50 ms with the pixels handed over
# to numpy), and the reader then has a quarter of the pixels to crop and scale
# (benchmarks/bench_vision.py, ``phone_*``).
PHOTO_SIDE = 1920
_ORIENTATION = Base.Orientation.value  # the EXIF tag that says how the camera was held


class ImageLoadError(ValueError):
    """An image that cannot be used; the message names the file and why."""


def open_heif() -> bool:
    """Let PIL open HEIC / HEIF photos (an iPhone's, many Androids'); False where pillow-heif
    is not installed, and such a file is then "not a readable image". libheif turns the
    pixels upright as it decodes them and leaves no EXIF orientation to apply twice.

    >>> open_heif()
    True
    """
    try:
        from pillow_heif import register_heif_opener
    except ImportError:
        return False
    register_heif_opener()  # registering again is harmless: PIL keeps one opener per format
    return True


open_heif()


def _check_header(path: Path, im: Image.Image, max_pixels: int) -> None:
    w, h = im.size
    if w <= 0 or h <= 0:
        raise ImageLoadError(f"{str(path)!r}: zero-size image ({w}x{h})")
    if w * h > max_pixels:
        raise ImageLoadError(
            f"{str(path)!r}: {w}x{h} = {w * h / 1e6:.0f} megapixels, limit {max_pixels / 1e6:.0f}"
        )


def load_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Decode ``path`` to an HxWx3 uint8 BGR array (EXIF orientation applied).

    >>> load_image("/nonexistent.png")
    Traceback (most recent call last):
    ...
    vision.imageio.ImageLoadError: '/nonexistent.png': no such file
    """
    return _decode(Path(path), max_pixels, None)[0]


def load_photo(path: str | Path, side: int = PHOTO_SIDE,
               max_pixels: int = MAX_PIXELS) -> tuple[np.ndarray, tuple[float, float]]:
    """A photo to read: ``path`` decoded as ``load_image`` does, but a JPEG whose long side is
    at least twice ``side`` at 1/2, 1/4 or 1/8 of its size (the smallest that keeps ``side``);
    and (sx, sy), what a box in the decoded pixels is multiplied by to land in the photo's.
    Other formats are decoded whole.
    """
    image, (w, h) = _decode(Path(path), max_pixels, side)
    return image, (w / image.shape[1], h / image.shape[0])


def _decode(path: Path, max_pixels: int, side: int | None) -> tuple[np.ndarray, tuple[int, int]]:
    """The BGR pixels (a JPEG drafted down to keep ``side`` when given) and the upright
    image's full (width, height)."""
    if not path.is_file():
        raise ImageLoadError(f"{str(path)!r}: {'a folder, not an image file' if path.is_dir() else 'no such file'}")
    if path.stat().st_size == 0:
        raise ImageLoadError(f"{str(path)!r}: empty file (0 bytes)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # we check ourselves
            with Image.open(path) as im:
                _check_header(path, im, max_pixels)
                full = _upright_size(im)
                if side is not None and max(im.size) >= 2 * side:
                    keep = side / max(im.size)
                    im.draft("RGB", (int(np.ceil(im.size[0] * keep)), int(np.ceil(im.size[1] * keep))))
                im.load()
                upright = ImageOps.exif_transpose(im) or im
                rgb = np.asarray(_eight_bit(upright).convert("RGB"))
    except ImageLoadError:
        raise
    except Image.DecompressionBombError as exc:
        raise ImageLoadError(f"{str(path)!r}: too many megapixels ({exc})") from exc
    except (UnidentifiedImageError, ImportError) as exc:  # ImportError: ultralytics' HEIF patch
        raise ImageLoadError(f"{str(path)!r}: not a readable image ({exc})") from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageLoadError(f"{str(path)!r}: corrupt or truncated image ({exc})") from exc
    if rgb.ndim != 3 or rgb.shape[0] == 0 or rgb.shape[1] == 0:
        raise ImageLoadError(f"{str(path)!r}: zero-size image {rgb.shape!r}")
    # cvtColor, not rgb[:, :, ::-1] made contiguous: the same pixels, 4 ms sooner for 1280x960
    bgr: np.ndarray = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    return bgr, full


def _eight_bit(im: Image.Image) -> Image.Image:
    """``im`` with 8-bit grey levels where its mode holds more: PIL's ``convert("RGB")``
    clips a 16-bit grey PNG's levels (0-65535) at 255, and the photo comes out white.
    Mode "I" (how older PIL opened such a PNG) is taken as 16-bit too; "F" as 0-1 when it
    stays there, else as 0-255.

    >>> grey16 = Image.fromarray(np.array([[0, 32896, 65535]], np.uint16))
    >>> grey16.mode  # PIL 13 makes it [0, 255, 255] by itself
    'I;16'
    >>> np.asarray(_eight_bit(grey16).convert("RGB"))[0, :, 0].tolist()
    [0, 128, 255]
    >>> floats = Image.fromarray(np.array([[0.0, 0.5, 1.0]], np.float32))  # a float TIFF, 0 to 1
    >>> floats.mode, np.asarray(_eight_bit(floats))[0].tolist()
    ('F', [0, 128, 255])
    >>> np.asarray(_eight_bit(Image.fromarray(np.array([[0.0, 2000.0, 4000.0]], np.float32))))[0].tolist()
    [0, 128, 255]
    """
    if not (im.mode.startswith("I") or im.mode == "F"):
        return im
    levels = np.asarray(im, dtype=np.float64)
    if im.mode.startswith("I"):
        levels = levels / 257
    elif levels.size and levels.max() <= 1:
        levels = levels * 255
    elif levels.size and levels.max() > 255:  # a float picture in its own units: its brightest is white
        levels = levels * (255 / levels.max())
    return Image.fromarray(np.clip(np.rint(levels), 0, 255).astype(np.uint8))


def _upright_size(im: Image.Image) -> tuple[int, int]:
    """(width, height) once the EXIF orientation is applied: turned a quarter for 5-8."""
    w, h = im.size
    return (h, w) if im.getexif().get(_ORIENTATION, 1) in (5, 6, 7, 8) else (w, h)
