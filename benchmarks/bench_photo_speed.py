"""Time to read a photo, per stage and in total (median), at 1920×1080 and at 12 MP, one core.

Scenes are rendered here at those sizes (not committed). Run: python benchmarks/bench_photo_speed.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

from tablesight.synthetic.dataset import pick_board  # noqa: E402
from tablesight.synthetic.render import render  # noqa: E402
from tablesight.synthetic.scene import random_scene  # noqa: E402
from tablesight.vision.castellan.reader import CastellanReader  # noqa: E402

SIZES = {"1920x1080": (1920, 1080), "12 MP (4000x3000)": (4000, 3000)}


def main(count: int = 4) -> int:
    cv2.setNumThreads(1)
    reader = CastellanReader()
    for label, size in SIZES.items():
        totals, stages = [], {}
        for seed in range(count):
            board, _ = pick_board(5000 + seed)
            image = render(random_scene(board, 5000 + seed, image_size=size))
            reader.read(image)  # warm-up
            start = time.perf_counter()
            reading = reader.read(image)
            totals.append((time.perf_counter() - start) * 1000)
            for stage, ms in reading.timings_ms.items():
                stages.setdefault(stage, []).append(ms)
            print(f"\r{label}: {seed + 1}/{count}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        per_stage = ", ".join(f"{s} {statistics.median(v):.0f}" for s, v in stages.items())
        print(f"{label}: median {statistics.median(totals):.0f} ms per photo ({per_stage} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
