"""CSRF on every state-changing request; the table PIN for other devices; safe headers."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.webui.conftest import token_of
from webui import create_app

PHONE = {"REMOTE_ADDR": "192.168.1.20"}
STATE_CHANGING = [
    ("/referee/new", {"variant": "filipino"}),
    ("/referee/event", {"kind": "discard", "seat": "E", "tiles": "5p"}),
    ("/referee/undo", {}),
    ("/photo/", {"hand": "123m"}),
    ("/pin", {"pin": "123456"}),
]


@pytest.mark.parametrize(("path", "form"), STATE_CHANGING)
def test_post_without_csrf_token_is_refused_with_a_message(client: FlaskClient, path: str, form: dict[str, str]) -> None:
    client.get("/")
    resp = client.post(path, data=form)
    assert resp.status_code == 400
    text = resp.get_data(as_text=True)
    assert "Reload the page" in text and "Traceback" not in text


@pytest.mark.parametrize(("path", "form"), STATE_CHANGING)
def test_post_with_wrong_csrf_token_is_refused(client: FlaskClient, path: str, form: dict[str, str]) -> None:
    token_of(client)
    resp = client.post(path, data={**form, "csrf_token": "not-the-token"})
    assert resp.status_code == 400


def test_csrf_token_in_header_is_accepted_and_nothing_changes_without_it(client: FlaskClient, token: str) -> None:
    assert client.post("/referee/new", data={"variant": "filipino"}).status_code == 400
    assert "No table yet" in client.get("/live/panel").get_data(as_text=True)
    resp = client.post("/referee/new", data={"variant": "filipino"}, headers={"X-CSRF-Token": token})
    assert resp.status_code == 302
    assert "Game 1" in client.get("/live/panel").get_data(as_text=True)


def test_token_of_another_session_is_refused(app: Any) -> None:
    a, b = app.test_client(), app.test_client()
    stolen = token_of(a)
    token_of(b)
    assert b.post("/referee/new", data={"variant": "filipino", "csrf_token": stolen}).status_code == 400


@pytest.fixture
def pinned(config: dict[str, Any]) -> Any:
    app = create_app({**config, "PIN": "424242"})
    yield app
    app.extensions["mahjongero"].live.stop()


def test_phone_without_pin_is_sent_to_the_pin_page(pinned: Any) -> None:
    phone = pinned.test_client()
    phone.environ_base.update(PHONE)
    resp = phone.get("/referee/", headers={"Accept": "text/html"})
    assert resp.status_code == 302 and "/pin" in resp.location
    assert phone.get("/ledger/ledger.csv", headers={"Accept": "text/csv"}).status_code == 401
    assert phone.post("/referee/new", data={"variant": "filipino"}).status_code == 401


def test_wrong_pin_is_refused_and_right_pin_lets_the_phone_in(pinned: Any) -> None:
    phone = pinned.test_client()
    phone.environ_base.update(PHONE)
    page = phone.get("/pin").get_data(as_text=True)
    assert "424242" not in page  # the PIN is shown on the laptop only
    token = token_of(phone, "/pin")
    wrong = phone.post("/pin", data={"pin": "111111", "csrf_token": token, "next": "/ledger/"})
    assert wrong.status_code == 403 and "not right" in wrong.get_data(as_text=True)
    assert phone.get("/ledger/", headers={"Accept": "text/html"}).status_code == 302
    ok = phone.post("/pin", data={"pin": "424242", "csrf_token": token, "next": "/ledger/"})
    assert ok.status_code == 302 and ok.location.endswith("/ledger/")
    assert phone.get("/ledger/").status_code == 200


def test_pin_redirect_never_leaves_the_site(pinned: Any) -> None:
    phone = pinned.test_client()
    phone.environ_base.update(PHONE)
    token = token_of(phone, "/pin")
    resp = phone.post("/pin", data={"pin": "424242", "csrf_token": token, "next": "https://evil.example/"})
    assert resp.location == "/"


def test_laptop_sees_the_pin_and_needs_none(pinned: Any) -> None:
    laptop = pinned.test_client()
    page = laptop.get("/").get_data(as_text=True)
    assert "424242" in page and "Table PIN" in page


def test_pages_forbid_scripts_from_elsewhere(client: FlaskClient) -> None:
    resp = client.get("/")
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert "http" not in "".join(resp.get_data(as_text=True).split("http://www.w3.org/2000/svg"))
