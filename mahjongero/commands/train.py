"""``mahjongero train detector|classifier``: reproducible, resumable training (torch needed).

Background-friendly: run under ``nohup``; ultralytics writes ``results.csv`` and
``weights/last.pt`` every epoch into ``OUT/NAME``; the same command again resumes.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("train", help="train the detector or classifier (needs the train extra)")
    p.add_argument("which", choices=["detector", "classifier"])
    p.add_argument("--data", required=True, help="detector: data.yaml; classifier: crops folder")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--hours", type=float, default=None, help="wall-clock budget (overrides epochs)")
    p.add_argument("--imgsz", type=int, default=None, help="default 640 detector, 64 classifier")
    p.add_argument("--batch", type=int, default=None, help="default 16 detector, 128 classifier")
    p.add_argument("--out", default="runs", help="runs folder (run goes to OUT/NAME)")
    p.add_argument("--name", default=None, help="run name (default: the model kind)")
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    p.add_argument("--workers", type=int, default=2, help="data-loading processes")
    p.add_argument("--model", default="", help="architecture yaml (default yolo11n / yolo11n-cls)")
    p.add_argument("--cache", action="store_true", help="cache images in RAM")
    p.add_argument("--lr0", type=float, default=None, help="initial learning rate (fine-tuning)")
    p.add_argument("--finetune", action="store_true",
                   help="continue a shipped model (--model X.pt) without warm-up; a detector by SGD, no mosaic")
    p.add_argument("--freeze", type=int, default=0, help="the first N layers keep their weights")
    p.add_argument("--device", default="cpu", help='"cpu" (default) or a CUDA device such as "0"')
    p.add_argument("--export", default=None, help="after training, export ONNX to this path")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.training.train import TrainConfig, export_onnx, train_classifier, train_detector

    det = args.which == "detector"
    cfg = TrainConfig(
        data=Path(args.data).resolve(),
        out=Path(args.out),
        name=args.name or args.which,
        epochs=args.epochs,
        imgsz=args.imgsz or (640 if det else 64),
        batch=args.batch or (16 if det else 128),
        hours=args.hours,
        threads=args.threads,
        workers=args.workers,
        model=args.model,
        cache=args.cache,
        lr0=args.lr0,
        device=args.device,
        finetune=args.finetune,
        freeze=args.freeze,
    )
    best = train_detector(cfg) if det else train_classifier(cfg)
    print(f"best checkpoint: {best}")
    if args.export:
        dest = export_onnx(best, Path(args.export), cfg.imgsz, dynamic=True)
        print(f"exported: {dest}")
    return 0
