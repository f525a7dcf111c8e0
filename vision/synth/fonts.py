"""Font discovery for tile faces: brush-like kai faces and plain sans/serif CJK faces.

Fonts come from Debian packages (``fonts-arphic-ukai``, ``fonts-arphic-uming``,
``fonts-noto-cjk``) or pip (``cvttf-notosanscjk-regular``). When none is present the
renderer still works with Pillow's default font (Latin only) and :func:`has_cjk` is False,
so tests that need CJK glyphs can skip.

>>> isinstance(available_families(), list)
True
"""

from __future__ import annotations

import functools
import glob
import os
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

__all__ = ["FontSpec", "available_families", "get_font", "has_cjk", "glyph_ok", "latin_font"]


@dataclass(frozen=True)
class FontSpec:
    """One font face: a file, the face index inside a collection, and a family tag."""

    path: str
    index: int
    family: str  # "kai", "ming", "sans", "serif"
    bold: bool = False


_CANDIDATES: list[tuple[str, int, str, bool]] = [
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 2, "kai", False),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 2, "ming", False),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 3, "serif", True),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 3, "serif", False),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 3, "sans", True),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 3, "sans", False),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Black.ttc", 3, "sans", True),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Black.ttc", 3, "serif", True),
]

_LATIN = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
]


def _pip_fonts() -> list[tuple[str, int, str, bool]]:
    """Noto Sans CJK shipped by the ``cvttf-notosanscjk-regular`` wheel, if installed."""
    try:
        import cvttf_notosanscjk_regular as mod
    except ImportError:
        return []
    base = os.path.dirname(mod.__file__ or "")
    files = sorted(glob.glob(os.path.join(base, "**", "*.[ot]t[fc]"), recursive=True))
    return [(f, 0, "sans", False) for f in files]


@functools.cache
def available_families() -> list[FontSpec]:
    """Every usable CJK face on this machine (can be empty)."""
    out: list[FontSpec] = []
    for path, index, family, bold in _CANDIDATES + _pip_fonts():
        if not os.path.exists(path):
            continue
        try:
            ImageFont.truetype(path, 20, index=index)
        except OSError:
            try:
                ImageFont.truetype(path, 20, index=0)
                index = 0
            except OSError:
                continue
        out.append(FontSpec(path, index, family, bold))
    return out


def has_cjk() -> bool:
    """True when at least one CJK face is installed."""
    return bool(available_families())


@functools.cache
def get_font(spec: FontSpec | None, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A Pillow font of ``size`` px for ``spec`` (Pillow's default when ``spec`` is None)."""
    if spec is None:
        return latin_font(size)
    return ImageFont.truetype(spec.path, size, index=spec.index)


@functools.cache
def latin_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A bold Latin face for corner indices and the American joker."""
    for path in _LATIN:
        if os.path.exists(path):
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def _render(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, ch: str) -> np.ndarray:
    im = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(im).text((4, 4), ch, font=font, fill=255)
    return np.asarray(im)


@functools.cache
def glyph_ok(spec: FontSpec | None, ch: str) -> bool:
    """Whether ``spec`` draws ``ch`` as a real glyph (not blank and not the .notdef box)."""
    font = get_font(spec, 40)
    got = _render(font, ch)
    if got.max() == 0:
        return False
    tofu = _render(font, "\ue000")
    tofu2 = _render(font, "\U000f0000")
    return not (np.array_equal(got, tofu) or np.array_equal(got, tofu2))
