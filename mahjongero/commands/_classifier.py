"""The classifier options shared by ``detect``, ``classify`` and ``eval``.

Not a sub-command (the leading underscore keeps the CLI from registering it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.classifier import TileClassifier

__all__ = ["add_classifier_options", "classifier_from"]

NONE = "none"  # what each model option takes to go without that model


def add_classifier_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--classifier", default=None, help="classifier ONNX (default: models/classifier.onnx)")
    p.add_argument("--second-look", default=None, metavar="ONNX|none",
                   help="classifier that reads again the crops the first is unsure of "
                        f"(default: models/second_look.onnx; {NONE}: no second look)")
    p.add_argument("--way-up", default=None, metavar="NPZ|none",
                   help="probe that turns a row of tiles photographed from across the table "
                        f"(default: models/way_up.npz; {NONE}: read every row as it comes)")
    p.add_argument("--flower-look", default=None, metavar="ONNX|none",
                   help="classifier of the flowers and seasons alone that reads again the crops likely to be one "
                        f"(default: models/flower_look.onnx; {NONE}: none)")
    p.add_argument("--number-look", default=None, metavar="ONNX|none",
                   help="classifier of the tiles told apart by a numeral (characters, jokers, royals) "
                        f"that reads them again after the flower look (default: models/number_look.onnx; "
                        f"{NONE}: none)")
    p.add_argument("--deblurred-look", action="store_true",
                   help="read the least sure crops of a photo that looks smeared along a line (a hand that "
                        "moved) again with the smear undone (not served; vision.deblur)")


def classifier_from(args: argparse.Namespace, crops: bool = False) -> TileClassifier:
    """The classifier the options ask for (the shipped pair by default). ``crops``: for
    crops cut beforehand, each read on its own, so the second and number looks go to every
    unsure one (in a picture, to the least sure few: a bound on a picture's time); the
    deblurred look likewise, each crop judged smeared or not on its own."""
    from vision.classifier import DEBLURRED_MOST, NUMBER_MOST, SECOND_MOST
    from vision.reader import (
        FLOWER_LOOK_PATH,
        NUMBER_LOOK_PATH,
        SECOND_LOOK_PATH,
        WAY_UP_PATH,
        shipped_classifier,
    )

    return shipped_classifier(args.classifier, _chosen(args.second_look, SECOND_LOOK_PATH),
                              second_most=sys.maxsize if crops else SECOND_MOST,
                              way_up=_chosen(args.way_up, WAY_UP_PATH),
                              flower_look=_chosen(args.flower_look, FLOWER_LOOK_PATH),
                              number_look=_chosen(args.number_look, NUMBER_LOOK_PATH),
                              number_most=sys.maxsize if crops else NUMBER_MOST,
                              deblurred_most=(sys.maxsize if crops else DEBLURRED_MOST) if args.deblurred_look else 0)


def _chosen(option: str | None, default: Path) -> str | Path | None:
    """The file a model option names: ``default`` when it is not given, None for ``none``."""
    value = option or default
    return None if value == NONE else value
