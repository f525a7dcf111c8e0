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
