"""Ledger page: totals for the evening and per game, every payment with its reason, CSV."""

from __future__ import annotations

import csv
import io
import re

from flask.testing import FlaskClient

from tests.webui.views.test_referee import SOUTH_WINS, record, setup_table


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
