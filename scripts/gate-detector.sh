#!/usr/bin/env bash
# Gate a candidate detector: the figures a new detector must hold before it ships, in one run.
#
#   scripts/gate-detector.sh CANDIDATE.onnx [CANDIDATE2.onnx ...]
#
# Each candidate is copied over models/detector.onnx in a scratch git worktree of HEAD (commit
# first: uncommitted changes are not in it), the shared data linked beside it, and read with
# this checkout's .venv. About 15 minutes a candidate on 2 cores. Printed per candidate, then
# summed up (logs in $GATE, default /tmp/gate):
#   real    the 45 real validation photos: recall, end to end, hands of 41     (mahjongero eval)
#   far     from 2x and 3x as far, mean hands over six places on the table      (bench_real_perturbed)
#   looks   JPEG 95 / upside down / blurred 1 px: hands                         (bench_real_perturbed)
#   page    the photo page on the validation photos: held / named               (bench_real_photos)
#   zoom    tests/vision/test_zoom.py; demo: the web page's demo test (playwright)
#   live    bench_live --reader models: scripted events right, fps
#   renders rendered hand photos, SEEDS (default 4110-4125): held / in place / named
# What to hold them to (models/HISTORY.md, stops 52-54): real hands not more than one fewer
# than the shipped detector, far means not lower by more than one hand, zoom and demo pass,
# live 16/16, renders not fewer. Run the shipped file through it too, for the same code's figures:
#   scripts/gate-detector.sh models/detector.onnx runs/candidate.onnx
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PY:-$ROOT/.venv/bin/python}
SEEDS=${SEEDS:-$(seq -s ' ' 4110 4125)}
GATE=${GATE:-/tmp/gate}
[ $# -ge 1 ] || { echo "usage: scripts/gate-detector.sh CANDIDATE.onnx [...]" >&2; exit 2; }
for c in "$@"; do [ -f "$c" ] || { echo "gate: no file '$c'" >&2; exit 2; }; done
export YOLO_CONFIG_DIR=$ROOT/.yolo YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 ULTRALYTICS_SKIP_REQUIREMENTS_CHECKS=1
mkdir -p "$GATE"
ln -sfn "$(cd "$ROOT/.." && pwd)/shared" "$GATE/shared"   # the worktree finds ../shared as the checkout does
trap 'git worktree remove --force "$GATE/wt" 2>/dev/null || true' EXIT   # a gate that crashes leaves no worktree

gate() {  # candidate $2, the $1-th: every gate's log in $GATE/<k>-<name>/
    local cand name wt log
    cand=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
    name=$1-$(basename "$2" .onnx)
    wt=$GATE/wt; log=$GATE/$name
    rm -rf "$log"; mkdir -p "$log"
    git worktree remove --force "$wt" 2>/dev/null || true
    git worktree add -q --detach "$wt" HEAD
    cp "$cand" "$wt/models/detector.onnx"
    (
        cd "$wt"
        $PY -m mahjongero eval --data ../shared/data/mahjong-yolo-v2-train --split datasets/real-split.json \
            --codes tests/data/real_tiles.csv --json > "$log/real.json" 2> "$log/real.err"
        $PY benchmarks/bench_real_perturbed.py --only "from twice as far" "from three times as far" \
            "saved again as JPEG 95" "upside down" "blurred (sigma 1 px)" > "$log/perturbed.txt" 2>&1
        $PY benchmarks/bench_real_photos.py > "$log/page.txt" 2>&1
        rc=0; $PY -m pytest tests/vision/test_zoom.py > "$log/zoom.txt" 2>&1 || rc=$?
        echo "exit $rc" >> "$log/zoom.txt"
        rc=0; $PY -m pytest tests/webui/test_browser.py -k demo > "$log/demo.txt" 2>&1 || rc=$?
        echo "exit $rc" >> "$log/demo.txt"
        $PY benchmarks/bench_live.py --reader models --no-calibration > "$log/live.txt" 2>&1
        for s in $SEEDS; do
            $PY benchmarks/bench_hand_regions.py --seed "$s" --reader models > "$log/hands-$s.txt" 2>&1
        done
    )
    git worktree remove --force "$wt"
    $PY scripts/gate_summary.py "$log" "$name"
}

k=0; for c in "$@"; do k=$((k + 1)); gate "$k" "$c"; done
echo
k=0; for c in "$@"; do k=$((k + 1)); n=$k-$(basename "$c" .onnx); $PY scripts/gate_summary.py "$GATE/$n" "$n"; done
