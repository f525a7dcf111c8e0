#!/usr/bin/env bash
# Fine-tune the detector on one CUDA GPU within a time budget (detector v6 was made so).
#
#   scripts/train-gpu.sh            # on the GPU machine, in the repo, after scripts/device-bundle.sh
#
# Renders fresh scenes with every core (seeds never used for validation: 31 is held out),
# adds the real training photos REPEATS times with their completed labels, trains from
# .dev/warm.pt until END_S seconds after the start, and leaves last.pt (optimizer stripped),
# results.csv and train.log in OUTDIR. Export to ONNX afterwards on the CPU machine:
#   python -c "from pathlib import Path; from vision.training.train import export_onnx as e; \
#              e(Path('last.pt'), Path('models/detector.onnx'), 480, True)"
# Settings (environment): NMIX, NHAND scenes of each kind; SEEDM, SEEDH their seeds; REPEATS;
# END_S; BATCH; RW / TW render and data-loading processes; DEV ("0", or cpu for a dry run
# here); PY; OUTDIR (default $OUT, the device tool's folder); G (scratch).
set -euo pipefail
cd "$(dirname "$0")/.."
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
PY=${PY:-python3}; DEV=${DEV:-0}; NMIX=${NMIX:-6000}; NHAND=${NHAND:-1500}
SEEDM=${SEEDM:-300}; SEEDH=${SEEDH:-301}; REPEATS=${REPEATS:-6}; BATCH=${BATCH:-64}
RW=${RW:-$(nproc)}; TW=${TW:-$(( $(nproc) - 2 ))}; END_S=${END_S:-490}
OUTDIR=${OUTDIR:-${OUT:?set OUTDIR}}; G=${G:-/tmp/gen}
mkdir -p /tmp/site "$OUTDIR" "$G"
tar -xJf .dev/pylibs.tar.xz -C /tmp/site
# the fonts go where vision.synth.fonts looks for them (not on a dry run here: ours are there)
if [ "$DEV" != cpu ]; then tar -xf .dev/fonts.tar -C /; fi
export PYTHONPATH=/tmp/site:$PWD YOLO_CONFIG_DIR=/tmp/yolo YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 \
  ULTRALYTICS_SKIP_REQUIREMENTS_CHECKS=1 PYTHONUNBUFFERED=1 MPLBACKEND=Agg
$PY -c "import torch, ultralytics; from vision.synth.fonts import available_families as a; \
print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'ultralytics', ultralytics.__version__, len(a()), 'CJK faces')"
el render
$PY -m mahjongero synth scenes --kind mixed --n "$NMIX" --seed "$SEEDM" --val-frac 0.02 --workers "$RW" --quiet --out "$G/mixed"
$PY -m mahjongero synth scenes --kind hand --n "$NHAND" --seed "$SEEDH" --val-frac 0.02 --workers "$RW" --quiet --out "$G/hand"
el prepare
$PY -m vision.training.prepare --scenes "$G/mixed" "$G/hand" --real .dev/real --real-repeats "$REPEATS" \
  --real-labels .dev/real-labels --out "$G/det"
H=$($PY -c "print(max(0.002, ($END_S - ($(date +%s) - $T0)) / 3600))")
el "train for $H h"
# progress bars rewrite one line with \r: keep the epoch lines only
$PY -m mahjongero train detector --data "$G/det/data.yaml" --model .dev/warm.pt --imgsz 480 \
  --hours "$H" --batch "$BATCH" --workers "$TW" --threads 8 --device "$DEV" --cache --out "$G/runs" --name gpu \
  2>&1 | tr '\r' '\n' | grep -v "it/s\]$" > "$OUTDIR/train.log" || { tail -40 "$OUTDIR/train.log"; exit 1; }
tail -8 "$OUTDIR/train.log"
$PY - "$G/runs/gpu" "$OUTDIR" <<'PYEOF'
import shutil, sys
from pathlib import Path
from ultralytics.utils.torch_utils import strip_optimizer
run, out = Path(sys.argv[1]), Path(sys.argv[2])
shutil.copyfile(run / "weights" / "last.pt", out / "last.pt")
strip_optimizer(out / "last.pt")  # 5 MB instead of 16: the device tool returns files up to 16 MB
for name in ("results.csv", "args.yaml"):
    shutil.copyfile(run / name, out / name)
PYEOF
el done
