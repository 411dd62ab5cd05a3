"""How well `tablesight calibrate pieces` measures a box of pieces: generated calibration photos (one tower,
one short wall, one long wall and two keeps beside the card, each scene's table, light and camera drawn at
random) of three boxes, the nominal one, a bigger and a smaller one, measured and compared with the box.

The figure the reader leans on is the span between the centres of two towers a short wall joins (the long
one's is twice it); then the tower's diameter, the walls' thickness, the keeps' side and the tower's height
(read from its lean in photos tilted about 20° or more; otherwise the nominal one, scaled by nothing).

Run: python benchmarks/bench_piece_measure.py [--seeds 16]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile
from tablesight.synthetic.piece_layout import BIGGER_BOX, SMALLER_BOX, calibration_layout
from tablesight.synthetic.render import render
from tablesight.synthetic.scene import random_scene
from tablesight.vision.castellan.piece_measure import PieceMeasureError, measure_pieces

BOXES = {"nominal": NOMINAL_PROFILE, "bigger": BIGGER_BOX, "smaller": SMALLER_BOX}


COLUMNS = ("span %", "tower mm", "thickness mm", "keep mm", "tower height mm")


def measure_box(box: PieceProfile, seeds: range) -> tuple[list[dict], list[str]]:
    """Each seed's errors (span %, tower, thickness and keep side in mm), and the failures' reasons."""
    truth = box.dimensions
    errors, failures = [], []
    for seed in seeds:
        scene = random_scene(calibration_layout(box), seed, box)
        try:
            profile = measure_pieces(render(scene))
        except PieceMeasureError as exc:
            failures.append(f"seed {seed} ({scene.table_kind}, tilt {scene.describe()['tilt_deg']:.0f}°): {exc}")
            continue
        got = profile.dimensions
        errors.append({"span %": 100 * (got.centre_spacing("short") / truth.centre_spacing("short") - 1),
                       "tower mm": got.tower_diameter - truth.tower_diameter,
                       "thickness mm": got.wall_thickness - truth.wall_thickness,
                       "keep mm": got.keep_side - truth.keep_side,
                       "tower height mm": profile.tower_height - box.tower_height})
    return errors, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=16, help="calibration photos per box")
    args = parser.parse_args(argv)
    print(f"{'box':<9} {'measured':>9}  " + "  ".join(f"{k + ' med/max':>22}" for k in
                                                       COLUMNS))
    all_failures = []
    for name, box in BOXES.items():
        errors, failures = measure_box(box, range(1, args.seeds + 1))
        all_failures += [f"{name}: {f}" for f in failures]
        cells = []
        for key in COLUMNS:
            values = [e[key] for e in errors]
            cells.append(f"{statistics.median(values):>+10.1f} / {max(values, key=abs):>+9.1f}" if values else
                         f"{'-':>22}")
        print(f"{name:<9} {len(errors):>4}/{args.seeds:<4}  " + "  ".join(cells), flush=True)
    if all_failures:
        print("\nnot measured (the message the user gets):")
        for failure in all_failures:
            print("  " + failure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
