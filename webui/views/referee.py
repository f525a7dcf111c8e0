"""Referee: set up a table, follow the game (camera or by hand), undo, the event log."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from engine.seats import Seat
from webui.adapters.rules import SITUATION_FLAGS
from webui.adapters.tablebook import TableEventError, TableSetup, kinds_for
from webui.live import level_of
from webui.services import services

bp = Blueprint("referee", __name__, url_prefix="/referee")

MAX_NAME = 24


def _names(form: dict[str, str]) -> tuple[str, str, str, str]:
    names = []
    for seat in Seat:
        name = " ".join(form.get(f"name_{seat.name.lower()}", "").split())[:MAX_NAME]
        names.append(name or str(seat))
    return (names[0], names[1], names[2], names[3])


def _table_rules(variant: str, form: dict[str, str]) -> dict[str, Any]:
    """Only options the variant has, with a value among its choices (checked by the ruleset)."""
    chosen: dict[str, Any] = {}
    try:
        known = {r.name: r for r in services().rules.table_rules(variant)}
    except ValueError:
        return chosen
    for name, rule in known.items():
        raw = form.get(f"rule_{name}")
        if raw is None or raw == "":
            continue
        value: Any = raw
        if isinstance(rule.default, bool):
            value = raw in ("1", "on", "true", "True")
        elif isinstance(rule.default, int | float | Fraction):
            try:
                value = type(rule.default)(raw)
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"{raw!r} is not a number for {name}") from None
        elif rule.choices:
            matches = [c for c in rule.choices if str(c) == raw]
            if not matches:
                raise ValueError(f"{raw!r} is not a choice for {name}")
            value = matches[0]
        if value != rule.default:
            chosen[name] = value
    return chosen


@bp.get("/")
def page() -> str:
    s = services()
    table = s.book.current()
    variant = request.args.get("variant") or (table.setup.variant if table else s.variant)
    rules: list[Any] = []
    rules_problem = ""
    try:
        rules = s.rules.table_rules(variant)
    except ValueError as exc:
        rules_problem = str(exc)
    accepts = getattr(s.book, "accepts_rule", None)
    if accepts is not None:  # offer only the options the referee can play with
        rules = [r for r in rules if accepts(variant, r.name, r.default)]
    kinds = kinds_for(table.setup.variant if table else variant)
    return render_template("referee.html", table=table, kinds=kinds, variants=s.rules.variants(),
                           variant=variant, table_rules=rules, rules_problem=rules_problem,
                           setup=request.args.get("setup") == "1" or table is None, flags=SITUATION_FLAGS)


def _seat_field(form: dict[str, str], name: str, label: str) -> Seat | None:
    """A seat chosen on the set-up form (None when left empty); a bad one names the field."""
    raw = form.get(name, "").strip()
    if not raw:
        return None
    try:
        return Seat.parse(raw)
    except ValueError:
        raise TableEventError(f"{label} {raw!r} is not a seat: choose East, South, West or North") from None


def _setup(form: dict[str, str], variant: str) -> TableSetup:
    """The table as the set-up form describes it; every field is checked before anything is written."""
    dealer = _seat_field(form, "dealer", "dealer")
    round_wind = _seat_field(form, "round", "round wind")
    first = _seat_field(form, "first_dealer", "first dealer")
    east = Seat.EAST  # the default of an empty field (tested ``is None``: East is 0, and falsy)
    return TableSetup(variant, _names(form), east if dealer is None else dealer,
                      east if round_wind is None else round_wind, _table_rules(variant, form), first)


@bp.post("/new")
def new_table() -> Response:
    s = services()
    form = request.form.to_dict()
    variant = form.get("variant") or s.variant
    setup = _setup(form, variant)
    s.book.new_table(setup)
    s.live.table_changed()  # a camera watching starts this table's first hand afresh
    flash(f"New {variant} table: {', '.join(setup.names)}. Round wind: {setup.round_wind}; "
          f"dealer: {setup.name(setup.dealer)}.", "info")
    return redirect(url_for("referee.page"))


@bp.post("/event")
def event() -> Response:
    s = services()
    form = request.form.to_dict()
    kind = form.get("kind", "")
    detail: dict[str, Any] = {}
    if kind == "win":
        detail = {"hand": form.get("hand", ""), "self_drawn": form.get("how") == "self",
                  "discarder": form.get("discarder") or None,
                  "flags": [name for name, _ in SITUATION_FLAGS if form.get(name)]}
    sentences = s.book.apply(kind, form.get("seat") or None, form.get("tiles", ""), source="hand", **detail)
    for sentence in sentences:
        flash(sentence, level_of(sentence))
        s.live.announce(sentence, level_of(sentence))
    s.live.table_changed()
    return redirect(url_for("referee.page") + "#log")


@bp.post("/undo")
def undo() -> Response:
    s = services()
    undone = s.book.undo()
    if undone is None:
        flash("Nothing to undo.", "warning")
    else:
        text = "; ".join(undone.sentences) or undone.kind
        flash(f"Undone: {text}", "warning")
        s.live.announce(f"Undone: {text}", "warning")
        s.live.table_changed()
    return redirect(url_for("referee.page"))
