"""``mahjongero score PHOTO``: read a hand from a photo, then its waits or its score.

Not a sub-command of its own (the leading underscore keeps the CLI from
registering it): the rules' ``score`` command calls ``score_photo(args)`` when its
argument is an image file. ``args`` attributes used (all optional but the photo):
``photo`` (or ``hand``), ``variant``, ``seat``/``winner``, ``round``/``round_wind``,
``dealer``, ``discarder``, ``self_drawn``, ``win_tile``, ``json``, ``annotate``,
``set`` (a calibrated tile set).

JSON output: ``tiles`` (box, tile, confidence, region, group), ``hand`` (engine
notation), ``waits`` (when one tile short), ``score`` (when complete), ``doubts``,
``problem`` (why neither, in words).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["score_photo", "looks_like_photo"]

_IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".heic"}


def looks_like_photo(text: str) -> bool:
    """Whether a ``score`` argument names an image file rather than a hand in notation.

    >>> looks_like_photo("123m456p"), looks_like_photo("hand.JPG")
    (False, True)
    """
    return Path(text).suffix.lower() in _IMAGE_SUFFIXES or Path(text).is_file()


def _arg(args: argparse.Namespace, *names: str, default: Any = None) -> Any:
    for name in names:
        value = getattr(args, name, None)
        if value is not None:
            return value
    return default


def _seat(value: Any, default: Any) -> Any:
    from engine.seats import Seat

    return default if value is None else Seat.parse(value)


def score_photo(args: argparse.Namespace, reader: Callable[[Any], Any] | None = None) -> int:
    """Read the photo in ``args``, print what was read and the waits or the score.

    ``reader`` replaces the shipped models (tests pass known detections).
    Returns 0 when a hand was read and evaluated, 1 when it could not be (what
    was read is still printed). Bad input raises ``ValueError`` (exit 2).
    """
    from engine.seats import Seat
    from vision.imageio import load_image
    from vision.pipeline import annotate, load_ruleset, read_hand_photo

    photo = _arg(args, "photo", "hand")
    if photo is None:
        raise ValueError("no photo given")
    variant = _arg(args, "variant", default="filipino")
    ruleset = load_ruleset(variant)
    reading = read_hand_photo(photo, variant, reader=reader, calibration=_arg(args, "set"),
                              ruleset=ruleset)
    out: dict[str, Any] = {"photo": str(photo), "variant": variant, "tiles": reading.tiles_json(),
                           "hand": None, "waits": None, "score": None,
                           "doubts": [{"tile": str(i.tile), "box": list(i.box), "why": i.doubt}
                                      for i in reading.doubtful],
                           "shaken": reading.shaken}
    code = _evaluate(args, reading, ruleset, out, Seat)
    if _arg(args, "annotate"):
        import cv2

        target = Path(_arg(args, "annotate"))
        if not cv2.imwrite(str(target), annotate(load_image(photo), reading)):
            raise ValueError(f"cannot write the annotated image to {str(target)!r}")
        out["annotated"] = str(target)
    if _arg(args, "json", default=False):
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        _print_text(out, reading)
    return code


def _evaluate(args: argparse.Namespace, reading: Any, ruleset: Any, out: dict[str, Any], Seat: Any) -> int:  # noqa: N803
    from vision.readings import ReadingError, edge_note

    try:
        hand = reading.to_hand()
    except ReadingError as exc:
        out["problem"] = str(exc)
        return 1
    out["hand"] = str(hand)
    size = hand.tile_count
    if size == ruleset.hand_size:
        waits = ruleset.waits(hand)
        out["waits"] = [{"tile": str(w.tile), "name": w.tile.english,
                         "shapes": sorted(s.value for s in w.shapes)} for w in waits]
        if not waits:
            out["problem"] = f"not ready: {ruleset.shanten(hand)} tile(s) from ready"
        return 0
    if size != ruleset.hand_size + 1:
        out["problem"] = (f"{size} tiles read; a {ruleset.name} hand has {ruleset.hand_size} "
                          f"(+1 to win)")
        if size < ruleset.hand_size and (cut := reading.cut_by_edge()):
            out["problem"] += "; " + edge_note(len(cut))
        return 1
    if not ruleset.is_complete(hand):
        out["problem"] = f"not a winning hand ({ruleset.shanten(hand)} from ready after a discard)"
        return 0
    win = _arg(args, "win_tile")
    win_tile = _win_tile(win, reading)
    winner = _seat(_arg(args, "seat", "winner"), Seat.EAST)
    discarder = _seat(_arg(args, "discarder"), None)
    self_drawn = bool(_arg(args, "self_drawn", default=discarder is None))
    try:
        score = ruleset.score(
            hand, win_tile=win_tile, winner=winner, self_drawn=self_drawn,
            discarder=None if self_drawn else (discarder if discarder is not None else winner.previous),
            round_wind=_seat(_arg(args, "round", "round_wind"), Seat.EAST),
            dealer=_seat(_arg(args, "dealer"), Seat.EAST),
        )
    except ValueError as exc:  # complete but not a valid win here (e.g. below the minimum)
        out["problem"] = str(exc)
        return 1
    out["score"] = score.to_json()
    out["breakdown"] = score.breakdown()
    return 0


def _win_tile(win: Any, reading: Any) -> Any:
    """The winning tile: as given, else the last tile of the concealed row (the one drawn)."""
    from engine.tiles import Tile

    if win is not None:
        return win if isinstance(win, Tile) else Tile.parse(str(win))
    if reading.concealed:
        return reading.concealed[-1].tile
    melds = [m for m in reading.melds if m.called]
    return melds[-1].to_meld().called if melds else reading.to_hand().melds[-1].tiles[0]


def _print_text(out: dict[str, Any], reading: Any) -> None:
    from vision.regions import describe

    w = sys.stdout.write
    w(f"read: {describe(reading)}\n")
    if reading.others:
        w(f"left out: {len(reading.others)} tile(s) not part of this hand\n")
    for d in out["doubts"]:
        w(f"check: {d['tile']} — {d['why']}\n")
    if out["hand"]:
        w(f"hand: {out['hand']}\n")
    if out.get("problem"):
        w(f"note: {out['problem']}\n")
    if out["shaken"]:
        from vision.readings import SHAKEN_NOTE

        w(f"note: {SHAKEN_NOTE}\n")
    if out["waits"]:
        w("waits: " + ", ".join(f"{x['tile']} ({x['name']})" for x in out["waits"]) + "\n")
    if out.get("breakdown"):
        w(out["breakdown"].rstrip() + "\n")
