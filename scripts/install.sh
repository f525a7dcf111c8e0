#!/usr/bin/env bash
# Creates .venv and installs everything: runtime, dev tools, and the training extra.
# torch must come first and pinned: the CPU build lies on this machine's disk, any other
# version would pull several GB of CUDA wheels (see ../shared/ENVIRONMENT.md).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
PIP=(.venv/bin/python -m pip -q --disable-pip-version-check)
"${PIP[@]}" install --upgrade pip
"${PIP[@]}" install torch==2.13.0
"${PIP[@]}" install -c constraints.txt -e '.[dev,train]'
# ultralytics drags in opencv-python (the GUI build), which shadows the headless cv2: keep one.
if .venv/bin/python -m pip show opencv-python >/dev/null 2>&1; then
  "${PIP[@]}" uninstall -y opencv-python
  ver=$(.venv/bin/python -m pip show opencv-python-headless | awk '/^Version:/{print $2}')
  "${PIP[@]}" install --force-reinstall --no-deps "opencv-python-headless==${ver}"
fi
bash scripts/system-deps.sh
