"""``mahjongero run`` (what ``make run`` starts): the table page on this laptop.

With a camera attached it watches the table; with none it plays the built-in demo,
so a newcomer sees everything work in the first minute.
"""

from __future__ import annotations

import argparse
import glob
import socket
from typing import Any

__all__ = ["register", "camera_attached", "free_port"]


def camera_attached() -> str | None:
    """The first video device of this machine (Linux ``/dev/video*``), or None."""
    devices = sorted(glob.glob("/dev/video[0-9]*"))
    return devices[0].removeprefix("/dev/video") if devices else None


def free_port(start: int, tries: int = 20) -> int:
    """``start`` or the next port free on 127.0.0.1 (another program may hold 8000)."""
    for port in range(start, start + tries):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise ValueError(f"no free port between {start} and {start + tries - 1}")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("run", help="start the table page on this laptop (a demo when no camera)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--variant", default="filipino")
    p.add_argument("--demo", action="store_true", help="play the built-in demo even if a camera is attached")
    p.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from mahjongero.commands.serve import serve

    camera = None if args.demo else camera_attached()
    return serve(camera=camera, variant=args.variant, host="127.0.0.1", port=free_port(args.port),
                 demo=camera is None)
