"""Score a photo: upload (or type) a hand, see what was read, correct a tile, see waits or score."""

from __future__ import annotations

import secrets
from pathlib import Path
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as WerkzeugResponse

from engine.hand import Hand
from engine.tiles import Tile
from webui.adapters.reader import PhotoReading, ReadTile, read_turned
from webui.adapters.rules import SITUATION_FLAGS, Analysis, Situation
from webui.photostore import PhotoStore
from webui.services import services
from webui.uploads import BadUploadError, as_jpeg, check_image

bp = Blueprint("photo", __name__, url_prefix="/photo")

OPTION_KEYS = ("variant", "preset", "winner", "how", "discarder", "round", "dealer", "win_tile",
               *(name for name, _ in SITUATION_FLAGS))
_EXT = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "BMP": "bmp"}
_MIME = {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp", "bmp": "image/bmp"}


def _store() -> PhotoStore:
    return PhotoStore(Path(current_app.config["DATA_DIR"]) / "photos")


def _variant(value: str | None) -> str:
    s = services()
    known = [v for v, _ in s.rules.variants()]
    variant = value or s.variant
    if variant not in known:
        raise ValueError(f"unknown variant {variant!r}: choose one of {', '.join(known)}")
    return variant


def _result_url(pid: str, options: dict[str, str]) -> str:
    return url_for("photo.result", pid=pid) + (f"?{urlencode(options)}" if options else "")


def _options(source: dict[str, str]) -> dict[str, str]:
    return {k: str(source[k]) for k in OPTION_KEYS if source.get(k)}


@bp.get("/")
def form() -> str:
    return render_template("photo_form.html", variant=services().variant, reader_ok=services().reader.available())


def reading_from_hand(hand: Hand) -> PhotoReading:
    """A typed hand as a 'reading' without boxes, so its tiles can be tapped and corrected too."""
    tiles: list[ReadTile] = []

    def add(t: Tile, region: str, group: int | None = None) -> int:
        tiles.append(ReadTile(str(t), (0.0, 0.0, 0.0, 0.0), 1.0, region, group))
        return len(tiles) - 1

    concealed = [add(t, "hand") for t in hand.concealed]
    melds = [(str(m)[0] + str(m)[-1], [add(t, "meld", g) for t in m.tiles]) for g, m in enumerate(hand.melds)]
    bonus = [add(t, "flower") for t in hand.bonus]
    return PhotoReading(0, 0, tiles, concealed, melds, bonus)


@bp.post("/")
def upload() -> WerkzeugResponse:
    s = services()
    variant = _variant(request.form.get("variant"))
    options = _options(request.form.to_dict())
    file = request.files.get("photo")
    typed = request.form.get("hand", "").strip()
    if file is not None and file.filename:
        data = file.read()
        limit = int(current_app.config["MAX_PIXELS"])
        fmt, w, h = check_image(data, max_pixels=limit)
        if fmt not in _EXT:  # HEIC: kept as a JPEG, which every browser can show
            data = as_jpeg(data)
            fmt, w, h = check_image(data, max_pixels=limit)
        ext = _EXT[fmt]
        tmp = Path(current_app.config["DATA_DIR"]) / "photos" / f"upload-{secrets.token_hex(8)}.{ext}"
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        try:
            reading = s.reader.read(str(tmp), variant, (w, h))
        finally:
            tmp.unlink(missing_ok=True)
        if not reading.tiles:
            raise BadUploadError("no tiles found in that photo: lay the hand flat, face up, and take it from above")
        pid = _store().add(data, ext, reading, reading.hand_text())
    elif typed:
        reading = reading_from_hand(Hand.parse(typed))
        pid = _store().add(None, "", reading, reading.hand_text())
    else:
        raise BadUploadError("choose a photo of the hand (or type the hand) first")
    return redirect(_result_url(pid, options))


@bp.get("/<pid>")
def result(pid: str) -> str:
    s = services()
    reading, _, ext = _store().get(pid)
    options = _options(request.args.to_dict())
    variant = _variant(options.get("variant"))
    hand_text = reading.hand_text()
    try:
        hand_text = str(Hand.parse(hand_text))  # tidy: 1m1m2m -> 112m
    except ValueError:
        pass  # shown as read; the verdict below says what is wrong
    analysis: Analysis | None = None
    problem = ""
    try:
        table_rules = s.rules.preset_rules(variant, options.get("preset"))
        analysis = s.rules.analyse(variant, hand_text, Situation.from_form(options), table_rules)
    except ValueError as exc:  # a misread that is no hand, or the rules not installed: say it
        problem = str(exc)
    try:
        presets = list(s.rules.presets(variant))
    except ValueError:
        presets = []
    return render_template("photo_result.html", pid=pid, reading=reading, has_image=bool(ext),
                           analysis=analysis, problem=problem, edge=_edge_note(reading, analysis, ext),
                           shaken=_shaken_note(reading),
                           variant=variant, options=options,
                           query=urlencode(options), flags=SITUATION_FLAGS, hand_text=hand_text,
                           variants=s.rules.variants(), presets=presets)


def _edge_note(reading: PhotoReading, analysis: Analysis | None, ext: str) -> str:
    """A hand read short from a photo whose tiles by the hand reach its edge: say so."""
    if not ext or analysis is None or analysis.kind != "wrong size" or analysis.tile_count >= (analysis.hand_size or 0):
        return ""
    from vision.readings import edge_note

    cut = reading.cut_by_edge()
    return f"{edge_note(len(cut))}. Take it again with the whole hand in view." if cut else ""


def _shaken_note(reading: PhotoReading) -> str:
    """A photo that looks smeared along a line (a hand that moved): ask for another."""
    from vision.readings import SHAKEN_NOTE

    return SHAKEN_NOTE if reading.shaken else ""


@bp.get("/<pid>/image")
def image(pid: str) -> Response:
    _, _, ext = _store().get(pid)
    if not ext:
        abort(404, description="this hand was typed, not photographed")
    return Response(_store().image(pid), mimetype=_MIME[ext], headers={"Cache-Control": "private, max-age=3600"})


@bp.get("/<pid>/fix/<int:index>")
def fix(pid: str, index: int) -> str:
    reading, _, _ = _store().get(pid)
    if not 0 <= index < len(reading.tiles):
        abort(404, description=f"no tile number {index} in this photo")
    options = _options(request.args.to_dict())
    return render_template("photo_fix.html", pid=pid, index=index, current=reading.tiles[index],
                           options=options, query=urlencode(options))


@bp.post("/<pid>/turn")
def turn(pid: str) -> WerkzeugResponse:
    """Read the photo again turned half round (or back as photographed): tiles upside down."""
    store = _store()
    reading, _, ext = store.get(pid)
    if not ext:
        abort(404, description="this hand was typed, not photographed")
    variant = _variant(request.form.get("variant"))
    options = _options(request.form.to_dict())
    photo, reader = str(store.image_path(pid)), services().reader
    again = reader.read(photo, variant, (reading.width, reading.height)) if reading.turned else read_turned(reader, photo, variant)
    if not again.tiles:
        raise BadUploadError("no tiles found that way round: the reading is as it was")
    store.save(pid, again, again.hand_text(), ext)
    return redirect(_result_url(pid, options))


@bp.post("/<pid>/tile/<int:index>")
def correct(pid: str, index: int) -> WerkzeugResponse:
    store = _store()
    reading, _, ext = store.get(pid)
    fixed = reading.corrected(index, request.form.get("tile", ""))
    store.save(pid, fixed, fixed.hand_text(), ext)
    options = _options(request.form.to_dict())
    return redirect(_result_url(pid, options))


@bp.post("/<pid>/tile/<int:index>/place")
def place(pid: str, index: int) -> WerkzeugResponse:
    """Put a tile where the person says it lies: not the hand's (a die, a coin, a tile boxed
    twice), in the concealed row, or among the flowers."""
    store = _store()
    reading, _, ext = store.get(pid)
    moved = reading.placed(index, request.form.get("region", ""))
    store.save(pid, moved, moved.hand_text(), ext)
    return redirect(_result_url(pid, _options(request.form.to_dict())))
