"""Simple solids for the renderer, in table millimetres with the card's frame (z = -height).

Each mesh is a list of planar convex faces with an albedo colour; curved pieces are
fine polygons. Crenellations are small boxes on top of towers and walls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.synthetic.piece_styles import USUAL_STYLE, PieceStyle


@dataclass
class Mesh:
    faces: list[np.ndarray] = field(default_factory=list)  # each (k, 3) planar convex polygon
    colours: list[tuple[float, float, float]] = field(default_factory=list)
    normals: list[np.ndarray] = field(default_factory=list)  # outward unit normals
    shininess: float = 0.3  # share of specular highlight (plastic ~0.3, paper ~0.05)

    def add(self, face, colour, outward_from) -> None:
        """Add a face; its normal is turned to point away from the point `outward_from`."""
        face = np.asarray(face, dtype=np.float64)
        normal = np.cross(face[1] - face[0], face[2] - face[0])
        normal /= max(np.linalg.norm(normal), 1e-12)
        if np.dot(normal, face.mean(axis=0) - np.asarray(outward_from, dtype=np.float64)) < 0:
            normal = -normal
        self.faces.append(face)
        self.colours.append(tuple(float(c) for c in colour))
        self.normals.append(normal)

    def extend(self, other: Mesh) -> None:
        self.faces += other.faces
        self.colours += other.colours
        self.normals += other.normals

    def vertices(self) -> np.ndarray:
        return np.vstack(self.faces) if self.faces else np.zeros((0, 3))


def prism(outline: np.ndarray, bottom: float, top: float, colour, cap_colour=None) -> Mesh:
    """A vertical prism over a counter-clockwise outline (x, y), from height `bottom` to `top`."""
    mesh = Mesh()
    n = len(outline)
    low = np.column_stack([outline, np.full(n, -bottom)])
    high = np.column_stack([outline, np.full(n, -top)])
    inside = np.append(outline.mean(axis=0), -(bottom + top) / 2)
    for i in range(n):
        j = (i + 1) % n
        mesh.add([low[i], low[j], high[j], high[i]], colour, inside)
    mesh.add(high, cap_colour or colour, inside)
    mesh.add(low[::-1], colour, inside)
    return mesh


def box(centre: tuple[float, float], length: float, width: float, angle: float,
        bottom: float, top: float, colour, cap_colour=None) -> Mesh:
    c, s = math.cos(angle), math.sin(angle)
    half = np.array([[-length, -width], [length, -width], [length, width], [-length, width]]) / 2
    outline = half @ np.array([[c, s], [-s, c]]) + np.asarray(centre)
    return prism(outline, bottom, top, colour, cap_colour)


def circle(centre: tuple[float, float], radius: float, sides: int) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, sides, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)])


def _shade(colour, factor: float):
    return tuple(min(255.0, c * factor) for c in colour)


def tower(centre, profile: PieceProfile, colour, style: PieceStyle = USUAL_STYLE) -> Mesh:
    """Round tower, crenellated: a cylinder with merlons around its rim."""
    r = profile.dimensions.tower_radius
    h = profile.tower_height
    merlon = h * style.tower_merlon_height
    mesh = prism(circle(centre, r, style.tower_sides), 0.0, h - merlon, colour, _shade(colour, style.tower_top_shade))
    depth, width = style.tower_merlon_depth * r, style.tower_merlon_width * r
    for k in range(style.tower_merlons):
        a = k * 2 * math.pi / style.tower_merlons
        mid = (centre[0] + (r - depth / 2) * math.cos(a), centre[1] + (r - depth / 2) * math.sin(a))
        mesh.extend(box(mid, depth, width, a, h - merlon - 0.5, h, colour))
    mesh.shininess = style.grey_gloss
    return mesh


def wall(a, b, profile: PieceProfile, colour, style: PieceStyle = USUAL_STYLE) -> Mesh:
    """A wall between two tower centres; its body spans the gap between tower surfaces."""
    dims = profile.dimensions
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    angle = math.atan2(dy, dx)
    body = max(length - dims.tower_diameter + 2.0, 4.0)  # sinks 1 mm into each tower socket
    centre = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    h = profile.wall_height
    merlon = h * style.wall_merlon_height
    mesh = box(centre, body, dims.wall_thickness, angle, 0.0, h - merlon, colour, _shade(colour, style.wall_top_shade))
    count = max(2, round(body / style.wall_merlon_pitch_mm))
    step = body / count
    ux, uy = math.cos(angle), math.sin(angle)
    for k in range(count):
        offset = -body / 2 + (k + 0.5) * step
        mesh.extend(box((centre[0] + ux * offset, centre[1] + uy * offset), step * style.wall_merlon_fill,
                        dims.wall_thickness, angle, h - merlon - 0.5, h, colour))
    mesh.shininess = style.grey_gloss
    return mesh


def keep(centre, profile: PieceProfile, colour, angle: float, double: bool, style: PieceStyle = USUAL_STYLE) -> Mesh:
    """A square keep with a pyramid roof; a double keep is two stacked."""
    side = profile.dimensions.keep_side
    body = profile.keep_height - profile.keep_roof_height
    mesh = Mesh(shininess=style.keep_gloss)
    floors = 2 if double else 1
    for level in range(floors):
        base = level * profile.keep_height
        mesh.extend(box(centre, side, side, angle, base, base + body, colour))
        top = base + body
        corners = box(centre, side * style.keep_eaves, side * style.keep_eaves, angle, top, top, colour).faces[-2]
        apex = np.array([centre[0], centre[1], -(top + profile.keep_roof_height)])
        roof = _shade(colour, style.keep_roof_shade)
        below = np.array([centre[0], centre[1], -top + 1.0])
        for i in range(4):
            mesh.add([corners[i], corners[(i + 1) % 4], apex], roof, below)
    return mesh


def die(centre, size: float, angle: float, colour) -> Mesh:
    return box(centre, size, size, angle, 0.0, size, colour)


def cup(centre, radius: float, height: float, colour) -> Mesh:
    return prism(circle(centre, radius, 28), 0.0, height, colour, _shade(colour, 0.5))


def flat_card(centre, length: float, width: float, angle: float, colour) -> Mesh:
    return box(centre, length, width, angle, 0.0, 0.4, colour)
