"""Evaluation of card finding on photos with truth: detection rate, reprojection, table mapping.

Run: python -m tablesight.calibration.evaluate_card samples/castellan/photos [--known-lens | --castle-lens]
(--known-lens: the camera's true lens, as `score --camera` gives; --castle-lens: the lens the photo
reader settles on after refining it from the castle's own wall spans, which is what scoring uses.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card_detection import find_card
from tablesight.inputs import read_photo
from tablesight.synthetic.dataset import truth_path


@dataclass(frozen=True)
class CardResult:
    name: str
    found: bool
    corners: int
    reprojection_px: float
    tower_error_mm: list[float]
    focal_error: float
    focal_source: str


def truth_pose(truth: dict) -> CameraPose:
    lens = Lens.from_dict(truth["camera"])
    return CameraPose(lens, np.array(truth["camera"]["rvec"]), np.array(truth["camera"]["tvec"]))


def evaluate_photo(path: Path, known_lens: bool = False, castle_lens: bool = False) -> CardResult:
    truth = json.loads(truth_path(path).read_text())
    photo = read_photo(path)
    lens = Lens.from_dict(truth["camera"]) if known_lens else None
    detection = find_card(photo.image, lens=lens, focal_35mm=photo.focal_35mm)
    if detection is None:
        return CardResult(path.name, False, 0, float("nan"), [], float("nan"), "")
    if castle_lens:
        detection = _refined_by_castle(photo, detection)
    actual = truth_pose(truth)
    towers = np.array([[t["x"], t["y"]] for t in truth["board"]["towers"]]).reshape(-1, 2)
    errors: list[float] = []
    if len(towers):
        pixels = actual.project(towers)  # where each tower base really is in the photo
        mapped = detection.image_to_table(pixels)
        errors = np.linalg.norm(mapped - towers, axis=1).tolist()
    focal_error = detection.pose.lens.focal / actual.lens.focal - 1
    return CardResult(path.name, True, detection.corner_count, detection.reprojection_px, errors,
                      focal_error, detection.focal_source)


def _refined_by_castle(photo, detection):
    """The card detection the photo reader ends with (lens refined from the castle), at full size."""
    from tablesight.vision.castellan.reader import CastellanReader

    return CastellanReader().read(photo.image, photo.focal_35mm, card=detection).card or detection


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tablesight.calibration.evaluate_card",
                                     description="Card finding on photos with truth, photo by photo.")
    parser.add_argument("folder", nargs="?", type=Path, default=Path("samples/castellan/photos"),
                        help="photos with their .truth.json files")
    parser.add_argument("--known-lens", action="store_true", help="the camera's true lens, as `score --camera` gives")
    parser.add_argument("--castle-lens", action="store_true",
                        help="the lens the photo reader refines from the castle (what scoring uses)")
    args = parser.parse_args(argv)
    photos = sorted(p for p in args.folder.glob("*.jpg") if truth_path(p).exists())
    if not photos:
        parser.error(f"no .jpg photos with a .truth.json beside them in {args.folder}")
    results = []
    for i, path in enumerate(photos):
        results.append(evaluate_photo(path, args.known_lens, args.castle_lens))
        print(f"\r{i + 1}/{len(photos)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{'photo':<16} {'found':>5} {'corners':>7} {'reproj px':>9} {'tower med mm':>12} "
          f"{'tower max mm':>12} {'focal err':>9} {'focal from':>10}")
    for r in results:
        med = statistics.median(r.tower_error_mm) if r.tower_error_mm else float("nan")
        mx = max(r.tower_error_mm) if r.tower_error_mm else float("nan")
        print(f"{r.name:<16} {'yes' if r.found else 'NO':>5} {r.corners:>7} {r.reprojection_px:>9.3f} "
              f"{med:>12.2f} {mx:>12.2f} {100 * r.focal_error:>8.1f}% {r.focal_source:>10}")
    found = [r for r in results if r.found]
    all_errors = [e for r in found for e in r.tower_error_mm]
    print()
    print(f"card found: {len(found)}/{len(results)}")
    if found:
        print(f"median reprojection error: {statistics.median(r.reprojection_px for r in found):.3f} px")
    if all_errors:
        print(f"tower bases mapped to the table: median {statistics.median(all_errors):.2f} mm, "
              f"max {max(all_errors):.2f} mm over {len(all_errors)} towers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
