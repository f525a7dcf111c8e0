"""A hand the bots played, seen by the camera, reaches the referee as it was played."""

from __future__ import annotations

from fractions import Fraction

from engine.seats import Seat
from tests.webui.referee_forms import played
from vision.scripted import steps_of

from .camera_referee import Camera, by_camera, by_hand


def test_a_played_hand_seen_by_the_camera_reaches_the_referee_page_as_played(tmp_path) -> None:  # noqa: ANN001
    """A Visayan hand with an exposed kang, a sagása and two flowers, 48 steps on a 720p
    table, a hand passing over it at a third of them, a stack of the wall drawn at each: the
    Referee page's book ends up with the hand's 48 actions in order and its payments. Before
    the regions remembered where the walls stood, a side whose wall was all drawn had its
    standing hand taken for its wall, and East's chow at action 36 came out as a discard."""
    game = played("visayan", 16)[0]
    kinds = [s.kind for s in steps_of(game)]
    assert {"added", "kang", "flower", "pung", "chow"} <= set(kinds)
    want = by_hand(game)
    got = by_camera(game, Camera(size=(1280, 720), fps=8, hold=0.75, occlusion=0.3), "page", str(tmp_path))
    assert got.difference(want) == "" and not got.refused
    assert len(want.actions) == 48 and want.paid[Seat.WEST] == Fraction(3, 2)  # the kang's gift: money checked too
