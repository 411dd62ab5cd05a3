"""A keep's edge blended with the table: of two keeps read in one place, which is the blend.

Blur, a phone's chroma smoothing and JPEG mix a keep's colour with the table's at its edge, into the colours
between the two hues: a yellow keep on a turquoise check leaves a green rim, wide enough on a small keep to carve
a bigger green blob than the yellow top it surrounds (fresh 10800-025: a yellow keep read green). Two keeps of
different colours closer than a keep's side are one keep read twice (`keeps.without_overlaps`); the colour whose
hue lies between the other's and the table's around them is that edge.
"""

from __future__ import annotations

import math

import numpy as np

from tablesight.vision.segmentation import KEEP_HUES, MIN_KEEP_SATURATION, colour_features
from tablesight.vision.table_view import TableView

RING_SIDES = (1.0, 1.5, 2.0)  # the table is looked at this many keep sides from the keeps' centre
RING_POINTS = 48
MIN_SATURATED_SHARE = 0.25  # of the ring: a table less often saturated lends a keep's edge no other colour
HUE_BIN = 6  # (OpenCV hue, 0–180) the table's hue is the ring's commonest in bins this wide


def table_hue_around(view: TableView, centre: tuple[float, float], side: float) -> float | None:
    """The table's commonest hue (OpenCV 0–180) among the saturated pixels of rings around a keep's centre
    (table mm; keeps `side` mm wide) on the table plane; None where too little of them is saturated (a grey,
    white or wooden-pale table: a keep's edge blends into paler keep colour there, not into another colour)."""
    angles = np.linspace(0.0, 2 * math.pi, RING_POINTS, endpoint=False)
    points = np.concatenate([np.column_stack([centre[0] + r * side * np.cos(angles),
                                              centre[1] + r * side * np.sin(angles)]) for r in RING_SIDES])
    cols, rows = view.plane_pixels(points, 0.0, view.image.shape)
    if len(cols) < len(points) // 2:
        return None
    features = colour_features(view.normalised(view.image[rows, cols].reshape(1, -1, 3)))
    saturated = features.saturation.ravel() > MIN_KEEP_SATURATION
    if saturated.sum() < MIN_SATURATED_SHARE * len(points):
        return None
    counts = np.bincount((features.hue.ravel()[saturated] // HUE_BIN).astype(int), minlength=180 // HUE_BIN + 1)
    return (int(np.argmax(counts)) + 0.5) * HUE_BIN


def is_blend(colour: str, other: str, table_hue: float) -> bool:
    """Whether keep `colour` read in the place of a keep of `other` is that keep's edge blended with a table of
    `table_hue`: its hue lies on the shorter way round from the other's hue to the table's."""
    here, there = _centre(colour), _centre(other)
    to_table = _signed(table_hue - there)
    to_here = _signed(here - there)
    return to_table * to_here > 0 and abs(to_here) <= abs(to_table)


def _centre(colour: str) -> float:
    lo, hi = KEEP_HUES[colour]
    return ((lo + hi) / 2) % 180


def _signed(difference: float) -> float:
    """A hue difference (OpenCV units) the shorter way round the circle: -90 to 90."""
    return (difference + 90) % 180 - 90
