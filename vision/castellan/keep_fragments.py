"""Keeps whose colour the photo mostly lost, found by what is left of it in a courtyard no keep claims.

A flash or a lamp glancing off a yellow keep's roof bleaches its lit faces to a cream the colour masks take for
grey plastic, and in a steep view the walls in front hide its body: what is left of its colour is a few patches
too small and too broken to be carved as a keep (`keeps.find_keeps` asks for half a keep's side squared in one
piece; fresh 15500-028, 38°, a flash: two triangles of yellow, 171 mm² in all, beside a cream roof read as grey).
Nothing else leaves keep colour inside a courtyard but a keep: the table shows none there unless it has the colour
itself, and a keep read in the next courtyard is left out as far as its lean may reach (`keeps_reach`). So a
courtyard no keep claims that holds MIN_FRAGMENT_SIDES² of a keep's top in one keep colour, within a window a keep
fits in, holds a keep of that colour. The reader keeps it only where the board then breaks fewer rules, and names
it in the notes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.carving import warp_labels
from tablesight.vision.castellan.courtyard_keeps import keeps_reach, polygon_mask
from tablesight.vision.table_view import Region, TableView

PX_PER_MM = 1.0
# A keep's top and its sides leaning with it fit in a square this many keep sides across (up to 40° of tilt).
WINDOW_SIDES = 1.5
# Keep colour within one window, in keep sides² (22² mm² nominal), from which a courtyard holds a keep. Of the 12
# courtyards read unclaimed with no keep in truth (the samples and fresh 13800-15500, session 106), the most any
# showed was 51 mm² (0.11; sample 018, yellow), most none; the keep lost in 15500-028 showed 171 mm² (0.35).
MIN_FRAGMENT_SIDES = 0.2
# ... and this many times as much as the claimed courtyards show of that colour beyond the keeps' reach: some tables
# give a keep colour's specks everywhere (sample 020: yellow, 100-150 mm² a window in most courtyards), some lights
# a keep's colour reaching past where it may lean.
CLAIMED_FACTOR = 2.0


@dataclass(frozen=True)
class KeepFragments:
    """Patches of one keep colour in an unclaimed courtyard: their colour, centre (table mm) and area (mm²)."""

    color: str
    x: float
    y: float
    area_mm2: float


def keep_fragments_in_courtyards(view: TableView, keep_masks: Mapping[str, np.ndarray],
                                 courtyards: Sequence[np.ndarray], keeps_mm: Sequence[Sequence[float]],
                                 profile: PieceProfile, claimed: Sequence[np.ndarray] = ()) -> list[KeepFragments]:
    """The keep colour (at most one) found in each courtyard of `courtyards` (polygons, table mm) in patches
    MIN_FRAGMENT_SIDES² of a keep's top or more within a keep-sized window, and CLAIMED_FACTOR times as much as
    any courtyard of `claimed` (polygons) shows of it beyond the keeps' reach. `keep_masks`: each keep colour's
    pixels in the view's undistorted image (uint8 masks), seen on the plane of a keep's roof base, where its
    footprint lands; `keeps_mm`: the keeps read (centres), whose colour is left out as far as they may lean."""
    if not courtyards or not keep_masks:
        return []
    side = profile.dimensions.keep_side
    corners = np.concatenate([np.asarray(p, np.float64).reshape(-1, 2) for p in (*courtyards, *claimed)])
    lo, hi = corners.min(axis=0) - side, corners.max(axis=0) + side
    region = Region(lo[0], lo[1], hi[0], hi[1], PX_PER_MM)
    height = profile.keep_height - profile.keep_roof_height
    beyond_reach = ~keeps_reach(view, region, keeps_mm, height, profile, from_base=True)
    colours = {colour: (warp_labels(view, mask, height, region) > 0) & beyond_reach
               for colour, mask in keep_masks.items()}
    window = int(round(WINDOW_SIDES * side * PX_PER_MM)) | 1
    floor = MIN_FRAGMENT_SIDES * (side * PX_PER_MM) ** 2
    claimed_masks = [polygon_mask(polygon, region, beyond_reach.shape) for polygon in claimed]
    least = {c: max(floor, CLAIMED_FACTOR * max((_densest(m & yard, window)[0] for yard in claimed_masks), default=0))
             for c, m in colours.items()}
    found = []
    for polygon in courtyards:
        inside = polygon_mask(polygon, region, beyond_reach.shape)
        densest = {c: _densest(colours[c] & inside, window) for c in colours}
        colour = max(densest, key=lambda c: densest[c][0] / least[c])
        area, centre = densest[colour]
        if area >= least[colour]:
            x, y = region.to_mm(centre + 0.5)
            found.append(KeepFragments(colour, float(x), float(y), area / PX_PER_MM ** 2))
    return found


def _densest(mask: np.ndarray, window: int) -> tuple[float, np.ndarray]:
    """The most pixels of `mask` in a `window`-pixel square, and their centre (x, y pixels). Only the box around the
    set pixels, grown by half a window, is filtered: every square holding any of them is centred there (one courtyard
    of a castle's region, for each colour and courtyard)."""
    x0, y0, w, h = cv2.boundingRect(mask.astype(np.uint8))
    if w == 0 or h == 0:
        return 0.0, np.zeros(2)
    half = window // 2
    x0, y0 = max(0, x0 - half), max(0, y0 - half)
    box = mask[y0:y0 + h + 2 * half, x0:x0 + w + 2 * half]
    counts = cv2.boxFilter(box.astype(np.float32), -1, (window, window), normalize=False,
                           borderType=cv2.BORDER_CONSTANT)
    y, x = np.unravel_index(int(np.argmax(counts)), counts.shape)
    ys, xs = np.nonzero(box[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1])
    return float(counts[y, x]), np.array([xs.mean() + max(0, x - half) + x0, ys.mean() + max(0, y - half) + y0])
