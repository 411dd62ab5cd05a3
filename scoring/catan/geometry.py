"""The fixed Catan board topology: 19 land hexes in axial coordinates, their 54 crossings and 72 edges.

Hexes are pointy-top. A crossing is named by any hex it touches and a corner 0–5 (corner k at
angle 30° + 60°·k, counter-clockwise from east-north-east); an edge by a hex and a side k (from
corner k to corner k+1). Names are canonicalised to integer keys so that the same crossing named
from its two or three hexes is one crossing.
"""

from __future__ import annotations

import math
from functools import cache

Hex = tuple[int, int]
Crossing = tuple[int, int]  # doubled-lattice key
Edge = tuple[Crossing, Crossing]  # sorted pair

LAND: tuple[Hex, ...] = tuple((q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2)
SQRT3 = math.sqrt(3)


def hex_centre(h: Hex) -> tuple[float, float]:
    q, r = h
    return SQRT3 * (q + r / 2), 1.5 * r


def hex_corner(h: Hex, corner: int) -> tuple[float, float]:
    """Board coordinates (hex circumradius 1) of a hex's corner 0–5."""
    x, y = hex_centre(h)
    angle = math.radians(30 + 60 * (corner % 6))
    return x + math.cos(angle), y + math.sin(angle)


def crossing_key(h: Hex, corner: int) -> Crossing:
    cx, cy = hex_corner(h, corner)
    return round(cx * 2 / SQRT3), round(cy * 2)


def crossing_position(c: Crossing) -> tuple[float, float]:
    """Board coordinates of a crossing from its key (the inverse of `crossing_key`)."""
    return c[0] * SQRT3 / 2, c[1] / 2


def edge_key(h: Hex, side: int) -> Edge:
    a, b = crossing_key(h, side), crossing_key(h, side + 1)
    return (a, b) if a <= b else (b, a)


@cache
def crossings() -> frozenset[Crossing]:
    return frozenset(crossing_key(h, k) for h in LAND for k in range(6))


@cache
def edges() -> frozenset[Edge]:
    return frozenset(edge_key(h, k) for h in LAND for k in range(6))


@cache
def hexes_at(crossing: Crossing) -> tuple[Hex, ...]:
    return tuple(h for h in LAND if any(crossing_key(h, k) == crossing for k in range(6)))


@cache
def neighbours(crossing: Crossing) -> frozenset[Crossing]:
    return frozenset(b if a == crossing else a for a, b in edges() if crossing in (a, b))
