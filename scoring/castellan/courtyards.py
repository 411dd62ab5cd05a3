"""Courtyards: the bounded faces of the planar layout of towers and closed walls.

Only walls sitting in towers at both ends enclose (an open end is a tower-sized
gap). Faces are found by walking half-edges around each tower in angular order,
so spurs poking into a courtyard are walked on both sides and their towers count.
Cost is O(n log n) in the number of walls (the angular sort dominates).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tablesight.scoring.castellan.board import Board, Point
from tablesight.scoring.castellan.geometry import interior_point, points_in_polygon, signed_area

# Faces smaller than this (mm²) are numerical slivers, not courtyards.
MIN_FACE_AREA = 1.0


@dataclass(frozen=True)
class Face:
    """A bounded face: its boundary walk (tower ids and positions) and area."""

    tower_ids: tuple[str, ...]
    polygon: np.ndarray  # (n, 2) boundary walk, counter-clockwise
    area: float

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        lo, hi = self.polygon.min(axis=0), self.polygon.max(axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])

    def contains(self, points: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self.bounds
        inside_box = ((points[:, 0] > x0) & (points[:, 0] < x1)
                      & (points[:, 1] > y0) & (points[:, 1] < y1))
        result = np.zeros(len(points), dtype=bool)
        if inside_box.any():
            result[inside_box] = points_in_polygon(points[inside_box], self.polygon)
        return result

    def label_point(self) -> Point:
        return interior_point(self.polygon)


def _adjacency(board: Board) -> dict[str, list[str]]:
    """Each tower's neighbours through closed walls, sorted counter-clockwise."""
    towers = board.tower_map()
    neighbours: dict[str, set[str]] = {t.id: set() for t in board.towers}
    for wall in board.walls:
        a, b = wall.ends
        if a is not None and b is not None:
            neighbours[a].add(b)
            neighbours[b].add(a)
    ordered = {}
    for tid, around in neighbours.items():
        x, y = towers[tid].position
        # Ties (two walls leaving in one direction, misread) are broken by distance and id, not by the set's order.
        ordered[tid] = sorted(around, key=lambda n: (math.atan2(towers[n].y - y, towers[n].x - x),
                                                     math.dist(towers[n].position, (x, y)), n))
    return ordered


def _walk_faces(board: Board, adjacency: dict[str, list[str]]) -> list[list[str]]:
    """Every face of the embedding as a cyclic list of tower ids."""
    position = {tid: {n: i for i, n in enumerate(ns)} for tid, ns in adjacency.items()}
    visited: set[tuple[str, str]] = set()
    faces = []
    for u, ns in adjacency.items():
        for v in ns:
            if (u, v) in visited:
                continue
            walk = []
            a, b = u, v
            while (a, b) not in visited:
                visited.add((a, b))
                walk.append(a)
                around = adjacency[b]
                # Turn to the neighbour just clockwise of where we came from: the face
                # stays on our left, so bounded faces come out counter-clockwise.
                a, b = b, around[(position[b][a] - 1) % len(around)]
            faces.append(walk)
    return faces


def find_faces(board: Board) -> list[Face]:
    """The bounded faces (courtyard candidates) of the board, each once."""
    towers = board.tower_map()
    faces = []
    for walk in _walk_faces(board, _adjacency(board)):
        polygon = np.array([towers[t].position for t in walk], dtype=float)
        area = signed_area(polygon)
        if area > MIN_FACE_AREA:
            faces.append(Face(tuple(walk), polygon, area))
    return faces


def components(board: Board) -> list[set[str]]:
    """Groups of tower ids linked by closed walls (towers without walls stand alone)."""
    parent = {t.id: t.id for t in board.towers}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for wall in board.walls:
        if wall.is_closed:
            parent[root(wall.ends[0])] = root(wall.ends[1])
    groups: dict[str, set[str]] = {}
    for tid in parent:
        groups.setdefault(root(tid), set()).add(tid)
    return list(groups.values())


def smallest_face_containing(faces: list[Face], points: np.ndarray) -> list[int | None]:
    """For each point, the index of the smallest face around it (None outside all)."""
    best: list[int | None] = [None] * len(points)
    best_area = [math.inf] * len(points)
    if len(points) == 0:
        return best
    for index, face in enumerate(faces):
        for i in np.flatnonzero(face.contains(points)):
            if face.area < best_area[i]:
                best[i], best_area[i] = index, face.area
    return best


def towers_touching(board: Board, faces: list[Face]) -> list[set[str]]:
    """Distinct towers touching each face: its boundary walk, plus the outer towers of any
    separate piece group standing inside it (such a group also raises C4)."""
    touching = [set(face.tower_ids) for face in faces]
    groups = components(board)
    if len(groups) < 2:
        return touching
    towers = board.tower_map()
    for group in groups:
        # Where a misread group crosses a face's walls, some of its towers lie in and some out: it stands in
        # the face if most do (a tower picked from the set would make the score hang on the set's order).
        members = np.array([towers[t].position for t in sorted(group)])
        for index, face in enumerate(faces):
            if group.isdisjoint(face.tower_ids) and 2 * np.count_nonzero(face.contains(members)) > len(members):
                touching[index] |= group
    return touching
