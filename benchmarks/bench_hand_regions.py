"""Hand regions on rendered hand photos: is the hand read from a photo the photographer's?

``mahjongero score PHOTO`` finds the tiles, then ``vision.regions.HandRegions`` tells the
photographer's hand (concealed row, melds, flowers) from everything else in view: discards,
the wall, other players' hands. Rendered hand scenes know which tiles are whose. This
counts the scenes whose reading holds exactly seat 0's hand, meld and flower tiles (each
matched at IoU 0.5, nothing else), and of those the scenes whose reading also puts each
tile in its place (``placed``: the concealed row, each meld, the flowers), with the
renderer's own boxes as the detections
(``--reader truth``: face-up tiles boxed by their faces, as the shipped detector boxes them,
and by the whole tile) or the shipped models' (``--reader models``, which also counts the
hands named right). Real photos: ``benchmarks/bench_real_photos.py``.

    .venv/bin/python benchmarks/bench_hand_regions.py [--n 300] [--seed 4062] [--reader truth|models] [--why]
        [--deal rules|any]

Since stop 34 the scenes are dealt as their variant is played (``--deal rules``): the
training renders deal any tile anywhere, and half their hand photos discard a flower or (in
Filipino, where every honour is one) an honour, which no table does and which a reading then
takes for the hand's flower. ``--deal any`` gives the figures of the renders before.

``--why`` also counts the photos by what their reading gets wrong (``faults``).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tiles import Tile  # noqa: E402
from vision.detections import Detections, box_iou  # noqa: E402
from vision.evaluation import hand_read_exactly  # noqa: E402
from vision.pipeline import _is_bonus, load_ruleset  # noqa: E402
from vision.readings import HandReading  # noqa: E402
from vision.regions import HandRegions  # noqa: E402
from vision.scripted import labels_to_detections  # noqa: E402


def read(regions: HandRegions, dets: Detections, size: tuple[int, int]) -> HandReading | None:
    """The hand ``regions`` read from ``dets``; None when the photo is refused (no tiles, two
    hands). Read once a photo, and judged by ``exact``, ``placed`` and ``faults``."""
    try:
        return regions(dets, size)
    except ValueError:
        return None


def exact(reading: HandReading | None, own: np.ndarray, codes: list[int]) -> tuple[bool, bool]:
    """Whether the reading holds exactly the ``own`` boxes, and names them all right too."""
    return hand_read_exactly(reading, own, codes) if reading is not None else (False, False)


OWN = ("hand", "meld", "flower")  # seat 0's regions: the photographer's hand


def placed(reading: HandReading | None, is_bonus: Callable[[Tile], bool], truth: Detections,
           labels: list[dict]) -> bool:
    """Whether the reading holds exactly seat 0's tiles and puts each where the renderer laid
    it: the concealed row's in the concealed row, each meld's together in one meld, the
    flowers among the flowers. The scorer needs it (a concealed tile read as melded loses a
    concealed hand's points). A tile read as a flower that the variant's rules make one
    counts wherever it lay: dealt ``any``, the renderer puts honours into Filipino hands and
    melds, where every honour is a flower (``is_bonus``: the variant's rules)."""
    if reading is None:
        return False
    mine = np.array([lab["seat"] == 0 and lab["region"] in OWN for lab in labels], bool)
    if not hand_read_exactly(reading, truth.xyxy[mine], [])[0]:
        return False
    items = [(item, region, group) for item, region, group in reading.items() if region != "other"]
    boxes = np.array([item.box for item, _, _ in items], np.float32).reshape(-1, 4)
    laid: dict[int, set[int]] = {}
    read: dict[int, set[int]] = {}
    for k, j in zip(np.flatnonzero(mine), box_iou(truth.xyxy[mine], boxes).argmax(1), strict=True):
        item, region, group = items[j]
        if region == "flower" and is_bonus(item.tile):
            continue
        if region != labels[k]["region"]:
            return False
        if region == "meld":
            laid.setdefault(labels[k]["group"], set()).add(int(j))
            read.setdefault(int(group), set()).add(int(j))  # type: ignore[arg-type]
    return sorted(map(sorted, laid.values())) == sorted(map(sorted, read.values()))


def faults(reading: HandReading | None, is_bonus: Callable[[Tile], bool], truth: Detections,
           labels: list[dict]) -> set[str]:
    """What a reading gets wrong, by the renderer's regions: seat 0's tiles of a region left
    out ("meld left out": not read as the hand's, or not found), read in another of its
    regions ("hand read as meld"; a bonus tile read as a flower is in its place), and other
    tiles taken in ("discard taken in": read as the hand's, its melds or flowers), or a box
    that is no tile's; "refused"."""
    if reading is None:
        return {"refused"}
    mine = [(i, region) for i, region, _ in reading.items() if region != "other"]
    iou = box_iou(truth.xyxy, np.array([i.box for i, _ in mine], np.float32).reshape(-1, 4))
    out = set()
    for lab, best, match in zip(labels, iou.max(1, initial=0), iou.argmax(1) if len(mine) else [0] * len(labels),
                                strict=True):
        own, held = lab["seat"] == 0 and lab["region"] in OWN, best >= 0.5
        if own and not held:
            out.add(f"{lab['region']} left out")
        elif held and not own:
            out.add(f"{'other seat' if lab['region'] in OWN else lab['region']} taken in")
        elif held and (region := mine[match][1]) != lab["region"]:
            if not (region == "flower" and is_bonus(mine[match][0].tile)):
                out.add(f"{lab['region']} read as {region}")
    if len(mine) and (iou.max(0, initial=0) < 0.5).any():
        out.add("box of no tile taken in")  # a second box of a tile, or of nothing
    return out


@functools.cache
def regions_for(variant: str) -> HandRegions:
    """Hand regions under ``variant``'s rules (in Filipino every honour is a flower); a
    variant the engine does not play (the renderer deals Hong Kong and American tables too):
    flowers, seasons and animals are the bonus tiles."""
    try:
        ruleset = load_ruleset(variant)
    except ValueError:
        ruleset = None
    return HandRegions(is_bonus=_is_bonus(ruleset))


def _arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=300)
    p.add_argument("--seed", type=int, default=4062)
    p.add_argument("--variant", default=None, help="the rules that say which tiles are flowers "
                   "(default: each scene's own; a variant the engine does not play: flowers and seasons)")
    p.add_argument("--reader", choices=("truth", "models"), default="truth")
    p.add_argument("--why", action="store_true", help="also count the photos by what their reading gets wrong")
    p.add_argument("--no-closer-look", action="store_true",
                   help="with --reader models: read each photo once, without the pipeline's CloserLook (until stop 41)")
    p.add_argument("--deal", choices=("rules", "any"), default="rules",
                   help="the scenes dealt as their variant is played (default: no bonus tile held, melded or "
                        "discarded), or any tile anywhere as the training renders are (the figures until stop 34)")
    return p.parse_args()


class PhotoScore:
    """Reads rendered hand scenes with their labels' boxes (``reader`` None) or the shipped
    models, and tallies per photo: the hand held exactly, each tile in its place, all named."""

    def __init__(self, args: argparse.Namespace, reader: Callable[[np.ndarray], Detections] | None) -> None:
        self.args = args
        self.reader = reader
        self.tally = [0, 0, 0]  # held, in place, named
        self.why: Counter[str] = Counter()

    def update(self, root: Path, meta: Path) -> None:
        from vision.imageio import load_image
        from vision.pipeline import CloserLook

        side = json.loads(meta.read_text())
        labels = side["tiles"]
        regions = regions_for(self.args.variant or side["variant"])
        truth = labels_to_detections(labels)
        mine = np.array([lab["seat"] == 0 and lab["region"] in ("hand", "meld", "flower") for lab in labels], bool)
        image = None if self.reader is None else load_image(root / "images" / "val" / side["image"])
        dets = truth if self.reader is None or image is None else self.reader(image)
        reading = read(regions, dets, (side["width"], side["height"]))
        if self.reader is not None and image is not None and reading is not None and not self.args.no_closer_look:
            reading = CloserLook()(image, dets, reading, self.reader, regions)  # as read_hand_photo does
        held, named = exact(reading, truth.xyxy[mine], truth.code[mine].tolist())
        self.tally[0] += held
        self.tally[1] += held and placed(reading, regions.is_bonus, truth, labels)
        self.tally[2] += named
        if self.args.why:
            self.why.update(faults(reading, regions.is_bonus, truth, labels))


def main() -> None:
    args = _arguments()
    from vision.synth.dataset import write_scenes
    from vision.training.datasets import face_box_scenes

    reader = None
    if args.reader == "models":
        from vision.reader import TileReader

        reader = TileReader()
    # the models box what they box: one pass, on the face boxes they learned
    names = ("face boxes",) if reader is not None else ("face boxes", "whole-tile boxes")
    scores = {name: PhotoScore(args, reader) for name in names}
    with tempfile.TemporaryDirectory() as tmp:
        whole, faces = Path(tmp) / "whole", Path(tmp) / "faces"
        write_scenes(whole, args.n, seed=args.seed, kind="hand", val_frac=1.0, workers=2, quiet=True, deal=args.deal)
        face_box_scenes(whole, faces)
        for name, root in (("face boxes", faces), ("whole-tile boxes", whole)):
            for meta in sorted((root / "meta" / "val").glob("*.json")) if name in scores else []:
                scores[name].update(root, meta)
    for name, score in scores.items():
        held, in_place, named = score.tally
        print(f"{args.reader} detections, {name}: of {args.n} rendered hand scenes (seed {args.seed}, dealt {args.deal}), the hand "
              f"read holds exactly seat 0's hand, meld and flower tiles in {held}, puts each in its place "
              f"(concealed row, each meld, flowers) in {in_place}"
              + (f", and names them all right in {named}" if reader is not None else ""))
        if args.why:
            # ties by name: a fault set's order, and so most_common's among equals, is the hash seed's
            counts = sorted(score.why.items(), key=lambda kv: (-kv[1], kv[0]))
            print(f"  why ({name}, photos): " + ", ".join(f"{k} {v}" for k, v in counts))


if __name__ == "__main__":
    main()
