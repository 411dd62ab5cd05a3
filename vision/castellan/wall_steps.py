"""Walls told from the table by the step in colour across them, where the colour classes took them for table.

Grey plastic on a table of nearly its tint (a pale pink cloth, a lavender one) is told from the table's shade only
by how dark it is: a wall's top lit darker than the table, of the table's hue, looks to the colour classes like the
table in a shadow, and walls of one heading (their sides lit alike) drop out of the grey mask whole. Their towers
are read (a tower's top shows grey rims), so a castle's rows come out open where walls stand (fresh 15700-009: six
walls lost so, two courtyards with them: green 19 for 23, yellow 9 for 17). A shadow, though, lies beside what
casts it: a band of a wall's width standing out from the table on both sides, all the way between two towers a span
apart along the castle's axes, is a wall. Its top is sampled on the plane of the wall's top, the table beside it on
the table's own plane: on the camera's side just past its base, on the far side past where its body hides the table.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading, span_free, unjoined_spans
from tablesight.vision.table_view import TableView

TOP_BELOW_MM = 2.0  # the top is sampled this far below the wall's height (its crenels' floor)
BAND_MM = (-3.0, 0.0, 3.0)  # across the wall's top (10 mm thick), from its middle line
NEAR_TABLE_MM = (12.0, 15.0, 18.0)  # the table on the camera's side, from the wall's middle line
FAR_TABLE_MM = (4.0, 7.0, 10.0)  # the table on the far side, past where the wall's body hides it
END_CLEARANCE_MM = 4.0  # the band starts this far out from each tower's surface
STEP_MM = 2.0  # along the wall
# A wall's top steps from the table on both sides by at least MIN_STEP (CIELAB ΔE, card units) along at least
# MIN_STEP_SHARE of its body: on fresh 15700-009 the walls measured ΔE 13-22 (median over their length), the table
# between towers with no wall 0-7.5. And its top is one plastic all along: its colour strays from its median by at
# most MAX_TOP_SPREAD of its median step (median ΔE). Over the truth's tower pairs a span apart in fresh 15700 and
# samples 000-039 (822 walls, 76 spans with none), 701 walls and 5 empty spans stepped so along 0.8 of their body;
# the walls' tops strayed 0.09 of their step (median; 0.34 at the 95th percentile), the 5 empty spans' 0.59-0.98
# (steep photos: their line crossed a wall, or ran along the leaning bodies of walls and keeps).
MIN_STEP = 8.0
MIN_STEP_SHARE = 0.8
MAX_TOP_SPREAD = 0.5


def wall_step_share(view: TableView, a: np.ndarray, b: np.ndarray, profile: PieceProfile) -> float:
    """The share of the body between towers at `a` and `b` (table mm) along which a wall's top would stand out from
    the table on both sides by MIN_STEP; 0 where the band leaves the photo or is not of one colour all along
    (MAX_TOP_SPREAD)."""
    dims, height = profile.dimensions, profile.wall_height
    a, b = np.asarray(a, float), np.asarray(b, float)
    length = float(np.linalg.norm(b - a))
    along = (b - a) / length
    across = np.array([-along[1], along[0]])
    reach = dims.tower_radius + END_CLEARANCE_MM
    steps = np.arange(reach, length - reach + 1e-9, STEP_MM)
    if not len(steps):
        return 0.0
    middles = a + np.outer(steps, along)
    camera = view.pose.centre
    # How far the line of sight leans across the wall per mm of height, and to which side the body hides the table.
    lean = ((middles - camera[:2]) @ across) / abs(float(camera[2]))
    away = np.where(lean >= 0, 1.0, -1.0)[:, None] * across
    top = _lab_at(view, [middles + s * across for s in BAND_MM], height - TOP_BELOW_MM)
    near = _lab_at(view, [middles - s * away for s in NEAR_TABLE_MM], 0.0)
    hidden_to = dims.wall_thickness / 2 + height * np.abs(lean)[:, None]
    far = _lab_at(view, [middles + (hidden_to + s) * away for s in FAR_TABLE_MM], 0.0)
    if top is None or near is None or far is None:
        return 0.0
    step = np.minimum(np.linalg.norm(top - near, axis=1), np.linalg.norm(top - far, axis=1))
    spread = float(np.median(np.linalg.norm(top - np.median(top, axis=0), axis=1)))
    if spread > MAX_TOP_SPREAD * float(np.median(step)):
        return 0.0  # not one plastic all along: the line runs across other pieces
    return float(np.mean(step >= MIN_STEP))


def walls_seen_by_their_step(view: TableView, towers: list[TowerReading], walls: list[WallReading],
                             profile: PieceProfile, axis: float, from_tower: int = 0) -> Iterator[WallReading]:
    """Walls between two towers a span apart along the castle's axes, no wall read between them nor a closed one
    leaving either towards the other (an open one may be the part of it seen as grey), whose top stands out from
    the table on both sides along MIN_STEP_SHARE of their body (`wall_step_share`); each flagged `by_step` (a
    doubt: only the rules can tell it from a shadow's coincidence). Only walls leaving a tower from index
    `from_tower` on."""
    dims = profile.dimensions
    positions = np.array([t.position for t in towers], float).reshape(-1, 2)
    closed = [w for w in walls if w.end is not None]  # an open wall along the span may be the part of it seen
    for i, j, kind, origin, target in unjoined_spans(towers, walls, dims, axis):
        if max(i, j) < from_tower or not span_free(i, j, kind, positions, towers, closed, dims):
            continue
        share = wall_step_share(view, origin, target, profile)
        if share >= MIN_STEP_SHARE:
            yield WallReading(kind, i, j, None, share, by_step=True)


def _lab_at(view: TableView, rows: list[np.ndarray], height: float) -> np.ndarray | None:
    """The card-normalised CIELAB colour (n × 3) of the photo at table points `height` mm up, averaged over `rows`
    (each n × 2 mm: the same places at one offset); None if any falls outside the photo."""
    points = np.concatenate(rows)
    pixels = view.pose.project(points, height).astype(np.float32)
    h, w = view.photo.shape[:2]
    if not (np.all(pixels >= 0) and np.all(pixels[:, 0] <= w - 1) and np.all(pixels[:, 1] <= h - 1)):
        return None
    sampled = cv2.remap(view.photo, pixels[:, :1], pixels[:, 1:], cv2.INTER_LINEAR)
    colours = np.clip(view.normalised(sampled), 0.0, 1.0)
    lab = cv2.cvtColor(colours.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(len(rows), -1, 3)
    return lab.mean(axis=0)
