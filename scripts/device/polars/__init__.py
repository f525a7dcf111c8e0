"""Stand-in for polars on a borrowed GPU machine (carried by scripts/device-bundle.sh).

ultralytics 8.4 needs polars only to read back its own ``results.csv`` after each epoch
(``pl.read_csv(bytes).to_dict(as_series=False)``); the machine has no polars and no network,
and the real wheel is 40 MB of the 64 MB a call may carry. Never installed here.
"""

from __future__ import annotations

import csv
import io
from typing import Any


class DataFrame:
    """Columns by name, as lists."""

    def __init__(self, data: dict[str, list[Any]] | None = None, **_: Any) -> None:
        self._columns = dict(data or {})

    def to_dict(self, as_series: bool = True) -> dict[str, list[Any]]:
        return self._columns


def _number(text: str) -> float | str:
    try:
        return float(text)
    except ValueError:
        return text


def read_csv(source: bytes | str, infer_schema_length: int | None = None, **_: Any) -> DataFrame:
    """A CSV (its bytes, or a path) with numbers as floats."""
    text = source.decode() if isinstance(source, bytes) else open(source, encoding="utf-8").read()
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return DataFrame()
    head = [name.strip() for name in rows[0]]
    return DataFrame({name: [_number(row[i].strip()) for row in rows[1:]] for i, name in enumerate(head)})
