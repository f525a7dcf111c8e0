"""The web Referee page against the engine: hands the bots play in full mode, typed into the
page event by event as a person at the table would (the page's referee sees only what is
shown), must leave the page's ledger paying what the engine paid. Run:

    .venv/bin/python benchmarks/bench_referee_page.py [--hands 100] [--table-hands 1] [--jai-alai]
        [--render] [--undo 0.3] [--restart 0.1]

``--hands`` tables per variant (seeds 0 to hands-1: greedy bots on even seeds, random on odd
ones), each playing ``--table-hands`` hands in a row;
``--undo``: each event at that rate undone and typed again; ``--restart``: the server
restarted on its data at that rate after an event. Prints JSON: tables and hands typed, the
tables whose page paid as the engine did, the problems (none expected), and the time taken.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.webui.referee_forms import PAGE_NAME, engine_paid, played, type_into_page  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100, help="tables per variant")
    ap.add_argument("--table-hands", type=int, default=1, help="hands one table plays (dealer, wind, markers carried)")
    ap.add_argument("--jai-alai", action="store_true", help="Filipino and Visayan tables play the jai alái pot")
    ap.add_argument("--render", action="store_true", help="show the page after each event, as a browser does")
    ap.add_argument("--undo", type=float, default=0.0)
    ap.add_argument("--restart", type=float, default=0.0)
    args = ap.parse_args(argv)
    rng = random.Random(5)
    tables = hands = identical = events = 0
    problems: list[str] = []
    start = time.perf_counter()
    for variant in PAGE_NAME:
        for seed in range(args.hands):
            pot = args.jai_alai and variant in ("filipino", "visayan")
            games = played(variant, seed, args.table_hands, **({"jai_alai": True} if pot else {}))
            with tempfile.TemporaryDirectory() as data:
                page, problem = type_into_page(games, data, rules={"jai_alai": "1"} if pot else {},
                                               render=args.render, undo=args.undo, restart=args.restart, rng=rng)
            tables, hands, events = tables + 1, hands + len(games), events + sum(len(g.history) for g in games)
            wanted = engine_paid(games)
            if not problem and page == wanted:
                identical += 1
            else:
                problems.append(f"{variant} {seed}: {problem or f'page paid {page}, engine {wanted}'}")
    report = {"tables": tables, "hands": hands, "tables_paid_alike": identical, "actions": events, "problems": problems,
              "seconds": round(time.perf_counter() - start, 1)}
    print(json.dumps(report, indent=1, default=str))
    return 0 if tables == identical else 1


if __name__ == "__main__":
    raise SystemExit(main())
