"""A keep's edge blended with the table: of two keeps read in one place, which is the blend; and a keep standing on
table of its own colour.

Blur, a phone's chroma smoothing and JPEG mix a keep's colour with the table's at its edge, into the colours
between the two hues: a yellow keep on a turquoise check leaves a green rim, wide enough on a small keep to carve
a bigger green blob than the yellow top it surrounds (fresh 10800-025: a yellow keep read green). Two keeps of
different colours closer than a keep's side are one keep read twice (`keeps.without_overlaps`); the colour whose
hue lies between the other's and the table's around them is that edge.

A keep on a patch of table of its own colour (a green keep on a patterned table's green diamond) runs into it: its
colour joins the patch's shaded rims, and its lean and shadow measure a double's where it is single (fresh 15200-028,
"read cleanly" and wrong). Such a keep is weighed as a keep of a colour the table has (`double_keeps`), though the
table as a whole holds too little of it to count.
"""

from __future__ import annotations

import math

import numpy as np

from tablesight.vision.segmentation import (
    KEEP_HUES,
    MIN_KEEP_SATURATION,
    ColourFeatures,
    colour_features,
    in_keep_hue,
)
from tablesight.vision.table_view import TableView

RING_SIDES = (1.0, 1.5, 2.0)  # the table is looked at this many keep sides from the keeps' centre
RING_POINTS = 48
MIN_SATURATED_SHARE = 0.25  # of the ring: a table less often saturated lends a keep's edge no other colour
HUE_BIN = 6  # (OpenCV hue, 0–180) the table's hue is the ring's commonest in bins this wide
# A keep's own colour is looked for on rings this many keep sides from its centre, clear of the sector LEAN_SECTOR_DEG
# either side of its lean (where its own top may show), and found there on OWN_COLOUR_SHARE of the points or more.
# Fresh 15200-028: the green keep on a green diamond 0.36, the photo's other green keeps 0–0.12.
OWN_COLOUR_RING_SIDES = (1.25, 1.75)
LEAN_SECTOR_DEG = 50.0
OWN_COLOUR_SHARE = 0.25


def table_hue_around(view: TableView, centre: tuple[float, float], side: float) -> float | None:
    """The table's commonest hue (OpenCV 0–180) among the saturated pixels of rings around a keep's centre
    (table mm; keeps `side` mm wide) on the table plane; None where too little of them is saturated (a grey,
    white or wooden-pale table: a keep's edge blends into paler keep colour there, not into another colour)."""
    rings = _ring_colours(view, centre, side, RING_SIDES, np.linspace(0.0, 2 * math.pi, RING_POINTS, endpoint=False))
    if rings is None:
        return None
    features, count = rings
    saturated = features.saturation.ravel() > MIN_KEEP_SATURATION
    if saturated.sum() < MIN_SATURATED_SHARE * count:
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


def on_its_own_colour(view: TableView, colour: str, centre: tuple[float, float], side: float,
                      double_height: float) -> bool:
    """Whether a keep of `colour` at `centre` (table mm; `side` mm wide, a double `double_height` mm high) stands
    on table of its own colour: OWN_COLOUR_SHARE of the rings around it, clear of its lean, saturated and of its
    colour's hue."""
    at = np.asarray(centre, np.float64).reshape(1, 2)
    lean = (view.pose.table_point(view.pose.project(at, double_height), 0.0) - at).reshape(2)
    angles = np.linspace(0.0, 2 * math.pi, RING_POINTS, endpoint=False)
    if np.hypot(*lean) > 1.0:  # straight below the camera a keep leans nowhere: every way is clear
        turn = np.abs(np.angle(np.exp(1j * (angles - math.atan2(lean[1], lean[0])))))
        angles = angles[turn > math.radians(LEAN_SECTOR_DEG)]
    rings = _ring_colours(view, centre, side, OWN_COLOUR_RING_SIDES, angles)
    if rings is None:
        return False
    features = rings[0]
    own = (features.saturation.ravel() > MIN_KEEP_SATURATION) & in_keep_hue(features.hue.ravel(), colour)
    return bool(own.mean() >= OWN_COLOUR_SHARE)


def _ring_colours(view: TableView, centre: tuple[float, float], side: float, ring_sides: tuple[float, ...],
                  angles: np.ndarray) -> tuple[ColourFeatures, int] | None:
    """The colours (card-normalised) of the table plane on rings `ring_sides` keep sides (`side` mm) from a keep's
    centre (table mm), at `angles`, and how many points the rings hold; None where under half of them fall in the
    photo."""
    points = np.concatenate([np.column_stack([centre[0] + r * side * np.cos(angles),
                                              centre[1] + r * side * np.sin(angles)]) for r in ring_sides])
    cols, rows = view.plane_pixels(points, 0.0, view.image.shape)
    if len(cols) < len(points) // 2:
        return None
    return colour_features(view.normalised(view.image[rows, cols].reshape(1, -1, 3))), len(points)
