"""Photos being scored: the upload and its reading, kept on disk under ``DATA_DIR/photos``.

Ids are random and checked against a strict pattern before touching the disk.

>>> import tempfile
>>> store = PhotoStore(tempfile.mkdtemp())
>>> pid = store.add(None, "jpg", PhotoReading(0, 0, [], []), "123m")
>>> store.get(pid)[1]
'123m'
>>> store.get("../../etc/passwd")
Traceback (most recent call last):
...
webui.photostore.UnknownPhotoError: no photo '../../etc/passwd' (it may have been cleared)
"""

from __future__ import annotations

import json
import os
import re
import secrets
from pathlib import Path

from webui.adapters.reader import PhotoReading

__all__ = ["PhotoStore", "UnknownPhotoError"]

_ID = re.compile(r"^[A-Za-z0-9_-]{8,32}$")
KEEP = 50  # most recent photos kept; older ones are deleted


class UnknownPhotoError(ValueError):
    pass


class PhotoStore:
    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def _path(self, pid: str, suffix: str) -> Path:
        if not _ID.match(pid):
            raise UnknownPhotoError(f"no photo {pid!r} (it may have been cleared)")
        return self.folder / f"{pid}.{suffix}"

    def add(self, image: bytes | None, ext: str, reading: PhotoReading, hand: str) -> str:
        pid = secrets.token_urlsafe(9)
        if image is not None:
            self._path(pid, "img").write_bytes(image)
        self.save(pid, reading, hand, ext if image is not None else "")
        self._prune()
        return pid

    def save(self, pid: str, reading: PhotoReading, hand: str, ext: str) -> None:
        data = {"reading": reading.to_json(), "hand": hand, "ext": ext}
        tmp = self._path(pid, "tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, self._path(pid, "json"))

    def get(self, pid: str) -> tuple[PhotoReading, str, str]:
        path = self._path(pid, "json")
        if not path.exists():
            raise UnknownPhotoError(f"no photo {pid!r} (it may have been cleared)")
        data = json.loads(path.read_text())
        return PhotoReading.from_json(data["reading"]), data["hand"], data["ext"]

    def image_path(self, pid: str) -> Path:
        """Where photo ``pid``'s picture is kept (readers tell its format from its bytes)."""
        path = self._path(pid, "img")
        if not path.exists():
            raise UnknownPhotoError(f"no picture for photo {pid!r}")
        return path

    def image(self, pid: str) -> bytes:
        return self.image_path(pid).read_bytes()

    def _prune(self) -> None:
        files = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[KEEP:]:
            for suffix in ("json", "img"):
                old.with_suffix(f".{suffix}").unlink(missing_ok=True)
