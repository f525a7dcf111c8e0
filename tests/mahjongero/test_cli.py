"""The ``mahjongero`` command registers one sub-command per module, helpers left out."""

from __future__ import annotations

import argparse
import pkgutil

from mahjongero import commands
from mahjongero.cli import build_parser


def test_every_command_module_is_a_sub_command_and_no_helper_is() -> None:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    modules = {m.name for m in pkgutil.iter_modules(commands.__path__)}
    helpers = {m for m in modules if m.startswith("_")}
    assert helpers >= {"_photo", "_classifier"}
    assert set(sub.choices) == modules - helpers


def test_output_cut_short_by_a_closed_pipe_ends_quietly() -> None:
    """``mahjongero eval ... | head``: the command's writes meet a closed pipe."""
    import subprocess
    import sys

    code = ("import sys; from mahjongero import cli; import mahjongero.commands.classify as c\n"
            "def run(args):\n    raise BrokenPipeError(32, 'Broken pipe')\n"
            "c.run = run; sys.exit(cli.main(['classify', 'x.png']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 141 and "Traceback" not in out.stderr, out.stderr
