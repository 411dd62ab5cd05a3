"""Walls hidden behind keeps offered on a reading as it stands, and the notes that name a wall read where the
rules need it (shared by the steps before and after the look is kept)."""

from __future__ import annotations

import numpy as np

from tablesight.calibration.pieces import PieceDimensions
from tablesight.vision.castellan.keeps import KeepPlanes
from tablesight.vision.castellan.reading import PhotoReading
from tablesight.vision.castellan.walls import WallReading, castle_axis, walls_behind_keeps
from tablesight.vision.table_view import Region


def walls_hidden(reading: PhotoReading, wall_solid: np.ndarray, region: Region, planes: KeepPlanes,
                 dims: PieceDimensions) -> list[WallReading]:
    """The walls `walls_behind_keeps` offers on the reading as it stands."""
    axis = castle_axis(reading.towers, dims, wall_solid, region)
    keeps = np.array([(k.x, k.y) for k in reading.keeps], float).reshape(-1, 2)
    return walls_behind_keeps(reading.towers, reading.walls, region, dims, axis, planes.cover.walls, keeps)


def hidden_wall_note(wall: WallReading, reading: PhotoReading, why: str) -> str:
    """The note naming a wall inferred behind a keep, and why."""
    return wall_note(wall, reading, "hidden behind a keep, was inferred", why)


def wall_note(wall: WallReading, reading: PhotoReading, how: str, why: str) -> str:
    """The note naming a wall read where the rules need it between two towers, how it was read and why."""
    a, b = reading.towers[wall.start], reading.towers[wall.end]
    return f"a {wall.kind} wall between ({a.x:.0f}, {a.y:.0f}) and ({b.x:.0f}, {b.y:.0f}) mm, {how}: {why} — check it"
