"""``mahjongero eval --data DIR``: the issue's metrics on any YOLO-format folder.

Recall and precision at IoU 0.5, mAP50 (face-up / face-down), tile accuracy where codes
are known (``--codes CSV`` or the renderer's JSON sidecars), and whole hands read right.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from mahjongero.commands._classifier import add_classifier_options, classifier_from
from mahjongero.commands._detector import add_detector_options, detector_from
from mahjongero.commands._zoom import add_zoom_option, balance_from, upright_from, zoom_from

if TYPE_CHECKING:
    from vision.evaluation import GroundTruth, Scores
    from vision.reader import TileReader

SHEET_CROPS = 48  # crops a contact sheet of --sheets holds: six rows of eight, readable at a glance


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("eval", help="measure the models on a YOLO-format folder")
    p.add_argument("--data", default=None, help="folder with images/ and labels/")
    p.add_argument("--crops", default=None, help="classification folder <code>/*.png: accuracy")
    p.add_argument("--codes", default=None, help="CSV image,x1,y1,x2,y2,code of known tiles")
    p.add_argument("--split", default=None, help="JSON with a 'val' list: only those images")
    add_detector_options(p, nms=True)
    add_classifier_options(p)
    add_zoom_option(p)
    p.add_argument("--limit", type=int, default=0, help="at most this many images (0 = all)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--confusions", action="store_true",
                   help="list tiles misread on their true boxes, and the hands read wrong end to end "
                        "(with --crops: every misread crop)")
    p.add_argument("--sheets", default=None, metavar="DIR",
                   help="with --crops: draw the misread crops into DIR/misread-NN.png, 48 a sheet")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.crops:
        _eval_crops(args)
        if not args.data:
            return 0
    if not args.data:
        raise ValueError("give --data DIR (a YOLO folder) and/or --crops DIR")
    _print_scores(_eval_data(args), args)
    return 0


def _eval_crops(args: argparse.Namespace) -> None:
    """``--crops``: the classifier's accuracy on a folder of crops, its misreads listed or drawn."""
    from engine.tiles import Tile
    from vision.evaluation import crops_accuracy, crops_sheet

    if not Path(args.crops).is_dir():
        raise ValueError(f"--crops {args.crops!r} is not a folder")
    score = crops_accuracy(classifier_from(args, crops=True), Path(args.crops))
    if not score.items:
        raise ValueError(f"--crops {args.crops!r} holds no crops (a folder of <code>/*.png, as `synth crops` writes)")
    print(json.dumps(score.summary(), indent=1))
    if args.confusions:
        for path, true, said in score.misread:
            print(f"  {Tile(true)!s:>3} read as {Tile(said)!s:<3} {path}")
    if args.sheets:
        for k, first in enumerate(range(0, len(score.misread), SHEET_CROPS)):
            crops_sheet(score.misread[first : first + SHEET_CROPS], Path(args.sheets) / f"misread-{k:02d}.png",
                        number_from=first)


def _eval_data(args: argparse.Namespace) -> Scores:
    """``--data``: every image of a YOLO folder (those ``--split`` names) read as served."""
    from vision.evaluation import Scores, iter_dataset, split_names
    from vision.reader import TileReader

    root = Path(args.data)
    if not root.is_dir():
        raise ValueError(f"--data {args.data!r} is not a folder")
    names = split_names(Path(args.split)) if args.split else None
    reader = TileReader(detector_from(args), classifier_from(args), zoom=zoom_from(args), upright=upright_from(args),
                        balance=balance_from(args))
    scores = Scores()
    for k, gt in enumerate(iter_dataset(root, names, Path(args.codes) if args.codes else None)):
        if args.limit and k >= args.limit:
            break
        _score_image(reader, gt, scores)
    if not scores.images:
        which = "no images" if names is None else f"none of the {len(names)} images --split names"
        raise ValueError(f"--data {args.data!r} holds {which} (a YOLO folder: images/ and labels/)")
    return scores


def _score_image(reader: TileReader, gt: GroundTruth, scores: Scores) -> None:
    """Read ``gt``'s image as served and add what was found to ``scores``; mAP50 also from the
    chosen detector pass's boxes kept down to ``AP_FLOOR``, and the tiles named on the true
    boxes too where their codes are known."""
    import numpy as np

    from vision.detections import Detections
    from vision.detector import letterbox_scale
    from vision.evaluation import AP_FLOOR
    from vision.imageio import load_image
    from vision.upright import turn_quarters, turned_back

    image = load_image(gt.image)
    det, size, quarters = reader.read_upright(image)
    floored = reader.pass_at(turn_quarters(image, quarters), size, conf=AP_FLOOR)
    if quarters:
        det, floored = (turned_back(d, image.shape, quarters) for d in (det, floored))
    crop_codes = None
    if (gt.code >= 0).any():
        # the true boxes, read as the reader reads its own (crops cut along their rows), in the
        # photo as it lies: one the reader reads turned a quarter (vision.upright) too
        truth = Detections(gt.xyxy.astype(np.float32), np.ones(len(gt.xyxy), np.float32), gt.face_up.astype(bool))
        crop_codes = reader.classify(image, truth).code
    scores.add(gt, det, crop_codes, input_scale=letterbox_scale(image.shape, size), floored=floored)


def _print_scores(scores: Scores, args: argparse.Namespace) -> None:
    from engine.tiles import Tile

    summary = scores.summary()
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        for key, value in summary.items():
            print(f"{key:>34}: {value}")
    if args.confusions:
        for name, true, said in scores.confusions:
            print(f"  {Tile(true)!s:>3} read as {Tile(said)!s:<3} {name}")
        for name, slips in scores.wrong_hands:
            told = ", ".join(f"{Tile(t)}→{Tile(d) if d >= 0 else 'missed'}" for t, d in slips)
            print(f"  hand wrong end to end: {told}  {name}")
