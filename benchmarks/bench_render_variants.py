"""Whether Castellan reading depends on how the generator draws a photo: the same scenes rendered as usual,
with the pieces modelled another way in each (`synthetic.piece_styles`: a round tower's facets, the
crenellations' count, depth and pitch, roofs' eaves, the tops' shading, gloss), through a phone app's
processing (`synthetic.phone_processing`: noise reduction, tone curve, local contrast, saturation,
sharpening halos), lit by a second lamp or window as well (`scene.random_second_light`) and taken by a camera
encoding sRGB (`Scene.srgb`: shading and shadows compressed by its curve), read and compared with their truth.
A reader that reads pieces by what they are scores alike on all five.

Scenes are rendered here from fresh seeds (not committed), one photo a seed and variant.
Run: python benchmarks/bench_render_variants.py [--seed 9600] [--count 16] [--only 'phone processing' ...]
"""

from __future__ import annotations

import argparse
import sys

from tablesight.scoring.castellan.report import score_board
from tablesight.synthetic.dataset import pick_board
from tablesight.synthetic.render import render
from tablesight.synthetic.scene import SCENE_VARIANTS, random_scene
from tablesight.vision.castellan.evaluate import compare, ratio, summed
from tablesight.vision.castellan.reader import CastellanReader


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Castellan reading of the same scenes rendered other ways.")
    parser.add_argument("--seed", type=int, default=9600, help="first scene's seed (default 9600)")
    parser.add_argument("--count", type=int, default=16, help="scenes (default 16)")
    parser.add_argument("--only", nargs="+", choices=list(SCENE_VARIANTS), metavar="NAME",
                        help="only these variants (quote names with spaces, e.g. 'phone processing')")
    args = parser.parse_args(argv)
    variants = {name: SCENE_VARIANTS[name] for name in args.only or SCENE_VARIANTS}
    reader = CastellanReader()
    counts = {name: [] for name in variants}  # per photo: kind -> tp/fp/fn
    exact = dict.fromkeys(variants, 0)  # photos whose scores came out right
    for n, seed in enumerate(range(args.seed, args.seed + args.count)):
        board, boxes = pick_board(seed)
        for name, options in variants.items():
            scene = random_scene(board, seed, realism=options)
            reading = reader.read(render(scene))
            placed = reading.board if reading.card is not None and reading.card.seen else None
            counts[name].append(compare(scene.board, placed)[0])
            got = score_board(reading.board, boxes=boxes).scores if reading.board else {}
            exact[name] += got == score_board(scene.board, boxes=boxes).scores
        print(f"\r{n + 1}/{args.count} scenes", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.count} scenes from seed {args.seed}: tower P/R, short P/R, long P/R, keep P/R, boards exact, "
          f"scores exact")
    for name, per_photo in counts.items():
        boards = sum(all(c["fp"] == 0 and c["fn"] == 0 for c in photo.values()) for photo in per_photo)
        cells = [f"{ratio(c['tp'], c['fp']):.3f}/{ratio(c['tp'], c['fn']):.3f}" for c in summed(per_photo).values()]
        print(f"{name:<16} " + "  ".join(cells) + f"  {boards}/{args.count}  {exact[name]}/{args.count}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
