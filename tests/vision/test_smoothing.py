"""Temporal smoothing: steady tiles appear, vanish, are named by vote; passing hands change nothing."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tiles import Tile
from vision.detections import Detections
from vision.readings import TileItem
from vision.smoothing import TileSmoother


def frame(*tiles: tuple[Tile, float, float]) -> list[TileItem]:
    return [TileItem(t, (x, y, x + 30, y + 40), 0.9) for t, x, y in tiles]


ROW = [(Tile(k), 40.0 * k, 100.0) for k in range(10)]


def test_appears_after_n_steady_frames_and_leaves_after_m_missing() -> None:
    s = TileSmoother(appear=3, disappear=4)
    counts = [len(s.update(frame(*ROW))) for _ in range(4)]
    assert counts == [0, 0, 10, 10]
    counts = [len(s.update(frame(*ROW[:8]))) for _ in range(5)]  # two tiles taken away
    assert counts == [10, 10, 10, 8, 8]


def test_name_is_a_vote_over_recent_frames() -> None:
    s = TileSmoother(appear=2, votes=9)
    reads = [Tile.M1] * 6 + [Tile.M7] * 3  # a misread now and then
    for t in reads:
        out = s.update(frame((t, 0.0, 0.0)))
    assert [i.tile for i in out] == [Tile.M1]
    assert out[0].confidence < 0.9  # the disagreement lowers the confidence


def test_a_tile_long_face_up_is_turned_only_by_a_run_of_face_down_reads() -> None:
    """The detector's face flickers on a box astride two tiles; no tile turns over in place."""
    s = TileSmoother(appear=2, turn_over=30)
    for _ in range(40):
        s.update(frame((Tile.S9, 0.0, 0.0)))
    for _ in range(12):  # read face down for 12 frames: outvoted, but not turned
        out = s.update(frame((Tile.BACK, 0.0, 0.0)))
    assert [i.tile for i in out] == [Tile.S9] and out[0].confidence < 0.5
    for _ in range(18):  # face down 30 times in a row: turned
        out = s.update(frame((Tile.BACK, 0.0, 0.0)))
    assert [i.tile for i in out] == [Tile.BACK]
    young = TileSmoother(appear=2, turn_over=30)  # a tile seen face up only a little while
    for t in [Tile.S9] * 10 + [Tile.BACK] * 12:
        out = young.update(frame((t, 0.0, 0.0)))
    assert [i.tile for i in out] == [Tile.BACK]
    votes_alone = TileSmoother(appear=2, turn_over=0)
    for t in [Tile.S9] * 40 + [Tile.BACK] * 12:
        out = votes_alone.update(frame((t, 0.0, 0.0)))
    assert [i.tile for i in out] == [Tile.BACK]


def test_a_hand_over_the_table_erases_nothing() -> None:
    s = TileSmoother(appear=2, disappear=3)
    for _ in range(3):
        s.update(frame(*ROW))
    for _ in range(10):  # half the table hidden for longer than ``disappear``
        out = s.update(frame(*ROW[5:]))
    assert len(out) == 10


def test_tiles_carried_through_the_picture_never_appear() -> None:
    s = TileSmoother(appear=3)
    for k in range(20):
        out = s.update(frame(*ROW, (Tile.RED, 300.0 + 35.0 * k, 400.0)))
    assert Tile.RED not in {i.tile for i in out} and len(out) == 10


def test_a_moved_tile_is_not_counted_twice() -> None:
    s = TileSmoother(appear=2, disappear=15)
    for _ in range(3):
        s.update(frame(*ROW, (Tile.FLOWER2, 700.0, 300.0)))
    for _ in range(3):  # the flower is re-laid elsewhere
        out = s.update(frame(*ROW, (Tile.FLOWER2, 900.0, 300.0)))
    assert [i.tile for i in out].count(Tile.FLOWER2) == 1


def test_a_new_tile_shows_on_its_appear_th_steady_frame_and_a_flicker_never() -> None:
    s = TileSmoother(appear=3)
    for _ in range(3):
        s.update(frame(*ROW))
    for _ in range(2):  # seen for fewer frames than ``appear``: a flicker, a glare
        assert len(s.update(frame(*ROW, (Tile.RED, 600.0, 300.0)))) == 10
    assert len(s.update(frame(*ROW))) == 10
    counts = [len(s.update(frame(*ROW, (Tile.RED, 600.0, 300.0)))) for _ in range(4)]
    assert counts == [10, 10, 11, 11]


def _shown(out: list[TileItem]) -> dict[Tile, list[float]]:
    return {i.tile: [round(v) for v in i.box][:1] for i in out}


def test_a_tile_laid_where_a_moved_flower_lay_is_named_at_once() -> None:
    # the flowers shift over for a new meld, whose (turned) first tile lands on the old
    # flower's place: the boxes overlap enough that the old track keeps being matched
    s = TileSmoother(appear=3, votes=15)
    for _ in range(20):  # the flower's name has a full vote behind it
        s.update(frame(*ROW, (Tile.FLOWER2, 700.0, 300.0)))
    turned = TileItem(Tile.S6, (690.0, 310.0, 735.0, 340.0), 0.9)
    outs = [s.update([*frame(*ROW, (Tile.FLOWER2, 900.0, 300.0)), turned]) for _ in range(3)]
    out = outs[-1]  # on the ``appear``-th frame, as any new tile (not after outvoting the flower)
    assert [i.tile for i in out].count(Tile.FLOWER2) == 1 and Tile.S6 in {i.tile for i in out}
    assert _shown(out)[Tile.FLOWER2] == [900] and len(out) == 12
    assert Tile.S6 not in {i.tile for i in outs[-2]}


def test_a_tile_laid_where_a_moved_flower_lay_under_a_passing_hand_is_named_once_seen() -> None:
    # as above, but a hand over the table hides the old place while the flower is confirmed
    # at its new one: the old place is renamed once its own reads show the meld's tile for
    # ``appear`` frames, not when they outvote the flower's 15 (14 frames later, and the
    # meld came out after the next discard: ``bench_camera_referee.py``)
    s = TileSmoother(appear=3, votes=15)
    for _ in range(20):
        s.update(frame(*ROW, (Tile.FLOWER2, 700.0, 300.0)))
    for _ in range(3):  # half the row and the old place hidden; the flower seen at its new place
        out = s.update(frame(*ROW[5:], (Tile.FLOWER2, 900.0, 300.0)))
    assert [i.tile for i in out].count(Tile.FLOWER2) == 2  # hidden, the old place is kept
    turned = TileItem(Tile.S6, (690.0, 310.0, 735.0, 340.0), 0.9)
    outs = [s.update([*frame(*ROW, (Tile.FLOWER2, 900.0, 300.0)), turned]) for _ in range(3)]
    assert [i.tile for i in outs[-1]].count(Tile.FLOWER2) == 1 and Tile.S6 in {i.tile for i in outs[-1]}
    assert Tile.S6 not in {i.tile for i in outs[-2]}


def test_a_second_copy_laid_out_does_not_take_the_first_for_moved_when_a_hand_hides_it() -> None:
    # a Filipino seat lays out a second Red dragon; a few frames later a hand hides the first
    # one for a while: it is still there, not the tile that moved (``bench_camera_referee.py``)
    s = TileSmoother(appear=3, disappear=15)
    for _ in range(20):
        s.update(frame(*ROW, (Tile.RED, 700.0, 300.0)))
    for _ in range(4):
        s.update(frame(*ROW, (Tile.RED, 700.0, 300.0), (Tile.RED, 740.0, 300.0)))
    for _ in range(5):  # the first one under a hand
        s.update(frame(*ROW, (Tile.RED, 740.0, 300.0)))
    out = s.update(frame(*ROW, (Tile.RED, 700.0, 300.0), (Tile.RED, 740.0, 300.0)))
    assert [i.tile for i in out].count(Tile.RED) == 2 and len(out) == 12


def test_flowers_shifting_over_one_place_each_are_renamed_in_a_chain() -> None:
    s = TileSmoother(appear=2)
    for _ in range(20):
        s.update(frame(*ROW, (Tile.FLOWER2, 700.0, 300.0), (Tile.FLOWER3, 735.0, 300.0)))
    for _ in range(2):  # a fourth tile added to a pung pushes both flowers one place right
        out = s.update(frame(*ROW, (Tile.S5, 700.0, 300.0), (Tile.FLOWER2, 735.0, 300.0),
                             (Tile.FLOWER3, 770.0, 300.0)))
    assert {k: v for k, v in _shown(out).items() if k in (Tile.S5, Tile.FLOWER2, Tile.FLOWER3)} == {
        Tile.S5: [700], Tile.FLOWER2: [735], Tile.FLOWER3: [770]}
    assert len(out) == 13


def test_a_flower_moved_away_from_its_second_box_leaves_its_old_place_to_the_new_tile() -> None:
    # Filipino South's flowers moved three places over for a chow (set style 0, seed 1): the
    # 1z's second box, half over it, went as the row moved, and taken for the place the 1z
    # moved from, it left the 1z's real old place named 1z under the 8f laid there: South
    # laid out a second 1z (action 75)
    s = TileSmoother(appear=3, votes=15)
    for _ in range(20):
        s.update(frame(*ROW, (Tile.FLOWER2, 700.0, 300.0), (Tile.FLOWER2, 700.0, 320.0), (Tile.FLOWER3, 800.0, 300.0)))
    for _ in range(3):
        out = s.update(frame(*ROW, (Tile.S5, 700.0, 300.0), (Tile.FLOWER2, 750.0, 300.0), (Tile.FLOWER3, 800.0, 300.0)))
    assert {k: v for k, v in _shown(out).items() if k in (Tile.S5, Tile.FLOWER2)} == {
        Tile.S5: [700], Tile.FLOWER2: [750]}
    assert len(out) == 13


def test_a_tile_misread_in_place_keeps_its_name() -> None:
    # half hidden by a hand, a discard is read as another tile for a while: nothing moved
    # anywhere, so only the vote could rename it, and a few frames do not
    s = TileSmoother(appear=2, votes=15)
    for _ in range(15):
        s.update(frame(*ROW, (Tile.S9, 700.0, 300.0)))
    for _ in range(5):
        out = s.update([*frame(*ROW), TileItem(Tile.S6, (700.0, 300.0, 730.0, 318.0), 0.6)])
    assert [i.tile for i in out].count(Tile.S9) == 1 and Tile.S6 not in {i.tile for i in out}
    assert len(out) == 11


def test_black_frames_and_detections_input() -> None:
    s = TileSmoother(appear=1)
    assert s.update(Detections.empty()) == []
    d = Detections(np.array([[0, 0, 10, 14.]]), np.ones(1), np.array([False]))
    assert [i.tile for i in s.update(d)] == [Tile.BACK]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.booleans(), min_size=5, max_size=40), st.integers(2, 6))
def test_flicker_shorter_than_disappear_never_drops(seen: list[bool], disappear: int) -> None:
    s = TileSmoother(appear=2, disappear=disappear)
    for _ in range(2):
        s.update(frame(*ROW))
    gap = 0
    for visible in seen:  # one tile of ten flickers (a glare, a sleeve)
        gap = 0 if visible else gap + 1
        out = s.update(frame(*ROW) if visible else frame(*ROW[1:]))
        assert len(out) == (10 if gap < disappear else 9)
        if gap >= disappear:
            break


def test_a_covered_camera_keeps_the_table_for_a_while() -> None:
    s = TileSmoother(appear=2, disappear=3)
    for _ in range(2):
        s.update(frame(*ROW))
    kept = [len(s.update([])) for _ in range(4 * 3 + 4)]  # black frames: everything gone at once
    assert kept[:12] == [10] * 12 and kept[-1] == 0  # held, then let go


def test_a_tile_carries_its_likeliest_other_name() -> None:
    from dataclasses import replace

    s = TileSmoother(appear=2, votes=4)
    reads = [(Tile.S4, Tile.S6, 0.2), (Tile.S4, Tile.S9, 0.1), (Tile.S6, Tile.S4, 0.3), (Tile.S4, Tile.S6, 0.2)]
    for name, second, share in reads:
        out = s.update([replace(i, runner_up=second, runner_up_confidence=share) for i in frame((name, 0.0, 0.0))])
    # 6s: runner-up twice (0.2 + 0.2) and read once (0.9), over four frames; 9s: 0.1
    assert [(i.tile, i.runner_up, i.runner_up_confidence) for i in out] == [(Tile.S4, Tile.S6, 0.325)]
    assert s.update(frame((Tile.S4, 0.0, 0.0)))[0].runner_up is Tile.S6  # frames without one count as nothing
