"""RowHoles: tiles the detector missed between two face-up tiles of a row; RowEnds: at a row's
end; DownFaces: faces it boxed face down in a row of faces; UnboxedFaces: faces no box found."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.seats import Seat
from engine.tiles import Tile
from vision.detections import box_iou
from vision.holes import DownFaces, RowEnds, RowHoles, UnboxedFaces
from vision.scripted import ScriptedTable, Step

FELT = (40, 120, 40)
IVORY = (220, 235, 240)


def row(n: int, vertical: bool = False, w: int = 30, h: int = 40,
        cloth: tuple[int, int, int] = FELT) -> tuple[np.ndarray, np.ndarray]:
    """A picture of ``n`` ivory tiles touching in a row on ``cloth``, and their boxes."""
    image = np.full((400, 400, 3), cloth, np.uint8)
    boxes = []
    for k in range(n):
        x0, y0 = (20, 20 + k * w) if vertical else (20 + k * w, 20)
        x1, y1 = (x0 + h, y0 + w) if vertical else (x0 + w, y0 + h)
        image[y0:y1, x0:x1] = IVORY
        image[y0:y1, x0] = (150, 160, 170)  # an edge, as a seam draws it
        boxes.append([x0, y0, x1, y1])
    return image, np.array(boxes, np.float32)


@pytest.mark.parametrize("vertical", [False, True])
def test_a_tile_missed_between_two_is_found_across_and_down(vertical: bool) -> None:
    image, boxes = row(5, vertical)
    found = RowHoles()(image, np.delete(boxes, 2, axis=0))
    assert len(found) == 1 and box_iou(found, boxes[2:3])[0, 0] > 0.9


def test_a_tile_missed_in_a_row_of_overlapping_boxes_is_found() -> None:
    """A flower column's boxes take in the tiles' sides: 35 px boxes every 30 px, so two
    tiles' centres lie 1.71 boxes apart across a missed one (Filipino South's White dragon,
    set style 12, unboxed from the frame the next flower was laid)."""
    image = np.full((400, 400, 3), FELT, np.uint8)
    boxes = np.array([[20, 20 + 30 * k, 60, 55 + 30 * k] for k in range(5)], np.float32)
    for x0, y0, x1, y1 in boxes.astype(int):
        image[y0:y1, x0:x1] = IVORY
    found = RowHoles()(image, np.delete(boxes, 2, axis=0))
    assert len(found) == 1 and box_iou(found, boxes[2:3])[0, 0] > 0.75


def test_felt_between_two_tiles_is_no_tile() -> None:
    image, boxes = row(3)
    image[boxes[1, 1].astype(int):boxes[1, 3].astype(int), boxes[1, 0].astype(int):boxes[1, 2].astype(int)] = FELT
    assert len(RowHoles()(image, boxes[[0, 2]])) == 0


def test_on_a_cloth_as_pale_as_the_tiles_no_gap_is_taken_for_a_tile() -> None:
    """A gap where a discard was claimed shows the cloth; on a white one it looks like a
    blank face, and a White dragon would be discarded that never was."""
    image, boxes = row(3, cloth=(225, 232, 238))
    image[boxes[1, 1].astype(int):boxes[1, 3].astype(int), boxes[1, 0].astype(int):boxes[1, 2].astype(int)] = (225, 232, 238)
    assert len(RowHoles()(image, boxes[[0, 2]])) == 0


def test_a_tile_missed_in_a_row_between_two_rows_is_found() -> None:
    """In a discard pool rows lie close: a tile across the row is a tile, not the cloth, and
    the picture's own colour tells the cloth."""
    image, boxes = row(5)
    stacked = [boxes + np.float32([0, 40 * k, 0, 40 * k]) for k in (1, 2)]
    for more in stacked:
        for x0, y0, x1, y1 in more.astype(int):
            image[y0:y1, x0:x1] = IVORY
    middle = stacked[0]
    found = RowHoles()(image, np.delete(middle, 2, axis=0), others=np.concatenate([boxes, stacked[1]]))
    assert len(found) == 1 and box_iou(found, middle[2:3])[0, 0] > 0.9


def test_a_face_down_tile_between_leaves_no_hole() -> None:
    image, boxes = row(3)
    assert len(RowHoles()(image, boxes[[0, 2]], others=boxes[[1]])) == 0


def test_two_tiles_missed_side_by_side_are_no_one_hole() -> None:
    image, boxes = row(4)
    assert len(RowHoles()(image, boxes[[0, 3]])) == 0


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 8), st.integers(20, 40), st.integers(0, 10))
def test_a_full_row_has_no_hole_and_a_hole_lies_off_every_box(n: int, w: int, shift: int) -> None:
    image, boxes = row(n, w=w)
    boxes = boxes + np.float32(shift)  # boxes a little off their tiles change nothing
    assert len(RowHoles()(image, boxes)) == 0
    if n >= 3:
        kept = np.delete(boxes, 1, axis=0)
        found = RowHoles()(image, kept)
        assert len(found) == 1 and box_iou(found, kept).max() < 0.2


def test_a_white_dragon_discard_left_unboxed_on_a_rendered_table_is_found() -> None:
    """The blank White dragon is the tile the served detector leaves unboxed most; boxed by the
    renderer's labels all but it, the pool's row gives it back."""
    script = [Step("discard", seat, (tile,)) for seat, tile in
              zip([Seat.EAST, Seat.EAST, Seat.EAST], [Tile.M3, Tile.WHITE, Tile.P7], strict=True)]
    image, labels = ScriptedTable(script, size=(1920, 1080), style=5).picture(len(script))
    up = [lab for lab in labels if lab.get("face") == "up" and lab["region"] == "discard"]
    white = np.array([lab["box"] for lab in up if lab["code"] == str(Tile.WHITE)], np.float32)
    rest = np.array([lab["box"] for lab in up if lab["code"] != str(Tile.WHITE)], np.float32)
    found = RowHoles()(image, rest)
    assert len(found) == 1 and box_iou(found, white)[0, 0] >= 0.5


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 8), st.integers(20, 40), st.booleans())
def test_a_tile_missed_at_a_rows_end_is_found_and_a_full_row_has_no_end(n: int, w: int, vertical: bool) -> None:
    image, boxes = row(n, vertical=vertical, w=w)
    assert len(RowEnds()(image, boxes, boxes)) == 0  # felt past both ends
    for end in (0, n - 1):
        kept = np.delete(boxes, end, axis=0)
        found = RowEnds()(image, kept, kept)
        assert len(found) == 1 and box_iou(found, boxes[end:end + 1])[0, 0] > 0.9


def test_a_spot_past_a_rows_end_a_third_cloth_is_no_tile() -> None:
    """A meld's tile lying across, its box cut short, leaves paper one step past the row's
    last two boxes, the spot a third to a half cloth: no tile (5 such spots on 272 tables)."""
    image, boxes = row(3, vertical=True)
    image[98:110, 20:60] = FELT  # the far 0.4 of the third tile is cloth
    assert len(RowEnds()(image, boxes[:2], boxes[:2])) == 0
    assert len(RowEnds(cloth_share=1.0)(image, boxes[:2], boxes[:2])) == 1


def test_a_box_over_the_spot_past_a_rows_end_leaves_no_tile() -> None:
    image, boxes = row(4)
    over = boxes[3:] + np.float32([12, 0, 12, 0])  # a box a little off the fourth tile: its box
    assert len(RowEnds()(image, boxes[:3], np.concatenate([boxes[:3], over]))) == 0


@pytest.mark.parametrize("seat", [Seat.WEST, Seat.NORTH])
@pytest.mark.parametrize("end", [0, -1])
def test_a_pungs_last_tile_missed_on_a_rendered_table_is_found(seat: Seat, end: int) -> None:
    """Visayan North's pung of 9s, its third tile unboxed at the foot of its column, two
    tiles taken for hand tiles (set style 5, seed 2, action 36): with the table's other tiles
    boxed by the renderer's labels, the tile at either end of the pung is found."""
    script = [Step("discard", s, (t,)) for s, t in zip(Seat, [Tile.M3, Tile.P7, Tile.S5, Tile.M9], strict=True)]
    script += [Step("discard", seat.previous, (Tile.S9,)), Step("pung", seat, (Tile.S9,) * 3, from_seat=seat.previous)]
    image, labels = ScriptedTable(script, size=(1920, 1080), style=5, occlusion=0.0).picture(len(script))
    meld = [lab for lab in labels if lab["region"] == "meld"]
    centres = np.array([[(lab["box"][0] + lab["box"][2]) / 2, (lab["box"][1] + lab["box"][3]) / 2] for lab in meld])
    missed = meld[int(np.argsort(centres[:, int(np.ptp(centres[:, 1]) > np.ptp(centres[:, 0]))])[end])]
    others = [lab for lab in labels if lab is not missed]
    up = np.array([lab["box"] for lab in others if lab.get("face") == "up"], np.float32)
    found = RowEnds()(image, up, np.array([lab["box"] for lab in others], np.float32))
    assert len(found) == 1 and box_iou(found, np.array([missed["box"]], np.float32))[0, 0] >= 0.5


@pytest.mark.parametrize("vertical", [False, True])
def test_a_middle_tile_missed_beside_a_tile_lying_across_is_found(vertical: bool) -> None:
    """Singaporean North's pung of 9m: its called tile lying across (29 x 35 where the others
    are 34 x 24, lying at the camera's side), the middle one unboxed for 60 frames: the two
    boxed were not of one size, so no hole was looked for (``bench_camera_referee.py --reader
    models``, seed 1, action 59)."""
    image = np.full((400, 400, 3), FELT, np.uint8)
    boxes = np.array([[20, 20, 50, 60], [50, 20, 80, 60], [80, 26, 124, 58]], np.float32)  # the last across
    if vertical:
        boxes = boxes[:, [1, 0, 3, 2]]
    for x0, y0, x1, y1 in boxes.astype(int):
        image[y0:y1, x0:x1] = IVORY
    found = RowHoles()(image, boxes[[0, 2]])
    assert len(found) == 1 and box_iou(found, boxes[1:2])[0, 0] > 0.75


PINK = (160, 112, 226)  # BGR: a pink back
BLUE = (160, 60, 30)  # BGR: a blue back


def paint(image: np.ndarray, box: np.ndarray, colour: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = box.astype(int)
    image[y0:y1, x0:x1] = colour


@pytest.mark.parametrize("vertical", [False, True])
@pytest.mark.parametrize("where", [0, 2, 4])
def test_a_blank_face_boxed_face_down_in_a_row_of_faces_is_a_face(vertical: bool, where: int) -> None:
    """At either end of a row or inside it, across the picture and down it."""
    image, boxes = row(5, vertical)
    up = np.delete(boxes, where, axis=0)
    assert DownFaces()(image, up, boxes[[where]]).tolist() == [True]


def test_a_back_at_the_end_of_a_row_of_faces_is_a_back() -> None:
    image, boxes = row(4)
    paint(image, boxes[3], PINK)
    assert DownFaces()(image, boxes[:3], boxes[[3]]).tolist() == [False]


def test_a_back_beside_a_face_whose_ink_has_the_backs_colour_is_a_back() -> None:
    """A pink-backed concealed kang beside an 8s chow: the middle of the chow's tile, most of
    it ink, had the colour of the kang's back; the face's paper is its brightest quarter."""
    image, boxes = row(4)
    for box in boxes[:3]:
        x0, y0, x1, y1 = box.astype(int)
        image[y0 + 4:y1 - 4:3, x0 + 3:x1 - 3] = PINK  # stripes of ink, two rows in three
        image[y0 + 5:y1 - 4:3, x0 + 3:x1 - 3] = PINK
    paint(image, boxes[3], PINK)
    assert DownFaces()(image, boxes[:3], boxes[[3]]).tolist() == [False]


def test_a_face_of_much_ink_boxed_face_down_in_a_row_of_faces_is_a_face() -> None:
    """Singaporean North's 6s, lying across at the foot of a pool column, was boxed face down
    (0.35) and heard only 55 frames later, when the next seat's 2s had been taken for North's
    discard (set style 0, seed 1, action 52). Its middle is mostly ink; its paper is the
    brightest quarter of it, as for the faces beside it."""
    image, boxes = row(4)
    x0, y0, x1, y1 = boxes[3].astype(int)
    image[y0 + 4:y1 - 4:3, x0 + 3:x1 - 3] = PINK  # ink, two rows in three
    image[y0 + 5:y1 - 4:3, x0 + 3:x1 - 3] = PINK
    assert DownFaces()(image, boxes[:3], boxes[[3]]).tolist() == [True]


def test_pale_boxes_face_down_side_by_side_are_a_wall_or_a_hand_not_faces() -> None:
    """Two face-down boxes together: the end of a wall, a standing hand seen from above or a
    concealed kang's backs, whatever their colour."""
    image, boxes = row(5)
    assert DownFaces()(image, boxes[:3], boxes[3:]).tolist() == [False, False]


def meld_of_backs(n_down: int, back: tuple[int, int, int], pale: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A row of three faces and ``n_down`` tiles boxed face down after them, ivory (``pale``)
    or ``back``; and a wall of eight ``back``-coloured backs below it: the picture, the
    face-up boxes and the face-down boxes (the row's first)."""
    image, boxes = row(3 + n_down)
    if not pale:
        for box in boxes[3:]:
            paint(image, box, back)
    wall = np.array([[20 + 30 * k, 200, 50 + 30 * k, 240] for k in range(8)], np.float32)
    for box in wall:
        paint(image, box, back)
    return image, boxes[:3], np.concatenate([boxes[3:], wall])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_meld_of_blank_faces_boxed_face_down_beside_faces_is_faces(n: int) -> None:
    """A pung or kang of White dragons boxed face down tile by tile after a flower row (19
    of the faces boxed face down on 272 rendered tables): the paper's colour, far from the
    backs' (the walls' blue)."""
    image, up, down = meld_of_backs(n, BLUE)
    assert DownFaces()(image, up, down).tolist() == [True] * n + [False] * 8


@pytest.mark.parametrize(("n", "back", "pale"), [(3, IVORY, True), (2, BLUE, False), (6, BLUE, True)])
def test_backs_side_by_side_beside_faces_stay_backs(n: int, back: tuple[int, int, int], pale: bool) -> None:
    """Where the backs are the paper's colour nothing tells a meld of faces from backs; a
    concealed kang's two backs are the walls' colour; six in a row are a hand, not a meld."""
    image, up, down = meld_of_backs(n, back, pale)
    assert not DownFaces()(image, up, down).any()


@pytest.mark.parametrize("style", [8, 12])
def test_two_white_dragon_flowers_boxed_face_down_on_a_rendered_table_are_faces(style: int) -> None:
    """South's flower column on a rendered table (blue backs, red backs): a Spring, two White
    dragons and a Summer, the White dragons boxed face down, as are the walls' and the
    standing hands' tiles. The two are faces; no back is."""
    image, up, down, backs = flower_row_boxed_down(Seat.SOUTH, ("5f", "5z", "5z", "6f"), style)
    assert DownFaces()(image, up, down).tolist() == [True, True] + [False] * backs
    assert not DownFaces(run=0)(image, up, down).any()


def flower_row_boxed_down(seat: Seat, codes: tuple[str, ...], style: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """A rendered table, a discard at each seat and ``seat``'s flower row of ``codes``, its
    White dragons boxed face down as the detector boxes them now and then: the picture, the
    face-up boxes, the face-down boxes (the White dragons first, then the walls' and standing
    hands' tiles) and how many of those backs there are."""
    script = [Step("discard", s, (tile,)) for s, tile in zip(Seat, [Tile.M3, Tile.P7, Tile.S5, Tile.M9], strict=True)]
    script += [Step("flower", seat, (Tile.parse(code),)) for code in codes]
    image, labels = ScriptedTable(script, size=(1920, 1080), style=style).picture(len(script))
    white = [lab for lab in labels if lab.get("code") == str(Tile.WHITE) and lab["region"] == "flower"]
    up = np.array([lab["box"] for lab in labels if lab.get("face") == "up" and lab not in white], np.float32)
    backs = [lab["box"] for lab in labels if lab.get("face") != "up"]
    return image, up, np.array([lab["box"] for lab in white] + backs, np.float32), len(backs)


def test_a_pale_box_face_down_across_a_row_of_faces_is_no_face() -> None:
    """A standing hand's end tile below a flower row: beside a face, but across the row."""
    image, boxes = row(4)
    below = boxes[1] + np.float32([0, 40, 0, 40])
    paint(image, below, IVORY)
    assert DownFaces()(image, boxes, below[None]).tolist() == [False]


@pytest.mark.parametrize("vertical", [False, True])
def test_a_blank_face_boxed_face_down_beside_one_face_by_its_short_side_is_a_face(vertical: bool) -> None:
    """A flower row's first face and a blank White dragon laid beside it, boxed face down
    (Filipino West, set style 12, seed 1, action 14): the two touch by their long sides."""
    image, boxes = row(2, vertical)
    assert DownFaces()(image, boxes[:1], boxes[1:]).tolist() == [True]


def test_a_pale_box_face_down_below_one_face_by_its_long_side_is_no_face() -> None:
    """A standing hand's tile boxed alone below a meld's tile: in line, but no row."""
    image, boxes = row(1)
    below = boxes[0] + np.float32([0, 40, 0, 40])
    paint(image, below, IVORY)
    assert DownFaces()(image, boxes, below[None]).tolist() == [False]


@pytest.mark.parametrize("other", ["wider", "apart", "beside a back"])
def test_a_pale_box_face_down_beside_one_face_but_not_its_twin_is_no_face(other: str) -> None:
    """A standing hand's tile beside a flower column's face (more than a sixth wider), one
    a gap away, or one with a face-down box beside it: no tile of that row."""
    image, boxes = row(3)
    down = boxes[1:2].copy()
    if other == "wider":
        down[0, 2] += 8
    elif other == "apart":
        down[0, [0, 2]] += 12
    paint(image, down[0], IVORY)
    ups = boxes[:1]
    downs = np.concatenate([down, boxes[2:]]) if other == "beside a back" else down
    if other == "beside a back":
        paint(image, boxes[2], BLUE)
    assert not DownFaces()(image, ups, downs)[0]


@pytest.mark.parametrize("style", [5, 12])
def test_a_white_dragon_flower_boxed_face_down_beside_one_face_on_a_rendered_table_is_a_face(style: int) -> None:
    """West's first flower and a White dragon laid beside it, the White dragon boxed face
    down, as are the walls' and the standing hands' tiles (their tops the paper's white in
    set style 12, so the backs' colour tells nothing there)."""
    image, up, down, backs = flower_row_boxed_down(Seat.WEST, ("1z", "5z"), style)
    assert DownFaces()(image, up, down).tolist() == [True] + [False] * backs
    assert not DownFaces(twin_near=(0.0, 0.0))(image, up, down).any()


@pytest.mark.parametrize("vertical", [False, True])
@pytest.mark.parametrize("hand_across", [False, True])
def test_two_blank_faces_boxed_face_down_between_two_faces_are_faces(vertical: bool, hand_across: bool) -> None:
    """Filipino West's second White dragon flower, laid beside her first, and both boxed face
    down until the West wind laid beyond them was heard before them (set style 12, seed 3,
    action 49): the standing hand just across the row is a row of pale boxes face down too."""
    image, boxes = row(4, vertical)
    downs = boxes[1:3]
    if hand_across:
        step = np.float32([40, 0, 40, 0] if vertical else [0, 40, 0, 40])
        hand = np.array([box + step for box in row(8, vertical)[1]], np.float32)
        for box in hand:
            paint(image, box, IVORY)
        downs = np.concatenate([downs, hand])
    faces = DownFaces()(image, boxes[[0, 3]], downs)
    assert faces.tolist() == [True, True] + [False] * (len(downs) - 2)


@pytest.mark.parametrize("other", ["backs", "one face", "wider", "six"])
def test_boxes_face_down_between_two_faces_but_not_blank_twins_are_no_faces(other: str) -> None:
    """A concealed kang's two backs laid between its faces are the backs' colour; two pale
    boxes with a face on one side only, or with one of another size, or six pale boxes (a
    standing hand), are no row of faces."""
    image, boxes = row(8 if other == "six" else 4)
    ups, downs = boxes[[0, -1]], boxes[1:-1].copy()
    if other == "backs":
        for box in downs:
            paint(image, box, BLUE)
    elif other == "one face":
        ups = boxes[:1]
    elif other == "wider":
        downs[1, 2] += 8
    assert not DownFaces()(image, ups, downs).any()


@pytest.mark.parametrize("style", [5, 12])
def test_two_white_dragon_flowers_boxed_face_down_between_two_faces_on_a_rendered_table(style: int) -> None:
    """West's flower row: an East wind, two White dragons and a West wind, the White dragons
    boxed face down, as are the walls' and the standing hands' tiles (in set style 12 their
    tops the paper's white). On the renderer's own boxes the look at runs turns the two
    already; what this guards is that no wall's or hand's box turns with them."""
    image, up, down, backs = flower_row_boxed_down(Seat.WEST, ("1z", "5z", "5z", "3z"), style)
    assert DownFaces()(image, up, down).tolist() == [True, True] + [False] * backs


def test_on_a_cloth_as_pale_as_the_tiles_no_face_down_box_is_a_face() -> None:
    image, boxes = row(4, cloth=(225, 232, 238))
    assert DownFaces()(image, boxes[:3], boxes[[3]]).tolist() == [False]


def test_a_white_dragon_boxed_face_down_on_a_rendered_table_is_a_face() -> None:
    """A rendered pool of three discards, the White dragon last, boxed as the detector boxes
    it now and then: face down."""
    script = [Step("discard", Seat.EAST, (tile,)) for tile in (Tile.M3, Tile.P7, Tile.WHITE)]
    image, labels = ScriptedTable(script, size=(1920, 1080), style=5).picture(len(script))
    up = [lab for lab in labels if lab.get("face") == "up" and lab["region"] == "discard"]
    white = np.array([lab["box"] for lab in up if lab["code"] == str(Tile.WHITE)], np.float32)
    rest = np.array([lab["box"] for lab in up if lab["code"] != str(Tile.WHITE)], np.float32)
    walls = np.array([lab["box"] for lab in labels if lab.get("face") != "up"], np.float32)
    faces = DownFaces()(image, rest, np.concatenate([white, walls]))
    assert faces[0] and not faces[1:].any()


def lone_blank(cloth: tuple[int, int, int] = FELT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A row of four boxed tiles and, far from it, a blank face no box found; its box."""
    image, boxes = row(4, cloth=cloth)
    blank = np.array([200, 200, 230, 240], np.float32)
    paint(image, blank, IVORY)
    return image, boxes, blank


@pytest.mark.parametrize("across", [False, True])
def test_a_blank_face_alone_is_boxed_standing_or_lying_across(across: bool) -> None:
    image, boxes, blank = lone_blank()
    if across:
        paint(image, blank, FELT)
        blank = np.array([200, 200, 240, 230], np.float32)
        paint(image, blank, IVORY)
    found = UnboxedFaces()(image, boxes, boxes)
    assert len(found) == 1 and box_iou(found, blank[None])[0, 0] > 0.8


def test_a_face_of_a_few_strokes_no_box_found_is_boxed_its_ink_closed_over() -> None:
    """Two thin green strokes across a face (a 2s lying across) leave its paper in three
    pieces: closed over, one patch of a tile's size."""
    image, boxes, blank = lone_blank()
    image[210:214, 200:230] = (60, 140, 40)
    image[224:228, 200:230] = (60, 140, 40)
    assert len(UnboxedFaces(close=1)(image, boxes, boxes)) == 0
    found = UnboxedFaces()(image, boxes, boxes)
    assert len(found) == 1 and box_iou(found, blank[None])[0, 0] > 0.8


def test_a_blank_face_a_box_covers_is_not_boxed_again() -> None:
    image, boxes, blank = lone_blank()
    assert len(UnboxedFaces()(image, boxes, np.concatenate([boxes, blank[None]]))) == 0


@pytest.mark.parametrize("shape", ["chip", "strip", "small", "back"])
def test_what_is_not_a_blank_face_is_not_boxed(shape: str) -> None:
    """A round white chip, a long pale strip (a wall's side), a patch half a tile's size, a
    blue back: none a tile's face."""
    image, boxes, blank = lone_blank()
    paint(image, blank, FELT)
    if shape == "chip":
        cv2.circle(image, (215, 220), 20, IVORY, -1)
    elif shape == "strip":
        paint(image, np.array([100, 200, 300, 230], np.float32), IVORY)
    elif shape == "small":
        paint(image, np.array([200, 200, 215, 220], np.float32), IVORY)
    else:
        paint(image, blank, (160, 60, 30))
    assert len(UnboxedFaces()(image, boxes, boxes)) == 0


def test_on_a_cloth_as_pale_as_the_tiles_no_blank_face_is_looked_for() -> None:
    image, boxes, _ = lone_blank(cloth=(225, 232, 238))
    assert len(UnboxedFaces()(image, boxes, boxes)) == 0


def test_with_no_face_to_go_by_no_blank_face_is_looked_for() -> None:
    image, boxes, _ = lone_blank()
    assert len(UnboxedFaces()(image, boxes[:0], boxes)) == 0


def test_one_face_is_enough_to_go_by() -> None:
    """A hand's first flowers: a Red dragon boxed and, laid before it, a blank White dragon
    no box found (set style 12, seed 2, Filipino East's first two flowers)."""
    image, boxes, blank = lone_blank()
    found = UnboxedFaces()(image, boxes[:1], boxes)
    assert len(found) == 1 and box_iou(found, blank[None])[0, 0] > 0.8
    assert len(UnboxedFaces(least=3)(image, boxes[:1], boxes)) == 0


@pytest.mark.parametrize("shift", [12, 20])
def test_a_blank_face_whose_patch_a_neighbours_box_cuts_short_is_boxed_whole(shift: int) -> None:
    """A blank White dragon at the head of a pool column of tiles lying across, no box on it,
    the Green dragon below it boxed 6 px high (set style 12, a Singaporean hand's action 13):
    its patch of paper, 24 px of 36, is grown into the box to a tile. A sliver under half a
    tile beside a box is no tile, nor the Green dragon's own end the box left, 20 px between
    two boxes."""
    image = np.full((400, 400, 3), FELT, np.uint8)
    image[50:194, 100:146] = IVORY  # four tiles 46 x 36, touching down a column
    up = np.array([[100, 50 + 36 * k, 146, 86 + 36 * k] for k in range(1, 4)], np.float32)
    up[0, [1, 3]] -= shift  # the second tile boxed too high, over the first
    found = UnboxedFaces()(image, up, up)
    if shift == 12:  # 24 px of 36 left
        assert len(found) == 1 and box_iou(found, np.array([[100, 50, 146, 86]], np.float32))[0, 0] > 0.75
    else:  # 16 px of 36
        assert len(found) == 0


@pytest.mark.parametrize(("blanks", "foot"), [(2, 0), (2, 14), (3, 0), (4, 0)])
def test_blank_faces_side_by_side_no_box_found_are_boxed_one_by_one(blanks: int, foot: int) -> None:
    """Two White dragons laid one after the other at the head of a flower column are one
    patch of paper; the Bamboo flower below them boxed ``foot`` px over the second's foot
    (set style 12, a Filipino hand's action 62) leaves it 1.6 tiles long. Each tile is boxed
    (up to ``most``: four is a strip, say a wall's side, as likely as tiles)."""
    image = np.full((400, 400, 3), FELT, np.uint8)
    top = 50
    image[top:top + 36 * (blanks + 3), 100:146] = IVORY  # tiles 46 x 36, touching down a column
    up = np.array([[100, top + 36 * k, 146, top + 36 * (k + 1)] for k in range(blanks, blanks + 3)], np.float32)
    up[0, 1] -= foot
    found = UnboxedFaces()(image, up, up)
    truth = np.array([[100, top + 36 * k, 146, top + 36 * (k + 1)] for k in range(blanks)], np.float32)
    if blanks > UnboxedFaces().most:
        assert len(found) == 0
    else:
        assert len(found) == blanks and (box_iou(found, truth).max(0) > 0.75).all()


@pytest.mark.parametrize("foot", [0, 6])
def test_two_white_dragon_flowers_no_box_found_on_a_rendered_table_are_boxed(foot: int) -> None:
    """Two White dragons laid one after the other at the head of South's flower column (set
    style 12, as a Filipino hand's action 62), the Bamboo flower below them boxed ``foot``
    px over the second's foot: each is boxed, where one patch a tile and a half long, its
    edges sloping, was none."""
    script = [Step("discard", seat, (tile,)) for seat, tile in
              zip(Seat, [Tile.M3, Tile.P7, Tile.S5, Tile.M9], strict=True)]
    script += [Step("flower", Seat.SOUTH, (tile,)) for tile in (Tile.parse("5f"), Tile.WHITE, Tile.WHITE)]
    image, labels = ScriptedTable(script, size=(1920, 1080), style=12).picture(len(script))
    white = [lab for lab in labels if lab.get("code") == str(Tile.WHITE) and lab["region"] == "flower"]
    others = [lab for lab in labels if lab not in white]
    for lab in others:
        if lab.get("code") == "5f":
            lab["box"] = [lab["box"][0], lab["box"][1] - foot, *lab["box"][2:]]
    up = np.array([lab["box"] for lab in others if lab.get("face") == "up"], np.float32)
    every = np.array([lab["box"] for lab in others], np.float32)
    found = UnboxedFaces()(image, up, every)
    assert len(found) == 2 and (box_iou(found, np.array([lab["box"] for lab in white], np.float32)).max(0) > 0.6).all()
    assert len(UnboxedFaces(most=1, askew=1.0)(image, up, every)) == 0  # as before stop 79


def test_a_white_dragon_discard_no_box_found_on_a_rendered_table_is_boxed() -> None:
    """A blank White dragon discard no box found, as Visayan South's first discard, alone in
    its pool (set style 12, seed 0, action 7): the table's other tiles boxed by the
    renderer's labels."""
    script = [Step("discard", seat, (tile,)) for seat, tile in
              zip(Seat, [Tile.M3, Tile.P7, Tile.S5, Tile.M9], strict=True)] + [Step("discard", Seat.EAST, (Tile.WHITE,))]
    image, labels = ScriptedTable(script, size=(1920, 1080), style=12).picture(len(script))
    white = [lab for lab in labels if lab.get("code") == str(Tile.WHITE) and lab["region"] == "discard"]
    others = [lab for lab in labels if lab not in white]
    up = np.array([lab["box"] for lab in others if lab.get("face") == "up"], np.float32)
    every = np.array([lab["box"] for lab in others], np.float32)
    found = UnboxedFaces()(image, up, every)
    assert len(found) == 1 and box_iou(found, np.array([white[0]["box"]], np.float32))[0, 0] >= 0.5
