"""Train the tile detector and the tile classifier with ultralytics, from the architecture yaml.

Runs are resumable: a run folder with ``weights/last.pt`` continues where it stopped.
Every entry point calls :func:`vision.training.env.setup` first (offline, local fonts,
torchvision shim, 2 threads). Nothing here is imported by the serving path.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.training.env import setup

__all__ = ["TrainConfig", "DETECTOR_AUGMENT", "train_detector", "train_classifier", "export_onnx", "add_features_output",
           "last_checkpoint", "TrainDataError", "check_data", "check_model"]


class TrainDataError(ValueError):
    """Training data that is not there or not in the form the model trains from."""


@dataclass(frozen=True)
class TrainConfig:
    """What a run needs; ``out/name`` is the run folder."""

    data: Path
    out: Path
    name: str
    epochs: int = 30
    imgsz: int = 640
    batch: int = 16
    hours: float | None = None  # wall-clock budget; overrides epochs (LR schedule follows it)
    workers: int = 2
    threads: int = 2
    model: str = ""  # architecture yaml; "" = the default for the task
    seed: int = 0
    cache: bool = False
    patience: int = 100
    lr0: float | None = None  # None: the task's default (lower it to fine-tune a warm start)
    device: str = "cpu"  # "0" for the first CUDA GPU (mixed precision is then on)
    finetune: bool = False  # continue a shipped model: the fine-tuning recipe below
    freeze: int = 0  # the first N layers keep their weights (11: a detector's backbone)

    @property
    def run_dir(self) -> Path:
        return self.out / self.name


def last_checkpoint(run_dir: Path) -> Path | None:
    """``weights/last.pt`` of an interrupted run, if any."""
    p = run_dir / "weights" / "last.pt"
    return p if p.is_file() else None


def check_data(data: Path, classifier: bool) -> None:
    """Refuse, naming it, training ``data`` that is not there: a detector trains from a YOLO
    ``data.yaml``, a classifier from a folder with ``train/<code>/`` crops. Said before the
    minutes ultralytics takes to start, not in its traceback after them.

    >>> check_data(Path("no-such.yaml"), classifier=False)
    Traceback (most recent call last):
    ...
    vision.training.train.TrainDataError: --data 'no-such.yaml': no such file (a detector trains from a YOLO data.yaml)
    """
    if classifier and not (data / "train").is_dir():
        what = "no such folder" if not data.exists() else "no train/ folder in it"
        raise TrainDataError(f"--data {str(data)!r}: {what} (a classifier trains from train/<code>/*.png crops)")
    if not classifier and not data.is_file():
        what = "no such file" if not data.exists() else "not a file"
        raise TrainDataError(f"--data {str(data)!r}: {what} (a detector trains from a YOLO data.yaml)")


def check_model(model: str) -> None:
    """Refuse, naming it, a checkpoint to start from that is not there (ultralytics would
    look for a file of that name among its releases on GitHub: no network here, a traceback).
    Architecture yamls (``yolo11n.yaml``) come with ultralytics.

    >>> check_model("yolo11n.yaml")
    >>> check_model("runs/no-such-warm.pt")
    Traceback (most recent call last):
    ...
    vision.training.train.TrainDataError: --model 'runs/no-such-warm.pt': no such file (a checkpoint to start from, e.g. from python -m vision.training.warmstart)
    """
    if model.endswith(".pt") and not Path(model).is_file():
        raise TrainDataError(f"--model {model!r}: no such file (a checkpoint to start from, "
                             "e.g. from python -m vision.training.warmstart)")


def _fit(cfg: TrainConfig, default_model: str, overrides: dict[str, Any]) -> Path:
    last = last_checkpoint(cfg.run_dir)
    if last is None:  # a run resumed trains from the data and weights its checkpoint names
        check_data(cfg.data, classifier=default_model.endswith("-cls.yaml"))
        check_model(cfg.model)
    setup(cfg.threads)
    from ultralytics import YOLO  # type: ignore[attr-defined]

    if last is not None:
        model = YOLO(str(last))
        ckpt = getattr(model, "ckpt", None) or {}
        # a finished run's last.pt keeps no optimizer and epoch -1: ultralytics 8.4 would start
        # a new run from it on its default dataset (coco8, downloaded: no network here)
        if ckpt.get("epoch", -1) < 0 or ckpt.get("optimizer") is None:
            print(f"{cfg.run_dir} is finished: nothing to resume (a new name starts a new run)", flush=True)
            return _best(cfg.run_dir)
        print(f"resuming {last}", flush=True)
        try:
            model.train(resume=True, workers=cfg.workers)
        except AssertionError as exc:  # "training to N epochs is finished, nothing to resume"
            print(f"nothing to resume: {exc}", flush=True)
        return _best(cfg.run_dir)
    model = YOLO(cfg.model or default_model)
    args = dict(
        data=str(cfg.data),
        epochs=cfg.epochs,
        imgsz=cfg.imgsz,
        batch=cfg.batch,
        workers=cfg.workers,
        project=str(cfg.out.resolve()),
        name=cfg.name,
        exist_ok=True,
        # a .pt model initialises the weights (ultralytics drops them when pretrained=False)
        pretrained=str(cfg.model).endswith(".pt"),
        device=cfg.device,
        seed=cfg.seed,
        deterministic=False,
        plots=False,
        amp=cfg.device != "cpu",
        cache=cfg.cache,
        patience=cfg.patience,
        save_period=1,
        verbose=True,
    )
    if cfg.hours:
        args["time"] = cfg.hours
    if cfg.freeze:
        args["freeze"] = cfg.freeze
    args.update(overrides)
    if cfg.lr0 is not None:
        args["lr0"] = cfg.lr0
    model.train(**args)
    return _best(cfg.run_dir)


def _best(run_dir: Path) -> Path:
    for name in ("best.pt", "last.pt"):
        p = run_dir / "weights" / name
        if p.is_file():
            return p
    raise FileNotFoundError(f"no checkpoint in {run_dir / 'weights'}")


# No rotation: ultralytics turns a box by its four corners and keeps their bounding box, so a
# face 30 px wide and 40 high turned by up to ±5° comes out 5.9 % wider and 3.2 % taller on
# average, and the detectors of stops 47-48, taught on such labels, boxed faces about that much
# too wide (stop 49: one epoch from the same weights, degrees 5 against 0, boxed the real
# training photos' faces 6.0 % against 2.4 % wider and 3.3 % against 0.7 % taller than their
# labels). The renderer turns its cameras itself and boxes the faces it drew.
DETECTOR_AUGMENT: dict[str, float] = dict(degrees=0.0, mosaic=1.0, scale=0.5, fliplr=0.5)


# Continuing a shipped detector (stops 49-52, models/HISTORY.md): SGD from lr 0.005 down to
# 0.001 with no warm-up (warm-up's bias lr of 0.1 throws the trained head off) and no mosaic
# (the tiles stay at the sizes they are served at); so continued from v6, with its backbone
# frozen, the detector boxed faces as the labels draw them, which every mosaic run did not.
DETECTOR_FINETUNE: dict[str, Any] = dict(
    degrees=0.0, mosaic=0.0, close_mosaic=0, scale=0.3, fliplr=0.5,
    optimizer="SGD", lr0=0.005, lrf=0.2, momentum=0.9, warmup_epochs=0.0,
)


def train_detector(cfg: TrainConfig) -> Path:
    """Detector (classes: face-up tile, face-down tile); returns the best checkpoint."""
    if cfg.finetune:
        return _fit(cfg, "yolo11n.yaml", DETECTOR_FINETUNE)
    return _fit(
        cfg,
        "yolo11n.yaml",
        dict(DETECTOR_AUGMENT, close_mosaic=max(1, min(10, cfg.epochs // 4))),
    )


def train_classifier(cfg: TrainConfig) -> Path:
    """Tile classifier on square crops (one folder per tile code); returns the best checkpoint.

    No flips (a mirrored character is another glyph), no hue shift (red and green
    jokers and dragons differ by colour), crops keep ≥80 % of the tile.
    """
    return _fit(
        cfg,
        "yolo11n-cls.yaml",
        # optimizer=auto picks AdamW at lr 0.002*5/(4+64) = 0.00015 here: far too slow
        dict(
            fliplr=0.0, flipud=0.0, hsv_h=0.0, hsv_s=0.3, hsv_v=0.4, scale=0.2, erasing=0.1,
            optimizer="AdamW", lr0=0.002,
            # continuing a shipped classifier: no warm-up, whose bias lr of 0.1 would throw its
            # last layer off in the first epoch
            warmup_epochs=0 if cfg.finetune else 1,
        ),
    )


def export_onnx(weights: Path, dest: Path, imgsz: int, dynamic: bool) -> Path:
    """Export a checkpoint to ONNX at ``dest`` (names kept in the ONNX metadata)."""
    setup()
    from ultralytics import YOLO  # type: ignore[attr-defined]

    model = YOLO(str(weights))
    produced = Path(
        model.export(format="onnx", imgsz=imgsz, dynamic=dynamic, simplify=False, opset=17)
    )
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(produced, dest)
    add_features_output(dest)
    return dest


def _classifier_nodes(model: Any) -> list[Any] | None:
    """``model``'s nodes if it ends as ultralytics exports a classifier (``... -> Gemm ->
    Softmax``), else None."""
    nodes = list(model.graph.node)
    if len(nodes) < 2 or [n.op_type for n in nodes[-2:]] != ["Gemm", "Softmax"]:
        return None
    return nodes


def add_features_output(path: Path) -> bool:
    """Give a classifier ONNX (``... -> Gemm -> Softmax``) a second output, ``features``: the
    Gemm's input, the pooled features a calibrated set's probe reads. The weights are not
    touched. Returns False (file unchanged) for a model of another shape, e.g. the detector."""
    import onnx

    from vision.classifier import FEATURES_OUTPUT

    model = onnx.load(str(path))
    nodes = _classifier_nodes(model)
    if nodes is None:
        return False
    if any(o.name == FEATURES_OUTPUT for o in model.graph.output):
        return True
    gemm = nodes[-2]
    feat = gemm.input[0]
    nodes[-3].output[list(nodes[-3].output).index(feat)] = FEATURES_OUTPUT  # rename the tensor ...
    gemm.input[0] = FEATURES_OUTPUT  # ... and the Gemm reads it under the new name
    model.graph.output.append(onnx.helper.make_tensor_value_info(FEATURES_OUTPUT, onnx.TensorProto.FLOAT, ["batch", None]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


def keep_classes(path: Path, names: list[str]) -> int:
    """Narrow a classifier ONNX (``... -> Gemm -> Softmax``, float32 weights) to the classes
    ``names``, in its own order: the Gemm keeps only their rows, so the softmax splits the
    whole probability among them, as the full model's probabilities kept to them and summed
    to one. For a look that is better at some of its classes than the classifier it helps
    and worse at the rest (the number look). Returns how many classes are left."""
    import ast

    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    nodes = _classifier_nodes(model)
    if nodes is None:
        raise ValueError(f"{str(path)!r}: not a classifier ending in Gemm and Softmax")
    meta = {p.key: p for p in model.metadata_props}
    old = ast.literal_eval(meta["names"].value)
    unknown = sorted(set(names) - set(old.values()))
    if unknown:
        raise ValueError(f"{str(path)!r} has no classes {unknown}")
    rows = [k for k in sorted(old) if old[k] in names]
    inits = {i.name: i for i in model.graph.initializer}
    for name in nodes[-2].input[1:]:
        narrowed = numpy_helper.from_array(numpy_helper.to_array(inits[name])[rows], name)
        inits[name].CopyFrom(narrowed)
    meta["names"].value = repr({i: old[k] for i, k in enumerate(rows)})
    out = next(o for o in model.graph.output if o.name == nodes[-1].output[0])
    out.type.tensor_type.shape.dim[-1].dim_value = len(rows)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return len(rows)


def store_half_weights(path: Path, least: int = 16) -> int:
    """Store an ONNX model's float32 weights as float16, each cast back to float32 by a
    ``Cast`` node that onnxruntime folds away when it loads the model: the file halves and
    the model still computes in float32, on weights rounded to float16 (outputs move by
    ~1e-3 of their scale). Tensors under ``least`` values stay as they are. Returns how
    many tensors it stored in half; 0 for a model stored so already."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    kept, casts = [], []
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT or int(np.prod(init.dims)) < least:
            kept.append(init)
            continue
        half = numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float16), f"{init.name}_f16")
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT, name=f"{init.name}_cast"))
    return _save_stored(model, kept, casts, path)


def _unhalve(model: Any) -> None:
    """Turn, in ``model``, the weights ``store_half_weights`` stored in float16 back into
    float32 initializers (exactly: every float16 is a float32), dropping their ``Cast`` nodes."""
    from onnx import TensorProto, numpy_helper

    graph = model.graph
    halves = {i.name: i for i in graph.initializer if i.data_type == TensorProto.FLOAT16}
    casts = [n for n in graph.node if n.op_type == "Cast" and n.input[0] in halves]
    if not casts:
        return
    restored = [numpy_helper.from_array(numpy_helper.to_array(halves[n.input[0]]).astype("float32"), n.output[0])
                for n in casts]
    gone = {n.input[0] for n in casts}
    kept = [i for i in graph.initializer if i.name not in gone] + restored
    nodes = [n for n in graph.node if not (n.op_type == "Cast" and n.input[0] in gone)]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    del graph.node[:]
    graph.node.extend(nodes)


def _save_stored(model: Any, initializers: list[Any], restorers: list[Any], path: Path) -> int:
    """Save ``model`` with its weights as ``initializers`` and the ``restorers`` (nodes that
    turn stored weights back into the float32 tensors the graph reads) ahead of its nodes, so
    the graph stays in topological order. Returns how many restorers; 0 saves nothing."""
    import onnx

    if not restorers:
        return 0
    graph = model.graph
    nodes = [*restorers, *graph.node]
    del graph.initializer[:]
    graph.initializer.extend(initializers)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return len(restorers)


def store_int8_weights(path: Path, least: int = 256) -> int:
    """Store an ONNX model's float32 weight tensors of ``least`` values or more as int8, one
    scale per output channel (symmetric, the channel's largest magnitude at 127), each turned
    back into float32 by a ``DequantizeLinear`` node: the file takes a quarter and the model
    still computes in float32, on weights rounded to 1/254 of each channel's range. Biases and
    small tensors stay as they are. Returns how many tensors it stored so; 0 for a model
    stored so already. A model stored in half (``store_half_weights``) is stored so from
    its float16 weights. For a model that must fit beside the others within the issue's 20 MB
    (the looks); measure what the rounding moves before shipping one."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    _unhalve(model)
    graph = model.graph
    kept, dequantize = [], []
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT or len(init.dims) < 2 or int(np.prod(init.dims)) < least:
            kept.append(init)
            continue
        weights = numpy_helper.to_array(init)
        largest = np.abs(weights.reshape(len(weights), -1)).max(1)
        scale = np.where(largest > 0, largest / 127.0, 1.0).astype(np.float32)
        steps = np.round(weights / scale.reshape(-1, *[1] * (weights.ndim - 1)))
        names = [f"{init.name}_int8", f"{init.name}_scale", f"{init.name}_zero"]
        kept += [numpy_helper.from_array(steps.clip(-127, 127).astype(np.int8), names[0]),
                 numpy_helper.from_array(scale, names[1]),
                 numpy_helper.from_array(np.zeros(len(scale), np.int8), names[2])]
        dequantize.append(helper.make_node("DequantizeLinear", names, [init.name], axis=0, name=f"{init.name}_dq"))
    return _save_stored(model, kept, dequantize, path)
