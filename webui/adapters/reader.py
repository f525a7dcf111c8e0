"""The one place the web UI reads a photo: ``vision.pipeline.read_hand_photo``.

The result is kept as a :class:`PhotoReading`: every tile seen with its box,
confidence and region, plus the hand's layout as indices into that list, so a
person can correct one tile and the hand text is rebuilt from the same layout.

>>> r = PhotoReading(640, 480, [ReadTile("1m", (0, 0, 10, 10)), ReadTile("1m", (11, 0, 21, 10)),
...                   ReadTile("5p", (30, 0, 40, 10), region="meld", group=0)] * 1,
...                  concealed=[0, 1], melds=[("[]", [2, 2, 2])], bonus=[])
>>> r.hand_text()
'1m1m [5p5p5p]'
>>> r.corrected(1, "2m").hand_text()
'1m2m [5p5p5p]'
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from engine.tiles import Tile

__all__ = ["PhotoReader", "PhotoReading", "ReadTile", "ReaderUnavailable", "from_hand_reading", "read_turned"]


class ReaderUnavailable(ValueError):
    """The camera models are not installed in this build."""


@dataclass(frozen=True)
class ReadTile:
    tile: str  # code, e.g. "5p"; str(Tile.BACK) when face down
    box: tuple[float, float, float, float]
    confidence: float = 1.0
    region: str = "hand"  # hand, meld, flower, other
    group: int | None = None
    doubt: str = ""
    corrected: bool = False


@dataclass(frozen=True)
class PhotoReading:
    width: int
    height: int
    tiles: list[ReadTile]
    concealed: list[int] = field(default_factory=list)
    melds: list[tuple[str, list[int]]] = field(default_factory=list)  # (brackets "[]" "()" "<>", indices)
    bonus: list[int] = field(default_factory=list)
    turned: bool = False  # read from the photo turned half round (boxes still in the photo's pixels)
    shaken: bool = False  # the photo looks smeared along a line (vision.pipeline): worth taking again

    def hand_text(self) -> str:
        """The hand in the engine's notation, tiles in the order seen."""
        def code(i: int) -> str:
            return self.tiles[i].tile

        parts = ["".join(code(i) for i in self.concealed)] if self.concealed else []
        for brackets, idx in self.melds:
            back = str(Tile.BACK)
            faces = [code(i) for i in idx if code(i) != back]
            # A secret shows face-down outer tiles: they are copies of the face-up ones.
            tiles = [faces[0] if code(i) == back and faces else code(i) for i in idx]
            parts.append(brackets[0] + "".join(tiles) + brackets[1])
        text = " ".join(parts)
        if self.bonus:
            text += " / " + "".join(code(i) for i in self.bonus)
        return text

    def cut_by_edge(self) -> list[int]:
        """Indices of the tiles of the hand, or lying by it, that reach the photo's edge
        (``vision.readings.cut_by_edge``): a hand read short may run outside the picture."""
        from vision.readings import cut_by_edge

        return cut_by_edge([t.box for t in self.tiles], [t.region for t in self.tiles], (self.width, self.height),
                           face_down=[t.tile == str(Tile.BACK) for t in self.tiles])

    def corrected(self, index: int, code: str) -> PhotoReading:
        """This reading with tile ``index`` replaced by ``code`` (checked)."""
        if not 0 <= index < len(self.tiles):
            raise ValueError(f"no tile number {index} in this photo (it has {len(self.tiles)})")
        tile = Tile.parse(code)
        tiles = list(self.tiles)
        tiles[index] = replace(tiles[index], tile=str(tile), doubt="", corrected=True, confidence=1.0)
        return replace(self, tiles=tiles)

    def placed(self, index: int, region: str) -> PhotoReading:
        """This reading with tile ``index`` put where the person says it lies: ``other``
        (not the hand's: a die, a coin, a tile boxed twice, a discard), ``hand`` (into the
        concealed row, at its place along the row) or ``flower`` (among the flowers). A
        meld left without a tile goes. The tile keeps its box; nothing else moves.

        >>> r = PhotoReading(640, 480, [ReadTile("1m", (0, 0, 10, 10)), ReadTile("3m", (22, 0, 32, 10)),
        ...                  ReadTile("2m", (11, 0, 21, 10), region="other"), ReadTile("5z", (0, 20, 10, 30), region="flower")],
        ...                  concealed=[0, 1], bonus=[3])
        >>> r.placed(2, "hand").hand_text(), r.placed(3, "other").hand_text(), r.placed(2, "flower").hand_text()
        ('1m2m3m / 5z', '1m3m', '1m3m / 5z2m')
        >>> r.placed(0, "other").placed(1, "other").placed(2, "hand").hand_text()  # into an empty row
        '2m / 5z'
        """
        if not 0 <= index < len(self.tiles):
            raise ValueError(f"no tile number {index} in this photo (it has {len(self.tiles)})")
        if region not in ("other", "hand", "flower"):
            raise ValueError(f"a tile lies in the hand, among the flowers or is not the hand's (other), not {region!r}")
        concealed = [i for i in self.concealed if i != index]
        melds = [(b, [i for i in idx if i != index]) for b, idx in self.melds]
        melds = [(b, idx) for b, idx in melds if idx]
        bonus = [i for i in self.bonus if i != index]
        if region == "hand":
            concealed = self._along_row(concealed, index)
        elif region == "flower":
            bonus.append(index)
        tiles = [replace(t, group=next((g for g, (_, idx) in enumerate(melds) if i in idx), None))
                 if t.region == "meld" else t for i, t in enumerate(self.tiles)]
        tiles[index] = replace(tiles[index], region=region, group=None, doubt="", corrected=True)
        return replace(self, tiles=tiles, concealed=concealed, melds=melds, bonus=bonus)

    def _along_row(self, row: list[int], index: int) -> list[int]:
        """``row`` with ``index`` inserted where its box's centre falls along the row (from
        its first tile's centre to its last's)."""
        def centre(i: int) -> tuple[float, float]:
            x1, y1, x2, y2 = self.tiles[i].box
            return (x1 + x2) / 2, (y1 + y2) / 2

        if not row:
            return [index]
        (ax, ay), (bx, by) = centre(row[0]), centre(row[-1])
        dx, dy = (bx - ax, by - ay) if len(row) > 1 else (1.0, 0.0)
        if dx == dy == 0:  # a typed hand: no boxes, so no place; last
            return [*row, index]
        along = [(centre(i)[0] - ax) * dx + (centre(i)[1] - ay) * dy for i in row]
        here = (centre(index)[0] - ax) * dx + (centre(index)[1] - ay) * dy
        k = sum(1 for a in along if a < here)
        return row[:k] + [index] + row[k:]

    def turned_round(self) -> PhotoReading:
        """This reading of the photo turned half round, in the photo's own pixels: each box
        (x1, y1, x2, y2) goes to (w - x2, h - y2, w - x1, h - y1); ``turned`` flips.

        >>> r = PhotoReading(100, 50, [ReadTile("1m", (10, 5, 20, 25))], concealed=[0])
        >>> back = r.turned_round()
        >>> back.tiles[0].box, back.turned, back.turned_round() == r
        ((80.0, 25.0, 90.0, 45.0), True, True)
        """
        w, h = self.width, self.height
        tiles = [replace(t, box=(float(w - t.box[2]), float(h - t.box[3]), float(w - t.box[0]), float(h - t.box[1])))
                 for t in self.tiles]
        return replace(self, tiles=tiles, turned=not self.turned)

    def scaled(self, sx: float, sy: float) -> PhotoReading:
        """This reading with its boxes and size ``sx`` × ``sy`` as large: read from a photo
        decoded at a fraction of its size, given back in its own pixels.

        >>> PhotoReading(50, 40, [ReadTile("1m", (10, 5, 20, 25))]).scaled(2, 2).tiles[0].box
        (20.0, 10.0, 40.0, 50.0)
        """
        if (sx, sy) == (1, 1):
            return self
        tiles = [replace(t, box=(float(t.box[0] * sx), float(t.box[1] * sy), float(t.box[2] * sx), float(t.box[3] * sy)))
                 for t in self.tiles]
        return replace(self, width=round(self.width * sx), height=round(self.height * sy), tiles=tiles)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> PhotoReading:
        data = json.loads(text)
        data["tiles"] = [ReadTile(**{**t, "box": tuple(t["box"])}) for t in data["tiles"]]
        data["melds"] = [(b, list(idx)) for b, idx in data["melds"]]
        return cls(**data)


def from_hand_reading(reading: Any, size: tuple[int, int]) -> PhotoReading:
    """Convert ``vision.readings.HandReading`` (concealed, melds, flowers, others)."""
    tiles: list[ReadTile] = []

    def add(item: Any, region: str, group: int | None = None) -> int:
        tiles.append(ReadTile(str(item.tile), tuple(float(v) for v in item.box),  # type: ignore[arg-type]
                              float(item.confidence), region, group, str(getattr(item, "doubt", "") or "")))
        return len(tiles) - 1

    concealed = [add(i, "hand") for i in reading.concealed]
    melds = []
    for g, m in enumerate(reading.melds):
        brackets = "()" if getattr(m, "concealed", False) else ("<>" if getattr(m, "added", False) else "[]")
        melds.append((brackets, [add(i, "meld", g) for i in m.items]))
    bonus = [add(i, "flower") for i in reading.flowers]
    for i in getattr(reading, "others", ()):
        add(i, "other")
    w, h = getattr(reading, "image_size", None) or size
    return PhotoReading(int(w), int(h), tiles, concealed, melds, bonus, shaken=bool(getattr(reading, "shaken", False)))


@dataclass
class PhotoReader:
    """Adapter over the camera pipeline; ``read_fn(path, variant) -> HandReading`` overrides it."""

    read_fn: Callable[[str, str], Any] | None = None
    calibration: str | None = None  # a set taught with ``mahjongero calibrate``
    _ready: bool | None = None

    def available(self) -> bool:
        """Whether photos can be read here (the pipeline and its models load)."""
        if self._ready is None:
            try:
                self._read_fn()
                if self.read_fn is None:
                    from vision.pipeline import default_reader

                    default_reader()  # loads models/*.onnx: a missing model is said now
                self._ready = True
            except (ReaderUnavailable, ImportError, ValueError):
                self._ready = False
        return self._ready

    def _read_fn(self) -> Callable[..., Any]:
        if self.read_fn is not None:
            return self.read_fn
        try:
            from vision.pipeline import read_hand_photo
        except ImportError as exc:
            raise ReaderUnavailable(
                "the camera models are not installed yet, so photos cannot be read: type the hand instead"
            ) from exc
        return read_hand_photo

    def read(self, path: str, variant: str, size: tuple[int, int]) -> PhotoReading:
        """Read the hand in the photo at ``path`` (already checked to be an image of ``size``)."""
        fn = self._read_fn()
        try:
            reading = fn(path, variant) if self.read_fn is not None else fn(path, variant,
                                                                            calibration=self.calibration)
        except ValueError as exc:
            if type(exc).__name__ == "ModelLoadError":  # models not trained/installed yet
                raise ReaderUnavailable(f"the tile reader's models are not installed yet ({exc}): "
                                        "type the hand instead") from None
            raise
        if isinstance(reading, PhotoReading):
            return reading
        return from_hand_reading(reading, size)


class ReadsPhotos(Protocol):
    def read(self, path: str, variant: str, size: tuple[int, int]) -> PhotoReading: ...


def read_turned(reader: ReadsPhotos, path: str, variant: str) -> PhotoReading:
    """``reader``'s reading of the photo at ``path`` turned half round, boxes given back in
    the photo's own pixels: for a hand photographed from across the table, whose tiles stand
    upside down. The tile reader cuts an upside-down row's crops upside down (a row's
    direction does not say which way is up) and turns a row of touching tiles that looks
    upside down itself (``vision.way_up``): on the real validation photos turned over it
    names 98.7 % of the tiles on their true boxes, against 99.6 % as photographed
    (``benchmarks/bench_real_perturbed.py``); this is for the rows it does not turn. The
    photo is turned as decoded for reading (a phone's JPEG at half size,
    ``vision.imageio.load_photo``) and handed over as a BMP: lossless, and quick to write."""
    try:
        import cv2
        import numpy as np

        from vision.imageio import load_photo
    except ImportError as exc:
        raise ReaderUnavailable(f"photos cannot be read here ({exc}): type the hand instead") from exc
    image, (sx, sy) = load_photo(path)  # upright as the browser shows it
    turned = np.ascontiguousarray(image[::-1, ::-1])
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "turned.bmp"
        if not cv2.imwrite(str(out), turned):
            raise ValueError(f"cannot write the turned photo of {path!r}")
        reading = reader.read(str(out), variant, (turned.shape[1], turned.shape[0]))
    return replace(reading, turned=False).turned_round().scaled(sx, sy)
