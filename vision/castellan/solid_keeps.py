"""Keeps are solid: their colour's holes and glints are keep too.

A keep (a box under a pyramid roof, or two boxes stacked) is convex, so its outline in a
photo is too, and all of it is plastic of its colour. Its colour as classified is not
always whole:
- a roof face turned to a lamp, or a glossy side's highlight, comes out nearly white:
  unsaturated, so taken for grey plastic (fresh 9898-011: a blue keep's lit roof face read
  grey, a quarter of the keep lost, the keep missed and its courtyard left unclaimed);
- a phone's chroma smoothing and JPEG leave a pale face speckled with pixels of no keep
  colour (the same photo's red keep: carved on three planes through its body, the speckles,
  shifted on each, left a lace of specks too small to be a keep).
So grey lying wholly inside the convex hull of a blob of a keep's colour is given to that
colour (the grey of walls and towers runs on beyond any keep beside it), and specks the
colour of a keep-sized blob encloses are filled. A table of a keep's colour keeps its grain
in that colour: filling its patches' holes made keeps of them (fresh 9999-012, a green cloth).
"""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np

from tablesight.vision.mask_holes import small_holes

# Blobs of a keep colour (their outline's area, in keep sides² on the photo's scale) outside these are no one
# keep: specks of the colour, or patches of a table of it (their hull's area).
MIN_BLOB_SIDES = 0.2
MAX_HULL_SIDES = 4.0
MAX_HOLE_SIDES = 0.1  # enclosed holes in a keep colour up to this (keep sides²) are the keep's: specks; its top is 1
MARGIN_PX = 2  # around a blob's box: grey reaching this far out of the hull's box is not within the hull


def solid_keeps(grey: np.ndarray, keeps: dict[str, np.ndarray], side_px: float, as_they_are: Collection[str] = ()
                ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """`grey` and each keep colour's mask (uint8, 255 = member) with the grey patches lying wholly inside a keep
    blob's convex hull moved to the keep's colour, and each colour's small enclosed holes filled; the colours
    `as_they_are` (a table's own) left as they are. `side_px`: a keep's side in the photo's pixels, about."""
    grey = grey.copy()
    solid = {}
    for colour, mask in keeps.items():
        if colour in as_they_are:
            solid[colour] = mask
            continue
        mask = mask.copy()
        contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)  # any non-zero is set
        if hierarchy is None:
            solid[colour] = mask
            continue
        areas = [cv2.contourArea(c) for c in contours]
        # Only a keep's own holes: a patch of a table of the colour (larger) keeps its grain.
        holes = [hole for hole, parent in small_holes(contours, hierarchy, MAX_HOLE_SIDES * side_px ** 2)
                 if areas[parent] <= MAX_HULL_SIDES * side_px ** 2]
        cv2.drawContours(mask, holes, -1, 255, cv2.FILLED)
        for outline, area, parent in zip(contours, areas, hierarchy[0][:, 3], strict=True):
            if parent < 0 and area >= MIN_BLOB_SIDES * side_px ** 2:
                _glints_in_hull(grey, mask, cv2.convexHull(outline), MAX_HULL_SIDES * side_px ** 2)
        solid[colour] = mask
    return grey, solid


def _glints_in_hull(grey: np.ndarray, mask: np.ndarray, hull: np.ndarray, max_hull_px: float) -> None:
    """Move (in place) the grey wholly inside the convex `hull` (points, pixels) of a blob of `mask` to `mask`."""
    if cv2.contourArea(hull) > max_hull_px:
        return
    x, y, w, h = cv2.boundingRect(hull)
    x0, y0 = max(0, x - MARGIN_PX), max(0, y - MARGIN_PX)
    x1, y1 = min(grey.shape[1], x + w + MARGIN_PX), min(grey.shape[0], y + h + MARGIN_PX)
    grey_here = (grey[y0:y1, x0:x1] > 0).astype(np.uint8)
    if not grey_here.any():
        return
    inside_hull = np.zeros_like(grey_here)
    cv2.fillConvexPoly(inside_hull, hull - [x0, y0], 1)
    count, patches = cv2.connectedComponents(grey_here, connectivity=8)
    # A patch touching the margin may run on beyond it: only patches wholly inside the hull are glints.
    inside = np.bincount(patches[inside_hull == 0], minlength=count) == 0
    inside[0] = False
    glint = inside[patches]
    grey[y0:y1, x0:x1][glint] = 0
    mask[y0:y1, x0:x1][glint] = 255
