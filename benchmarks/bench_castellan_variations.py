"""How Castellan photo reading holds up when the sample photos are taken differently: darker, under a
warm cast, at half the resolution, softer (defocus), compressed (heavily, or as a webcam's stream), in
a webcam's video range (16-235), shaken (motion blur), or processed as phones and webcams do (contrast
raised, sharpened, grainy, a vivid tone curve), at a webcam's 720p, or through a lens with colour fringes
(lateral chromatic aberration). Truth positions are on the table, so they hold for
every variation.

Run: python benchmarks/bench_castellan_variations.py [samples/castellan/photos] [--every N] [--only NAME…]
[--jobs N]
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from tablesight.inputs import read_photo
from tablesight.scoring.castellan.board_json import board_from_dict
from tablesight.scoring.castellan.report import score_board
from tablesight.synthetic.dataset import truth_path
from tablesight.synthetic.effects import colour_fringes, jpeg_round_trip, vivid_tone_curve
from tablesight.vision.castellan.evaluate import compare, ratio, summed
from tablesight.vision.castellan.reader import CastellanReader


def _at_720p(image: np.ndarray) -> np.ndarray:
    """A webcam's 720p: the shorter side 720 px."""
    scale = 720 / min(image.shape[:2])
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image


def _colour_fringes(image: np.ndarray, share: float) -> np.ndarray:
    """Lateral chromatic aberration: blue magnified and red shrunk by `share` about the photo's centre (at
    0.001, a pixel apart at the corners of a 1600 × 1200 photo)."""
    return colour_fringes(image, share, -share)


VARIATIONS = {
    "as taken": lambda im: im,
    "darker": lambda im: np.clip(im.astype(np.float32) * 0.6, 0, 255).astype(np.uint8),
    "warm cast": lambda im: np.clip(im.astype(np.float32) * [0.75, 0.95, 1.15], 0, 255).astype(np.uint8),
    "half size": lambda im: cv2.resize(im, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA),
    "soft focus": lambda im: cv2.GaussianBlur(im, (0, 0), 1.6),
    "JPEG q25": lambda im: jpeg_round_trip(im, 25),
    "JPEG q50": lambda im: jpeg_round_trip(im, 50),  # a webcam's MJPEG stream
    "video range": lambda im: (im.astype(np.float32) * 219 / 255 + 16).round().astype(np.uint8),  # 16-235
    "shaken": lambda im: cv2.filter2D(im, -1, np.full((1, 7), 1 / 7, np.float32)),  # 7 px of motion blur
    "contrast": lambda im: np.clip((im.astype(np.float32) - 128) * 1.35 + 128, 0, 255).astype(np.uint8),
    "sharpened": lambda im: cv2.addWeighted(im, 2.0, cv2.GaussianBlur(im, (0, 0), 1.5), -1.0, 0),
    "grainy": lambda im: np.clip(im + np.random.default_rng(0).normal(0, 6, im.shape), 0, 255).astype(np.uint8),
    "720p": _at_720p,
    "fringes 0.1%": lambda im: _colour_fringes(im, 0.001),
    "fringes 0.3%": lambda im: _colour_fringes(im, 0.003),
    "tone curve": vivid_tone_curve,
}


def read_varied(name: str, path: Path) -> tuple[dict, bool]:
    """One photo taken the `name` way, read: its pieces against the truth (`compare`), and whether its scores
    are exact."""
    truth_doc = json.loads(truth_path(path).read_text())
    photo = read_photo(path)
    reading = CastellanReader().read(VARIATIONS[name](photo.image), photo.focal_35mm)
    placed = reading.board if reading.card is not None and reading.card.seen else None
    counts = compare(board_from_dict(truth_doc["board"]), placed)[0]
    got = score_board(reading.board, boxes=truth_doc.get("boxes")).to_dict()["scores"] if reading.board else {}
    return counts, got == truth_doc["report"]["scores"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Castellan reading on the samples taken differently.")
    parser.add_argument("folder", nargs="?", type=Path, default=Path("samples/castellan/photos"))
    parser.add_argument("--every", type=int, default=2, help="read every N-th photo (default 2)")
    parser.add_argument("--only", nargs="+", choices=list(VARIATIONS), metavar="NAME",
                        help="only these variations (quote names with spaces, e.g. 'soft focus')")
    parser.add_argument("--jobs", type=int, default=1, help="photos read at once, one process each")
    args = parser.parse_args(argv)
    photos = sorted(p for p in args.folder.glob("*.jpg") if truth_path(p).exists())[::max(1, args.every)]
    if not photos:
        parser.error(f"no .jpg photos with a .truth.json beside them in {args.folder}")
    print(f"{len(photos)} photos; tower P/R, short P/R, long P/R, keep P/R, scores exact")
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for name in args.only or VARIATIONS:
            results = []
            for result in pool.map(read_varied, [name] * len(photos), photos):
                results.append(result)
                print(f"\r{name}: {len(results)}/{len(photos)}", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
            cells = [f"{ratio(c['tp'], c['fp']):.2f}/{ratio(c['tp'], c['fn']):.2f}"
                     for c in summed([counts for counts, _ in results]).values()]
            exact = sum(ok for _, ok in results)
            print(f"{name:<13} " + "  ".join(cells) + f"  {exact}/{len(photos)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
