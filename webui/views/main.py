"""Home page and the table PIN."""

from __future__ import annotations

import hmac

from flask import Blueprint, current_app, redirect, render_template, request, session
from werkzeug.wrappers import Response

from webui.security import safe_next
from webui.services import services

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> str:
    s = services()
    return render_template("index.html", rules_ok=s.rules.available(), reader_ok=s.reader.available(),
                           source=s.live.source.name if s.live.source else "none", table=s.book.current())


@bp.get("/pin")
def pin() -> str:
    return render_template("pin.html", next=safe_next(request.args.get("next")), wrong=False)


@bp.post("/pin")
def pin_submit() -> Response | tuple[str, int]:
    expected = str(current_app.config.get("PIN") or "")
    typed = request.form.get("pin", "").strip()
    target = safe_next(request.form.get("next"))
    if expected and hmac.compare_digest(typed, expected):
        session["pin_ok"] = True
        return redirect(target)
    return render_template("pin.html", next=target, wrong=True), 403
