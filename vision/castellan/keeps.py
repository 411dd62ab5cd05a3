"""Keeps: solids of a keep colour; double keeps told by how far their top leans in the photo.

A keep's top stands 1 or 2 keep-heights above the table; in the photo it leans away
from the point below the camera by height × tan(view angle). Where that lean is too
small to tell one height from the other (near straight below the camera) the keep
is read as single and marked uncertain rather than guessed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.carving import PixelClasses, carve, warp_mask
from tablesight.vision.table_view import Region, TableView

MIN_LEAN_DIFFERENCE_MM = 7.0
GAP_MM = 9  # mm of missing colour tolerated along the lean


@dataclass(frozen=True)
class KeepReading:
    color: str
    x: float
    y: float
    double: bool
    double_certain: bool
    top_height_mm: float | None


def find_keeps(view: TableView, classes: PixelClasses, region: Region, profile: PieceProfile) -> list[KeepReading]:
    body = profile.keep_height - profile.keep_roof_height
    side = profile.dimensions.keep_side
    found = []
    min_pixels = 0.3 * side * side / view.card.mm_per_pixel() ** 2
    for colour, mask in classes.keeps.items():
        if cv2.countNonZero(mask) < min_pixels:
            continue
        solid = carve(view, mask, [0.3 * body, 0.6 * body, 0.9 * body], region)
        solid = cv2.morphologyEx(solid.astype(np.uint8), cv2.MORPH_OPEN,
                                 cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
        count, _, stats, centroids = cv2.connectedComponentsWithStats(solid, connectivity=8)
        min_area = 0.3 * side * side * region.px_per_mm ** 2
        max_area = 3.0 * side * side * region.px_per_mm ** 2  # bigger patches are table pattern or clutter
        flat = warp_mask(view, mask, 0.0, region)
        for i in range(1, count):
            if not min_area <= stats[i, cv2.CC_STAT_AREA] <= max_area:
                continue
            centre = region.to_mm(centroids[i] + 0.5)
            found.append(_with_height(colour, centre, flat, region, view, profile))
    return found


def _with_height(colour: str, centre: np.ndarray, flat: np.ndarray, region: Region, view: TableView,
                 profile: PieceProfile) -> KeepReading:
    """Single or double from how far the keep's colour reaches, on the table plane, away from the camera:
    compared with where the top of a single and of a double keep would land seen from this camera."""
    camera = view.pose.centre
    outward = centre - camera[:2]
    ground = float(np.linalg.norm(outward))
    single, double = profile.keep_height, 2 * profile.keep_height
    if ground < 1e-6:
        return KeepReading(colour, float(centre[0]), float(centre[1]), False, False, None)
    u = outward / ground
    reach_single = _top_reach(view, centre, u, single, profile)
    reach_double = _top_reach(view, centre, u, double, profile)
    if reach_double - reach_single < MIN_LEAN_DIFFERENCE_MM:
        return KeepReading(colour, float(centre[0]), float(centre[1]), False, False, None)
    reach = _lean_reach(flat, region, centre, u, reach_double + profile.dimensions.keep_side)
    is_double = bool(reach > (reach_single + reach_double) / 2)
    # Report the height the reach suggests, interpolated between the two hypotheses.
    top = single + (double - single) * (reach - reach_single) / (reach_double - reach_single)
    return KeepReading(colour, float(centre[0]), float(centre[1]), is_double, True, float(top))


def _top_reach(view: TableView, centre: np.ndarray, u: np.ndarray, height: float, profile: PieceProfile) -> float:
    """How far from the keep's centre, away from the camera, its top lands on the table in the photo."""
    half = profile.dimensions.keep_side / 2
    base = height - profile.keep_roof_height
    points = [(centre, height)] + [(centre + u * half, base)]
    reach = 0.0
    for point, h in points:
        pixel = view.pose.project(np.array([point]), h)
        on_table = view.pose.table_point(pixel, 0.0)[0]
        reach = max(reach, float((on_table - centre) @ u))
    return reach


def _lean_reach(flat: np.ndarray, region: Region, centre: np.ndarray, u: np.ndarray, limit: float) -> float:
    """How far (mm) the keep's colour runs from its centre away from the camera on the table plane."""
    normal = np.array([-u[1], u[0]])
    h, w = flat.shape
    reach = 0.0
    misses = 0
    for step in np.arange(0.0, limit + 10.0, 1.0):
        hit = False
        for side in (-4.0, 0.0, 4.0):
            p = region.to_pixels(centre + u * step + normal * side).astype(int)
            if 0 <= p[0] < w and 0 <= p[1] < h and flat[p[1], p[0]]:
                hit = True
                break
        if hit:
            reach, misses = step, 0
        else:
            misses += 1
            if misses > GAP_MM:  # a stacked keep narrows where the lower roof meets the upper body
                break
    return reach


def merge_close(readings: list[KeepReading], side: float) -> list[KeepReading]:
    """One reading per keep: blobs of one colour closer than a keep's side are the same keep."""
    merged: list[KeepReading] = []
    for r in readings:
        if any(m.color == r.color and math.hypot(m.x - r.x, m.y - r.y) < side for m in merged):
            continue
        merged.append(r)
    return merged
