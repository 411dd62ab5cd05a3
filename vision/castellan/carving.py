"""Carving solid pieces out of several rectified planes.

A point (x, y) of the table holds a piece of height H when the rays through (x, y, h)
for every h below H all meet that piece's colour. Rectifying the photo's pixel
classes onto planes at several heights and AND-ing them removes the parts of tall
pieces that merely lean over the table in a tilted view, leaving each piece's
footprint at its true place. (Straight down, the planes coincide and the footprint
is the piece's slightly enlarged top view, which is still at the right place.)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.calibration.card import card_outline_mm
from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.segmentation import (
    TableModel,
    colour_features,
    grey_mask,
    keep_masks,
    stands_out,
    table_likeness,
)
from tablesight.vision.table_view import Region, TableView

KEEP_COLOURS = ("red", "blue", "yellow", "green")
NEAR_CASTLE_MM = 60.0  # parts of the castle's grey closer than this to it belong to it


@dataclass(frozen=True)
class PixelClasses:
    """Pixel classes of the undistorted photo (uint8 masks, 255 = member)."""

    grey: np.ndarray
    keeps: dict[str, np.ndarray]


def classify_pixels(view: TableView, table: TableModel, photo: np.ndarray | None = None,
                    by_contrast: bool = False) -> PixelClasses:
    """Pixel classes of the photo as taken (`photo`, distorted) or of the view's undistorted image.
    `by_contrast` also takes grey that stands out of its surroundings (for a table of the pieces' grey)."""
    source = view.image if photo is None else photo
    normalised = source.astype(np.float32) * view.gain + view.offset
    feats = colour_features(normalised)
    grey = grey_mask(feats, table.likelihood(feats))
    if by_contrast:
        grey |= stands_out(feats, int(round(40.0 / view.card.mm_per_pixel())))
    # Keeps are tested against the table near each pixel: a tablecloth's colour borders are table too.
    keeps = keep_masks(feats, table_likeness(feats, table, max(1, int(round(1.5 / view.card.mm_per_pixel())))))
    # Close the gaps between merlons (about 4 mm) so crenellated tops read as solid.
    size = max(3, int(round(4.0 / view.card.mm_per_pixel())) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    grey = cv2.morphologyEx(grey.astype(np.uint8) * 255, cv2.MORPH_CLOSE, kernel)
    return PixelClasses(grey, {c: m.astype(np.uint8) * 255 for c, m in keeps.items()})


def undistorted_classes(view: TableView, raw: PixelClasses) -> PixelClasses:
    """Classes found on the photo as taken, brought into the view's undistorted image: the colour work is
    done once per photo even when the lens is refined and the photo read again."""
    return PixelClasses(view.undistort(raw.grey, nearest=True),
                        {c: view.undistort(m, nearest=True) for c, m in raw.keeps.items()})


def warp_mask(view: TableView, mask: np.ndarray, height: float, region: Region) -> np.ndarray:
    warp = view.plane_homography(height) @ region.pixel_to_mm_matrix()
    return cv2.warpPerspective(mask, warp, region.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP) > 127


def carve(view: TableView, mask: np.ndarray, heights: list[float], region: Region) -> np.ndarray:
    solid = None
    for h in heights:
        plane = warp_mask(view, mask, h, region)
        solid = plane if solid is None else solid & plane
    return solid


def card_mask(region: Region, margin_mm: float = 12.0) -> np.ndarray:
    """The card's sheet (and a margin) on a region: never castle, however grey it looks."""
    mask = np.zeros(region.size[::-1], np.uint8)
    outline = card_outline_mm()
    grown = outline + np.sign(outline - outline.mean(axis=0)) * margin_mm
    cv2.fillConvexPoly(mask, np.round(region.to_pixels(grown)).astype(np.int32), 1)
    return mask > 0


def castle_region(view: TableView, classes: PixelClasses, profile: PieceProfile,
                  px_per_mm: float, with_keeps: bool = False) -> Region | None:
    """The window of table holding the grey pieces (and the keeps, if asked), not the card; or None."""
    extent = view.table_extent()
    coarse = Region(*extent, 0.5)
    # Grey pieces only: keeps stand inside courtyards, and a colourful tablecloth must not widen the window.
    pieces = carve(view, classes.grey, [0.0, profile.wall_height * 0.4, profile.wall_height * 0.8], coarse)
    if with_keeps:
        for mask in classes.keeps.values():
            pieces |= carve(view, mask, [0.0, profile.keep_height * 0.4], coarse)
    pieces &= ~card_mask(coarse)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(pieces.astype(np.uint8), connectivity=8)
    min_area = profile.dimensions.keep_side ** 2 * 0.4 * coarse.px_per_mm ** 2
    boxes = [stats[i] for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= min_area]
    if not boxes:
        return None
    # The castle is one connected whole: start from its largest part and take in what lies close to it,
    # not specks of table texture far away.
    boxes.sort(key=lambda b: -b[cv2.CC_STAT_AREA])
    # Pieces laid out apart for `calibrate pieces` are not one castle: take them all in then.
    reach = (1000.0 if with_keeps else NEAR_CASTLE_MM) * coarse.px_per_mm
    x0, y0, x1, y1 = boxes[0][0], boxes[0][1], boxes[0][0] + boxes[0][2], boxes[0][1] + boxes[0][3]
    grown = True
    while grown:
        grown = False
        for b in boxes[1:]:
            bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
            inside = bx0 >= x0 and by0 >= y0 and bx1 <= x1 and by1 <= y1
            near = bx0 < x1 + reach and bx1 > x0 - reach and by0 < y1 + reach and by1 > y0 - reach
            if near and not inside:
                x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
                grown = True
    lo = coarse.to_mm(np.array([x0, y0])) - 40
    hi = coarse.to_mm(np.array([x1, y1])) + 40
    return Region(float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]), px_per_mm)
