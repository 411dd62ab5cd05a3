"""Walls hidden behind keeps offered on a reading as it stands, and the notes that name a wall read where the
rules need it (shared by the steps before and after the look is kept)."""

from __future__ import annotations

import numpy as np

from tablesight.calibration.pieces import PieceDimensions
from tablesight.vision.castellan.keeps import KeepPlanes
from tablesight.vision.castellan.reading import PhotoReading, kept_if_fewer_broken
from tablesight.vision.castellan.walls import ALONG_COSINE, WallReading, castle_axis, walls_behind_keeps
from tablesight.vision.table_view import Region


def walls_hidden(reading: PhotoReading, wall_solid: np.ndarray, region: Region, planes: KeepPlanes,
                 dims: PieceDimensions) -> list[WallReading]:
    """The walls `walls_behind_keeps` offers on the reading as it stands."""
    axis = castle_axis(reading.towers, dims, wall_solid, region)
    keeps = np.array([(k.x, k.y) for k in reading.keeps], float).reshape(-1, 2)
    return walls_behind_keeps(reading.towers, reading.walls, region, dims, axis, planes.cover.walls, keeps,
                              wall_solid)


def without_open_walls_within(reading: PhotoReading, wall: WallReading) -> list[WallReading]:
    """The reading's walls less the open walls leaving either end of `wall` along it whose missing tower stands
    short of its other end: the part of it seen before a keep hid the rest (fresh 15000-017, 37°: a long wall's
    middle behind a leaning double keep, read as a short open wall out of one end). Both cannot hold one socket."""
    ends = {wall.start: np.array(reading.towers[wall.start].position, float),
            wall.end: np.array(reading.towers[wall.end].position, float)}
    span = float(np.linalg.norm(ends[wall.start] - ends[wall.end]))

    def within(other: WallReading) -> bool:
        if other.end is not None or other.start not in ends:
            return False
        origin = ends[other.start]
        target = ends[wall.end if other.start == wall.start else wall.start]
        reach = np.asarray(other.open_point, float) - origin
        along = float(reach @ (target - origin)) / span
        return ALONG_COSINE * float(np.linalg.norm(reach)) < along < span

    return [other for other in reading.walls if not within(other)]


def kept_in_place_of_open_walls(reading: PhotoReading, wall: WallReading, dims: PieceDimensions, broken: int,
                                note: str) -> int:
    """`wall` added in place of the open walls it takes in (`without_open_walls_within`), and kept, with `note`, only
    if the board then breaks fewer rules than `broken` (else the walls are as they were). Returns how many the board
    breaks as it is left."""
    before = list(reading.walls)

    def undo() -> None:
        reading.walls[:] = before

    reading.walls[:] = [*without_open_walls_within(reading, wall), wall]
    return kept_if_fewer_broken(reading, dims, broken, undo, note)


def hidden_wall_note(wall: WallReading, reading: PhotoReading, why: str) -> str:
    """The note naming a wall inferred behind a keep, and why."""
    return wall_note(wall, reading, "hidden behind a keep, was inferred", why)


def wall_note(wall: WallReading, reading: PhotoReading, how: str, why: str) -> str:
    """The note naming a wall read where the rules need it between two towers, how it was read and why."""
    a, b = reading.towers[wall.start], reading.towers[wall.end]
    return f"a {wall.kind} wall between ({a.x:.0f}, {a.y:.0f}) and ({b.x:.0f}, {b.y:.0f}) mm, {how}: {why} — check it"
