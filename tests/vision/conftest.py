"""Rendered scenes shared by the camera tests (rendered once per session: rendering is slow)."""

from __future__ import annotations

import pytest

from vision.scripted import ScriptedTable


@pytest.fixture(scope="session")
def table_video() -> ScriptedTable:
    """The demo game on a small rendered table (fast enough for unit tests)."""
    return ScriptedTable(ScriptedTable.demo_script(), size=(960, 540), fps=8, hold=1.0, occlusion=0.4)


class GroundTruthReader:
    """A perfect reader: returns the labels of the frame it is told about."""

    def __init__(self) -> None:
        self.labels: list[dict] = []

    def __call__(self, image):  # noqa: ANN001, ANN204 - test double
        from vision.scripted import labels_to_detections

        return labels_to_detections(self.labels)
