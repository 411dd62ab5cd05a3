"""Pictures of each stage of a photo's reading, to see where a misreading starts.

1. pixel classes: the photo beside what each pixel was taken for (grey plastic white, keeps in
   their colours);
2. carved footprints on the table, seen from straight above: the tower solid (grey), the wall
   solid (blue where it adds to the towers'), the towers found (yellow circles, their inscribed
   radius) and the walls (cyan; a cross marks an open end);
3. keeps on the table: each keep colour where it lies on the table plane, and each keep read
   (a ring; double keeps twice).

Run: python -m tablesight.vision.castellan.stage_views PHOTO [--out DIR] [--profile P.json] [--camera C.json]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from tablesight.calibration.pieces import NOMINAL_KEEP_BGR, NOMINAL_PROFILE, PieceProfile
from tablesight.errors import NothingRecognised, TablesightError
from tablesight.inputs import read_photo
from tablesight.photo_scoring import load_profiles
from tablesight.vision.castellan.carving import carve
from tablesight.vision.castellan.keeps import keep_planes
from tablesight.vision.castellan.reader import TOWER_TOP_SHARE, WALL_TOP_SHARE, CastellanReader, PhotoReading

MAX_SIDE = 1000  # stage pictures are shrunk to this many pixels at most


def class_picture(reading: PhotoReading) -> np.ndarray:
    """The undistorted photo beside its pixel classes."""
    classes, photo = reading.classes, reading.view.image
    shown = np.zeros_like(photo)
    shown[classes.grey > 0] = (255, 255, 255)
    for colour, mask in classes.keeps.items():
        shown[mask > 0] = NOMINAL_KEEP_BGR[colour]
    return _shrunk(np.hstack([photo, shown]))


def carving_picture(reading: PhotoReading, profile: PieceProfile = NOMINAL_PROFILE) -> np.ndarray:
    """The carved tower and wall solids on the castle's window of table, with the towers and walls read."""
    view, region, grey = reading.view, reading.region, reading.classes.grey
    towers = carve(view, grey, reading.look.carve_heights(profile.tower_height, TOWER_TOP_SHARE), region)
    walls = carve(view, grey, reading.look.carve_heights(profile.wall_height, WALL_TOP_SHARE), region)
    out = np.zeros(towers.shape + (3,), np.uint8)
    out[walls] = (160, 60, 0)
    out[towers] = (150, 150, 150)
    scale = region.px_per_mm
    for wall in reading.walls:
        start = reading.towers[wall.start].position
        end = reading.towers[wall.end].position if wall.end is not None else wall.open_point
        a, b = (_px(region.to_pixels(np.array(p))) for p in (start, end))
        cv2.line(out, a, b, (255, 255, 0), 2 if wall.kind == "long" else 1, cv2.LINE_AA)
        if wall.end is None:
            cv2.drawMarker(out, b, (255, 255, 0), cv2.MARKER_TILTED_CROSS, 10, 1)
    for tower in reading.towers:
        centre = _px(region.to_pixels(np.array(tower.position)))
        cv2.circle(out, centre, max(2, int(tower.radius_mm * scale)), (0, 255, 255), 1, cv2.LINE_AA)
    return _shrunk(out)


def keep_picture(reading: PhotoReading, profile: PieceProfile = NOMINAL_PROFILE) -> np.ndarray:
    """Each keep colour on the table plane (where its lean is measured), and the keeps read."""
    region = reading.region
    planes = keep_planes(reading.view, reading.classes, region, profile, reading.table_keep_colours)
    out = np.zeros(planes.flat.shape + (3,), np.uint8)
    for index, colour in enumerate(planes.colours, start=1):
        out[planes.flat == index] = (np.array(NOMINAL_KEEP_BGR[colour]) * 0.6).astype(np.uint8)
    side_px = profile.dimensions.keep_side * region.px_per_mm
    for keep in reading.keeps:
        centre = _px(region.to_pixels(np.array([keep.x, keep.y])))
        for ring in range(2 if keep.double else 1):
            cv2.circle(out, centre, int(side_px * (0.6 + 0.25 * ring)), (255, 255, 255), 1, cv2.LINE_AA)
        if not keep.double_certain:
            cv2.putText(out, "?", centre, cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
    return _shrunk(out)


def stage_pictures(reading: PhotoReading, profile: PieceProfile = NOMINAL_PROFILE) -> dict[str, np.ndarray]:
    """Named pictures of each stage; empty when the reading stopped before the castle was found."""
    if reading.view is None or reading.classes is None:
        return {}
    pictures = {"1-pixel-classes": class_picture(reading)}
    if reading.region is not None:
        pictures["2-carved-footprints"] = carving_picture(reading, profile)
        pictures["3-keeps"] = keep_picture(reading, profile)
    return pictures


def _px(point: np.ndarray) -> tuple[int, int]:
    return int(round(float(point[0]))), int(round(float(point[1])))


def _shrunk(image: np.ndarray) -> np.ndarray:
    factor = MAX_SIDE / max(image.shape[:2])
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1 else image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tablesight.vision.castellan.stage_views",
                                     description="Pictures of each stage of reading a Castellan photo.")
    parser.add_argument("photo", type=Path)
    parser.add_argument("--out", type=Path, default=Path("stages"), help="folder for the pictures (default stages/)")
    parser.add_argument("--profile", type=Path, help="piece profile JSON, as for `tablesight score`")
    parser.add_argument("--camera", type=Path, help="camera profile JSON, as for `tablesight score`")
    args = parser.parse_args(argv)
    try:
        profile, lens = load_profiles(args.profile, args.camera)
        photo = read_photo(args.photo)
    except TablesightError as exc:  # missing, unreadable or truncated: one sentence, as `score` says it
        print(f"stage_views: {exc}", file=sys.stderr)
        return exc.exit_code
    reading = CastellanReader(profile, lens).read(photo.image, photo.focal_35mm)
    pictures = stage_pictures(reading, profile)
    if not pictures:
        print(f"{args.photo}: {reading.notes[0] if reading.notes else 'nothing read'}", file=sys.stderr)
        return NothingRecognised.exit_code
    args.out.mkdir(parents=True, exist_ok=True)
    for name, picture in pictures.items():
        path = args.out / f"{args.photo.stem}-{name}.png"
        cv2.imwrite(str(path), picture)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
