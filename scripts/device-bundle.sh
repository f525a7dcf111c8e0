#!/usr/bin/env bash
# Pack what scripts/train-gpu.sh needs on a borrowed GPU machine into .dev/ (git-ignored):
# the machine has torch, opencv and onnx but no ultralytics, no CJK fonts, no network and
# none of ../shared. Under 20 MB in all (the transfer limit there is 64 MB with the repo).
#
#   scripts/device-bundle.sh WARM_START.pt REAL_LABELS_DIR [CLASSIFIER_WARM_START.pt]
#
# WARM_START.pt: `python -m vision.training.warmstart models/detector.onnx X.pt`;
# REAL_LABELS_DIR: `python -m vision.training.pseudo_labels --out DIR` (labels completed);
# CLASSIFIER_WARM_START.pt (optional: train the classifier too):
# `python -m vision.training.warmstart models/classifier.onnx Y.pt --samples <crops>/train`.
set -euo pipefail
cd "$(dirname "$0")/.."
WARM=${1:?warm-start checkpoint}; LABELS=${2:?completed real labels}; WARM_CLS=${3:-}
PY=${PYTHON:-.venv/bin/python}
REAL=${REAL_DIR:-../shared/data/mahjong-yolo-v2-train}
B=.dev
mkdir -p "$B"
site=$($PY -c "import ultralytics, pathlib; print(pathlib.Path(ultralytics.__file__).parents[1])")
# ultralytics reads its results.csv with polars, which the machine lacks: a 30-line stand-in
tar -cJf "$B/pylibs.tar.xz" --exclude=__pycache__ -C "$site" ultralytics thop ultralytics_platform \
  -C "$PWD/scripts/device" polars
$PY -m vision.training.font_subset --out "$B/fonts.tar"
# the real training photos only (datasets/real-split.json), never the validation ones
$PY - "$REAL" "$B/real" <<'PYEOF'
import shutil, sys
from pathlib import Path
from vision.training.real_split import load_split
src, dest = Path(sys.argv[1]), Path(sys.argv[2])
for sub in ("images", "labels"):
    (dest / sub).mkdir(parents=True, exist_ok=True)
for name in load_split()["train"]:
    shutil.copyfile(src / "images" / name, dest / "images" / name)
    shutil.copyfile(src / "labels" / (Path(name).stem + ".txt"), dest / "labels" / (Path(name).stem + ".txt"))
PYEOF
rm -rf "$B/real-labels" && cp -r "$LABELS" "$B/real-labels"
cp "$WARM" "$B/warm.pt"
rm -f "$B/warm-cls.pt"; [ -z "$WARM_CLS" ] || cp "$WARM_CLS" "$B/warm-cls.pt"
du -sh "$B"
