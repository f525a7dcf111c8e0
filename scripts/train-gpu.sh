#!/usr/bin/env bash
# Train the detector and the classifier side by side on one CUDA GPU, within a time budget.
#
#   scripts/train-gpu.sh STAGE RUN_MINUTES [INIT_DIR]
#
# STAGE 1 renders a fresh data set with every CPU core (seeds 100+, never the validation
# seeds 11 / 21 of the model card), adds the real training photos and tiles (never the
# validation ones), then trains both models from INIT_DIR/{detector,classifier}.pt for
# RUN_MINUTES. Any later STAGE reuses the data already rendered (or renders it again on a
# fresh machine) and continues from INIT_DIR. Checkpoints land in runs/gpu-*-sSTAGE/; the
# ONNX export is done afterwards on the CPU machine (see models/README.md).
# Needs python3 with torch (CUDA), ultralytics, onnx, opencv, pillow, tqdm and the CJK fonts.
set -euo pipefail
cd "$(dirname "$0")/.."
STAGE=${1:?stage}; MINUTES=${2:?minutes}; INIT=${3:-runs/gpu-init}
PY=${PYTHON:-python3}
G=datasets/generated/gpu
SYNTH_SECONDS=${SYNTH_SECONDS:-150}  # rendering budget (scenes; crops stop at their count)
CORES=$(nproc)
export YOLO_CONFIG_DIR=$PWD/.yolo YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 ULTRALYTICS_SKIP_REQUIREMENTS_CHECKS=1
mkdir -p "$G" runs
log() { echo "[$(date +%T)] $*"; }

if [ ! -f "$G/det/data.yaml" ] || [ ! -f "$G/crops/recipe.json" ]; then
  log "rendering for ${SYNTH_SECONDS}s on $CORES cores"
  shards=$(( CORES / 3 )); [ "$shards" -ge 1 ] || shards=1
  # scenes for as long as the budget allows; each crops shard stops at its own count
  timeout "$SYNTH_SECONDS" $PY -m mahjongero synth scenes --kind mixed --n 40000 --seed 100 \
    --val-frac 0.02 --workers $(( CORES - shards )) --quiet --out "$G/scenes" &
  for k in $(seq 1 "$shards") ; do
    $PY -m mahjongero synth crops --per-class 150 --val-per-class 10 \
      --seed $(( 100 + k )) --quiet --out "$G/crops-raw-$k" &
  done
  wait || true
  log "squaring crops, cutting real tiles"
  for k in $(seq 1 "$shards"); do
    $PY -c "from pathlib import Path; from vision.training.datasets import square_crops; square_crops(Path('$G/crops-raw-$k'), Path('$G/crops-sq-$k'))" &
  done
  wait
  $PY -m vision.training.merge_crops "$G"/crops-sq-* --out "$G/crops-sq"
  $PY -m vision.training.real_crops --synthetic "$G/crops-sq" --out "$G/crops" --copies "${REAL_COPIES:-10}" \
    --real "${REAL_DIR:-../shared/data/mahjong-yolo-v2-train}"
  $PY -m vision.training.prepare --scenes "$G/scenes" --real-repeats 20 --out "$G/det" \
    --real "${REAL_DIR:-../shared/data/mahjong-yolo-v2-train}"
  log "data: $(find "$G/scenes/images" -name '*.jpg' | wc -l) scenes, $(find -L "$G/crops/train" -name '*.png' | wc -l) train crops"
fi

hours=$(python3 -c "print(round($MINUTES / 60, 4))")
log "training both for $MINUTES min"
$PY -m mahjongero train detector --data "$G/det/data.yaml" --model "$INIT/detector.pt" --imgsz 640 \
  --batch 64 --hours "$hours" --workers 10 --threads 4 --cache --device 0 --out runs \
  --name "gpu-det-s$STAGE" > "runs/gpu-det-s$STAGE.log" 2>&1 &
det=$!
$PY -m mahjongero train classifier --data "$G/crops" --model "$INIT/classifier.pt" --imgsz 64 \
  --batch 512 --hours "$hours" --workers 5 --threads 2 --cache --device 0 --out runs \
  --name "gpu-cls-s$STAGE" > "runs/gpu-cls-s$STAGE.log" 2>&1 &
cls=$!
wait $det $cls || true
log "done"
tail -n 4 "runs/gpu-det-s$STAGE.log" "runs/gpu-cls-s$STAGE.log"
