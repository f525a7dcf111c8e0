"""Write the few small rendered images with known tiles that the tests read.

``python -m vision.training.testdata`` regenerates ``tests/data/vision/`` (deterministic):
for each image a JPEG, its YOLO label (``labels/``) and a JSON list of tiles
(box, tile code, face).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from engine.tiles import Tile
from vision.training.crops import _JOKER, _SENTINEL, _unhide_american_jokers
from vision.training.env import REPO_ROOT

OUT = REPO_ROOT / "tests" / "data" / "vision"
SCENES = (("hand", 7, 0), ("hand", 7, 1), ("hand", 7, 3))
SIZE = (640, 480)


def main(out: Path = OUT) -> None:
    from vision.synth.dataset import label_line
    from vision.synth.scenes import make_scene, render_scene

    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    for kind, seed, index in SCENES:
        scene = make_scene(seed, index, kind=kind, size=SIZE)
        _unhide_american_jokers(scene)
        res = render_scene(scene)
        name = f"{kind}_{seed}_{index}"
        cv2.imwrite(
            str(out / "images" / f"{name}.jpg"),
            res.image[:, :, ::-1],
            [cv2.IMWRITE_JPEG_QUALITY, 92],
        )
        w, h = SIZE
        lines, tiles = [], []
        for lab in res.labels:
            x1, y1, x2, y2 = (float(v) for v in lab["box"])
            cls = 0 if lab["face"] == "up" else 1
            lines.append(label_line(cls, [x1, y1, x2, y2], w, h))
            code = _JOKER if lab["code"] == _SENTINEL else lab["code"]
            code = code if lab["face"] == "up" else str(Tile.BACK)
            tiles.append({"box": [x1, y1, x2, y2], "tile": code, "face": lab["face"]})
        (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")
        (out / "labels" / f"{name}.json").write_text(json.dumps({"tiles": tiles}, indent=0))
        print(name, len(tiles))


if __name__ == "__main__":
    main()
