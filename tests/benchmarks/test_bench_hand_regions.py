"""benchmarks/bench_hand_regions.py: its measure of a hand read exactly, and a small run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_hand_regions import exact, faults, placed, read, regions_for  # noqa: E402

from engine.tiles import Tile, parse_tiles  # noqa: E402
from vision.detections import Detections  # noqa: E402


def _row(tiles: list[Tile]) -> Detections:
    boxes = np.array([[100 + 40 * k, 400, 130 + 40 * k, 440] for k in range(len(tiles))], np.float32)
    ones = np.ones(len(tiles), np.float32)
    return Detections(boxes, ones, np.ones(len(tiles), bool)).with_codes(np.array([int(t) for t in tiles]), ones)


def test_a_hand_is_read_exactly_only_with_all_its_tiles_and_nothing_else() -> None:
    tiles = parse_tiles("123456789m12345p")
    dets = _row(tiles)
    codes = [int(t) for t in tiles]
    regions = regions_for("filipino")
    assert exact(read(regions, dets, (1000, 800)), dets.xyxy, codes) == (True, True)
    assert exact(read(regions, dets, (1000, 800)), dets.xyxy, [*codes[:-1], int(Tile.M1)]) == (True, False)  # misnamed
    assert exact(read(regions, dets, (1000, 800)), dets.xyxy[:-1], codes[:-1]) == (False, False)  # a tile too many
    assert exact(read(regions, dets[:0], (1000, 800)), dets.xyxy, codes) == (False, False)  # nothing found: refused


def test_regions_for_a_variant_the_engine_does_not_play() -> None:
    assert regions_for("filipino").is_bonus(Tile.parse("1z"))  # every honour is a flower there
    assert not regions_for("hongkong").is_bonus(Tile.parse("1z"))
    assert regions_for("hongkong").is_bonus(Tile.parse("1f"))


def test_a_small_run_prints_both_box_kinds() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_hand_regions.py"), "--n", "4", "--seed", "7"],
                         capture_output=True, text=True, check=True, timeout=300).stdout
    lines = out.strip().splitlines()
    assert [ln.split(",")[1].split(":")[0].strip() for ln in lines] == ["face boxes", "whole-tile boxes"]
    counts = [[int(n) for n in re.findall(r" in (\d+)", ln)] for ln in lines]
    assert all(len(c) == 2 and 0 <= c[1] <= c[0] <= 4 for c in counts)  # held, and of those in place


def test_faults_name_what_is_left_out_and_what_is_taken_in() -> None:
    tiles = parse_tiles("123456789m12345p")
    dets = _row(tiles)
    labels = [{"seat": 0, "region": "hand"} for _ in tiles]
    regions = regions_for("filipino")
    assert faults(read(regions, dets, (1000, 800)), regions.is_bonus, dets, labels) == set()
    discard = [*labels[:-1], {"seat": None, "region": "discard"}]  # the row's last tile is a discard
    assert faults(read(regions, dets, (1000, 800)), regions.is_bonus, dets, discard) == {"discard taken in"}
    assert faults(read(regions, dets[:-3], (1000, 800)), regions.is_bonus, dets, labels) == {"hand left out"}  # three not found
    assert faults(read(regions, dets[:0], (1000, 800)), regions.is_bonus, dets, labels) == {"refused"}
    shifted = Detections(dets.xyxy + [[15, 0, 15, 0]], dets.confidence, dets.face_up).with_codes(dets.code, dets.code_confidence)
    assert "box of no tile taken in" in faults(read(regions, shifted, (1000, 800)), regions.is_bonus, dets, labels)  # boxes half a tile off


def test_a_small_run_says_why_when_asked() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_hand_regions.py"), "--n", "4", "--seed", "7",
                          "--why"], capture_output=True, text=True, check=True, timeout=300).stdout
    assert [ln.split("(")[1].split(",")[0] for ln in out.splitlines() if ln.startswith("  why")] == [
        "face boxes", "whole-tile boxes"]


def test_a_hand_is_in_place_only_with_each_tile_in_its_region() -> None:
    tiles = parse_tiles("123456789m123p555s")
    dets = _row(tiles)
    dets.xyxy[-3:, [1, 3]] += 60  # the pung of 5s laid in front of the row
    hand = [{"seat": 0, "region": "hand", "group": None} for _ in tiles[:-3]]
    pung = [{"seat": 0, "region": "meld", "group": 1} for _ in tiles[-3:]]
    regions = regions_for("singapore")
    assert placed(read(regions, dets, (1000, 800)), regions.is_bonus, dets, hand + pung)
    assert not placed(read(regions, dets, (1000, 800)), regions.is_bonus, dets, [*hand[:-1], pung[0], *pung])  # 3p laid in the meld
    assert not placed(read(regions, dets, (1000, 800)), regions.is_bonus, dets, hand + [{**lab, "group": k} for k, lab in enumerate(pung)])
    assert not placed(read(regions, dets[:-1], (1000, 800)), regions.is_bonus, dets, hand + pung)  # a 5s not found
    assert faults(read(regions, dets, (1000, 800)), regions.is_bonus, dets, [*hand[:-1], pung[0], *pung]) == {"meld read as hand"}


def test_a_tile_the_rules_make_a_flower_is_in_place_among_the_flowers() -> None:
    # the renderer deals honours into Filipino melds; there every honour is a flower
    tiles = parse_tiles("123456789m123p777z")
    dets = _row(tiles)
    dets.xyxy[-3:, [1, 3]] += 60
    labels = [{"seat": 0, "region": "hand", "group": None} for _ in tiles[:-3]]
    labels += [{"seat": 0, "region": "meld", "group": 1} for _ in tiles[-3:]]
    filipino, singapore = regions_for("filipino"), regions_for("singapore")
    assert placed(read(filipino, dets, (1000, 800)), filipino.is_bonus, dets, labels)
    assert faults(read(filipino, dets, (1000, 800)), filipino.is_bonus, dets, labels) == set()
    assert placed(read(singapore, dets, (1000, 800)), singapore.is_bonus, dets, labels)  # a pung of red dragons there
