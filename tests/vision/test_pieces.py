"""TilePieces: a tile the detector boxed as two pieces is boxed whole; real neighbours never."""

from __future__ import annotations

import numpy as np

from vision.pieces import TilePieces, joined

# a near seat's meld row: tiles standing 33 x 41 px, touching (one pixel over each other)
ROW = np.array([[100 + 33 * k, 860, 134 + 33 * k, 901] for k in range(7)], np.float32)


def test_a_called_tile_boxed_in_two_pieces_is_boxed_whole() -> None:
    """Visayan East's called 2m, 46 x 34 lying across, boxed 25 x 30 over its left end and
    34 x 34 over the rest (``bench_camera_referee.py --reader models``, seed 1, action 51)."""
    boxes = np.concatenate([ROW, [[340, 868, 365, 898], [357, 866, 391, 900]]]).astype(np.float32)
    pairs = TilePieces()(boxes)
    assert pairs.tolist() == [[7, 8]]
    assert joined(boxes, pairs).tolist() == [[340, 866, 391, 900]]


def test_the_same_pieces_in_a_row_down_the_picture_are_boxed_whole() -> None:
    """At a seat at the camera's side, a row runs down the picture: the pieces lie over each
    other along y."""
    boxes = np.concatenate([ROW[:, [1, 0, 3, 2]], [[868, 340, 898, 365], [866, 357, 900, 391]]]).astype(np.float32)
    assert TilePieces()(boxes).tolist() == [[7, 8]]


def test_real_tiles_are_never_joined() -> None:
    assert len(TilePieces()(ROW)) == 0  # touching tiles of a row
    few = np.array([[340, 868, 365, 898], [357, 866, 391, 900]], np.float32)
    assert len(TilePieces()(few)) == 0  # too few boxes to tell a piece by its neighbours
    # a tile half under a hand, boxed 20 px wide 9 px over its whole neighbour: together
    # they stand (45 x 41), not lie across
    half = np.concatenate([ROW, [[323, 860, 343, 901]]]).astype(np.float32)
    assert len(TilePieces()(half)) == 0
    assert len(TilePieces(across=(1.05, 1.65))(half)) == 1  # only their shape tells them apart
    # pieces whose box around them holds another tile's middle
    crowded = np.concatenate([ROW, [[340, 868, 365, 898], [357, 866, 391, 900], [362, 875, 372, 890]]])
    assert len(TilePieces()(crowded.astype(np.float32))) == 0
    # a piece beside a tile it does not lie over (a gap between them)
    apart = np.concatenate([ROW, [[340, 868, 365, 898], [368, 866, 402, 900]]]).astype(np.float32)
    assert len(TilePieces()(apart)) == 0
