"""The scripted table video: what it lays out, step by step."""

from __future__ import annotations

import numpy as np
import pytest

from engine.seats import Seat
from engine.tiles import Tile
from vision.scripted import SEAM, ScriptedTable, Step


@pytest.mark.parametrize(("claimer", "turned"), [(Seat.SOUTH, 0), (Seat.WEST, 1), (Seat.NORTH, 2)])
def test_a_pung_of_easts_discard_turns_the_tile_toward_east(claimer: Seat, turned: int) -> None:
    """The turned tile of a called meld points at the seat that threw it: left, across, right.
    East is seat 0, and ``from_seat or previous`` took the claimer's left-hand seat."""
    table = ScriptedTable([Step("discard", Seat.EAST, (Tile.P7,)),
                           Step("pung", claimer, (Tile.P7,) * 3, from_seat=Seat.EAST)], size=(960, 540))
    assert [k for _, k in table.state(2)[claimer].melds] == [turned]
    _, labels = table.picture(2)
    meld = [lab for lab in labels if lab["region"] == "meld"]
    assert [lab["turned"] for lab in meld] == [k == turned for k in range(3)]


def test_seams_part_a_walls_tiles_and_move_no_label() -> None:
    """Drawn without seams, a wall of touching backs the felt's green is one slab, which the
    served live reader did not box (``vision.scripted.SEAM``). With them, the edges between
    two of its stacks are darker than the middles of their backs; the labels stay."""
    script = [Step("discard", Seat.EAST, (Tile.M1,))]
    plain, labels = ScriptedTable(script, size=(960, 540), style=0).picture(0)
    seamed, seamed_labels = ScriptedTable(script, size=(960, 540), style=0, seam=SEAM).picture(0)
    assert seamed_labels == labels
    top = min((lab for lab in labels if lab["region"] == "wall"), key=lambda lab: lab["box"][1])
    row = [lab for lab in labels if lab["region"] == "wall" and abs(lab["box"][1] - top["box"][1]) < 3]
    row.sort(key=lambda lab: lab["box"][0])
    a, b = row[3]["box"], row[4]["box"]
    y = (a[1] + a[3]) // 2
    edge = int(round((a[2] + b[0]) / 2))
    middle = (a[0] + a[2]) // 2

    def grey(img: np.ndarray, x: int) -> float:  # the darkest column by x (a seam is a line 1 px wide)
        return float(img[y - 1:y + 2, x - 2:x + 3].mean(axis=(0, 2)).min())

    assert grey(seamed, edge) < grey(seamed, middle) - 10
    assert abs(grey(plain, edge) - grey(plain, middle)) < 10


def test_a_discard_lies_still_while_play_goes_on_elsewhere() -> None:
    """A discard lies as it was laid until it is taken: each step takes a wall stack, and
    each discard's slant was drawn after the walls' tiles from one stream, so every discard
    turned anew at each step (the live reader read the whole pool again; a far seat's South
    wind, turned so, was read as the East wind: set style 0, seed 0, Visayan action 23)."""
    script = [Step("discard", Seat.EAST, (Tile.S2,)), Step("discard", Seat.SOUTH, (Tile.P5,)),
              Step("discard", Seat.WEST, (Tile.M7,))]
    table = ScriptedTable(script, size=(1280, 720), style=0)
    (first, labels), (later, _) = table.picture(1), table.picture(3)
    x0, y0, x1, y1 = (int(v) for v in next(lab["box"] for lab in labels if lab.get("region") == "discard"))
    assert np.array_equal(first[y0:y1, x0:x1], later[y0:y1, x0:x1])
