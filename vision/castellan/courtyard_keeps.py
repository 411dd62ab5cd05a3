"""Keeps looked for again in courtyards read as unclaimed (the rules as evidence).

At the end of a game an enclosed courtyard almost always holds a keep (C5: whoever completes
it claims it). A keep of the table's own colour — a green keep on green felt, a yellow one on
pale wood — is lost by the photo-wide keep colours, which are tested against the table's
colours everywhere. Inside one courtyard the table is known from that courtyard alone, so a
keep is what stands out there: a keep-sized square of a keep's hue, brighter, darker or more
vivid than the courtyard's own floor, carved on the planes through a keep's body (a flat
pattern on the cloth leans away from those planes in a tilted view). What is found is named in
the notes; a courtyard with nothing standing out stays unclaimed and keeps its warning.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.board import Board
from tablesight.scoring.castellan.courtyards import Face, find_faces, smallest_face_containing
from tablesight.vision.castellan.keeps import KeepReading, square_enough, with_height
from tablesight.vision.segmentation import (
    KEEP_HUES,
    MIN_KEEP_SATURATION,
    ColourFeatures,
    colour_features,
    in_keep_hue,
)
from tablesight.vision.table_view import Region, TableView

BODY_SHARES = (0.3, 0.6, 0.9)  # planes through a keep's body (below its roof), as in `keeps.keep_planes`
FLOOR_MARGIN_MM = 2.0  # the courtyard's floor: inside the walls' faces by this much
MIN_STEP_STOPS = 0.5  # a keep's body is at least this much brighter or darker than the floor...
MIN_SATURATION_GAIN = 0.25  # ... or this much more vivid...
MIN_HUE_SHIFT = 12.0  # ... or this far off the floor's hue (OpenCV hue units)
MIN_AREA_SIDES, MAX_AREA_SIDES = 0.5, 2.5  # the carved square's area, in keep sides²


def keeps_in_unclaimed(view: TableView, board: Board, keeps: list[KeepReading], px_per_mm: float,
                       profile: PieceProfile) -> list[KeepReading]:
    """Keeps found standing in the enclosed courtyards of `board` that hold none of `keeps`."""
    faces = find_faces(board)
    held = {i for i in smallest_face_containing(faces, np.array([[k.x, k.y] for k in keeps]).reshape(-1, 2))
            if i is not None}
    found = []
    for index, face in enumerate(faces):
        if index in held:
            continue
        keep = _keep_in(view, face, px_per_mm, profile, keeps + found)
        if keep is not None:
            found.append(keep)
    return found


def _keep_in(view: TableView, face: Face, px_per_mm: float, profile: PieceProfile,
             others: list[KeepReading]) -> KeepReading | None:
    """The keep standing out from one courtyard's floor, or None; `others`: the keeps read so far."""
    dims = profile.dimensions
    x0, y0, x1, y1 = face.bounds
    region = Region(x0, y0, x1, y1, px_per_mm)
    floor = _floor(face, region, dims.wall_thickness / 2 + FLOOR_MARGIN_MM)
    if cv2.countNonZero(floor) < dims.keep_side ** 2 * px_per_mm ** 2:
        return None
    body = profile.keep_height - profile.keep_roof_height
    planes = [colour_features(view.rectify(share * body, region)) for share in BODY_SHARES]
    middle = planes[len(planes) // 2]
    colour, solid = _standing_out(planes, middle, floor > 0)
    if colour is None:
        return None
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(solid.astype(np.uint8), connectivity=8)
    if count < 2:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    area_sides = stats[best, cv2.CC_STAT_AREA] / (dims.keep_side * px_per_mm) ** 2
    if not MIN_AREA_SIDES <= area_sides <= MAX_AREA_SIDES or not square_enough(labels == best):
        return None
    centre = region.to_mm(centroids[best] + 0.5)
    # Its lean, as for any keep: its colour on the table plane, standing out from the floor the same way.
    flat = colour_features(view.rectify(0.0, region))
    _, on_table = _standing_out([flat], middle, floor > 0, colour)
    _, blobs = cv2.connectedComponents(on_table.astype(np.uint8), connectivity=8)
    same = [np.array([k.x, k.y]) for k in others if k.color == colour]
    return replace(with_height(colour, centre, blobs, region, view, profile, same), looked_again=True)


def _floor(face: Face, region: Region, inset_mm: float) -> np.ndarray:
    """The courtyard's floor on `region`: inside the walls' centre lines by `inset_mm`."""
    mask = np.zeros(region.size[::-1], np.uint8)
    cv2.fillPoly(mask, [np.round(region.to_pixels(face.polygon)).astype(np.int32)], 255)
    size = max(3, int(round(2 * inset_mm * region.px_per_mm)) | 1)
    return cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))


def _standing_out(planes: list[ColourFeatures], reference: ColourFeatures, floor: np.ndarray,
                  colour: str | None = None) -> tuple[str | None, np.ndarray]:
    """The keep colour (the one given, or the commonest) standing out from the floor on every plane,
    and where it does. The floor's look is its median on `reference`: a keep covers well under half of it."""
    floor_value = float(np.median(reference.value[floor]))
    floor_saturation = float(np.median(reference.saturation[floor]))
    floor_hue = float(np.median(reference.hue[floor]))
    solid = floor.copy()
    hues = []
    for feats in planes:
        step = np.abs(np.log2(np.maximum(feats.value, 1e-3) / max(floor_value, 1e-3)))
        hue_shift = np.abs((feats.hue - floor_hue + 90.0) % 180.0 - 90.0)
        distinct = ((step >= MIN_STEP_STOPS) | (feats.saturation - floor_saturation >= MIN_SATURATION_GAIN)
                    | (hue_shift >= MIN_HUE_SHIFT))
        solid &= distinct & (feats.saturation > MIN_KEEP_SATURATION)
        hues.append(feats.hue)
    if colour is None:
        counts = {c: int(np.count_nonzero(solid & in_keep_hue(hues[-1], c))) for c in KEEP_HUES}
        colour = max(counts, key=counts.get)
        if not counts[colour]:
            return None, solid
    for hue in hues:
        solid &= in_keep_hue(hue, colour)
    solid = cv2.morphologyEx(solid.astype(np.uint8), cv2.MORPH_OPEN,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))) > 0
    return colour, solid

