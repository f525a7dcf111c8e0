"""The camera against the rules: hands the bots played, shown to the live pipeline as a rendered
table, and what its referee recorded compared with what was played.

Each hand is played by the engine's bots in full mode (every tile known). Its steps up to the
win or the wall's end (``vision.scripted.steps_of``: every discard, claimed meld, exposed kang,
secret, sagása, Beauty, NEWS and flower) are rendered on a 1080p table as they would lie,
frame by frame, a hand passing over the table now and then. The frames go through the live
pipeline as a camera's do (reader -> smoothing -> regions -> events), and its events reach the
Referee page's book as the web UI sends them (or, ``--to feed``, an observed game through
``vision.events.RefereeFeed``). The referee must end up holding the same actions in order (the
draws apart, which a camera rarely sees) and paying the same instant payouts (flowers, kangs,
ambitions) as the hand's actions pushed into an observed game one by one
(``tests/vision/camera_referee.py``).

    .venv/bin/python benchmarks/bench_camera_referee.py [--hands 5] [--variants filipino visayan ...]
        [--seed 0] [--reader truth|models] [--to page|feed] [--occlusion 0.3] [--fps 10] [--hold 1.2]
        [--style 5] [-v]
    .venv/bin/python benchmarks/bench_camera_referee.py --pictures [--hands 15]
    .venv/bin/python benchmarks/bench_camera_referee.py --tiles [--hands 10 --seed 120]
    .venv/bin/python benchmarks/bench_camera_referee.py --places [--hands 10 --seed 200]

``--reader truth`` replays the renderer's labels as detections: every tile named right, so
what goes wrong is the pipeline's own (regions, smoothing, events, the page's book);
``models`` runs the shipped ONNX models on every frame (about a minute a hand on two cores).
``--tiles`` reads each hand's table after its last step (no hand over it; the hand of seed
``s`` in the set style ``s % 48``) once by the shipped live reader, as served and without
each of its looks in turn (``_live_readers``), and counts the face-up tiles named right by kind (about a second a
table and reader). ``--places`` reads each hand's last table once by the live reader as served,
after the table as dealt (so the regions stage knows where the walls stood), and counts the
tiles put where they lie by the regions stage as served and as before stop 71.
"""

from __future__ import annotations

import argparse
import copy
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_live import in_order  # noqa: E402

from tests.vision.camera_referee import Camera, by_camera, by_hand, misplaced, named, placed  # noqa: E402
from tests.webui.referee_forms import played  # noqa: E402
from vision.scripted import Step, steps_of  # noqa: E402

VARIANTS = ("filipino", "visayan", "singaporean", "vietnamese")


def _kind(step: Step) -> str:
    if step.kind == "kang":
        return "secret" if step.from_seat is None else "exposed kang"
    if step.kind in ("beauty", "news") and step.from_seat is not None:
        return f"{step.kind} (called)"
    return {"added": "sagása"}.get(step.kind, step.kind)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5, help="hands per variant")
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    ap.add_argument("--seed", type=int, default=0, help="the first hand's seed")
    ap.add_argument("--reader", choices=("truth", "models"), default="truth")
    ap.add_argument("--to", choices=("page", "feed"), default="page",
                    help="where the events go: the Referee page's book, or an observed game")
    ap.add_argument("--occlusion", type=float, default=0.3, help="share of steps a hand passes over the table")
    ap.add_argument("--fps", type=float, default=10.0)
    ap.add_argument("--hold", type=float, default=1.2, help="seconds between two steps")
    ap.add_argument("--style", type=int, default=Camera.style,
                    help="the set's style (vision.synth.faces.make_style; 0: green backs, 5: blue)")
    ap.add_argument("--seam", type=float, default=Camera.seam,
                    help="how bright the tiles' edges are drawn against their faces (1: none; "
                         "vision.scripted.SEAM, 0.7: as the training scenes draw them)")
    ap.add_argument("--pictures", action="store_true",
                    help="instead: each picture of each hand (no hand over the table) through the regions stage, "
                         "tile by tile against the renderer's labels")
    ap.add_argument("--tiles", action="store_true",
                    help="instead: each hand's last table read once by the live reader as served and as before "
                         "stop 70, tile by tile against the renderer's labels")
    ap.add_argument("--imgsz", type=int, default=None,
                    help="the live detector's input for the shipped models (default: vision.reader.LIVE_DETECT_SIZE)")
    ap.add_argument("--places", action="store_true",
                    help="instead: each hand's last table read once by the live reader, its tiles put in regions "
                         "as served and as before stop 71, tile by tile against the renderer's labels")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every hand, and what was refused")
    args = ap.parse_args()
    if args.pictures:
        pictures(args)
        return
    if args.tiles:
        tiles(args)
        return
    if args.places:
        places(args)
        return
    reader = None
    if args.reader == "models":
        from vision.pipeline import default_reader

        reader = default_reader(live=True)
        reader.imgsz = args.imgsz or reader.imgsz
    camera = Camera(fps=args.fps, hold=args.hold, occlusion=args.occlusion, reader=reader, style=args.style,
                    seam=args.seam)
    t0 = time.perf_counter()
    data_dir = tempfile.mkdtemp(prefix="bench-camera-referee-")
    for variant in args.variants:
        right = actions = frames = agreed = kept = 0
        kinds: Counter[str] = Counter()
        for seed in range(args.seed, args.seed + args.hands):
            game = played(variant, seed)[0]
            kinds.update(_kind(s) for s in steps_of(game))
            want = by_hand(game)
            got = by_camera(game, camera, args.to, data_dir)
            frames += got.frames
            actions += len(want.actions)
            agreed += got.agreed(want)
            kept += len(in_order(got.actions, want.actions))
            diff = got.difference(want)
            right += not diff
            if diff or args.verbose:
                print(f"  {variant} seed {seed}: {len(want.actions)} actions, {got.frames} frames: {diff or 'the same'}")
                for why in got.refused if diff or args.verbose else ():
                    print(f"    refused: {why}")
        print(f"{variant}: {right} of {args.hands} hands recorded as played and paid alike "
              f"({actions} actions, {frames} frames); recorded as played before the first that "
              f"differs: {agreed} actions ({100 * agreed / max(actions, 1):.1f} %); recorded in order, "
              f"however many others between: {kept} ({100 * kept / max(actions, 1):.1f} %)", flush=True)
        print("  shown: " + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())), flush=True)
    print(f"{time.perf_counter() - t0:.1f} s")


def pictures(args: argparse.Namespace) -> None:
    """Per variant: pictures read with every tile where it lies, and the tiles misplaced."""
    t0 = time.perf_counter()
    for variant in args.variants:
        exact = shown = 0
        wrong: Counter[tuple[str, str]] = Counter()
        for seed in range(args.seed, args.seed + args.hands):
            for upto, miss in enumerate(misplaced(played(variant, seed)[0])):
                shown += 1
                exact += not miss
                wrong += miss
                if miss and args.verbose:
                    print(f"  {variant} seed {seed} after step {upto}: {dict(miss)}")
        print(f"{variant}: {exact} of {shown} pictures read with every tile in its region and seat", flush=True)
        for (where, put), n in wrong.most_common():
            print(f"  {n} tiles lying in {where} read as {put}")
    print(f"{time.perf_counter() - t0:.1f} s")


KINDS = {"m": "suits", "p": "suits", "s": "suits", "z": "winds and dragons", "f": "flowers and seasons",
         "a": "animals", "j": "Vietnamese jokers", "r": "royals", "x": "American jokers"}


def _live_readers(imgsz: int | None = None) -> dict[str, Callable[[], Any]]:
    """Fresh live readers (one detector, its input ``imgsz`` or as served): as served; with
    the crops of tiles across the table read as cut, upside down (as served until stop 83);
    without the look for tiles missed at a row's end too (``RowEnds``, as served until stop 79); and with
    each tile cut one way (as served until stop 77; ``VideoReader.margins``); then without
    boxing faces no box found (``UnboxedFaces``) or turning face up the faces boxed face down in a row of
    faces, holes looked for only between tiles 1.75 tiles apart or more (as served until stop
    76); without those or joining tiles boxed in two pieces (as served until stop 74); without
    that or looking for tiles missed in rows (as served until stop 72); without those or
    turning the crops of tiles lying across upright; and without the flower look either (as
    served until stop 69)."""
    from vision.classifier import CROP_MARGIN
    from vision.holes import RowHoles
    from vision.pipeline import default_reader
    from vision.reader import VideoReader, shipped_classifier

    served = default_reader(live=True)
    assert isinstance(served, VideoReader)
    if imgsz:
        served.imgsz = imgsz

    def as_served(**changes: Any) -> VideoReader:
        """A fresh reader as served (``default_reader``'s), but for ``changes`` to its settings."""
        reader = copy.copy(served)  # never read with: nothing seen yet
        for name, value in changes.items():
            if not hasattr(reader, name):
                raise AttributeError(f"VideoReader has no setting {name!r}")
            setattr(reader, name, value)
        return reader

    # each reader takes one more look away than the one before it
    before_84 = {"across": False}
    before_80 = {**before_84, "ends": None}
    one_cut = {**before_80, "margins": (CROP_MARGIN,)}
    before_77 = {**one_cut, "down_faces": None, "unboxed": None,
                 "holes": RowHoles(gap=(1.75, 2.4))}  # holes between tiles 1.75 tiles apart or more
    before_75 = {**before_77, "pieces": None}
    before_73 = {**before_75, "holes": None}
    as_cut = {**before_73, "stand_up": False}
    bare = shipped_classifier(flower_look=None, number_look=None)
    return {"served": as_served,
            "across the table as cut": lambda: as_served(**before_84),
            "no row-end look": lambda: as_served(**before_80),
            "each tile cut one way": lambda: as_served(**one_cut),
            "no unboxed or face-down look": lambda: as_served(**before_77),
            "no pieces look": lambda: as_served(**before_75),
            "no hole look": lambda: as_served(**before_73),
            "crops as cut": lambda: as_served(**as_cut),
            "crops as cut, no flower look": lambda: as_served(**as_cut, classify=bare)}


def tiles(args: argparse.Namespace) -> None:
    """Per kind of tile, the face-up tiles named right on each hand's last table by each live
    reader (``_live_readers``); and the names most often given wrongly."""
    readers = _live_readers(args.imgsz)
    got = {name: Counter[tuple[str, str]]() for name in readers}
    t0 = time.perf_counter()
    for variant in args.variants:
        for seed in range(args.seed, args.seed + args.hands):
            game = played(variant, seed)[0]
            camera = Camera(occlusion=0.0, style=seed % 48, seam=args.seam)
            for name, fresh in readers.items():
                got[name] += named(game, fresh(), camera)
    for name, counts in got.items():
        right: Counter[str] = Counter()
        shown: Counter[str] = Counter()
        for (code, read), n in counts.items():
            shown[KINDS[code[-1]]] += n
            right[KINDS[code[-1]]] += n if read == code else 0
        print(f"{name}: " + ", ".join(f"{kind} {right[kind]} of {shown[kind]} ({100 * right[kind] / shown[kind]:.1f} %)"
                                      for kind in sorted(shown)), flush=True)
        unboxed = sum(n for (_, read), n in counts.items() if read == "")
        print(f"  all: {sum(right.values())} of {sum(shown.values())} named right, {unboxed} not boxed")
        wrong = Counter({k: n for k, n in counts.items() if k[0] != k[1]})
        print("  most often wrong: " + ", ".join(f"{code} as {read or 'not found'} {n}"
                                                 for (code, read), n in wrong.most_common(8)))
    print(f"{time.perf_counter() - t0:.1f} s")


def places(args: argparse.Namespace) -> None:
    """The tiles of each hand's last table (the standing hands' apart) that the live reader as
    served boxes and the regions stage puts where they lie, as served and as before stop 71
    (a seat's groups cut at gaps of 0.12 of a tile), on the tables where it boxed three walls
    or four as dealt; and the places most often given wrongly."""
    fresh = _live_readers(args.imgsz)["served"]
    settings = {"served": {}, "groups cut at 0.12": {"meld_gap": 0.12}}
    got = {name: Counter[tuple[str, str]]() for name in settings}
    unseen = []
    t0 = time.perf_counter()
    for variant in args.variants:
        for seed in range(args.seed, args.seed + args.hands):
            counts = placed(played(variant, seed)[0], fresh, settings, Camera(occlusion=0.0, style=seed % 48, seam=args.seam))
            if counts is None:
                unseen.append(f"{variant} {seed}")
                continue
            for name in settings:
                got[name] += counts[name]
    tables = len(args.variants) * args.hands
    print(f"{tables - len(unseen)} of {tables} tables whose walls (three or four) the live reader boxed as dealt "
          f"(not: {', '.join(unseen) or 'none'})")
    for name, counts in got.items():
        right = sum(n for (where, put), n in counts.items() if where == put)
        print(f"{name}: {right} of {sum(counts.values())} tiles where they lie", flush=True)
        wrong = Counter({k: n for k, n in counts.items() if k[0] != k[1]})
        print("  most often wrong: " + ", ".join(f"{where} as {put} {n}" for (where, put), n in wrong.most_common(6)))
    print(f"{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
