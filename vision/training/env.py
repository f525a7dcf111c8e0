"""Prepare ultralytics for this machine: offline, project config dir, local fonts, 2 threads.

Call :func:`setup` at the top of every training entry point, before importing
ultralytics. It sets the environment variables the Makefile also exports, copies a
local DejaVuSans into ``$YOLO_CONFIG_DIR/Ultralytics/`` as ``Arial.ttf`` and
``Arial.Unicode.ttf`` (so no font request is ever sent), and installs the
torchvision NMS shim.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from vision.training import tv_shim

__all__ = ["REPO_ROOT", "setup", "set_threads", "find_font"]

REPO_ROOT = Path(__file__).resolve().parents[2]
_FONT_NAMES = ("Arial.ttf", "Arial.Unicode.ttf")
_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
)


class FontNotFoundError(ValueError):
    """No local TTF could stand in for ultralytics' Arial."""


def find_font() -> Path:
    """A local DejaVuSans: Debian's, else matplotlib's copy."""
    for cand in _FONT_CANDIDATES:
        if Path(cand).is_file():
            return Path(cand)
    try:
        import matplotlib

        mpl = Path(matplotlib.__file__).parent / "mpl-data/fonts/ttf/DejaVuSans.ttf"
        if mpl.is_file():
            return mpl
    except ImportError:
        pass
    raise FontNotFoundError(f"no DejaVuSans.ttf in {_FONT_CANDIDATES!r} nor matplotlib")


def _install_fonts(config_dir: Path) -> None:
    target = config_dir / "Ultralytics"
    target.mkdir(parents=True, exist_ok=True)
    missing = [n for n in _FONT_NAMES if not (target / n).is_file()]
    if missing:
        src = find_font()
        for name in missing:
            shutil.copyfile(src, target / name)


def setup(threads: int = 2) -> Path:
    """Environment for an offline ultralytics run; returns the config dir."""
    config_dir = Path(os.environ.setdefault("YOLO_CONFIG_DIR", str(REPO_ROOT / ".yolo")))
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    os.environ.setdefault("ULTRALYTICS_SKIP_REQUIREMENTS_CHECKS", "1")
    _install_fonts(config_dir)
    tv_shim.install()
    set_threads(threads)
    _unpatch_pil()
    return config_dir


def _unpatch_pil() -> None:
    """ultralytics replaces ``PIL.Image.open`` with a version that pip-installs a HEIF plugin
    on the first unidentified file; put the original back (we never read HEIF)."""
    try:
        from PIL import Image
        from ultralytics.utils import patches
    except ImportError:
        return
    original = getattr(patches, "_image_open", None)
    if original is not None:
        Image.open = original


def set_threads(threads: int) -> None:
    """Pin torch (and ultralytics' own idea of it) to ``threads`` CPU threads."""
    import torch

    try:  # importing ultralytics sets torch to one thread: import first, then set
        from ultralytics.utils import torch_utils

        torch_utils.NUM_THREADS = threads  # type: ignore[attr-defined]
    except ImportError:
        pass
    torch.set_num_threads(threads)
