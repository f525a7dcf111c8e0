"""Checking an uploaded photo before anything decodes it: type, size in pixels, integrity.

The byte limit is Flask's ``MAX_CONTENT_LENGTH`` (a 413 before we see the file);
here the header is read without decoding pixels, so a decompression bomb is
refused cheaply, then ``verify()`` catches truncated or forged files. A HEIC / HEIF photo
(a phone's own format, read through pillow-heif) is kept as a JPEG (``as_jpeg``): most
browsers cannot show HEIC.

>>> import io; from PIL import Image
>>> buf = io.BytesIO(); Image.new("RGB", (64, 48)).save(buf, "PNG")
>>> check_image(buf.getvalue(), max_pixels=10_000)
('PNG', 64, 48)
>>> check_image(b"GIF89a not really", max_pixels=10_000)
Traceback (most recent call last):
...
webui.uploads.BadUploadError: that file is not a photo (JPEG, PNG, WebP or HEIC)
>>> check_image(buf.getvalue(), max_pixels=1000)
Traceback (most recent call last):
...
webui.uploads.BadUploadError: that photo is 64x48 = 3,072 pixels; the limit is 1,000
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, UnidentifiedImageError

from vision.imageio import open_heif

__all__ = ["BadUploadError", "check_image", "as_jpeg", "ALLOWED_FORMATS", "BROWSER_JPEG_QUALITY"]

ALLOWED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "BMP", "HEIF"})
NOT_A_PHOTO = "that file is not a photo (JPEG, PNG, WebP or HEIC)"
# the brands an ISO media file's "ftyp" box names for a HEIF still image (ISO/IEC 23008-12)
HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"mif1", b"msf1"})
# A HEIC photo is kept as a JPEG this good (PIL's default is 75): the reader reads that copy,
# and a tile's small index must survive it.
BROWSER_JPEG_QUALITY = 92

open_heif()


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
                    raise BadUploadError(NOT_A_PHOTO)
                if w * h > max_pixels:
                    raise BadUploadError(f"that photo is {w}x{h} = {w * h:,} pixels; the limit is {max_pixels:,}")
                im.verify()
    except BadUploadError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        if data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS:  # a HEIC cut before its header's end
            raise BadUploadError("that photo is damaged or cut short (HEIC)") from None
        raise BadUploadError(NOT_A_PHOTO) from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise BadUploadError(f"that photo is damaged or cut short ({exc})") from None
    if w < 32 or h < 32:
        raise BadUploadError(f"that picture is only {w}x{h} pixels: too small to read tiles")
    return fmt, w, h


def as_jpeg(data: bytes) -> bytes:
    """A photo (checked by ``check_image``) saved again as a JPEG of ``BROWSER_JPEG_QUALITY``:
    how a HEIC photo is kept, for most browsers cannot show HEIC. libheif has already
    turned its pixels upright.

    >>> import io; from PIL import Image
    >>> buf = io.BytesIO(); Image.new("RGB", (64, 48)).save(buf, "HEIF")
    >>> check_image(buf.getvalue(), max_pixels=10_000), check_image(as_jpeg(buf.getvalue()), max_pixels=10_000)
    (('HEIF', 64, 48), ('JPEG', 64, 48))
    """
    out = io.BytesIO()
    try:
        with Image.open(io.BytesIO(data)) as im:
            im.convert("RGB").save(out, "JPEG", quality=BROWSER_JPEG_QUALITY)
    except (OSError, SyntaxError, ValueError) as exc:  # a header whole, its pixels cut short
        raise BadUploadError(f"that photo is damaged or cut short ({str(exc).strip()})") from None
    return out.getvalue()
