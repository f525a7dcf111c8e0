"""Synthetic scene throughput: scenes per second per core at 1280x960 (issue 5 asks >= 10).

    .venv/bin/python benchmarks/bench_synth.py [--n 40] [--kind mixed] [--size 1280x960] [--encode]

Face sprites are drawn once per (style, tile) and cached, so the first scenes of a process
are slower; the benchmark warms every style first and then reports steady-state CPU time
(process time, so other load on the machine does not count) and wall time.
"""

from __future__ import annotations

import argparse
import time

import cv2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--kind", default="mixed", choices=["hand", "table", "mixed"])
    ap.add_argument("--size", default="1280x960")
    ap.add_argument("--seed", type=int, default=123)
    ap.add_argument("--encode", action="store_true", help="include JPEG encoding")
    ap.add_argument("--no-warm", action="store_true", help="do not pre-draw the face cache")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))

    from engine.tiles import Tile
    from vision.synth.faces import NUM_STYLES, face_image, make_style
    from vision.synth.scenes import make_scene, render_scene

    cv2.setNumThreads(1)
    if not args.no_warm:
        t = time.perf_counter()
        for k in range(NUM_STYLES):
            for c in range(64):
                face_image(Tile(c), make_style(k))
        print(f"face cache warm-up: {time.perf_counter() - t:.1f} s ({NUM_STYLES} styles x 64 faces)")
    for i in range(3):  # textures and other caches
        render_scene(make_scene(args.seed, 10_000 + i, kind=args.kind, size=(w, h)))
    c0, w0 = time.process_time(), time.perf_counter()
    tiles = 0
    for i in range(args.n):
        res = render_scene(make_scene(args.seed, i, kind=args.kind, size=(w, h)))
        tiles += len(res.labels)
        if args.encode:
            cv2.imencode(".jpg", res.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, res.jpeg_quality])
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    print(f"{args.n} {args.kind} scenes at {w}x{h}{' + JPEG' if args.encode else ''}: "
          f"{args.n / cpu:.1f} scenes/s per core (CPU {1000 * cpu / args.n:.0f} ms/scene), "
          f"{args.n / wall:.1f} scenes/s wall, {tiles / args.n:.0f} labelled tiles/scene")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
