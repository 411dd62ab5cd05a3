"""Whether Castellan reading depends on how the generator models the pieces: the same scenes rendered with
the usual pieces and with pieces modelled another way in each (`synthetic.piece_styles`: a round tower's
facets, the crenellations' count, depth and pitch, roofs' eaves, the tops' shading, gloss), read and
compared with their truth. A reader that reads pieces by what they are scores alike on both.

Scenes are rendered here from fresh seeds (not committed), two photos a seed.
Run: python benchmarks/bench_piece_styles.py [--seed 9600] [--count 16]
"""

from __future__ import annotations

import argparse
import sys

from tablesight.scoring.castellan.report import score_board
from tablesight.synthetic.dataset import pick_board
from tablesight.synthetic.render import render
from tablesight.synthetic.scene import random_scene
from tablesight.vision.castellan.evaluate import compare, ratio, summed
from tablesight.vision.castellan.reader import CastellanReader

STYLES = {"usual pieces": False, "varied pieces": True}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Castellan reading with the pieces modelled two ways.")
    parser.add_argument("--seed", type=int, default=9600, help="first scene's seed (default 9600)")
    parser.add_argument("--count", type=int, default=16, help="scenes (default 16)")
    args = parser.parse_args(argv)
    reader = CastellanReader()
    counts = {name: [] for name in STYLES}  # per photo: kind -> tp/fp/fn
    exact = dict.fromkeys(STYLES, 0)  # photos whose scores came out right
    for n, seed in enumerate(range(args.seed, args.seed + args.count)):
        board, boxes = pick_board(seed)
        for name, varied in STYLES.items():
            scene = random_scene(board, seed, varied_pieces=varied)
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
        print(f"{name:<14} " + "  ".join(cells) + f"  {boards}/{args.count}  {exact[name]}/{args.count}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
