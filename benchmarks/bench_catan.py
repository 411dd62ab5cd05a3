"""Catan photos against their hand labels, per photo and in total: terrain (leave-one-photo-out: each
photo read with prototypes learnt from the other four), numbers, robber, settlements / cities / roads
per colour, building points per colour (settlement 1, city 2: the labels hold no longest road or
cards), and ms per photo (including a 12 MP enlargement of each photo).

Run: python benchmarks/bench_catan.py [../shared/data/catan-photos]
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from tablesight.scoring.catan.geometry import LAND
from tablesight.vision.catan.learn_terrain import labelled_rows, prototypes_from
from tablesight.vision.catan.reader import CatanPhotoReading, read_catan_photo

KINDS = ("settlements", "cities", "roads")


def piece_counts(reading: CatanPhotoReading) -> dict[str, Counter]:
    counts: dict[str, Counter] = {}
    for colour, kind in reading.buildings.values():
        counts.setdefault(colour, Counter())[kind + ("s" if kind == "settlement" else "")] += 1
    for colour in reading.roads.values():
        counts.setdefault(colour, Counter())["roads"] += 1
    for c in counts.values():
        c["cities"] += c.pop("citys", 0)
    return counts


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "../shared/data/catan-photos")
    photos = sorted(folder.glob("*.jpg"))
    print(f"{'photo':<22} {'terrain':>8} {'numbers':>8} {'robber':>7} {'pieces':>7} {'points':>7} {'ms':>6} "
          f"{'12MP ms':>8}")
    totals = Counter()
    for photo in photos:
        label = json.loads(photo.with_suffix(".json").read_text())
        image = cv2.imread(str(photo))
        reading = read_catan_photo(image, prototypes_from(labelled_rows(folder, skip=photo.name)))
        big = cv2.resize(image, None, fx=np.sqrt(12e6 / image[..., 0].size), fy=np.sqrt(12e6 / image[..., 0].size))
        start = time.perf_counter()
        read_catan_photo(big)
        big_ms = (time.perf_counter() - start) * 1000
        truth = np.array([h["center_px"] for h in label["hexes"]])
        index = {h: int(np.linalg.norm(truth - np.array(reading.centres[h]), axis=1).argmin()) for h in LAND}
        terrain = sum(reading.terrain[h] == label["hexes"][index[h]]["terrain"] for h in LAND)
        numbers = sum(reading.numbers[h] == label["hexes"][index[h]]["number"] for h in LAND)
        robber_ok = (None if reading.robber is None else index[reading.robber]) == label.get("robber_hex_index")
        got, want = piece_counts(reading), label.get("pieces", {})
        colours = set(got) | set(want)
        pieces_ok = all(got.get(c, Counter())[k] == want.get(c, {}).get(k, 0) for c in colours for k in KINDS)
        points_ok = all(got.get(c, Counter())["settlements"] + 2 * got.get(c, Counter())["cities"]
                        == want.get(c, {}).get("settlements", 0) + 2 * want.get(c, {}).get("cities", 0)
                        for c in colours)
        totals.update(terrain=terrain, numbers=numbers, robber=robber_ok, pieces=pieces_ok, points=points_ok,
                      hexes=19)
        print(f"{photo.name:<22} {terrain:>5}/19 {numbers:>5}/19 {'yes' if robber_ok else 'no':>7} "
              f"{'exact' if pieces_ok else 'WRONG':>7} {'exact' if points_ok else 'WRONG':>7} {reading.ms:>6.0f} "
              f"{big_ms:>8.0f}")
        for c in sorted(colours):
            g, w = got.get(c, Counter()), want.get(c, {})
            print(f"    {c:<7} " + "  ".join(f"{k} {g[k]}/{w.get(k, 0)}" for k in KINDS))
    n = len(photos)
    print(f"terrain {totals['terrain']}/{totals['hexes']}; numbers {totals['numbers']}/{totals['hexes']} "
          f"(hexes, a desert's 'no number' included; a token under the robber counts as missed); "
          f"robber {totals['robber']}/{n}; pieces per colour exact {totals['pieces']}/{n}; "
          f"building points per colour exact {totals['points']}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
