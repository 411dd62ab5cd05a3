"""How the Catan reader holds up when the labelled photos are taken differently: turned, smaller,
darker or warmer, or seen at a slant. Each variation is made from the real photos (their labels
move with them) and scored as in bench_catan.

Run: python benchmarks/bench_catan_variations.py [../shared/data/catan-photos]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from bench_catan import KINDS, piece_counts

from tablesight.scoring.catan.geometry import LAND
from tablesight.vision.catan.reader import CatanReadError, read_catan_photo


def _table(image: np.ndarray) -> tuple[float, ...]:
    """The colour around the board (the photo's corners) to fill what a turned photo uncovers."""
    corners = np.concatenate([image[:20, :20], image[:20, -20:], image[-20:, :20], image[-20:, -20:]])
    return tuple(float(v) for v in np.median(corners.reshape(-1, 3), axis=0))


def rotate(image: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    size = (int(h * sin + w * cos), int(h * cos + w * sin))
    m[:, 2] += (np.array(size) - [w, h]) / 2
    return cv2.warpAffine(image, m, size, borderValue=_table(image)), np.vstack([m, [0, 0, 1]])


def slant(image: np.ndarray, squeeze: float) -> tuple[np.ndarray, np.ndarray]:
    """As if the camera were tilted: the top of the photo narrower than the bottom."""
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[w * squeeze, h * squeeze / 2], [w * (1 - squeeze), h * squeeze / 2], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, m, (w, h), borderValue=_table(image)), m


VARIATIONS = {
    "as taken": lambda im: (im, np.eye(3)),
    "turned 90°": lambda im: rotate(im, 90),
    "turned 37°": lambda im: rotate(im, 37),
    "half size": lambda im: (cv2.resize(im, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), np.diag([.5, .5, 1])),
    "darker": lambda im: (np.clip(im.astype(np.float32) * 0.65, 0, 255).astype(np.uint8), np.eye(3)),
    "warm light": lambda im: (np.clip(im.astype(np.float32) * [0.8, 0.95, 1.1], 0, 255).astype(np.uint8), np.eye(3)),
    "slanted": lambda im: slant(im, 0.12),
}


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "../shared/data/catan-photos")
    photos = sorted(folder.glob("*.jpg"))
    print(f"{'variation':<12} {'terrain':>9} {'numbers':>9} {'robber':>7} {'pieces exact':>13}")
    for name, vary in VARIATIONS.items():
        totals = Counter()
        for photo in photos:
            label = json.loads(photo.with_suffix(".json").read_text())
            image, move = vary(cv2.imread(str(photo)))
            try:
                reading = read_catan_photo(image)
            except CatanReadError:
                continue
            truth = cv2.perspectiveTransform(np.array([h["center_px"] for h in label["hexes"]], np.float64)[None],
                                             move)[0]
            index = {h: int(np.linalg.norm(truth - np.array(reading.centres[h]), axis=1).argmin()) for h in LAND}
            got, want = piece_counts(reading), label.get("pieces", {})
            totals.update(
                terrain=sum(reading.terrain[h] == label["hexes"][index[h]]["terrain"] for h in LAND),
                numbers=sum(reading.numbers[h] == label["hexes"][index[h]]["number"] for h in LAND),
                robber=(None if reading.robber is None else index[reading.robber]) == label.get("robber_hex_index"),
                pieces=all(got.get(c, Counter())[k] == want.get(c, {}).get(k, 0)
                           for c in set(got) | set(want) for k in KINDS))
        n = len(photos)
        print(f"{name:<12} {totals['terrain']:>5}/{19 * n} {totals['numbers']:>5}/{19 * n} {totals['robber']:>4}/{n} "
              f"{totals['pieces']:>10}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
