"""The calibration photo's layout (`tablesight calibrate pieces`): one tower, one short wall, one long wall
and a keep of each colour given, apart from each other, for any box of pieces."""

from __future__ import annotations

from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.pieces import PieceDimensions

GAP_MM = 60.0  # between the pieces laid out
# Boxes other than the nominal one, about a sixth bigger and smaller in every size (the long wall still two
# short ones and a tower), for the calibration's tests and benchmark.
BIGGER_BOX = PieceProfile(PieceDimensions(tower_diameter=28, short_wall_length=46, long_wall_length=120,
                                          wall_thickness=12, keep_side=25),
                          tower_height=41, wall_height=30, keep_height=36, keep_roof_height=11)
SMALLER_BOX = PieceProfile(PieceDimensions(tower_diameter=20, short_wall_length=34, long_wall_length=88,
                                           wall_thickness=8.5, keep_side=19),
                           tower_height=31, wall_height=22, keep_height=27, keep_roof_height=8.5)


def calibration_layout(profile: PieceProfile, colours: tuple[str, ...] = ("red", "blue")) -> Board:
    """The pieces side by side: the tower, then the short and the long wall standing loose (no tower at
    either end), then the keeps in a row; `random_scene` turns and places it beside the card."""
    dims = profile.dimensions
    short, long_ = dims.centre_spacing("short"), dims.centre_spacing("long")
    x_short = dims.tower_diameter / 2 + GAP_MM
    x_long = x_short + GAP_MM
    walls = (Wall("w1", "short", (None, None), (x_short, -short / 2), (x_short, short / 2)),
             Wall("w2", "long", (None, None), (x_long, -long_ / 2), (x_long, long_ / 2)))
    keeps = tuple(Keep(colour, -GAP_MM, (i - (len(colours) - 1) / 2) * GAP_MM) for i, colour in enumerate(colours))
    return Board((Tower("t1", 0.0, 0.0),), walls, keeps)
