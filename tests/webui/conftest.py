"""Fixtures for the web UI: app + client (Flask tutorial style), with fakes injected."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.webui.helpers import OracleReader
from webui import create_app


@pytest.fixture
def reader() -> OracleReader:
    return OracleReader()


@pytest.fixture
def config(tmp_path: Any, reader: OracleReader) -> dict[str, Any]:
    return {"TESTING": True, "DATA_DIR": str(tmp_path), "LIVE_AUTOSTART": False, "READER": reader,
            "SECRET_KEY": "test"}


@pytest.fixture
def app(config: dict[str, Any]) -> Iterator[Flask]:
    app = create_app(config)
    yield app
    app.extensions["mahjongero"].live.stop()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def token_of(client: FlaskClient, path: str = "/") -> str:
    """The CSRF token the page at ``path`` hands out (as a browser would read it)."""
    page = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert found, page[:500]
    return found.group(1)


@pytest.fixture
def token(client: FlaskClient) -> str:
    return token_of(client)
