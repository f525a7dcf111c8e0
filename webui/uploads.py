"""Checking an uploaded photo before anything decodes it: type, size in pixels, integrity.

The byte limit is Flask's ``MAX_CONTENT_LENGTH`` (a 413 before we see the file);
here the header is read without decoding pixels, so a decompression bomb is
refused cheaply, then ``verify()`` catches truncated or forged files.

>>> import io; from PIL import Image
>>> buf = io.BytesIO(); Image.new("RGB", (64, 48)).save(buf, "PNG")
>>> check_image(buf.getvalue(), max_pixels=10_000)
('PNG', 64, 48)
>>> check_image(b"GIF89a not really", max_pixels=10_000)
Traceback (most recent call last):
...
webui.uploads.BadUploadError: that file is not a photo (JPEG, PNG, WebP or HEIC-converted JPEG)
>>> check_image(buf.getvalue(), max_pixels=1000)
Traceback (most recent call last):
...
webui.uploads.BadUploadError: that photo is 64x48 = 3,072 pixels; the limit is 1,000
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, UnidentifiedImageError

__all__ = ["BadUploadError", "check_image", "ALLOWED_FORMATS"]

ALLOWED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "BMP"})


class BadUploadError(ValueError):
    """An upload that is not a usable photo; the message says why."""


def check_image(data: bytes, *, max_pixels: int) -> tuple[str, int, int]:
    """Return (format, width, height) of a photo, or raise ``BadUploadError``."""
    if not data:
        raise BadUploadError("the file is empty: choose a photo of the hand")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                fmt, (w, h) = str(im.format), im.size
                if fmt not in ALLOWED_FORMATS:
                    raise BadUploadError("that file is not a photo (JPEG, PNG, WebP or HEIC-converted JPEG)")
                if w * h > max_pixels:
                    raise BadUploadError(f"that photo is {w}x{h} = {w * h:,} pixels; the limit is {max_pixels:,}")
                im.verify()
    except BadUploadError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise BadUploadError("that file is not a photo (JPEG, PNG, WebP or HEIC-converted JPEG)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise BadUploadError(f"that photo is damaged or cut short ({exc})") from None
    if w < 32 or h < 32:
        raise BadUploadError(f"that picture is only {w}x{h} pixels: too small to read tiles")
    return fmt, w, h
