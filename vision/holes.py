"""Tiles the detector missed in a row: a tile's width of face between two face-up tiles.

The detector misses a tile most where it shows least: the blank White dragon, a face as pale
as its tile, is a third of the face-up tiles a live table leaves unboxed. Such a tile lies in a
row between two it did box, one tile apart with nothing boxed between them, and where the
middle of that gap has the colour of their faces, not of the felt, it is a tile too.

>>> import numpy as np
>>> image = np.full((60, 200, 3), (40, 120, 40), np.uint8)  # green felt
>>> image[10:50, 20:110] = (220, 235, 240)  # three ivory tiles in a row, the middle one unboxed
>>> boxes = np.array([[20, 10, 50, 50], [80, 10, 110, 50]], np.float32)
>>> RowHoles()(image, boxes).round().tolist()
[[50.0, 10.0, 80.0, 50.0]]
>>> image[10:50, 50:80] = (40, 120, 40)  # felt between them: no tile
>>> len(RowHoles()(image, boxes))
0
>>> image[:] = (225, 235, 240); len(RowHoles()(image, boxes))  # a white cloth: nothing to tell
0
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detections import box_cover, box_iou

__all__ = ["RowHoles", "RowEnds", "DownFaces", "UnboxedFaces"]

# float Lab (L 0-100, a and b about -127-127) on the 8-bit scale, as OpenCV writes it
_LAB_SCALE = np.array([255 / 100, 1, 1], np.float32)
_LAB_SHIFT = np.array([0, 128, 128], np.float32)
CLOTH_STEP = 16  # the picture's colour is the median of every 16th pixel down and across


@dataclass(frozen=True)
class RowHoles:
    """Stage: a frame and its face-up boxes -> boxes of tiles missed between them.

    Two face-up boxes of about one size (within ``alike``; or one lying across, its width the
    other's height) lying in one row (their centres within ``in_line`` of a tile's height
    across it) ``gap`` tile widths apart, with no box (``others``, face-down ones too)
    centred between them, leave a hole; it is a tile when the middle of the hole is within
    ``face_lab`` (CIE Lab, 0-255 scale) of a neighbour's face and 1.5 times that from the
    cloth, whose colour is the picture's median (on a cloth as pale as the tiles, a gap where
    a discard was claimed would look like a tile: none is found).

    On the last tables of 40 bot-played hands (seeds 200-209, ``bench_camera_referee.py``) the
    pairs of the live reader's boxes made 248 holes, 29 of them over missed tiles; ``face_lab``
    was read off them. With it, 21 holes are kept there, each a missed tile (10 White
    dragons); on seeds 120-129, 16, of which 15 missed tiles and one a tile's box 0.42 off.
    The gap's lower end was 1.75 until stop 77: where a row's boxes take in the tiles' sides
    they overlap (a flower column's, 34 px every 30 px), and two tiles' centres lie 1.72 boxes
    apart across a missed one. At 1.5, the holes kept over missed tiles on 272 tables (seeds
    0-47, 120-129, 200-209): 128 -> 199, and the others (each a missed tile's, boxed at IoU
    0.33-0.43): 7 -> 5; at 1.4, 4 more others on seeds 120-129 alone.
    """

    gap: tuple[float, float] = (1.5, 2.4)
    in_line: float = 0.35
    alike: float = 0.3
    face_lab: float = 25.0
    middle: float = 0.3  # the half-size share of a box whose colour is its face's

    def __post_init__(self) -> None:
        # OpenCV builds its Lab tables on the first conversion (a third of a second on this
        # machine): here, not on a live frame, which a camera would drop meanwhile
        _lab(np.zeros((1, 3), np.float32))

    def __call__(self, image: np.ndarray, boxes: np.ndarray, others: np.ndarray | None = None) -> np.ndarray:
        holes = self._holes(np.asarray(boxes, np.float32), others)
        if not len(holes):
            return np.zeros((0, 4), np.float32)
        found = np.array([hole for hole, _, _ in holes], np.float32)
        left = np.array([a for _, a, _ in holes], np.float32)
        right = np.array([b for _, _, b in holes], np.float32)
        lab = self._colours(image, np.stack([found, left, right], 1).reshape(-1, 4)).reshape(len(found), 3, 3)
        return np.asarray(found[self._faces(lab, _cloth(image))], np.float32)

    def _holes(self, boxes: np.ndarray, others: np.ndarray | None) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Each hole's box and its two neighbours' boxes."""
        if len(boxes) < 2:
            return []
        c = (boxes[:, :2] + boxes[:, 2:]) / 2
        size = boxes[:, 2:] - boxes[:, :2]
        mean = (size[None] + size[:, None]) / 2  # (i, j, [w, h])
        every = boxes if others is None or not len(others) else np.concatenate([boxes, np.asarray(others, np.float32)])
        centres = (every[:, :2] + every[:, 2:]) / 2
        holes: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for i, j, axis, straight in self._pairs(c, size, mean):
            mid, half = (c[i] + c[j]) / 2, mean[i, j] / 2
            if (np.abs(centres - mid) < half).all(1).any():
                continue  # something lies there already
            if any((np.abs((h[:2] + h[2:]) / 2 - mid) < half).all() for h, _, _ in holes):
                continue  # the same hole from another pair
            hole = np.concatenate([mid - half, mid + half]) if straight else _beside_one_across(boxes[i], boxes[j], axis)
            holes.append((hole, boxes[i], boxes[j]))
        return holes

    def _pairs(self, c: np.ndarray, size: np.ndarray, mean: np.ndarray) -> list[tuple[int, int, int, bool]]:
        """Pairs of boxes (their centres ``c``, sizes and pairwise mean sizes) with room for
        one tile between them in their row: (i, j, the row's axis (0: x), whether the two are
        of one size, not one lying across the row)."""
        d = np.abs(c[None] - c[:, None])
        lo, hi = self.gap
        in_line = d[..., ::-1] < self.in_line * mean[..., ::-1]  # per axis: across that axis, in line
        straight = (np.abs(size[None] - size[:, None]) < self.alike * mean).all(-1)
        rows = (d > lo * mean) & (d < hi * mean) & in_line
        # or one lying across the row: a pung's called tile beside the middle tile missed
        # (Singaporean North's 9m pung, its middle tile unboxed for 60 frames); room for the one
        # standing between their facing ends
        crossed = (np.abs(size[None] - size[:, None, ::-1]) < self.alike * (size[None] + size[:, None, ::-1]) / 2).all(-1)
        standing = np.minimum(size[None], size[:, None])
        rows_across = (d - mean > (lo - 1) * standing) & (d - mean < (hi - 1) * standing) & in_line
        found = (straight[..., None] & rows) | ((crossed & ~straight)[..., None] & rows_across)
        pairs = [(int(i), int(j), int(axis), bool(straight[i, j]))
                 for i, j, axis in zip(*np.nonzero(found), strict=True) if i < j]
        return sorted(pairs, key=lambda p: not p[3])  # the pairs of one size first, as before

    def _faces(self, lab: np.ndarray, cloth: np.ndarray) -> np.ndarray:
        """Which holes are tiles, from the (N, 3, 3) Lab colours of their middles and their two
        neighbours' (NaN off the image), and the cloth's: a hole whose middle is within
        ``face_lab`` of a neighbour's face and 1.5 times that from the cloth."""
        to_face = np.nan_to_num(np.linalg.norm(lab[:, 1:] - lab[:, :1], axis=2), nan=np.inf)  # (N, 2)
        return np.asarray((to_face.min(1) < self.face_lab) & _off_cloth(lab[:, 0], cloth, self.face_lab), bool)

    def _colours(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The Lab colour (8-bit scale) of the median of the middle of each box; NaN where it
        lies off the image."""
        return _middle_colours(image, boxes, self.middle)


@dataclass(frozen=True)
class DownFaces:
    """Stage: a frame, its face-up and its face-down boxes -> which face-down boxes are faces.

    The detector boxes a blank White dragon face down now and then (17 of the face-up tiles
    on the last tables of 40 bot-played hands, seeds 120-129, every one a White dragon): a
    face as pale as its tile, no ink to tell it from a tile's back but the back's colour. A
    face-down box is a face where it lies in a row of face-up tiles: one of about its size
    beside it (centres ``near`` tile widths apart, in line within ``in_line``), and beyond
    that one another or on its own other side one more (a standing hand beside a flower
    row lies across the row, not in it); with no face-down box beside it in that row (walls
    and standing hands are rows of them, a concealed kang's backs lie two together; a
    standing hand may lie just across a first row of discards); and with the brightest
    quarter of its middle within ``face_lab`` (CIE Lab, 0-255 scale) of a neighbour's, its
    paper (the ink aside: a pink-backed kang beside an 8s chow had the colour of the chow's
    middle, and a 6s boxed face down at the foot of a pool column, of its own middle's ink),
    and 1.5 times that from the cloth.

    On the last tables of 272 bot-played hands (seeds 0-47, 120-129, 200-209) the live reader
    boxed 78 face-up tiles face down; 49 are turned so (46 White dragons, a 2s, a 9s, a Red
    dragon), and no other box. Since stop 79 a short run of face-down boxes in line with faces
    is turned whole where each has their paper's colour, far from the backs' (``_pale_runs``):
    60 (57 White dragons), still no other box, whatever ``back_gap`` from 30 to 70 and
    ``run`` from 5 to 9.

    Since stop 82 a face-down box with no face-down box beside it is also a face where its
    paper's colour is one face's beside it, its twin (``_lone``): of one size within half
    ``alike``, touching (centres ``twin_near`` tile sizes apart) along the shorter side of
    both. A flower row's second tile is laid beside its first (Filipino West's blank White
    dragon, boxed face down beside her East wind for 12 frames, was heard after the West
    wind laid beyond it, set style 12, seed 1, action 14); the backs' colour tells nothing
    there, as the walls' and standing hands' tops are the paper's white in that set. The
    standing hands' tiles the detector boxed alone beside a face lie by their long side or
    are of another size: on the 272 tables, along the face-down box's shorter side 4 were
    turned, along both boxes' 2, and as the face's twin none; the faces turned as before.

    Since stop 83 a run of 2 to ``run`` such twins with a face-up twin at each end is faces
    too (``_twin_runs``): Filipino West's two White dragon flowers side by side, both boxed
    face down between her Plum and her West wind (set style 12, seed 3, action 49), her
    standing hand just across the row; the standing hand's boxes, beside the run across it,
    had made it a run too long to weigh. On the 272 tables it turned 2 more White dragons (62
    in all, 59 White dragons) and no other box.

    >>> image = np.full((60, 200, 3), (40, 120, 40), np.uint8)  # green felt
    >>> image[10:50, 20:110] = (220, 235, 240)  # three ivory tiles in a row, the last boxed face down
    >>> up, down = np.array([[20, 10, 50, 50], [50, 10, 80, 50]], np.float32), np.array([[80, 10, 110, 50]], np.float32)
    >>> DownFaces()(image, up, down).tolist()
    [True]
    >>> image[10:50, 80:110] = (160, 60, 30)  # a blue back
    >>> DownFaces()(image, up, down).tolist()
    [False]
    """

    near: tuple[float, float] = (0.7, 1.4)
    in_line: float = 0.35
    alike: float = 0.3
    face_lab: float = 25.0
    middle: float = 0.3  # the half-size share of a box whose colour is its face's
    paper: float = 75.0  # the percentile of brightness above which a face's middle is paper
    run: int = 5  # a run of up to this many face-down boxes beside faces may be a meld's faces
    back_gap: float = 50.0  # a face lies this far (Lab) from the backs' colour
    backs_seen: int = 24  # face-down boxes whose colour says the backs'
    twin_near: tuple[float, float] = (0.8, 1.25)  # a lone face-down box's face touches it

    def __post_init__(self) -> None:
        _lab(np.zeros((1, 3), np.float32))  # OpenCV's Lab tables, built here (``RowHoles``)

    def __call__(self, image: np.ndarray, up: np.ndarray, down: np.ndarray) -> np.ndarray:
        up, down = np.asarray(up, np.float32).reshape(-1, 4), np.asarray(down, np.float32).reshape(-1, 4)
        faces = np.zeros(len(down), bool)
        if not len(up) or not len(down):
            return faces
        beside = _beside(down, up, self.near, self.in_line, self.alike)  # (down, up, axis)
        pairs = _beside(down, down, self.near, self.in_line, self.alike)  # (down, down, axis)
        backs = np.asarray(pairs.any(1), bool)  # (down, axis)
        ups = _beside(up, up, self.near, self.in_line, self.alike)  # (up, up, axis)
        rows = [(i, self._row_neighbours(int(i), down, up, beside, backs[i], ups))
                for i in np.flatnonzero(beside.any((1, 2)))]
        rows = [(i, nb) for i, nb in rows if len(nb)]
        runs = self._runs_by_faces(down, beside, pairs)
        twinned = {**self._lone(down, up, beside, pairs), **self._twin_runs(down, up, beside, pairs)}
        if not rows and not runs and not twinned:
            return faces
        paper = _middle_colours(image, up, self.middle, self.paper)
        cloth = _cloth(image)
        if rows:
            cand = np.array([i for i, _ in rows])
            lab = _middle_colours(image, down[cand], self.middle, self.paper)
            for k, (i, nb) in enumerate(rows):
                faces[i] = self._face_coloured(lab[k], paper[nb], cloth)
        if runs:
            faces |= self._pale_runs(image, down, runs, beside, paper, cloth)
        if twinned:
            lab = _middle_colours(image, down[list(twinned)], self.middle)
            for k, (box, twins) in enumerate(twinned.items()):  # whole middles, as ``_pale_runs``
                faces[box] |= self._face_coloured(lab[k], paper[twins], cloth)
        return faces

    def _lone(self, down: np.ndarray, up: np.ndarray, beside: np.ndarray, pairs: np.ndarray) -> dict[int, np.ndarray]:
        """The face-down boxes with no face-down box beside them that have a face-up twin
        beside them (``beside``, narrowed to half ``alike`` and ``twin_near``), in a row along
        the shorter side of both (a row's tiles touch by their long sides; a standing hand's
        tile lies below a meld's, or beside a flower column, otherwise), each with its twins.
        Only the few such boxes with a face beside them are measured again, on every frame."""
        cand = np.flatnonzero(np.asarray(beside.any((1, 2)), bool) & ~np.asarray(pairs.any((1, 2)), bool))
        if not len(cand):
            return {}
        along = self._twins(down[cand], up)
        return {int(i): np.flatnonzero(a.any(1)) for i, a in zip(cand, along, strict=True) if a.any()}

    def _twin_runs(self, down: np.ndarray, up: np.ndarray, beside: np.ndarray, pairs: np.ndarray) -> dict[int, np.ndarray]:
        """The face-down boxes of a run of 2 to ``run`` twins (one size within half ``alike``,
        each touching the next, centres ``twin_near`` tile sizes apart, along the shorter side
        of all) with a face-up twin at each end, and no other face-down box beside the run
        along it: blank faces laid together in a row, each with the faces at its ends. A
        standing hand lying just across the row does not count (``_lone`` wants none there);
        a face at one end only is no sign (a wall's or a standing hand's end beside a face)."""
        cand = np.flatnonzero((np.asarray(beside.any(1), bool) & np.asarray(pairs.any(1), bool)).any(1))
        if not len(cand):
            return {}
        twins, faces = self._twins(down, down), self._twins(down, up)
        found: dict[int, np.ndarray] = {}
        for axis in (0, 1):
            for run in _runs(twins[..., axis], cand, self.run):
                ends = np.flatnonzero(faces[run, :, axis].any(0))
                at = (up[ends, axis] + up[ends, axis + 2]) / 2  # the faces' centres along the row
                mid = (down[run, axis] + down[run, axis + 2]) / 2
                others = pairs[run, :, axis].any(0) & ~np.isin(np.arange(len(down)), run)
                if len(at) and at.min() < mid.min() and at.max() > mid.max() and not others.any():
                    found.update({int(i): ends for i in run})
        return found

    def _twins(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(len a, len b, axis): whether box b is box a's twin along that axis: one size within
        half ``alike``, touching (centres ``twin_near`` tile sizes apart), in line, and each no
        longer along the axis than across it (a row's tiles touch by their long sides)."""
        near = _beside(a, b, self.twin_near, self.in_line, self.alike / 2)
        return np.asarray(near & _short_along(a)[:, None] & _short_along(b)[None], bool)

    def _face_coloured(self, colour: np.ndarray, papers: np.ndarray, cloth: np.ndarray) -> bool:
        """Whether a box's ``colour`` lies within ``face_lab`` of one of ``papers`` and 1.5
        times that from the ``cloth``."""
        to_face = np.nan_to_num(np.linalg.norm(papers - colour, axis=1), nan=np.inf).min(initial=np.inf)
        return bool(to_face < self.face_lab and _off_cloth(colour[None], cloth, self.face_lab)[0])

    def _runs_by_faces(self, down: np.ndarray, beside: np.ndarray, pairs: np.ndarray) -> list[np.ndarray]:
        """The runs of up to ``run`` face-down boxes side by side (``pairs``) of which one lies
        in line with a face-up tile beside it (``beside``), along the run: a meld's tiles, or
        a concealed kang's backs; a wall or a standing hand runs longer."""
        along = np.asarray(beside.any(1), bool) & np.asarray(pairs.any(1), bool)  # (down, axis)
        return _runs(np.asarray(pairs.any(2), bool), np.flatnonzero(along.any(1)), self.run)

    def _pale_runs(self, image: np.ndarray, down: np.ndarray, runs: list[np.ndarray], beside: np.ndarray,
                   paper: np.ndarray, cloth: np.ndarray) -> np.ndarray:
        """Which face-down boxes of ``runs`` (``_runs_by_faces``) are faces: the middle of
        every box of its run has the paper's colour of a face-up tile beside the run, and lies
        ``back_gap`` from the backs' colour (the median of the middles of up to ``backs_seen``
        face-down boxes in no such run: the walls, the standing hands). Whole middles, not
        their brightest quarter: a standing hand's box seen from above has the paper's
        colour there, its top edge. A pung or kang of blank White dragons, boxed face down
        box by box, was a meld of backs beside a flower column's faces (19 of the face-up
        tiles the detector boxed face down on the last tables of 272 bot-played hands);
        where the backs are the paper's colour nothing is turned."""
        faces = np.zeros(len(down), bool)
        members = np.concatenate(runs)
        others = np.setdiff1d(np.arange(len(down)), members)
        if len(others) < 5:
            return faces  # too few backs to tell their colour
        sample = others[np.linspace(0, len(others) - 1, min(len(others), self.backs_seen)).astype(int)]
        back = np.nanmedian(_middle_colours(image, down[sample], self.middle), 0)
        colours = dict(zip(members.tolist(), _middle_colours(image, down[members], self.middle), strict=True))
        for run in runs:
            papers = paper[beside[run].any((0, 2))]
            if all(self._face_coloured(colours[int(i)], papers, cloth)
                   and float(np.linalg.norm(colours[int(i)] - back)) >= self.back_gap for i in run):
                faces[run] = True
        return faces

    @staticmethod
    def _row_neighbours(i: int, down: np.ndarray, up: np.ndarray, beside: np.ndarray, backs: np.ndarray,
                        ups: np.ndarray) -> np.ndarray:
        """The face-up boxes beside face-down box ``i`` in a row of them (``beside``, and
        ``ups`` for the face-up boxes among themselves): beyond the one beside it another
        along the same axis, or one more on its own other side; along no axis where
        ``backs`` has a face-down box beside it."""
        c = (down[i, :2] + down[i, 2:]) / 2
        cu = (up[:, :2] + up[:, 2:]) / 2
        found = []
        for j, axis in zip(*np.nonzero(beside[i]), strict=True):
            if backs[axis]:
                continue
            side = np.sign(cu[j, axis] - c[axis])
            beyond = (np.sign(cu[:, axis] - cu[j, axis]) == side) & ups[j, :, axis]
            across = (np.sign(cu[:, axis] - c[axis]) == -side) & beside[i, :, axis]
            if beyond.any() or across.any():
                found.append(j)
        return np.array(sorted(set(found)), np.int64)


@dataclass(frozen=True)
class UnboxedFaces:
    """Stage: a frame, its face-up boxes and all its boxes -> boxes of faces none found.

    A blank White dragon lying alone (a first discard, the newest of a flower column) is the
    tile the detector misses most, and neither ``RowHoles`` nor ``DownFaces`` has a row to
    find it by. It is a patch of the tiles' paper, of a tile's size, that no box covers: the
    picture shrunk so that a tile is about ``tile_px`` pixels across, its pixels within
    ``face_lab`` (CIE Lab, 0-255 scale) of the paper (the brightest quarter of the face-up
    tiles' middles) and outside every box, strokes of ink up to ``close`` pixels closed over,
    in patches whose sides lie within ``size`` of the face-up tiles' median sides (either way
    round) and which fill ``fill`` of their bounding box (a tile is a rectangle; a chip or a
    cup is round; ``_filled``). Nothing is looked for under ``least`` face-up tiles (no size
    or paper to go by), or on a cloth within 1.5 ``face_lab`` of the paper. One face-up tile
    is enough: a hand's first flower laid is often the White dragon, and until stop 81 three
    were wanted, so it was found only once two more lay beside it (``RowEnds``), and heard
    after the flower laid next (set style 12, seed 2, Filipino East's first two flowers).

    On the last tables of 272 bot-played hands (seeds 0-47, 120-129, 200-209), after the
    ``RowHoles`` and ``DownFaces`` looks, 314 face-up tiles were left unboxed, 101 of them
    White dragons. 35 were found so: 23 White dragons, 11 suit tiles of few strokes (bamboos
    most) and an East wind; no patch was taken where no tile lay. Without closing the ink: 24
    (23 White dragons and a 2s). A median 6.3 ms a table on two cores. Patches a neighbour's
    box cut short are grown to a tile (``_cut_short``, stop 78): 50 found (31 White dragons),
    still none where no tile lay (at ``cut_share`` 0.6, none more; without the rule that no box
    lie along the other end, and grown either way round, 57, 3 of them boxed 0.3-0.5 off).
    Patches filling ``askew`` (0.75) of their box with two corners filled, and patches of up to
    ``most`` tiles side by side (stop 79): 65 (37 White dragons), none where no tile lay (at
    ``askew`` 0.7, 69, one boxed 0.3-0.5 off; fill 0.8 with no look at the corners, 63, and a
    round chip fills 0.79).

    >>> image = np.full((300, 400, 3), (40, 120, 40), np.uint8)  # green felt
    >>> up = np.array([[20, 20, 50, 60], [60, 20, 90, 60], [100, 20, 130, 60]], np.float32)
    >>> for x0, y0, x1, y1 in up.astype(int): image[y0:y1, x0:x1] = (220, 235, 240)
    >>> image[150:190, 200:230] = (220, 235, 240)  # a blank face alone at (200, 150, 230, 190)
    >>> UnboxedFaces()(image, up, up).round().tolist()  # to a pixel of the picture shrunk (3 here)
    [[202.0, 150.0, 232.0, 192.0]]
    >>> _ = cv2.circle(image, (320, 240), 20, (220, 235, 240), -1)  # a white chip: round
    >>> len(UnboxedFaces()(image, up, up))
    1
    """

    face_lab: float = 25.0
    tile_px: float = 11.0
    size: float = 0.25
    fill: float = 0.85
    askew: float = 0.75  # a patch filling this share of its box, two of its corners or more, is tile-like
    middle: float = 0.3  # the half-size share of a box whose colour is its face's
    paper: float = 75.0  # the percentile of brightness above which a face's middle is paper
    least: int = 1
    close: int = 3  # strokes of ink up to this many pixels of the picture shrunk are closed over
    cut_share: float = 0.5  # a patch a box cut to this share of a tile's side or more is grown to a tile
    most: int = 3  # a patch of up to this many blank faces side by side is boxed tile by tile

    def __post_init__(self) -> None:
        _lab(np.zeros((1, 3), np.float32))  # OpenCV's Lab tables, built here (``RowHoles``)

    def __call__(self, image: np.ndarray, up: np.ndarray, every: np.ndarray) -> np.ndarray:
        up = np.asarray(up, np.float32).reshape(-1, 4)
        none = np.zeros((0, 4), np.float32)
        if len(up) < self.least:
            return none
        sides = np.median(np.sort(up[:, 2:] - up[:, :2], 1), 0)
        k = max(1, int(round(float(sides[0]) / self.tile_px)))
        h, w = image.shape[:2]
        # nearest-neighbour shrinking: a fifth of the cost of averaging, and the paper is flat
        lab = cv2.cvtColor(cv2.resize(image, (w // k, h // k), interpolation=cv2.INTER_NEAREST), cv2.COLOR_BGR2LAB)
        scale = np.array([w / (w // k), h / (h // k)] * 2, np.float32)  # a shrunk pixel's size
        paper = self._paper(lab, up / scale)
        if paper is None or np.linalg.norm(paper - _cloth(image)) < 1.5 * self.face_lab:
            return none
        diff = cv2.absdiff(lab, np.full_like(lab, np.clip(np.round(paper), 0, 255))).astype(np.float32)
        mask = (cv2.transform(diff * diff, np.ones((1, 3), np.float32)) < self.face_lab ** 2).astype(np.uint8)
        boxed = np.zeros(mask.shape, bool)
        for x0, y0, x1, y1 in np.asarray(every, np.float32).reshape(-1, 4) / scale:
            boxed[max(int(y0), 0):max(int(np.ceil(y1)), 0), max(int(x0), 0):max(int(np.ceil(x1)), 0)] = True
        mask[boxed] = 0
        if self.close > 1:  # a face's thin strokes of ink closed over (closed before the boxes
            # were cleared, the seams between touching tiles closed too: 24 found against 35)
            mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((self.close, self.close), np.uint8)), np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
        patches = stats[1:, :4][self._filled(labels, stats)]
        whole = self._tile_sized(patches, sides / scale[:2])
        cut = self._cut_short(patches[~whole], boxed, sides / scale[:2])
        return np.asarray(np.concatenate([self._boxes(patches[whole]), cut]) * scale, np.float32)

    def _filled(self, labels: np.ndarray, stats: np.ndarray) -> np.ndarray:
        """Which of the patches (``stats`` of the components ``labels``, the cloth's first)
        fill ``fill`` of their bounding box, or ``askew`` of it with two of its corners or
        more: a tile seen askew (a side seat's flower column, its long edges sloping a tenth
        of a tile) leaves two opposite corners of its box bare, a face's few strokes of ink
        left in the paper leave holes, a round chip fills 0.79 and no corner.

        >>> disc = cv2.circle(np.zeros((20, 20), np.uint8), (10, 10), 7, 1, -1)
        >>> slab = cv2.fillPoly(np.zeros((20, 20), np.uint8), [np.array([[2, 2], [12, 2], [15, 16], [5, 16]])], 1)
        >>> look = UnboxedFaces(fill=0.85, askew=0.7)
        >>> [bool(look._filled(*cv2.connectedComponentsWithStats(m, connectivity=4)[1:3])[0]) for m in (disc, slab)]
        [False, True]
        """
        area = stats[1:, 4].astype(np.float32)
        box = stats[1:, 2] * stats[1:, 3]
        filled = area >= self.fill * box
        for k in np.flatnonzero(~filled & (area >= self.askew * box)):
            x, y, w, h = stats[k + 1, :4]
            mine = labels[y:y + h, x:x + w] == k + 1
            corners = [mine[:2, :2], mine[:2, -2:], mine[-2:, :2], mine[-2:, -2:]]
            filled[k] = sum(bool(c.any()) for c in corners) >= 2
        return np.asarray(filled, bool)

    def _paper(self, lab: np.ndarray, up: np.ndarray) -> np.ndarray | None:
        """The Lab colour of the brightest ``paper`` share of the face-up boxes' middles, read
        off the shrunk picture ``lab`` at once: one colour for the whole table, where
        ``_middle_colours`` gives each box its own at full size (19 ms for 53 boxes here)."""
        middles = np.zeros(lab.shape[:2], bool)
        c, half = (up[:, :2] + up[:, 2:]) / 2, (up[:, 2:] - up[:, :2]) * self.middle
        for (x0, y0), (x1, y1) in zip(np.floor(c - half).astype(int).clip(0), np.ceil(c + half).astype(int), strict=True):
            middles[y0:y1, x0:x1] = True
        pixels = lab[middles]
        if not len(pixels):
            return None
        return np.asarray(np.median(pixels[pixels[:, 0] >= np.percentile(pixels[:, 0], self.paper)], 0), np.float32)

    def _tile_sized(self, patches: np.ndarray, sides: np.ndarray) -> np.ndarray:
        """Which ``patches`` (x, y, width, height) are of a tile's ``sides`` (short, long),
        either way round."""
        bw, bh = patches[:, 2].astype(np.float32), patches[:, 3].astype(np.float32)
        short, long = np.minimum(bw, bh), np.maximum(bw, bh)
        fits: np.ndarray = (np.abs(short - sides.min()) <= self.size * sides.min()) & (
            np.abs(long - sides.max()) <= self.size * sides.max())
        return fits

    @staticmethod
    def _boxes(patches: np.ndarray) -> np.ndarray:
        x, y, bw, bh = patches.T.astype(np.float32)
        return np.asarray(np.stack([x, y, x + bw, y + bh], 1), np.float32).reshape(-1, 4)

    def _cut_short(self, patches: np.ndarray, boxed: np.ndarray, sides: np.ndarray) -> np.ndarray:
        """Boxes of the tiles of ``patches`` of up to ``most`` blank faces side by side, or a
        box cut short: as long as a tile (a patch as long as a tile is wide may be a face's
        paper above its shaded foot, and grown the other way round it took in the next tile's
        ink) and across it as wide as a whole number of tiles (``_grown``).

        A blank White dragon at the head of a pool column, over the Green dragon below it
        boxed 6 px high, was a patch 24 px of 36 (set style 12, a Singaporean hand's action
        13); two laid one after the other at the head of a flower column, the Bamboo flower
        below them boxed over the second's foot, a patch 1.6 tiles wide (a Filipino hand's
        action 62)."""
        out: list[list[float]] = []
        for x, y, bw, bh in patches.tolist():
            boxes = self._grown(boxed, x, y, bw, bh, sides.max(), sides.min())
            if not boxes:  # the same, the picture's axes swapped
                boxes = [[b[1], b[0], b[3], b[2]] for b in self._grown(boxed.T, y, x, bh, bw, sides.max(), sides.min())]
            out += boxes
        return np.array(out, np.float32).reshape(-1, 4)

    def _grown(self, boxed: np.ndarray, x: int, y: int, bw: int, bh: int, wide: float, high: float) -> list[list[float]]:
        """The tiles ``wide`` across and ``high`` down of a patch ``bw`` wide as a tile and
        ``bh`` high: two to ``most`` whole tiles (within ``size`` of a tile), or tiles whose
        last a box lying along its edge cuts short (``cut_share`` of it left or more), grown
        into the box; none if it is none such (``boxed``: the pixels under a box; between
        two boxes lies a box's sliver shifted off its tile)."""
        tiles = bh / high
        whole = int(round(tiles))
        if abs(bw - wide) > self.size * wide or tiles > self.most + self.size:
            return []
        if whole >= 2 and abs(tiles - whole) <= self.size:
            return [[x, y + k * bh / whole, x + bw, y + (k + 1) * bh / whole] for k in range(whole)]
        left = tiles - int(tiles)  # the last tile's share the box left
        if not self.cut_share <= left < 1 - self.size or int(tiles) >= self.most:
            return []
        above = float(boxed[y - 1, x:x + bw].mean()) if y > 0 else 0.0
        below = float(boxed[y + bh, x:x + bw].mean()) if y + bh < boxed.shape[0] else 0.0
        if max(above, below) < 0.5 or min(above, below) >= 0.5:  # between two boxes: one misplaced
            return []
        n = int(tiles) + 1
        top = y - (n * high - bh) if above >= below else y
        return [[x, top + k * high, x + bw, top + (k + 1) * high] for k in range(n)]


@dataclass(frozen=True)
class RowEnds:
    """Stage: a frame, its face-up boxes and all its boxes -> boxes of tiles missed at a row's end.

    The detector misses the last tile of a row too (the third 9s of a pung at the foot of its
    column, a White dragon newly laid at the end of a flower row), where ``RowHoles`` has no
    tile beyond it to find it by. Past two face-up tiles beside each other (``_beside``: of
    about one size, ``near`` mean sizes apart, in line within ``in_line``), one step on (the
    step from the first to the second), a spot of the second's size that no box covers by
    ``cover`` or more and has no box centred in it is a tile when its middle's brightest
    quarter is within ``face_lab`` (CIE Lab, 0-255 scale) of the paper of the tile it lies
    past, its middle 1.5 times that from the cloth, and under ``cloth_share`` of its pixels
    the cloth's colour.

    On the last tables of 272 bot-played hands (seeds 0-47, 120-129, 200-209), after the
    ``DownFaces``, ``RowHoles`` and ``UnboxedFaces`` looks, 249 face-up tiles were left
    unboxed: 43 are found so (15 White dragons, 12 9s), 2 more boxed 0.3-0.5 off, none where
    no tile lay. Without the look at the cloth's share, 5 spots lay where no tile did: each
    by a meld's tile lying across, its box cut short, the spot a third to a half cloth (the
    tiles found, 0.19 at most).

    >>> image = np.full((200, 200, 3), (40, 120, 40), np.uint8)  # green felt
    >>> image[20:140, 20:60] = (220, 235, 240)  # a column of three ivory tiles, the last unboxed
    >>> up = np.array([[20, 20, 60, 60], [20, 60, 60, 100]], np.float32)
    >>> RowEnds()(image, up, up).round().tolist()
    [[20.0, 100.0, 60.0, 140.0]]
    >>> image[100:140, 20:60] = (40, 120, 40)  # felt past the second: no tile
    >>> len(RowEnds()(image, up, up))
    0
    """

    near: tuple[float, float] = (0.7, 1.4)
    in_line: float = 0.35
    alike: float = 0.3
    cover: float = 0.25
    face_lab: float = 25.0
    middle: float = 0.3  # the half-size share of a box whose colour is its face's
    paper: float = 75.0  # the percentile of brightness above which a face's middle is paper
    cloth_share: float = 0.3

    def __post_init__(self) -> None:
        _lab(np.zeros((1, 3), np.float32))  # OpenCV's Lab tables, built here (``RowHoles``)

    def __call__(self, image: np.ndarray, up: np.ndarray, every: np.ndarray) -> np.ndarray:
        up = np.asarray(up, np.float32).reshape(-1, 4)
        spots, after = self._spots(up, np.asarray(every, np.float32).reshape(-1, 4))
        if not len(spots):
            return spots
        cloth = _cloth(image)
        # most spots past a row's end are cloth: out first, before the brightest quarters are weighed
        off = np.flatnonzero(_off_cloth(_middle_colours(image, spots, self.middle), cloth, self.face_lab))
        paper = _middle_colours(image, up[after[off]], self.middle, self.paper)  # the tile each spot lies past
        bright = _middle_colours(image, spots[off], self.middle, self.paper)
        faces = off[np.nan_to_num(np.linalg.norm(bright - paper, axis=1), nan=np.inf) < self.face_lab]
        keep = [k for k in faces if self._clothed(image, spots[k], cloth) < self.cloth_share]
        return np.asarray(spots[keep], np.float32).reshape(-1, 4)

    def _spots(self, up: np.ndarray, every: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The spots one step past each pair of face-up tiles beside each other where no box
        lies, of the second's size on the row's line through it, and the second's index."""
        none = np.zeros((0, 4), np.float32), np.zeros(0, np.int64)
        if len(up) < 2:
            return none
        first, second, axis = np.nonzero(_beside(up, up, self.near, self.in_line, self.alike))
        centre = (up[:, :2] + up[:, 2:]) / 2
        mid, half = centre[second].copy(), (up[second, 2:] - up[second, :2]) / 2
        rows = np.arange(len(second))
        mid[rows, axis] += centre[second, axis] - centre[first, axis]
        spots = np.concatenate([mid - half, mid + half], 1).astype(np.float32)
        centres = (every[:, :2] + every[:, 2:]) / 2
        centred = (np.abs(centres[None] - mid[:, None]) < half[:, None]).all(2).any(1)
        free = np.flatnonzero(~centred & (box_cover(spots, every).max(1, initial=0.0) < self.cover))
        same = box_iou(spots[free], spots[free]) > 0.3  # the same spot past a row's end, from another pair
        kept: list[int] = []
        for k in range(len(free)):
            if not same[k, kept].any():
                kept.append(k)
        return spots[free[kept]].reshape(-1, 4), second[free[kept]].astype(np.int64)

    def _clothed(self, image: np.ndarray, spot: np.ndarray, cloth: np.ndarray) -> float:
        """The share of the ``spot``'s pixels within ``face_lab`` of the ``cloth``'s colour (1 off the picture)."""
        h, w = image.shape[:2]
        x0, y0 = max(int(spot[0]), 0), max(int(spot[1]), 0)
        x1, y1 = min(int(np.ceil(spot[2])), w), min(int(np.ceil(spot[3])), h)
        if x1 <= x0 or y1 <= y0:
            return 1.0
        lab = _lab(image[y0:y1, x0:x1].reshape(-1, 3))
        return float((np.linalg.norm(lab - cloth, axis=1) < self.face_lab).mean())


def _beside(a: np.ndarray, b: np.ndarray, near: tuple[float, float], in_line: float, alike: float) -> np.ndarray:
    """(len a, len b, axis): whether box b lies beside box a in a row along that axis (0: x),
    the two of about one size (within ``alike``), their centres ``near`` mean tile sizes apart
    along it and within ``in_line`` across it."""
    ca, cb = (a[:, :2] + a[:, 2:]) / 2, (b[:, :2] + b[:, 2:]) / 2
    sa, sb = a[:, 2:] - a[:, :2], b[:, 2:] - b[:, :2]
    mean = (sa[:, None] + sb[None]) / 2
    d = np.abs(ca[:, None] - cb[None])
    alike_sized = (np.abs(sa[:, None] - sb[None]) < alike * mean).all(-1)
    along = (d > near[0] * mean) & (d < near[1] * mean) & (d[..., ::-1] < in_line * mean[..., ::-1])
    return np.asarray(alike_sized[..., None] & along, bool)


def _runs(linked: np.ndarray, starts: np.ndarray, most: int) -> list[np.ndarray]:
    """The runs of 2 to ``most`` boxes joined by ``linked`` (a square boolean matrix) through
    any of ``starts``, each once.

    >>> linked = np.zeros((5, 5), bool); linked[0, 1] = linked[1, 0] = linked[2, 3] = linked[3, 2] = True
    >>> [r.tolist() for r in _runs(linked, np.arange(5), 3)]
    [[0, 1], [2, 3]]
    """
    seen: set[int] = set()
    out = []
    for i in starts:
        if int(i) in seen:
            continue
        run, grow = {int(i)}, [int(i)]
        while grow and len(run) <= most:
            grow = [int(j) for k in grow for j in np.flatnonzero(linked[k]) if int(j) not in run]
            run.update(grow)
        seen |= run
        if 2 <= len(run) <= most:
            out.append(np.array(sorted(run), np.int64))
    return out


def _short_along(boxes: np.ndarray) -> np.ndarray:
    """(N, axis): whether each box is no longer along that axis (0: x) than across it."""
    size = boxes[:, 2:] - boxes[:, :2]
    return np.stack([size[:, 0] <= size[:, 1], size[:, 1] <= size[:, 0]], 1)


def _off_cloth(colours: np.ndarray, cloth: np.ndarray, face_lab: float) -> np.ndarray:
    """Which (N, 3) Lab ``colours`` lie 1.5 ``face_lab`` or more from the ``cloth``'s: a tile's,
    not the felt's (NaN, off the picture: not).

    >>> _off_cloth(np.array([[200, 128, 128], [60, 100, 140], [np.nan] * 3]), np.array([60, 100, 140]), 25.0).tolist()
    [True, False, False]
    """
    return np.asarray(np.nan_to_num(np.linalg.norm(colours - cloth, axis=1), nan=0.0) >= 1.5 * face_lab, bool)


def _cloth(image: np.ndarray) -> np.ndarray:
    """The Lab colour of the cloth: the picture's median, as a camera over the table sees mostly cloth."""
    cloth: np.ndarray = _lab(np.median(image[::CLOTH_STEP, ::CLOTH_STEP].reshape(-1, 3), 0)[None])[0]
    return cloth


def _middle_colours(image: np.ndarray, boxes: np.ndarray, middle: float, brightest: float | None = None) -> np.ndarray:
    """The Lab colour (8-bit scale) of the median of the middle of each box (``middle`` of
    its size each way from its centre), or of its pixels at or above the ``brightest``
    percentile of brightness; NaN where it lies off the image. The medians first, then
    converted all at once: converting each patch cost ten times its median."""
    h, w = image.shape[:2]
    mid, half = (boxes[:, :2] + boxes[:, 2:]) / 2, (boxes[:, 2:] - boxes[:, :2]) * middle
    lo = np.floor(np.maximum(mid - half, 0)).astype(int)
    hi = np.minimum(mid + half, [w, h]).astype(int)
    bgr = np.full((len(boxes), 3), np.nan, np.float32)
    for k, ((x0, y0), (x1, y1)) in enumerate(zip(lo, hi, strict=True)):
        if x1 > x0 and y1 > y0:
            patch = image[y0:y1, x0:x1].reshape(-1, 3)
            if brightest is not None:
                grey = patch.astype(np.int32).sum(1)
                patch = patch[grey >= np.percentile(grey, brightest)]
            bgr[k] = np.median(patch, 0)
    seen = ~np.isnan(bgr[:, 0])
    lab = np.full_like(bgr, np.nan)
    if seen.any():
        lab[seen] = _lab(bgr[seen])
    return lab


def _beside_one_across(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
    """The hole between boxes ``a`` and ``b`` of a row along ``axis`` (0: x), one of them
    lying across it: from the end of one to the start of the other, as wide as the one
    standing (the shorter along the row)."""
    first, second = (a, b) if a[axis] <= b[axis] else (b, a)
    standing = a if a[axis + 2] - a[axis] <= b[axis + 2] - b[axis] else b
    hole = standing.copy()
    hole[axis], hole[axis + 2] = first[axis + 2], max(second[axis], first[axis + 2])
    return hole


def _lab(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) BGR colours (0-255) in CIE Lab on OpenCV's 8-bit scale, unrounded."""
    lab = cv2.cvtColor((np.asarray(bgr, np.float32) / 255)[:, None], cv2.COLOR_BGR2LAB)[:, 0]
    return np.asarray(lab * _LAB_SCALE + _LAB_SHIFT, np.float32)
