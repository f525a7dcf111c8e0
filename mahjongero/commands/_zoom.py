"""The ``--no-zoom``, ``--no-upright`` and ``--no-balance`` options shared by ``detect``,
``eval`` and the real-photo benchmarks: how the reader's first pass is followed up, and
whether its crops are turned to daylight.

Not a sub-command (the leading underscore keeps the CLI from registering it).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.balance import FaceBalance
    from vision.upright import Upright
    from vision.zoom import Zoom

__all__ = ["add_zoom_option", "zoom_from", "upright_from", "balance_from"]


def add_zoom_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-zoom", action="store_true",
                   help="one detector pass at its input size (default: a photo whose tiles come out small at it, "
                        "a table taken whole, is detected again larger: vision.zoom)")
    p.add_argument("--no-upright", action="store_true",
                   help="read every photo as it is (default: a photo whose rows of tiles run up it is read "
                        "turned a quarter, one whose hand row reads upside down turned round: vision.upright)")
    p.add_argument("--no-balance", action="store_true",
                   help="name the crops in the photo's own colours (default: turned to daylight, the tiles' "
                        "faces the white reference: vision.balance)")


def zoom_from(args: argparse.Namespace) -> Zoom | None:
    """The zoom the option asks for: the served one, or None for one pass."""
    from vision.zoom import DEFAULT_ZOOM

    return None if args.no_zoom else DEFAULT_ZOOM


def upright_from(args: argparse.Namespace) -> Upright | None:
    """The upright stage the option asks for: the served one, or None to read photos as they are."""
    from vision.upright import DEFAULT_UPRIGHT

    return None if args.no_upright else DEFAULT_UPRIGHT


def balance_from(args: argparse.Namespace) -> FaceBalance | None:
    """The colour balance the option asks for: the served one, or None for the photo's own colours."""
    from vision.balance import DEFAULT_BALANCE

    return None if args.no_balance else DEFAULT_BALANCE
