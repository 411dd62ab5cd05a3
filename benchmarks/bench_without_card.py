"""Photos without the card: the samples with their card painted over in the table's colour, read as
`score` reads them. Prints per photo its tilt, what was read (or that nothing was reported) and whether
the scores are right and how long it took, then how many were read right, read wrong, and not reported,
and the median time a photo.

Run: python benchmarks/bench_without_card.py [samples/castellan/photos] [--count N] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

from tablesight.scoring.castellan.report import score_board  # noqa: E402
from tablesight.synthetic.card_views import card_painted_out  # noqa: E402
from tablesight.synthetic.dataset import truth_path  # noqa: E402
from tablesight.vision.castellan.reader import CastellanReader  # noqa: E402


def read_one(path: Path) -> tuple[str, float, str, float]:
    truth = json.loads(truth_path(path).read_text())
    image = card_painted_out(cv2.imread(str(path)))
    if image is None:
        return path.name, truth["scene"]["tilt_deg"], "card not found in the original", 0.0
    start = time.perf_counter()
    reading = CastellanReader().read(image)
    seconds = time.perf_counter() - start
    if reading.board is None or reading.card is None:
        return path.name, truth["scene"]["tilt_deg"], "not reported", seconds
    scores = score_board(reading.board, boxes=truth.get("boxes")).to_dict()["scores"]
    verdict = "right" if scores == truth["report"]["scores"] else "WRONG"
    towers = f"{len(reading.board.towers)}/{len(truth['board']['towers'])} towers"
    return path.name, truth["scene"]["tilt_deg"], f"read {verdict} ({towers})", seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="samples/castellan/photos", type=Path)
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    paths = sorted(args.folder.glob("*.jpg"))[: args.count]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(read_one, paths))
    tally: dict[str, int] = {}
    for name, tilt, outcome, seconds in results:
        print(f"{name}  tilt {tilt:4.1f}  {seconds:5.1f} s  {outcome}")
        key = outcome.split(" (")[0]
        tally[key] = tally.get(key, 0) + 1
    print(", ".join(f"{k}: {v}" for k, v in sorted(tally.items())))
    timed = [seconds for *_, seconds in results if seconds]
    if timed:
        print(f"median {statistics.median(timed):.1f} s a photo, slowest {max(timed):.1f} s ({args.jobs} at a time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
