"""Ledger page: totals for the evening and per game, every payment with its reason, CSV."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.webui.conftest import token_of
from tests.webui.views.test_referee import SOUTH_WINS, record, setup_table
from webui import create_app


def test_totals_and_payments_with_reasons(client: FlaskClient, token: str) -> None:
    setup_table(client, token, east="Ana", south="Ben", west="Cris", north="Dina")
    record(client, token, "discard", "E", "5m")
    record(client, token, "kang", "N", "5555m")
    record(client, token, "discard", "N", "9s")
    record(client, token, "win", "S", "", hand=SOUTH_WINS, how="discard")
    page = client.get("/ledger/").get_data(as_text=True)
    evening = page.split('id="evening"', 1)[1].split("</table>", 1)[0]
    amounts = dict(re.findall(r"<td>([^<]+)</td><td class=\"num\">([^<]+)</td>", evening))
    assert set(amounts) == {"Ana", "Ben", "Cris", "Dina"}
    assert amounts["Ben"].startswith("+$") and amounts["Cris"].startswith("−$")
    assert "kang" in page.lower() and "winning, all chows" in page


def test_csv_export_sums_to_zero_and_defuses_formulas(client: FlaskClient, token: str) -> None:
    setup_table(client, token, east="=HYPERLINK(1)", south="Ben")
    record(client, token, "secret", "E", "2222p")
    resp = client.get("/ledger/ledger.csv")
    assert resp.mimetype == "text/csv" and "attachment" in resp.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))
    # the secret pays East from everyone (and "no flowers" ambitions are paid at the first move)
    assert len(rows) % 4 == 0 and abs(sum(float(r["amount"]) for r in rows)) < 1e-9
    assert any("concealed kang" in r["reason"].lower() and r["amount"] == "1.50" for r in rows)
    assert {r["player"] for r in rows} >= {"'=HYPERLINK(1)", "Ben"}
    one = client.get("/ledger/ledger.csv?game=1")
    assert one.get_data(as_text=True) == resp.get_data(as_text=True)
    assert len(client.get("/ledger/ledger.csv?game=99").get_data(as_text=True).splitlines()) == 1


def test_empty_ledger_says_so(client: FlaskClient) -> None:
    page = client.get("/ledger/").get_data(as_text=True)
    assert "No payments yet" in page and "No games yet" in page


def test_singapore_payments_are_in_dollars_not_tai(app: Flask, client: FlaskClient, token: str) -> None:
    # Singapore values a hand in tai but pays in S$ (an open kang: S$1 from each, doc 004).
    client.post("/referee/new", data={"csrf_token": token, "variant": "singapore", "name_north": "Dina"})
    record(client, token, "discard", "E", "5m")
    page = record(client, token, "kang", "N", "5555m").get_data(as_text=True)
    assert "North +S$3.00, East -S$1.00" in page and not re.search(r"\d tai\b", page)
    announced = [m for m in app.extensions["mahjongero"].live.history if "+S$3.00" in m["text"]]
    assert announced and announced[0]["level"] == "pay"
    ledger = client.get("/ledger/").get_data(as_text=True)
    amounts = re.findall(r'<td class="num">([^<]+)</td>', ledger)
    assert "+S$3.00" in amounts and "−S$1.00" in amounts and not any("tai" in a for a in amounts)
    rows = list(csv.DictReader(io.StringIO(client.get("/ledger/ledger.csv").get_data(as_text=True))))
    assert rows and {r["unit"] for r in rows} == {"S$"}


def test_the_table_book_also_pays_singapore_wins_in_dollars(config: dict[str, Any]) -> None:
    client = create_app({**config, "REFEREE_BACKEND": "tablebook"}).test_client()
    token = token_of(client)
    client.post("/referee/new", data={"csrf_token": token, "variant": "singapore"})
    page = record(client, token, "win", "S", "", hand="123m456p789s11z555z", how="self").get_data(as_text=True)
    assert "South +S$12.00" in page and not re.search(r"\d tai\b", page)
    assert "+S$12.00" in client.get("/ledger/").get_data(as_text=True)
