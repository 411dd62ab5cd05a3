"""Measuring a user's own piece set from one photo (`tablesight calibrate pieces`).

The photo shows, apart from each other beside the card, one tower, one short wall,
one long wall and one keep of each colour in play. Their footprints are carved out
of the photo like any castle and measured; the colours are read from the card-
normalised pixels. Heights cannot be measured from one photo and keep their values.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tablesight.calibration.card_detection import find_card
from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile
from tablesight.vision.castellan.carving import card_mask, carve, castle_region, classify_pixels
from tablesight.vision.segmentation import TableModel
from tablesight.vision.table_view import TableView


class PieceMeasureError(ValueError):
    """The photo does not show the pieces needed; the message says what to do."""


def measure_pieces(image: np.ndarray, start: PieceProfile = NOMINAL_PROFILE) -> PieceProfile:
    card = find_card(image)
    if card is None:
        raise PieceMeasureError("the reference card is not in the photo; lay it beside the pieces")
    view = TableView(image, card)
    classes = classify_pixels(view, TableModel.learn(view))
    region = castle_region(view, classes, start, 3.0, with_keeps=True)
    if region is None:
        raise PieceMeasureError("no grey pieces were found beside the card")
    heights = [start.wall_height * f for f in (0.25, 0.5, 0.8)]
    solid = carve(view, classes.grey, heights, region) & ~card_mask(region)
    shapes = _shapes(solid, region.px_per_mm, min_side=start.dimensions.wall_thickness * 0.5)
    if len(shapes) != 3:
        raise PieceMeasureError(
            f"found {len(shapes)} grey piece(s); lay exactly one tower, one short wall and one long wall "
            "apart from each other beside the card")
    tower, short, long_ = sorted(shapes, key=lambda s: s[0])
    if tower[0] > 1.6 * tower[1]:
        raise PieceMeasureError("none of the grey pieces is round like a tower")
    dims = replace(start.dimensions, tower_diameter=round((tower[0] + tower[1]) / 2, 1),
                   short_wall_length=round(short[0], 1), long_wall_length=round(long_[0], 1),
                   wall_thickness=round((short[1] + long_[1]) / 2, 1))
    grey = _median_colour(view, classes.grey, region, start.wall_height * 0.5)
    keeps = {}
    for colour, mask in classes.keeps.items():
        body = start.keep_height - start.keep_roof_height
        keep_solid = carve(view, mask, [body * 0.3, body * 0.6, body * 0.9], region)
        found = _shapes(keep_solid, region.px_per_mm, min_side=start.dimensions.keep_side * 0.4)
        if found:
            keeps[colour] = _median_colour(view, mask, region, start.keep_height * 0.4)
            dims = replace(dims, keep_side=round(float(np.mean(found[0][:2])), 1))
    if not keeps:
        raise PieceMeasureError("no keep was found; lay one keep of each colour beside the card")
    return replace(start, dimensions=dims, grey_bgr=grey, keep_bgr=keeps)


def _shapes(solid: np.ndarray, px_per_mm: float, min_side: float) -> list[tuple[float, float]]:
    """(long side, short side) in mm of each solid blob's smallest enclosing rectangle."""
    contours, _ = cv2.findContours(solid.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    shapes = []
    for contour in contours:
        (_, _), (w, h), _ = cv2.minAreaRect(contour)
        long_side, short_side = max(w, h) / px_per_mm, min(w, h) / px_per_mm
        if short_side >= min_side:
            shapes.append((float(long_side), float(short_side)))
    return shapes


def _median_colour(view: TableView, mask: np.ndarray, region, height: float) -> tuple[float, float, float]:
    """Median BGR (as the photo shows it) of the masked pixels."""
    selected = view.image[mask > 0]
    if not len(selected):
        return (128.0, 128.0, 128.0)
    return tuple(float(c) for c in np.median(selected, axis=0))
