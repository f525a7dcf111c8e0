"""Hands the bots played, shown to the live pipeline as a rendered table, and what its referee
recorded: shared by ``test_camera_referee.py`` and ``benchmarks/bench_camera_referee.py``.

Each hand is played by the engine's bots in full mode. Its steps up to the win
(``vision.scripted.steps_of``) are rendered on a table frame by frame, a hand passing over
it now and then; the frames go through the live pipeline as a camera's do, and its events
reach either the Referee page's book as the web UI sends them (``webui.camera.event_dict``)
or an observed game through ``vision.events.RefereeFeed``. That record must hold the same
actions in the same order as the hand (a camera rarely sees a draw: draws apart), and pay the
same instant payouts as the hand's actions pushed into an observed game one by one.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from engine.game import Draw, DrawGame, Game, Win
from engine.seats import Seat
from engine.tiles import Tile
from tests.webui.referee_forms import paid
from vision.events import RefereeFeed, TableEvent
from vision.pipeline import LivePipeline, _is_bonus, load_ruleset
from vision.regions import TableLayout, TableRegions, to_items
from vision.scripted import ScriptedTable, labels_to_detections, steps_of

HAND_SIZE = {"filipino": 16, "visayan": 16, "singaporean": 13, "vietnamese": 13}


@dataclass(frozen=True)
class Record:
    """What a referee holds after a hand: its actions (draws apart), each seat's net payments,
    and what it refused, with why."""

    actions: list[str]
    paid: dict[int, Fraction]  # each seat's net, as ``tests.webui.referee_forms.paid`` counts it
    refused: tuple[str, ...] = ()
    frames: int = 0

    def agreed(self, want: Record) -> int:
        """How many of ``want``'s actions this record holds in order before the two part."""
        return next((k for k, (g, w) in enumerate(zip(self.actions, want.actions, strict=False)) if g != w),
                    min(len(self.actions), len(want.actions)))

    def difference(self, want: Record) -> str:
        """Where this record parts from ``want``, in words ("" when they agree)."""
        k = self.agreed(want)
        if k < min(len(self.actions), len(want.actions)):
            return f"action {k + 1}: the camera's referee has {self.actions[k]!r}, the hand {want.actions[k]!r}"
        if len(self.actions) != len(want.actions):
            return f"the camera's referee has {len(self.actions)} actions, the hand {len(want.actions)}"
        seats = [Seat(s) for s in sorted(set(self.paid) | set(want.paid)) if self.paid.get(s) != want.paid.get(s)]
        return "payments differ: " + ", ".join(
            f"{s} {self.paid.get(int(s), 0)} against {want.paid.get(int(s), 0)}" for s in seats) if seats else ""


def _actions(game: Game) -> list[str]:
    return [str(a) for a in game.history if not isinstance(a, Draw)]


def by_hand(game: Game) -> Record:
    """``game``'s actions up to its win pushed into an observed game one by one, as a person
    who saw every one would."""
    ref = Game(game.rules, mode="observed", dealer=game.dealer)
    events = []
    for action in game.history:
        if isinstance(action, Win | DrawGame):
            break
        events += ref.push(action)
    return Record(_actions(ref), paid((s, a) for e in events for s, a in e.payments.items()))


@dataclass(frozen=True)
class Camera:
    """How the hand is shown: frame size, frames a second, seconds between two steps, the share
    of steps a hand passes over the table, the reader (None: the renderer's labels, a
    perfect reader), the set's style (``vision.synth.faces.make_style``) and how bright its
    tiles' edges are drawn (1: none)."""

    size: tuple[int, int] = (1920, 1080)
    fps: float = 10.0
    hold: float = 1.2
    occlusion: float = 0.3
    reader: Callable[[Any], Any] | None = None
    style: int = 5
    seam: float = 1.0  # the tiles' edges drawn: none (``vision.scripted.SEAM``: as on a real set)

    def table(self, game: Game) -> ScriptedTable:
        return ScriptedTable(steps_of(game), size=self.size, fps=self.fps, hold=self.hold, style=self.style,
                             hand_size=HAND_SIZE[game.rules.name], seed=game.seed or 0, occlusion=self.occlusion,
                             seam=self.seam)


def by_camera(game: Game, camera: Camera = Camera(), to: str = "page", data_dir: str | None = None) -> Record:
    """``game`` rendered and shown to the live pipeline. ``to``: ``page``, its events go to a
    fresh Referee page's book (kept in ``data_dir``) as the web UI sends them; ``feed``, to an
    observed game through ``RefereeFeed``."""
    table = camera.table(game)
    truth: dict[str, Any] = {}
    reader = camera.reader or (lambda image: labels_to_detections(truth["labels"]))
    feed = RefereeFeed(Game(game.rules, mode="observed", dealer=game.dealer)) if to == "feed" else None
    book = _book(game, data_dir or tempfile.mkdtemp()) if to == "page" else None
    pipe = LivePipeline(reader, ruleset=load_ruleset(game.rules.ruleset_name), layout=TableLayout(Seat.EAST),
                        first=game.dealer, dealer=game.dealer, observer=feed)
    refused: list[str] = []
    frames = table.frame_count + 2 * table.per_step  # the last step held a little longer
    for i in range(frames):
        frame = table.frame(min(i, table.frame_count - 1))
        truth["labels"] = frame.labels
        update = pipe.process(frame.image, i / table.fps, i)
        refused += [f"{e} ({why})" for e, why in update.refused]
        refused += [why for e in update.events if book is not None and (why := _to_book(book, e))]
    if book is not None:
        return Record(_actions(book._require().game), paid((p.seat, p.amount) for p in book.payments()),
                      tuple(refused), frames)
    assert feed is not None
    return Record(_actions(feed.game), paid((s, a) for e in feed.announcements for s, a in e.payments.items()),
                  tuple(refused), frames)


def _book(game: Game, data_dir: str) -> Any:
    """A fresh Referee page's book for ``game``'s table, as the web UI keeps it."""
    from webui.adapters.referee import RefereeBook
    from webui.adapters.tablebook import TableSetup

    book = RefereeBook(str(Path(data_dir) / f"{game.rules.name}-{game.seed}.sqlite3"), rules=None)
    book.new_table(TableSetup(game.rules.name, dealer=game.dealer))
    return book


def _to_book(book: Any, event: TableEvent) -> str:
    """``event`` sent to ``book`` as the live page sends it: "" when taken, else why not."""
    from webui.camera import event_dict

    data = event_dict(event)
    if data is None:
        return f"{event} (the page takes no such event)"
    try:
        book.apply(data.pop("kind"), data.pop("seat"), data.pop("tiles"), source="camera", **data)
    except ValueError as exc:
        return f"{event} ({exc})"
    return ""


def _where(label: dict[str, Any]) -> str:
    """Where a labelled tile lies: its region, and its seat but in the walls and the pool."""
    seat = label.get("seat")
    return label["region"] if seat is None or label["region"] in ("wall", "discard") else f"{label['region']} {Seat(seat)}"


def _put(region: str, seat: Seat | None) -> str:
    """Where a reading put a tile, as ``_where`` says it."""
    return region if seat is None or region in ("wall", "discard") else f"{region} {seat}"


def misplaced(game: Game, camera: Camera = Camera()) -> list[Counter[tuple[str, str]]]:
    """Each picture of ``game``'s table after each step (no hand over it) read by one regions
    stage in turn, as the live pipeline reads them: per picture, the tiles put in the wrong
    region or at the wrong seat, counted by (where it lies, where it was put)."""
    table = camera.table(game)
    regions = TableRegions(TableLayout(Seat.EAST), is_bonus=_is_bonus(load_ruleset(game.rules.ruleset_name)))
    out = []
    for upto in range(len(table.script) + 1):
        _, labels = table.picture(upto)
        truth = {tuple(float(v) for v in lab["box"]): lab for lab in labels}
        reading = regions(to_items(labels_to_detections(labels)), table.size)
        wrong: Counter[tuple[str, str]] = Counter()
        for item, region, seat, _ in reading.items():
            where, put = _where(truth[item.box]), _put(region, seat)
            if where != put:
                wrong[where, put] += 1
        out.append(wrong)
    return out


def placed(game: Game, fresh: Callable[[], Callable[[Any], Any]], settings: dict[str, dict[str, Any]],
           camera: Camera = Camera(occlusion=0.0)) -> dict[str, Counter[tuple[str, str]]] | None:
    """``game``'s table after its last step (no hand over it) read by ``fresh()`` (a fresh live
    reader: its first frame is a whole-frame pass) and put in regions by a ``TableRegions``
    made with each of ``settings``, which first saw the table as dealt, its walls whole (as a
    camera watching from the start remembers them): each tile but the standing hands' against
    its label, counted by (where it lies, where it was put; "not found" where no box covers it
    at IoU 0.3). None when the reader boxed fewer than three walls on the table as dealt.
    """
    from vision.detections import box_iou

    table = camera.table(game)
    dealt, _ = table.picture(0)
    image, labels = table.picture(len(table.script))
    first, last = to_items(fresh()(dealt)), to_items(fresh()(image))
    laid = [lab for lab in labels if lab["region"] not in ("hand", "occluder")]
    is_bonus = _is_bonus(load_ruleset(game.rules.ruleset_name))
    out = {}
    for name, kw in settings.items():
        regions = TableRegions(TableLayout(Seat.EAST), is_bonus=is_bonus, **kw)
        regions(first, table.size)
        if not regions.walls_known:
            return None
        items = list(regions(last, table.size).items())
        iou = box_iou(np.array([lab["box"] for lab in laid], np.float32).reshape(-1, 4),
                      np.array([i.box for i, *_ in items], np.float32).reshape(-1, 4))
        counts: Counter[tuple[str, str]] = Counter()
        for lab, row in zip(laid, iou, strict=True):
            j = int(row.argmax()) if len(row) else -1
            counts[_where(lab), _put(items[j][1], items[j][2]) if j >= 0 and row[j] >= 0.3 else "not found"] += 1
        out[name] = counts
    return out


def named(game: Game, reader: Callable[[Any], Any], camera: Camera = Camera(occlusion=0.0)) -> Counter[tuple[str, str]]:
    """``game``'s table after its last step (no hand over it) read once by ``reader`` (a fresh
    live reader: its first frame is a whole-frame pass), each face-up tile against its label:
    counted by (the label's code, the name read; "" where no box found it at IoU 0.5)."""
    from vision.detections import box_iou

    table = camera.table(game)
    image, labels = table.picture(len(table.script))
    up = [lab for lab in labels if lab.get("face") == "up"]
    dets = reader(image)
    out: Counter[tuple[str, str]] = Counter()
    if not up:
        return out
    iou = box_iou(np.array([lab["box"] for lab in up], np.float32).reshape(-1, 4), dets.xyxy)
    for lab, row in zip(up, iou, strict=True):
        j = int(row.argmax()) if len(row) else -1
        found = j >= 0 and row[j] >= 0.5
        out[lab["code"], (str(Tile(int(dets.code[j]))) if dets.code[j] >= 0 else "?") if found else ""] += 1
    return out
