"""``mahjongero synth``: synthetic training data (scenes for the detector, crops, a sheet).

    mahjongero synth scenes --kind hand|table|mixed --n N --seed S --out DIR
    mahjongero synth crops --per-class N --seed S --out DIR
    mahjongero synth sheet --out FILE.png
"""

from __future__ import annotations

import argparse
from pathlib import Path


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"size must look like 1280x960, not {text!r}") from exc
    if w < 64 or h < 64:
        raise argparse.ArgumentTypeError("size must be at least 64x64")
    return w, h


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("synth", help="render synthetic training data (scenes, crops, sheet)")
    sub = p.add_subparsers(dest="synth_command", metavar="WHAT", required=True)

    s = sub.add_parser("scenes", help="YOLO detection scenes (classes: 0 tile face up, 1 face down)")
    s.add_argument("--kind", choices=["hand", "table", "mixed"], default="mixed")
    s.add_argument("--n", type=int, required=True, help="number of scenes")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--size", type=_size, default=(1280, 960), help="WxH (default 1280x960)")
    s.add_argument("--val-frac", type=float, default=0.1, help="share of scenes in the val split")
    s.add_argument("--start", type=int, default=0, help="first scene index (to extend a set)")
    s.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    s.add_argument("--deal", choices=["any", "rules"], default="any",
                   help="any tile anywhere (default: the training renders), or as the scene's variant is "
                        "played (no bonus tile held, melded or discarded; in Filipino every honour a flower)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=_scenes)

    c = sub.add_parser("crops", help="classifier crops DIR/{train,val}/<code>/*.png, 64 classes")
    c.add_argument("--per-class", type=int, required=True, help="train crops per class")
    c.add_argument("--val-per-class", type=int, default=None, help="val crops per class (default N/5)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--size", type=_size, default=(1280, 960), help="size of the scenes cut from")
    c.add_argument("--codes", type=str, default=None,
                   help="comma-separated face codes to render only (e.g. 1f,2f,3f); default all")
    c.add_argument("--face-share", type=float, default=0.0,
                   help="share of face-up tiles cut around the face alone, as real labels box them (default 0)")
    c.add_argument("--styles", type=int, default=None,
                   help="draw each scene's set design from styles 0..N-1 (default the 48 the scenes use)")
    c.add_argument("--quiet", action="store_true")
    c.set_defaults(func=_crops)

    h = sub.add_parser("sheet", help="contact sheet of every tile code in several styles")
    h.add_argument("--out", type=Path, default=Path("docs/tiles-sheet.png"))
    h.add_argument("--styles", type=str, default="0,1,2,3,6,11", help="comma-separated style numbers")
    h.set_defaults(func=_sheet)


def _scenes(args: argparse.Namespace) -> int:
    from vision.synth.dataset import write_scenes

    if args.n < 0:
        raise ValueError("--n must be >= 0")
    done = write_scenes(
        args.out, args.n, seed=args.seed, kind=args.kind, size=args.size, val_frac=args.val_frac,
        workers=args.workers, quiet=args.quiet, start=args.start, deal=args.deal,
    )
    print(f"{done} scenes rendered ({args.n - done} already there) in {args.out}; "
          f"data.yaml: {args.out.resolve() / 'data.yaml'}")
    return 0


def _crops(args: argparse.Namespace) -> int:
    from vision.synth.dataset import write_crops

    if args.per_class < 1:
        raise ValueError("--per-class must be >= 1")
    counts = write_crops(
        args.out, args.per_class, seed=args.seed, val_per_class=args.val_per_class, size=args.size,
        quiet=args.quiet, codes=args.codes.split(",") if args.codes else None, face_share=args.face_share,
        styles=args.styles,
    )
    print(f"{sum(counts.values())} crops in {len(counts)} classes under {args.out}")
    return 0


def _sheet(args: argparse.Namespace) -> int:
    from vision.synth.dataset import write_sheet

    styles = [int(v) for v in args.styles.split(",") if v.strip()]
    print(write_sheet(args.out, styles))
    return 0
