"""The live table: camera picture (MJPEG), table panel, and announcements by SSE."""

from __future__ import annotations

import queue
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, render_template, request, stream_with_context

from webui.live import sse
from webui.services import services

bp = Blueprint("live", __name__, url_prefix="/live")

_BOUNDARY = "mahjongeroframe"


def _ensure_running() -> None:
    hub = services().live
    if current_app.config.get("LIVE_AUTOSTART", True):
        hub.start()


@bp.get("/")
def page() -> str:
    _ensure_running()
    s = services()
    return render_template("live.html", hub=s.live, table=s.book.current(), history=list(s.live.history))


@bp.get("/panel")
def panel() -> str:
    """The table as tile pictures: re-fetched by the page when the SSE says it changed."""
    return render_template("_table.html", table=services().book.current(), compact=False)


@bp.get("/stream")
def stream() -> Response:
    """Server-Sent Events: announcements and 'table changed' notices, as they happen."""
    _ensure_running()
    hub = services().live
    limit = request.args.get("limit", type=int)  # for scripts and tests: stop after N messages
    heartbeat = float(current_app.config.get("SSE_HEARTBEAT", 15.0))
    q = hub.subscribe()

    def events() -> Iterator[str]:
        sent = 0
        try:
            yield "retry: 1000\n\n"
            yield sse({"type": "status", "text": hub.status})
            while limit is None or sent < limit:
                try:
                    message = q.get(timeout=heartbeat)
                except queue.Empty:
                    yield ": keep-alive\n\n"
                    continue
                yield sse(message)
                sent += 1
        finally:
            hub.unsubscribe(q)

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/video.mjpg")
def video() -> Response:
    """The annotated camera picture as MJPEG: each frame leaves as soon as it is made."""
    _ensure_running()
    hub = services().live
    limit = request.args.get("limit", type=int)

    def frames() -> Iterator[bytes]:
        number, sent = 0, 0
        while limit is None or sent < limit:
            number, jpeg = hub.wait_frame(number, timeout=5.0)
            if jpeg is None:
                if limit is not None:
                    return
                continue
            yield (f"--{_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n").encode()
            yield jpeg + b"\r\n"
            sent += 1

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={_BOUNDARY}",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/frame.jpg")
def frame() -> Response:
    """The latest annotated frame (one picture)."""
    _ensure_running()
    hub = services().live
    _, jpeg = hub.wait_frame(0, timeout=3.0)
    if jpeg is None:
        return Response("no picture yet", status=503, mimetype="text/plain")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-cache"})
