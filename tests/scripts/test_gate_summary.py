"""scripts/gate_summary.py: one line of a candidate detector's gate figures from its logs."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gate_summary.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gate_summary", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gate_summary"] = module
    spec.loader.exec_module(module)
    return module


def test_the_examples_in_its_docstrings() -> None:
    failed, tried = doctest.testmod(_module(), optionflags=doctest.ELLIPSIS)
    assert tried >= 5 and failed == 0


def test_a_candidates_logs_make_one_line(tmp_path: Path) -> None:
    gs = _module()
    (tmp_path / "real.json").write_text('{"recall@0.5": 0.9829, "tile_accuracy_end_to_end": 0.9641, '
                                        '"hands_fully_labelled": 41, "hands_read_right": 0.8537}')
    (tmp_path / "perturbed.txt").write_text('{"from twice as far": {"hands_right": 34.3333}}\n'
                                            '{"from three times as far": {"hands_right": 32.5}}\n'
                                            '{"saved again as JPEG 95": {"hands_right": 33}}\n')
    (tmp_path / "zoom.txt").write_text("F.......\n1 failed, 7 passed in 9.0s\nexit 1\n")
    for seed, held in ((4110, 178), (4111, 164)):
        (tmp_path / f"hands-{seed}.txt").write_text(
            f"models detections, face boxes: of 300 rendered hand scenes (seed {seed}, dealt rules), the hand read "
            f"holds exactly seat 0's hand, meld and flower tiles in {held}, puts each in its place (concealed row, "
            "each meld, flowers) in 150, and names them all right in 100\n")
    line = gs.summary(tmp_path, "1-cand")
    assert line.startswith("1-cand: real 0.9829 / 96.41 % / 35 of 41 | far 34.3 / 32.5 | looks 33 / ? / ? | page ?")
    assert "zoom FAILS" in line and "demo ?" in line and "live ?, ? fps" in line
    assert line.endswith("renders 342 / 300 / 200 of 600 (2 seeds)")
