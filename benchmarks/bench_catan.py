"""Catan photos against their hand labels: terrain (leave-one-photo-out: each photo read with
prototypes learnt from the other four), robber, ms per photo. Numbers and pieces are not read yet.

Run: python benchmarks/bench_catan.py [../shared/data/catan-photos]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

from tablesight.scoring.catan.geometry import LAND
from tablesight.vision.catan.learn_terrain import labelled_rows, prototypes_from
from tablesight.vision.catan.reader import read_catan_photo


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "../shared/data/catan-photos")
    print(f"{'photo':<22} {'terrain':>8} {'robber':>7} {'ms':>6}")
    right = total = robbers = 0
    photos = sorted(folder.glob("*.jpg"))
    for photo in photos:
        label = json.loads(photo.with_suffix(".json").read_text())
        prototypes = prototypes_from(labelled_rows(folder, skip=photo.name))
        reading = read_catan_photo(cv2.imread(str(photo)), prototypes)
        truth = np.array([h["center_px"] for h in label["hexes"]])
        centres = np.array([reading.centres[h] for h in LAND])
        nearest = np.linalg.norm(centres[:, None] - truth[None], axis=2).argmin(axis=1)
        ok = sum(reading.terrain[h] == label["hexes"][i]["terrain"] for h, i in zip(LAND, nearest, strict=True))
        robber_index = None if reading.robber is None else int(nearest[LAND.index(reading.robber)])
        robber_ok = robber_index == label.get("robber_hex_index")
        right, total, robbers = right + ok, total + 19, robbers + robber_ok
        print(f"{photo.name:<22} {ok:>5}/19 {'yes' if robber_ok else 'no':>7} {reading.ms:>6.0f}")
    print(f"terrain {right}/{total} = {right / total:.3f}; robber {robbers}/{len(photos)}; "
          "numbers and pieces: not read yet")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
