"""Errors render as messages, never tracebacks."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.webui.conftest import token_of
from webui import create_app
from webui.adapters.rules import Rules


def test_unknown_page_is_a_friendly_404(client: FlaskClient) -> None:
    resp = client.get("/no/such/page")
    assert resp.status_code == 404 and "Page not found" in resp.get_data(as_text=True)


def test_json_callers_get_json_errors(client: FlaskClient) -> None:
    resp = client.get("/no/such/page", headers={"Accept": "application/json"})
    assert resp.status_code == 404 and "error" in resp.get_json()


def test_a_crash_in_a_dependency_is_a_message_not_a_traceback(config: dict[str, Any]) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("secret internals /home/x/.venv/lib/python3.11/site-packages")

    app = create_app({**config, "RULES": Rules(finder=broken), "PROPAGATE_EXCEPTIONS": False, "TESTING": False})
    client = app.test_client()
    token = token_of(client)
    resp = client.post("/photo/", data={"csrf_token": token, "hand": "123m456m789m123p456p789p1s"})
    page = client.get(resp.location)
    text = page.get_data(as_text=True)
    assert page.status_code == 500
    assert "Something went wrong" in text and "secret internals" not in text and "Traceback" not in text


def test_rules_not_installed_is_said_on_the_page(config: dict[str, Any]) -> None:
    def missing(*_: Any, **__: Any) -> Any:
        from webui.adapters.rules import RulesUnavailable

        raise RulesUnavailable("the rules engine is not installed yet, so waits and scores cannot be shown")

    app = create_app({**config, "RULES": Rules(finder=missing)})
    client = app.test_client()
    token = token_of(client)
    resp = client.post("/photo/", data={"csrf_token": token, "hand": "123m"})
    text = client.get(resp.location).get_data(as_text=True)
    assert "not installed yet" in text
    assert "not installed yet" in client.get("/").get_data(as_text=True)
