"""Merge several crops trees (``{train,val}/<code>/*.png``) into one, by symlinks.

Shards rendered with different seeds reuse file names, so each shard's files get the
shard's folder name as a prefix:

    python -m vision.training.merge_crops runs/crops-a runs/crops-b --out runs/crops
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["link_tree", "merge_trees"]


def link_tree(src: Path, dst: Path, prefix: str = "") -> int:
    """Symlink every PNG of ``src`` into the same place under ``dst``, its name prefixed;
    returns the number of files linked (existing links are kept: resumable)."""
    n = 0
    for f in sorted(src.rglob("*.png")):
        rel = f.relative_to(src)
        target = dst / rel.parent / f"{prefix}{rel.name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.symlink_to(f.resolve())
        n += 1
    return n


def merge_trees(sources: list[Path], dest: Path) -> int:
    """Link every PNG of each source into ``dest`` under ``<source name>_<file name>``."""
    return sum(link_tree(src, dest, f"{src.name}_") for src in sources)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sources", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    print(f"{merge_trees(args.sources, args.out)} crops linked into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
