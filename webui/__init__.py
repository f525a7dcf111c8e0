"""The table page: a local Flask web UI over the camera, the rules and the referee.

``create_app(test_config=None)`` builds the app (Flask-tutorial style). Everything the
pages need from the rest of Mahjongero is reached through ``app.extensions["mahjongero"]``
(a :class:`webui.services.Services`), whose members are thin adapters, one per
dependency (``webui.adapters``). Tests inject fakes by passing them in ``test_config``:

* ``RULES`` - a :class:`webui.adapters.rules.Rules`-like object;
* ``READER`` - reads a photo into a :class:`webui.adapters.reader.PhotoReading`;
* ``REFEREE`` - the table book (game state + payments);
* ``SOURCE`` - a live source (camera or demo) yielding :class:`webui.live.LiveUpdate`.

>>> app = create_app({"TESTING": True, "DATA_DIR": __import__("tempfile").mkdtemp()})
>>> sorted(app.blueprints)
['ledger', 'live', 'main', 'photo', 'referee']
>>> app.test_client().get("/").status_code
200
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

__all__ = ["create_app", "DEFAULT_DATA_DIR"]

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "var"  # gitignored


def _secret_key(data_dir: Path) -> str:
    """A key kept on disk so phones stay signed in (PIN, CSRF) across restarts."""
    path = data_dir / "webui_secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    os.chmod(path, 0o600)
    return key


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``test_config`` overrides settings and may inject adapters."""
    config = dict(test_config or {})
    data_dir = Path(config.get("DATA_DIR") or os.environ.get("MAHJONGERO_DATA") or DEFAULT_DATA_DIR)
    data_dir.mkdir(parents=True, exist_ok=True)
    app = Flask(__name__, instance_path=str(data_dir.resolve()))
    app.config.from_mapping(
        DATA_DIR=str(data_dir),
        DATABASE=str(data_dir / "mahjongero.sqlite3"),  # the referee's file: game + ledger
        VARIANT="filipino",
        CAMERA=None,  # None: the built-in demo; else an OpenCV source (index, URL, file)
        PIN=None,  # set when serving beyond this laptop (--host 0.0.0.0)
        MAX_CONTENT_LENGTH=12 * 1024 * 1024,  # bytes per upload request
        MAX_PIXELS=24_000_000,  # a 24 MP phone photo; more is refused before decoding
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        LIVE_AUTOSTART=True,  # start the camera/demo thread on the first live request
    )
    app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(data_dir)

    from webui import errors, security
    from webui.services import Services

    app.extensions["mahjongero"] = Services.from_config(app.config)
    security.init_app(app)
    errors.init_app(app)
    _register_blueprints(app)
    _register_filters(app)
    return app


def _register_blueprints(app: Flask) -> None:
    from webui.views import ledger, live, main, photo, referee

    for module in (main, live, photo, referee, ledger):
        app.register_blueprint(module.bp)


def _register_filters(app: Flask) -> None:
    from engine.tiles import Tile
    from webui import present

    app.jinja_env.globals.update(
        tile_svg=present.tile_markup,
        tile_caption=present.tile_caption,
        seat_name=present.seat_name,
        money=present.money,
        BACK=str(Tile.BACK),
    )
    app.jinja_env.filters["clock"] = present.clock
