"""One scene rendered every way the generator can (as usual, pieces modelled otherwise, a phone app's
processing, a second lamp, an sRGB camera), cropped around its castle and tiled with labels: what the
realism options change, at a glance.  python -m tablesight.synthetic.variants_sheet --out docs/render-variants.jpg
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from tablesight.synthetic.dataset import pick_board
from tablesight.synthetic.render import render
from tablesight.synthetic.scene import SCENE_VARIANTS, random_scene

TILE = 360


def castle_crop(image: np.ndarray, scene) -> np.ndarray:
    """The photo cropped to a square around its castle's towers (the whole photo if it has none)."""
    towers = np.array([t.position for t in scene.board.towers], np.float64)
    if len(towers) == 0:
        return image
    pixels = scene.pose.project(towers)
    (x0, y0), (x1, y1) = pixels.min(axis=0), pixels.max(axis=0)
    half = 0.6 * max(x1 - x0, y1 - y0) + 20
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h, w = image.shape[:2]
    a, b = int(max(0, cx - half)), int(min(w, cx + half))
    c, d = int(max(0, cy - half)), int(min(h, cy + half))
    return image[c:d, a:b]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=9601)
    parser.add_argument("--out", type=Path, default=Path("render-variants.jpg"))
    args = parser.parse_args(argv)
    board, _ = pick_board(args.seed)
    tiles = []
    for label, options in SCENE_VARIANTS.items():
        scene = random_scene(board, args.seed, realism=options)
        tile = cv2.resize(castle_crop(render(scene), scene), (TILE, TILE), interpolation=cv2.INTER_AREA)
        cv2.rectangle(tile, (0, 0), (TILE, 26), (255, 255, 255), cv2.FILLED)
        cv2.putText(tile, label, (6, 19), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
        tiles.append(tile)
        print(f"\r{len(tiles)}/{len(SCENE_VARIANTS)} renders", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if not cv2.imwrite(str(args.out), np.hstack(tiles), [cv2.IMWRITE_JPEG_QUALITY, 85]):
        print(f"error: could not write {args.out} (its folder must exist and its name end in .jpg or .png)",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
