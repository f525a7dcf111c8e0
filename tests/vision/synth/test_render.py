"""The painter's order of ``vision.synth.render``: touching tiles hide each other as solids do."""

import cv2
import numpy as np
import pytest

from vision.synth.render import Box, Camera, render

W, H, T = 26.0, 35.0, 20.0  # a tile, mm
IVORY, GREEN = (230, 228, 215), (40, 120, 60)


def _standing_row(n: int) -> list[Box]:
    """``n`` tiles standing face to the camera (-y), touching side to side, centred on x=0."""
    up, right, toward = np.array([0.0, 0, 1]), np.array([1.0, 0, 0]), np.array([0.0, -1, 0])
    return [
        Box(np.array([(i - (n - 1) / 2) * W, 0.0, H / 2]), right, up, toward, (W, H, T), None, None,
            [(0.7, IVORY), (1.0, GREEN)], {"code": "1m"})
        for i in range(n)
    ]


@pytest.mark.parametrize("eye_x", [-200.0, 0.0, 200.0])
def test_a_standing_row_seen_askew_shows_every_face_whole(eye_x: float) -> None:
    """From ahead or aside, no tile's side is painted over its neighbour's face: the faces
    stand in one plane in front of every side. (Until 2026-11-26 tiles were painted far to
    near by depth along the view, which ties across a row seen from ahead: from the centre,
    a side covered 5 % of its neighbour's face, and in the renderer's hand photos a third.)"""
    row = _standing_row(8)
    cam = Camera.look_at((eye_x, -260.0, 190.0), (0.0, 0.0, H / 2), 900.0, (960, 540))
    texture = np.full((64, 64, 3), 90, np.uint8)
    result = render(cam, texture, cam.plane_homography(), list(row), [], np.array([0.3, -0.4, 1.0]),
                    shadows=False)
    for i, tile in enumerate(row):
        face = tile.center + T / 2 * tile.an
        quad = np.array([face + su * W / 2 * tile.au + sv * H / 2 * tile.av
                         for su, sv in ((-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8))])
        mask = np.zeros(result.idmap.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(cam.project(quad)).astype(np.int32), 1)
        own = result.idmap[mask > 0]
        assert len(own) > 200
        assert (own == i).mean() > 0.99, (eye_x, i, np.unique(own, return_counts=True))


def _wall(n: int) -> list[Box]:
    """``n`` tiles lying face down, touching end to end along x, as a wall's top row."""
    across, along, down = np.array([1.0, 0, 0]), np.array([0.0, 1, 0]), np.array([0.0, 0, -1])
    return [
        Box(np.array([(i - (n - 1) / 2) * W, 0.0, T / 2]), across, along, down, (W, H, T), None, None,
            [(0.7, IVORY), (1.0, GREEN)], {"code": "1m"})
        for i in range(n)
    ]


@pytest.mark.parametrize("seam", [0.55, 0.85])
def test_touching_backs_show_where_one_tile_ends(seam: float) -> None:
    """A wall's backs drawn flat are one green slab; with seams the line between two tiles is
    darker than their backs, and the tiles and their labelled pixels stay as they were."""
    wall = _wall(6)
    cam = Camera.look_at((0.0, -1.0, 400.0), (0.0, 0.0, 0.0), 900.0, (640, 480))
    texture = np.full((64, 64, 3), 90, np.uint8)

    def paint(s: float) -> tuple[np.ndarray, np.ndarray]:
        out = render(cam, texture, cam.plane_homography(), list(wall), [], np.array([0.0, 0.0, 1.0]),
                     shadows=False, seam=s)
        return out.image[..., 1], out.idmap  # green channel: the backs

    flat, ids_flat = paint(1.0)
    seamed, ids_seamed = paint(seam)
    assert (ids_flat == ids_seamed).all()
    y = 240
    between = [int(round(cam.project(np.array([[(i - 2) * W, 0.0, T]]))[0, 0])) for i in range(5)]
    centres = [int(round(cam.project(np.array([[(i - 2.5) * W, 0.0, T]]))[0, 0])) for i in range(6)]
    back = float(np.median(seamed[y, centres]))
    assert abs(float(flat[y, between].max()) - back) < 2  # no seam: the slab is even
    assert float(seamed[y, between].max()) < back * (1 + seam) / 2  # each seam darker, all five
