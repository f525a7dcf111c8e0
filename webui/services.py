"""What the pages reach through ``current_app.extensions["mahjongero"]``: one adapter each.

>>> import tempfile, os
>>> s = Services.from_config({"DATABASE": os.path.join(tempfile.mkdtemp(), "x.sqlite3"), "VARIANT": "visayan"})
>>> s.variant, type(s.book).__name__, s.live.source.name.startswith("built-in demo")
('visayan', 'RefereeBook', True)
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import current_app

from webui.adapters.reader import PhotoReader
from webui.adapters.rules import Rules
from webui.adapters.tablebook import TableBook
from webui.live import LiveHub, LiveSource

__all__ = ["Services", "services", "make_source"]


def make_source(camera: Any, config: Mapping[str, Any]) -> LiveSource:
    """The live source: the camera pipeline for a camera, else the built-in demo."""
    if camera in (None, "", "demo"):
        from webui.demo import DemoSource

        return DemoSource(step_seconds=float(config.get("DEMO_STEP_SECONDS", 2.5)),
                          pause_after_win=float(config.get("DEMO_PAUSE_SECONDS", 8.0)),
                          reader=str(config.get("DEMO_READER", "models")))
    from webui.camera import CameraSource

    return CameraSource(camera, variant=str(config.get("VARIANT", "filipino")), calibration=config.get("CALIBRATION"))


def make_book(path: str, rules: Any, backend: str = "auto") -> Any:
    """The referee (``engine.game`` + ``mahjongero.ledger``) when installed, else the table book."""
    if backend in ("auto", "referee"):
        try:
            from webui.adapters.referee import RefereeBook

            return RefereeBook(path, rules)
        except ImportError:
            if backend == "referee":
                raise
    return TableBook(path, rules)


@dataclass
class Services:
    variant: str
    rules: Any
    reader: Any
    book: Any
    live: LiveHub
    photos: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Services:
        variant = str(config.get("VARIANT", "filipino"))
        rules = config.get("RULES") or Rules()
        reader = config.get("READER") or PhotoReader(calibration=config.get("CALIBRATION"))
        book = config.get("REFEREE") or make_book(str(config["DATABASE"]), rules,
                                                  str(config.get("REFEREE_BACKEND", "auto")))
        source = config.get("SOURCE") or make_source(config.get("CAMERA"), config)
        live_variant = getattr(source, "variant", variant)
        return cls(variant, rules, reader, book, LiveHub(source, book, rules, live_variant))


def services() -> Services:
    found: Services = current_app.extensions["mahjongero"]
    return found
