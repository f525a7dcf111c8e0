"""The ``mahjongero`` command: one sub-command per module in ``mahjongero.commands``.

Each module there (but those whose names start with ``_``: helpers the commands share)
defines ``register(subparsers)`` which adds its parser and sets
``func`` (called with the parsed namespace, returns an exit code). Modules import
their heavy dependencies inside ``func`` so ``mahjongero --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from mahjongero import commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjongero", description="Mahjong table assistant: camera, rules and referee."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ValueError as exc:  # bad input of any kind: say what, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader of our output left (``... | head``): stop quietly
        # Python flushes stdout again at exit, which would raise once more: point it at devnull
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a process ended by SIGPIPE


if __name__ == "__main__":
    raise SystemExit(main())
