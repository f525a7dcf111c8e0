"""The live table: one background thread from a source (camera or demo) to the pages.

A *source* yields :class:`LiveUpdate` objects (a frame, the tiles seen with boxes,
the referee events found since the last update, the hand facing the camera). The
:class:`LiveHub` outlines and names the tiles on the frame (large Arabic numerals
and English), feeds events to the table book, works out waits for the hand shown,
and pushes announcements to every open page through Server-Sent Events. Frames go
out as MJPEG; both leave the moment the update arrives, so the page trails the
camera by one frame plus the network.

>>> hub = LiveHub(source=None, book=None, rules=None, variant="filipino")
>>> q = hub.subscribe(); hub.announce("East: pung of 5 dots")
>>> q.get_nowait()["text"]
'East: pung of 5 dots'
>>> sse({"type": "announce", "text": "hi"})
'event: announce\\ndata: {"type": "announce", "text": "hi"}\\n\\n'
"""

from __future__ import annotations

import itertools
import json
import logging
import queue
import re
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from engine.seats import Seat
from engine.tiles import Tile

__all__ = ["LiveUpdate", "LiveTile", "LiveSource", "LiveHub", "sse", "annotate"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LiveTile:
    tile: str  # code; str(Tile.BACK) when face down
    box: tuple[float, float, float, float]
    region: str = ""  # hand, meld, flower, discard, wall
    seat: int | None = None


@dataclass(frozen=True)
class LiveUpdate:
    frame: np.ndarray | None  # BGR
    tiles: tuple[LiveTile, ...] = ()
    events: tuple[dict[str, Any], ...] = ()  # {"kind", "seat", "tiles", ...} for TableBook.apply
    shown_hand: tuple[int, str] | None = None  # (seat, hand text) of the hand facing the camera
    status: str = ""  # e.g. "camera unplugged - reconnecting"
    reset: bool = False  # the source starts a new game (the demo loops)
    t: float = field(default_factory=time.monotonic)


class LiveSource(Protocol):
    """Yields updates; a source whose reading keeps state across hands may also have
    ``new_hand(dealer: Seat) -> None``, which the hub calls when a hand ends or a table is set up."""

    name: str

    def updates(self, stop: threading.Event) -> Iterator[LiveUpdate]: ...


_UNSEEN: Any = object()  # the hub has not looked at the book yet


def sse(message: dict[str, Any]) -> str:
    """One Server-Sent Event; the event name is the message type."""
    return f"event: {message.get('type', 'message')}\ndata: {json.dumps(message, ensure_ascii=False)}\n\n"


_FONT = cv2.FONT_HERSHEY_DUPLEX


def annotate(frame: np.ndarray, tiles: tuple[LiveTile, ...]) -> np.ndarray:
    """Outline each tile and write its name: a big Arabic label and a short English word."""
    from webui.tilesvg import short_label, suit_word

    out = frame.copy()
    scale = max(0.5, min(out.shape[:2]) / 900)
    for t in tiles:
        x1, y1, x2, y2 = (int(round(v)) for v in t.box)
        if t.tile == str(Tile.BACK):
            cv2.rectangle(out, (x1, y1), (x2, y2), (160, 160, 160), 1)
            continue
        tile = Tile.parse(t.tile)
        cv2.rectangle(out, (x1, y1), (x2, y2), (0, 215, 255), max(2, int(2 * scale)))
        label, word = short_label(tile), suit_word(tile)
        width = max(x2 - x1, 24)
        big = 0.9 * scale
        (tw, th), _ = cv2.getTextSize(label, _FONT, big, 2)
        small = 0.42 * scale
        (ww, wh), _ = cv2.getTextSize(word, _FONT, small, 1)
        if ww > width - 4:  # fit the word to the tile so neighbours' labels don't collide
            small *= (width - 4) / ww
            (ww, wh), _ = cv2.getTextSize(word, _FONT, small, 1)
        height = th + wh + 14
        top = y1 - height if y1 - height >= 0 else y2  # above the tile, or below it at the edge
        cv2.rectangle(out, (x1, top), (x1 + width, top + height), (20, 20, 20), -1)
        cv2.putText(out, label, (x1 + 3, top + th + 4), _FONT, big, (255, 255, 255), 2, cv2.LINE_AA)
        cv2.putText(out, word, (x1 + 2, top + height - 5), _FONT, small, (180, 235, 255), 1, cv2.LINE_AA)
    return out


def level_of(sentence: str) -> str:
    """How an announcement is shown: a win, a payment, or plain news.

    >>> level_of("South wins by self-draw!"), level_of("Kang — payments: ..."), level_of("East discards 9s")
    ('win', 'pay', 'info')
    >>> level_of("North declares a secret (concealed kang) — North +$1.50, East -$0.50")
    'pay'
    >>> level_of("Open Kang — East +S$3.00, South -S$1.00"), level_of("Kang — East +3 points, South -1 points")
    ('pay', 'pay')
    """
    if " wins " in sentence:
        return "win"
    return "pay" if "payments:" in sentence.lower() or _SIGNED_MONEY.search(sentence) else "info"


# A signed amount in any payments' unit: +$1.50, +S$4.00, +3 tai, +144 points, +1/2 Phán.
_SIGNED_MONEY = re.compile(r"[+](?:[A-Z]*\$\d|\d+(?:/\d+)? (?:tai|Phán|points))")


class LiveHub:
    """Runs the source in a thread; pages read ``jpeg()``/``wait_frame()`` and ``subscribe()``."""

    def __init__(self, source: LiveSource | None, book: Any, rules: Any, variant: str,
                 history: int = 30) -> None:
        self.source = source
        self.book = book
        self.rules = rules
        self.variant = variant
        self._subscribers: list[queue.Queue[dict[str, Any]]] = []
        self._lock = threading.Lock()
        self._frame_cond = threading.Condition()
        self._jpeg: bytes | None = None
        self._frame_no = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_shown: tuple[int, str] | None = None
        self.history: deque[dict[str, Any]] = deque(maxlen=history)
        self.status = "starting"
        self.tiles: tuple[LiveTile, ...] = ()
        self._ids = itertools.count(1)
        self._hand: Any = _UNSEEN  # (table, hand number, next dealer) as last seen in the book
        self._hand_lock = threading.Lock()  # the camera thread and page requests both change the book

    # -- pages -----------------------------------------------------------------------
    def subscribe(self) -> queue.Queue[dict[str, Any]]:
        q: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=200)
        with self._lock:
            self._subscribers.append(q)
        return q

    def unsubscribe(self, q: queue.Queue[dict[str, Any]]) -> None:
        with self._lock:
            if q in self._subscribers:
                self._subscribers.remove(q)

    def publish(self, message: dict[str, Any]) -> None:
        message.setdefault("id", next(self._ids))
        message.setdefault("at", time.time())
        if message.get("type") == "announce":
            self.history.append(message)
        with self._lock:
            subs = list(self._subscribers)
        for q in subs:
            try:
                q.put_nowait(message)
            except queue.Full:  # a page that stopped reading: drop rather than block the camera
                pass

    def announce(self, text: str, level: str = "info") -> None:
        self.publish({"type": "announce", "text": text, "level": level})

    def jpeg(self) -> bytes | None:
        return self._jpeg

    def wait_frame(self, after: int, timeout: float = 2.0) -> tuple[int, bytes | None]:
        """Block until a frame newer than ``after`` (or timeout); returns (number, jpeg)."""
        with self._frame_cond:
            self._frame_cond.wait_for(lambda: self._frame_no > after, timeout=timeout)
            return self._frame_no, self._jpeg

    # -- the thread ----------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running or self.source is None:
            return
        self._follow_the_hand()  # the table already in the book is the one being played
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="mahjongero-live", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        assert self.source is not None
        self.status = f"watching: {self.source.name}"
        try:
            for update in self.source.updates(self._stop):
                self.handle(update)
                if self._stop.is_set():
                    break
        except Exception as exc:  # a broken camera must not take the pages down
            log.exception("live source stopped")
            self.status = f"camera stopped: {exc}"
            self.announce(f"The camera stopped ({exc}). The game is saved.", "warning")

    def handle(self, update: LiveUpdate) -> None:
        """One update from the source: frame out, events to the book, announcements out."""
        if update.status and update.status != self.status:
            self.status = update.status
            self.announce(update.status, "warning")
        if update.reset and self.book is not None:
            self._new_game()
        if update.frame is not None:
            self._set_frame(annotate(update.frame, update.tiles))
        self.tiles = update.tiles
        changed = False
        for event in update.events:
            changed |= self._feed(event)
        if update.shown_hand and update.shown_hand != self._last_shown:
            self._last_shown = update.shown_hand
            self._say_waits(*update.shown_hand)
        if changed:
            self.table_changed()

    def _set_frame(self, frame: np.ndarray) -> None:
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:
            return
        with self._frame_cond:
            self._jpeg = buf.tobytes()
            self._frame_no += 1
            self._frame_cond.notify_all()

    def _new_game(self) -> None:
        from webui.adapters.tablebook import TableSetup

        self.book.new_table(TableSetup(self.variant, ("East", "South", "West", "North")))
        self._last_shown = None
        self.announce("A new game starts.", "info")
        self.table_changed()

    def table_changed(self) -> None:
        """The book changed (the camera or a page): pages redraw the table, and the source
        starts watching afresh when a hand has just ended or a new table was set up."""
        self.publish({"type": "table"})
        self._follow_the_hand()

    def _follow_the_hand(self) -> None:
        """Tell the source of a new hand: its tracker still holds the last hand's tiles, and
        the turn order it follows would run on from the last hand's last discard."""
        with self._hand_lock:
            deal = self.book.deal() if self.book is not None else None
            hand = None if deal is None else (deal.table_id, deal.hand_no, deal.next_dealer)
            before, self._hand = self._hand, hand
        if deal is None or before is _UNSEEN or hand == before:
            return
        new_table = before is None or before[0] != deal.table_id
        dealer = deal.dealer if new_table else deal.next_dealer
        new_hand = getattr(self.source, "new_hand", None)
        if dealer is not None and callable(new_hand):
            new_hand(Seat(dealer))

    def _feed(self, event: dict[str, Any]) -> bool:
        if self.book is None:
            return False
        data = dict(event)
        source = data.pop("source", "camera")  # "hand": typed in, e.g. a winning hand the camera cannot see
        try:
            for sentence in self.book.apply(data.pop("kind"), data.pop("seat", None), data.pop("tiles", ""),
                                            source=source, **data):
                self.announce(sentence, level_of(sentence))
            return True
        except ValueError as exc:  # the referee refused: say so, the person can correct it
            seat = event.get("seat")
            who = str(Seat.parse(seat)) if isinstance(seat, int | str) and str(seat) != "" else "someone"
            self.announce(f"The camera saw a {event.get('kind')} by {who}, but: {exc}", "warning")
            return False

    def _say_waits(self, seat: int, hand_text: str) -> None:
        if self.rules is None:
            return
        try:
            from webui.adapters.rules import Situation

            analysis = self.rules.analyse(self.variant, hand_text, Situation(winner=Seat(seat)))
        except ValueError:
            return  # the rules are not installed, or a passing misread: say nothing
        if analysis.kind == "waits":
            names = ", ".join(f"{w.tile.english} ({w.tile})" for w in analysis.waits)
            self.publish({"type": "announce", "level": "ready", "text": f"{Seat(seat)} is ready — waits on {names}",
                          "waits": [str(w.tile) for w in analysis.waits]})
