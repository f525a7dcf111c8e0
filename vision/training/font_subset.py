"""Copies of the renderer's fonts cut down to the glyphs it draws, for a machine without them.

The GPU machines we borrow have no CJK fonts and no network; the full Debian files are
130 MB, the subsets about 2 MB. Each font of a collection is cut and the collection kept,
so the face indices in :mod:`vision.synth.fonts` still hold. Glyphs are those of every
character in the renderer's and the engine's sources (every tile face, index and label).

    python -m vision.training.font_subset --out .dev/fonts.tar
"""

from __future__ import annotations

import argparse
import string
import sys
import tarfile
import tempfile
from pathlib import Path

from vision.synth import fonts

_SOURCES = ("vision", "engine")


def renderer_text(root: Path) -> str:
    """Every printable character in the renderer's and the engine's Python sources.

    >>> from vision.training.env import REPO_ROOT
    >>> text = renderer_text(REPO_ROOT)
    >>> all(ch in text for ch in "萬發中東梅春貓0123456789NESW")
    True
    """
    chars = set(string.printable)
    for package in _SOURCES:
        for path in (root / package).rglob("*.py"):
            chars |= set(path.read_text(encoding="utf-8"))
    return "".join(sorted(ch for ch in chars if ch.isprintable()))


def subset_file(src: Path, dest: Path, text: str) -> None:
    """Write ``src`` (a .ttf/.otf or a .ttc collection) cut to the glyphs of ``text``."""
    from fontTools import subset
    from fontTools.ttLib import TTCollection, TTFont

    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    dest.parent.mkdir(parents=True, exist_ok=True)
    whole = TTCollection(str(src)) if src.suffix.lower() == ".ttc" else TTFont(str(src))
    for font in whole.fonts if isinstance(whole, TTCollection) else [whole]:
        cutter = subset.Subsetter(options)
        cutter.populate(text=text)
        cutter.subset(font)
    whole.save(str(dest))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="tar of the subsets at their system paths")
    args = ap.parse_args(argv)
    from vision.training.env import REPO_ROOT

    text = renderer_text(REPO_ROOT)
    paths = [Path(p) for p, *_ in fonts._CANDIDATES] + [Path(p) for p in fonts._LATIN]
    with tempfile.TemporaryDirectory() as tmp, tarfile.open(args.out, "w") as tar:
        for src in (p for p in paths if p.is_file()):
            dest = Path(tmp) / src.relative_to("/")
            subset_file(src, dest, text)
            tar.add(dest, arcname=str(src.relative_to("/")))
            print(f"{src}: {src.stat().st_size >> 10} KiB -> {dest.stat().st_size >> 10} KiB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
