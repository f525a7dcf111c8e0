"""Ledger: totals per player for the evening and per game, every payment with its reason, CSV."""

from __future__ import annotations

import time

from flask import Blueprint, Response, render_template, request

from webui.services import services

bp = Blueprint("ledger", __name__, url_prefix="/ledger")

EVENING_HOURS = 12  # "this evening": payments of the last 12 hours


@bp.get("/")
def page() -> str:
    book = services().book
    game = request.args.get("game", type=int)
    since = time.time() - EVENING_HOURS * 3600
    evening = book.payments(since=since)
    tables = book.tables()
    per_game = [(t, book.totals(book.payments(table_id=t[0]))) for t in tables[:20]]
    shown = book.payments(table_id=game) if game else evening
    return render_template("ledger.html", evening=book.totals(evening), overall=book.totals(book.payments()),
                           per_game=per_game, payments=list(reversed(shown)), game=game)


@bp.get("/ledger.csv")
def export() -> Response:
    game = request.args.get("game", type=int)
    name = f"mahjongero-game-{game}.csv" if game else "mahjongero-ledger.csv"
    return Response(services().book.csv(game), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={name}"})
