"""The ``--no-zoom`` option shared by ``detect``, ``eval`` and the real-photo benchmark.

Not a sub-command (the leading underscore keeps the CLI from registering it).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.zoom import Zoom

__all__ = ["add_zoom_option", "zoom_from"]


def add_zoom_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-zoom", action="store_true",
                   help="one detector pass at its input size (default: a photo whose tiles come out small at it, "
                        "a table taken whole, is detected again larger: vision.zoom)")


def zoom_from(args: argparse.Namespace) -> Zoom | None:
    """The zoom the option asks for: the served one, or None for one pass."""
    from vision.zoom import DEFAULT_ZOOM

    return None if args.no_zoom else DEFAULT_ZOOM
