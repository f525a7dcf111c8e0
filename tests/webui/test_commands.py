"""``mahjongero serve`` and ``mahjongero run``: safe defaults, PIN beyond this laptop."""

from __future__ import annotations

import socket

import pytest

from mahjongero.cli import build_parser
from mahjongero.commands.run import free_port
from mahjongero.commands.serve import is_loopback, serve


def test_serve_defaults_to_this_laptop_only() -> None:
    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.camera is None and args.variant == "filipino"
    assert build_parser().parse_args(["serve", "--camera", "0", "--variant", "visayan"]).camera == "0"


def test_serve_refuses_a_weak_pin_before_listening() -> None:
    with pytest.raises(ValueError, match="PIN 'abc'"):
        serve(camera=None, variant="filipino", host="0.0.0.0", port=8000, pin="abc")
    with pytest.raises(ValueError, match="port 0"):
        serve(camera=None, variant="filipino", port=0)


def test_unknown_variant_is_refused_by_the_parser() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--variant", "martian"])


def test_loopback_detection() -> None:
    assert is_loopback("::1") and not is_loopback("10.0.0.2") and not is_loopback("example.org")


def test_free_port_skips_a_busy_one() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = s.getsockname()[1]
        assert free_port(busy) != busy
