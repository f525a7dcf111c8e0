"""One line of figures from a ``scripts/gate-detector.sh`` candidate's logs.

    python scripts/gate_summary.py /tmp/gate/1-f52 1-f52

A figure whose log is missing or did not print it shows as ``?``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def _read(folder: Path, name: str) -> str:
    path = folder / name
    return path.read_text(errors="replace") if path.is_file() else ""


def real(text: str) -> str:
    """Recall, end to end and hands right of ``mahjongero eval --json``'s printout.

    >>> real('{"recall@0.5": 0.9815, "tile_accuracy_end_to_end": 0.9613, "hands_fully_labelled": 41, '
    ...      '"hands_read_right": 0.8293}')
    'real 0.9815 / 96.13 % / 34 of 41'
    """
    try:
        got = json.loads(text)
        n = int(got["hands_fully_labelled"])
        hands = round(float(got["hands_read_right"]) * n)
        return f"real {got['recall@0.5']} / {100 * float(got['tile_accuracy_end_to_end']):.2f} % / {hands} of {n}"
    except (ValueError, KeyError, TypeError):  # no log, or an eval that did not finish
        return "real ?"


def perturbed(text: str) -> str:
    """Far hands (means over the table's places) and the three looks' hands.

    >>> perturbed('{"from twice as far": {"hands_right": 34.0}}\\n{"upside down": {"hands_right": 31}}')
    'far 34.0 / ? | looks ? / 31 / ?'
    """
    rows: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        if line.startswith("{"):
            rows.update(json.loads(line))

    def hands(name: str, digits: int | None = None) -> str:  # digits: decimals of a mean
        value = rows.get(name, {}).get("hands_right")
        return "?" if value is None else f"{value:g}" if digits is None else f"{value:.{digits}f}"

    far = f"far {hands('from twice as far', 1)} / {hands('from three times as far', 1)}"
    looks = [hands(k) for k in ("saved again as JPEG 95", "upside down", "blurred (sigma 1 px)")]
    return f"{far} | looks {' / '.join(looks)}"


def page(text: str) -> str:
    """The photo page's hands held and named.

    >>> page("of 45 photos, the hand read holds exactly the labelled tiles in 40, and names them all right in 33 of")
    'page 40 / 33 of 45'
    """
    m = re.search(r"of (\d+) photos, the hand read holds exactly the labelled tiles in (\d+), "
                  r"and names them all right in (\d+)", text)
    return f"page {m[2]} / {m[3]} of {m[1]}" if m else "page ?"


def passed(text: str, name: str) -> str:
    """``name`` and whether its pytest run exited 0 (the script's last line, ``exit N``).

    >>> passed("8 passed in 3.1s\\nexit 0", "zoom"), passed("1 failed, 7 passed\\nexit 1", "zoom"), passed("", "demo")
    ('zoom passes', 'zoom FAILS', 'demo ?')
    """
    m = re.search(r"^exit (\d+)\s*\Z", text.strip(), re.M)
    if not m:
        return f"{name} ?"
    return f"{name} {'passes' if m[1] == '0' else 'FAILS'}"


def live(text: str) -> str:
    """Scripted events right and frames processed a second.

    >>> live("... 100.0 s of playback (0 dropped by the capture): 10.0 fps processed ...\\n"
    ...      "scripted events right, in order: 16/16 (events out: 16), refused by the referee: 0")
    'live 16/16, 10.0 fps'
    """
    events = re.search(r"scripted events right, in order: (\d+/\d+)", text)
    fps = re.search(r"([\d.]+) fps processed", text)
    return f"live {events[1] if events else '?'}, {fps[1] if fps else '?'} fps"


def renders(folder: Path) -> str:
    """Held / in place / named, summed over the ``hands-SEED.txt`` logs."""
    sums, seeds = [0, 0, 0], 0
    for path in sorted(folder.glob("hands-*.txt")):
        m = re.search(r"in (\d+), puts each in its place.*? in (\d+).*?names them all right in (\d+)",
                      path.read_text(errors="replace"))
        if m:
            seeds += 1
            sums = [a + int(b) for a, b in zip(sums, m.groups(), strict=True)]
    if not seeds:
        return "renders ?"
    return f"renders {sums[0]:,} / {sums[1]:,} / {sums[2]:,} of {300 * seeds:,} ({seeds} seed{'s' * (seeds > 1)})"


def summary(folder: Path, name: str) -> str:
    parts = [real(_read(folder, "real.json")), perturbed(_read(folder, "perturbed.txt")),
             page(_read(folder, "page.txt")), passed(_read(folder, "zoom.txt"), "zoom"),
             passed(_read(folder, "demo.txt"), "demo"), live(_read(folder, "live.txt")), renders(folder)]
    return f"{name}: " + " | ".join(parts)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python scripts/gate_summary.py LOG_FOLDER NAME")
    print(summary(Path(sys.argv[1]), sys.argv[2]))
