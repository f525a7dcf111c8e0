#!/usr/bin/env bash
# Fine-tune the detector (and, when .dev/warm-cls.pt is bundled, the classifier beside it) on
# one CUDA GPU within a time budget; the GPU-1 detector of models/README.md was made so.
#
#   scripts/train-gpu.sh            # on the GPU machine, in the repo, after scripts/device-bundle.sh
#
# Renders fresh scenes with every core (seeds never used for validation: 31 and 41 are held
# out), adds the real training photos REPEATS times with their completed labels, trains from
# .dev/warm.pt until END_S seconds after the start, and leaves last.pt (optimizer stripped),
# results.csv and train.log in OUTDIR. With .dev/warm-cls.pt, CSHARDS crop shards are rendered
# beside the scenes (seeds SEEDC...), the real training tiles cut 10 times, and the classifier
# trained in parallel: cls-last.pt, cls-results.csv, cls-train.log. Export to ONNX afterwards
# on the CPU machine (480 for the detector, 64 for the classifier):
#   python -c "from pathlib import Path; from vision.training.train import export_onnx as e; \
#              e(Path('last.pt'), Path('models/detector.onnx'), 480, True)"
# Settings (environment): NMIX, NHAND scenes of each kind; SEEDM, SEEDH their seeds; REPEATS;
# BOXES (face, as the shipped detector since v6 boxes a face-up tile, like the real labels; or
# tile); ZOOM crops of each scene whose tiles are small at 480, at the scale the zoom serves
# it (0: none; stop 51 on CPU, from d6 at 0.905: mAP50 0.920 on the held-out scenes, but two
# real hands fewer than v6: gate the result, HISTORY.md); END_S; BATCH; RW / TW render and
# data-loading processes; CSHARDS, CPER, SEEDC, CLR
# (classifier lr), CFACE (share of face-up crops cut around the face, as the detector boxes
# them), CSTYLES (set designs the crops are drawn in; empty: the usual 48); CBLUR, CSHAKE
# (shares of the real tiles' copies cut from the photo blurred, or blurred along a line as by a
# hand that moved); FINETUNE (1: both continue their warm starts by `train --finetune`: SGD, no
# mosaic and no warm-up for the detector, no warm-up for the classifier); FREEZE (the
# detector's first layers kept: 11, its backbone); DET (0: the classifier alone, every core
# rendering crops and feeding it; no scenes); CLR may list several rates ("0.0003 0.0006"):
# one classifier each, side by side on the one GPU, named cls1, cls2 ... (cls when one);
# DEV ("0", or cpu for a dry run here); PY;
# OUTDIR (default $OUT, the device tool's folder); G (scratch). Besides each last.pt, the
# epochs a third and two thirds through are kept (det-epochN.pt, cls-epochN.pt) to gate too.
set -euo pipefail
cd "$(dirname "$0")/.."
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
PY=${PY:-python3}; DEV=${DEV:-0}; NMIX=${NMIX:-6000}; NHAND=${NHAND:-1500}
SEEDM=${SEEDM:-300}; SEEDH=${SEEDH:-301}; REPEATS=${REPEATS:-6}; BATCH=${BATCH:-64}
RW=${RW:-$(nproc)}; TW=${TW:-$(( $(nproc) - 2 ))}; END_S=${END_S:-490}
CSHARDS=${CSHARDS:-4}; SEEDC=${SEEDC:-400}; CLR=${CLR:-0.0003}; CPER=${CPER:-150}
BOXES=${BOXES:-face}; ZOOM=${ZOOM:-2}; CFACE=${CFACE:-0.5}; CSTYLES=${CSTYLES:-}
CBLUR=${CBLUR:-0}; CSHAKE=${CSHAKE:-0}; FINETUNE=${FINETUNE:-0}; FREEZE=${FREEZE:-0}; DET=${DET:-1}
read -r -a CLRS <<< "$CLR"
FT=(); [ "$FINETUNE" = 1 ] && FT=(--finetune)
CLS=0; [ -f .dev/warm-cls.pt ] && CLS=1
if [ "$DET" = 0 ] && [ $CLS = 0 ]; then echo "DET=0 needs .dev/warm-cls.pt" >&2; exit 2; fi
if [ $CLS = 1 ] && [ "$DET" = 1 ]; then RW=$(( RW > CSHARDS + 1 ? RW - CSHARDS : 1 )); TW=$(( TW > 6 ? TW - 5 : 1 )); fi
# the classifiers' data-loading processes: what the detector leaves, shared between them
CW=$(( DET == 1 ? 4 : ( $(nproc) - 2 ) / ${#CLRS[@]} )); CW=$(( CW > 0 ? CW : 1 ))
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
cpids=()
if [ $CLS = 1 ]; then
  for k in $(seq 0 $(( CSHARDS - 1 ))); do
    $PY -m mahjongero synth crops --per-class "$CPER" --val-per-class 2 --seed $(( SEEDC + k )) --quiet \
      --face-share "$CFACE" ${CSTYLES:+--styles "$CSTYLES"} --out "$G/crops-$k" > "$G/crops-$k.log" 2>&1 &
    cpids+=($!)
  done
fi
if [ "$DET" = 1 ]; then
  $PY -m mahjongero synth scenes --kind mixed --n "$NMIX" --seed "$SEEDM" --val-frac 0.02 --workers "$RW" --quiet --out "$G/mixed"
  $PY -m mahjongero synth scenes --kind hand --n "$NHAND" --seed "$SEEDH" --val-frac 0.02 --workers "$RW" --quiet --out "$G/hand"
fi
el prepare
if [ $CLS = 1 ]; then
  for pid in "${cpids[@]}"; do wait "$pid"; done
  $PY -m vision.training.merge_crops "$G"/crops-[0-9]* --out "$G/crops-syn"
  $PY -m vision.training.real_crops --synthetic "$G/crops-syn" --out "$G/crops" --copies 10 --real .dev/real \
    --blur-share "$CBLUR" --shake-share "$CSHAKE"
fi
if [ "$DET" = 1 ]; then
  $PY -m vision.training.prepare --scenes "$G/mixed" "$G/hand" --real .dev/real --real-repeats "$REPEATS" \
    --real-labels .dev/real-labels --boxes "$BOXES" --zoom-crops "$ZOOM" --imgsz 480 --out "$G/det"
fi
H=$($PY -c "print(max(0.002, ($END_S - ($(date +%s) - $T0)) / 3600))")
el "train for $H h"
# progress bars rewrite one line with \r: keep the epoch lines only
cls_pids=()
if [ $CLS = 1 ]; then
  for i in "${!CLRS[@]}"; do
    name=cls; [ ${#CLRS[@]} -gt 1 ] && name=cls$(( i + 1 ))
    $PY -m mahjongero train classifier --data "$G/crops" --model .dev/warm-cls.pt --hours "$H" --lr0 "${CLRS[$i]}" \
      --batch 256 --workers "$CW" --threads 2 --device "$DEV" --cache --out "$G/runs" --name "$name" "${FT[@]}" \
      2>&1 | tr '\r' '\n' | grep -v "it/s\]$" > "$OUTDIR/$name-train.log" &
    cls_pids+=($!)
  done
fi
if [ "$DET" = 1 ]; then
  $PY -m mahjongero train detector --data "$G/det/data.yaml" --model .dev/warm.pt --imgsz 480 \
    --hours "$H" --batch "$BATCH" --workers "$TW" --threads 8 --device "$DEV" --cache --out "$G/runs" --name gpu \
    "${FT[@]}" --freeze "$FREEZE" \
    2>&1 | tr '\r' '\n' | grep -v "it/s\]$" > "$OUTDIR/train.log" || { tail -40 "$OUTDIR/train.log"; exit 1; }
fi
[ "$DET" = 1 ] && tail -8 "$OUTDIR/train.log"
for pid in "${cls_pids[@]}"; do wait "$pid" || { tail -40 "$OUTDIR"/cls*-train.log; exit 1; }; done
[ $CLS = 1 ] && tail -n 4 "$OUTDIR"/cls*-train.log
$PY - "$G/runs" "$OUTDIR" <<'PYEOF'
import shutil, sys
from pathlib import Path
from vision.training import tv_shim
tv_shim.install()  # a CPU torch's torchvision (a dry run here) needs it; CUDA machines are untouched
from ultralytics.utils.torch_utils import strip_optimizer
runs, out = Path(sys.argv[1]), Path(sys.argv[2])
for run in sorted(runs.iterdir()):
    prefix, kept = ("", "det-") if run.name == "gpu" else (f"{run.name}-",) * 2
    if not (run / "weights" / "last.pt").is_file():
        continue
    epochs = sorted(run.glob("weights/epoch*.pt"), key=lambda p: int(p.stem[5:]))
    picks = {epochs[len(epochs) // 3], epochs[2 * len(epochs) // 3]} if len(epochs) >= 3 else set()
    for src, name in [(run / "weights" / "last.pt", f"{prefix}last.pt")] + [(p, kept + p.name) for p in picks]:
        shutil.copyfile(src, out / name)
        strip_optimizer(out / name)  # 5 MB, not 16: the device tool returns files up to 16 MB
    for name in ("results.csv", "args.yaml"):
        shutil.copyfile(run / name, out / f"{prefix}{name}")
PYEOF
el done
