"""``mahjongero serve``: the table page for real use, with a camera.

    mahjongero serve --camera 0 --variant visayan            # webcam 0, this laptop only
    mahjongero serve --camera rtsp://cam/live --host 0.0.0.0  # phones on the Wi-Fi: a PIN is required
"""

from __future__ import annotations

import argparse
import ipaddress
from pathlib import Path
from typing import Any

__all__ = ["register", "serve", "is_loopback"]

VARIANTS = ("filipino", "visayan", "singapore", "vietnamese")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0"), is_loopback("192.168.1.5")
    (True, True, False, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="serve the table page (live camera, photos, referee, money)")
    p.add_argument("--camera", default=None,
                   help="webcam index (0), video file or stream URL; omit for the built-in demo")
    p.add_argument("--variant", default="filipino", choices=VARIANTS)
    p.add_argument("--host", default="127.0.0.1",
                   help="127.0.0.1 (default: this laptop only); 0.0.0.0 lets phones on the Wi-Fi in, with a PIN")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--pin", default=None, help="the table PIN for other devices (default: a random one)")
    p.add_argument("--data", default=None, help="folder for the game file, photos and settings (default: ./var)")
    p.add_argument("--set", default=None, metavar="NAME",
                   help="name the camera's and photos' tiles as a set taught with 'mahjongero calibrate' does")
    p.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    return serve(camera=args.camera, variant=args.variant, host=args.host, port=args.port, pin=args.pin,
                 data=args.data, calibration=args.set)


def serve(*, camera: str | None, variant: str, host: str = "127.0.0.1", port: int = 8000, pin: str | None = None,
          data: str | None = None, demo: bool = False, extra: dict[str, Any] | None = None,
          calibration: str | None = None) -> int:
    """Build the app and serve it until Ctrl-C. Raises ``ValueError`` for a bad PIN or port,
    or a calibrated set that is not there."""
    from werkzeug.serving import make_server

    from webui import create_app
    from webui.security import generate_pin

    if not 0 < port < 65536:
        raise ValueError(f"port {port} is not between 1 and 65535")
    config: dict[str, Any] = {"VARIANT": variant, "CAMERA": camera}
    if calibration:
        from vision.calibrate import load_set

        load_set(calibration)  # an unknown set is said now, not at the first frame
        config["CALIBRATION"] = calibration
    if data:
        config["DATA_DIR"] = data
    if not is_loopback(host):
        pin = pin or generate_pin()
        if not pin.isdigit() or len(pin) < 4:
            raise ValueError(f"PIN {pin!r} must be at least 4 digits")
        config["PIN"] = pin
    if demo or camera in (None, ""):  # the demo plays in its own file: the family's games stay clean
        from webui import DEFAULT_DATA_DIR

        config["DATABASE"] = str((Path(data) if data else DEFAULT_DATA_DIR) / "demo.sqlite3")
    config.update(extra or {})
    app = create_app(config)
    server = make_server(host, port, app, threaded=True)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Mahjongero table page: http://{shown}:{server.server_port}/", flush=True)
    if config.get("PIN"):
        print(f"Phones on the Wi-Fi: open http://<this laptop's address>:{server.server_port}/ "
              f"and type the table PIN {config['PIN']}", flush=True)
    print("Source: " + (f"camera {camera}" if camera not in (None, "") else "built-in demo (no camera)"), flush=True)
    print("Press Ctrl-C to stop. The game is saved as it goes.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nStopped. Run it again to resume the game.")
    finally:
        app.extensions["mahjongero"].live.stop()
        server.server_close()
    return 0
