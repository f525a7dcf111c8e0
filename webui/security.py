"""CSRF tokens on every state-changing request, and the table PIN for phones.

* Every POST/PUT/PATCH/DELETE must carry the session's token, in the form field
  ``csrf_token`` or the ``X-CSRF-Token`` header; otherwise 400 with a message.
* When ``PIN`` is set (serving beyond this laptop), a visitor from another machine
  must type it once (``/pin``); the laptop itself (loopback) shows it in the header.

>>> generate_pin().isdigit(), len(generate_pin())
(True, 6)
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlparse

from flask import Flask, abort, redirect, request, session, url_for
from werkzeug.wrappers import Response

__all__ = ["init_app", "csrf_token", "generate_pin", "is_local_request"]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OPEN_ENDPOINTS = frozenset({"static", "main.pin", "main.pin_submit"})
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def generate_pin() -> str:
    """Six digits, easy to read aloud across the table."""
    return f"{secrets.randbelow(1_000_000):06d}"


def csrf_token() -> str:
    """The session's token (created on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def is_local_request() -> bool:
    return (request.remote_addr or "") in LOOPBACK


def _pin_required() -> bool:
    from flask import current_app

    return bool(current_app.config.get("PIN")) and not is_local_request() and not session.get("pin_ok")


def _check_pin() -> Response | None:
    if request.endpoint in OPEN_ENDPOINTS or not _pin_required():
        return None
    if request.method in SAFE_METHODS and request.accept_mimetypes.accept_html:
        return redirect(url_for("main.pin", next=request.full_path))
    abort(401, description="This table is protected by a PIN: open the page and type the PIN shown on the laptop.")


def _check_csrf() -> None:
    if request.method in SAFE_METHODS:
        return
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    expected = session.get("csrf")
    if not expected or not sent or not hmac.compare_digest(str(sent), str(expected)):
        abort(400, description="This form has expired or did not come from this page. Reload the page and try again.")


def safe_next(target: str | None) -> str:
    """Only same-site paths after the PIN (no open redirect).

    >>> safe_next("/live?x=1"), safe_next("https://evil.example/"), safe_next("//evil")
    ('/live?x=1', '/', '/')
    """
    if not target:
        return "/"
    parsed = urlparse(target)
    if parsed.scheme or parsed.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


def init_app(app: Flask) -> None:
    @app.before_request
    def _guard() -> Response | None:
        reply = _check_pin()
        if reply is not None:
            return reply
        _check_csrf()
        return None

    @app.context_processor
    def _inject() -> dict[str, object]:
        pin = app.config.get("PIN")
        return {
            "csrf_token": csrf_token,
            "table_pin": pin if pin and is_local_request() else None,
        }

    @app.after_request
    def _headers(resp: Response) -> Response:
        # Nothing is loaded from elsewhere: a strict policy costs nothing and blocks injected script.
        resp.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; frame-ancestors 'none'",
        )
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp
