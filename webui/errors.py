"""Errors become friendly messages on a page (or JSON for scripts), never tracebacks."""

from __future__ import annotations

import logging

from flask import Flask, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

__all__ = ["init_app", "error_reply"]

log = logging.getLogger(__name__)

_TITLES = {
    400: "That did not work",
    401: "PIN needed",
    403: "Not allowed",
    404: "Page not found",
    405: "Not allowed here",
    413: "File too big",
    500: "Something went wrong",
}


def error_reply(status: int, message: str) -> ResponseReturnValue:
    """An error page, or ``{"error": message}`` when the caller asked for JSON."""
    if request.accept_mimetypes.best == "application/json" or request.is_json:
        return {"error": message}, status
    title = _TITLES.get(status, "Error")
    return render_template("error.html", title=title, message=message, status=status), status


def init_app(app: Flask) -> None:
    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(exc: RequestEntityTooLarge) -> ResponseReturnValue:
        limit = app.config.get("MAX_CONTENT_LENGTH") or 0
        return error_reply(413, f"That file is too big: the limit is {limit // (1024 * 1024)} MB. "
                                "Take the photo at a lower resolution and try again.")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> ResponseReturnValue:
        status = exc.code or 500
        return error_reply(status, exc.description or _TITLES.get(status, "Error"))

    @app.errorhandler(ValueError)
    def _bad_value(exc: ValueError) -> ResponseReturnValue:
        # Our own errors (and the engine's) subclass ValueError and say what was wrong.
        return error_reply(400, str(exc))

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> ResponseReturnValue:
        log.exception("unexpected error on %s", request.path)
        return error_reply(500, "Something went wrong on the laptop. The game is saved; reload the page.")
