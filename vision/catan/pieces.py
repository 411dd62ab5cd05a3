"""Settlements, cities and roads: read where the rules allow them, by what they are.

A road is a bar of one player colour lying along an edge: its colour covers most of the edge's
length and sits at a steady distance across it (a player's road is often laid a little beside the
printed edge). A building is a blob of one player colour on a crossing; a city covers clearly more
of the crossing than a settlement. Pieces are smooth plastic or wood; the terrain pictures beside
the edges are textured, which keeps the hills' brick-orange art from reading as an orange road.

Works on the board view (`board_view`): square-on, hex spacing WORKING_SPACING px, colours brought to
the labelled photos' light by the tokens' cream — so the colour thresholds and the few pixel kernels
hold for any photo; other sizes are in hex centre spacings.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.scoring.catan.geometry import (
    LAND,
    Crossing,
    Edge,
    crossing_key,
    crossing_position,
    crossings,
    edges,
)

ROAD_BAND = 0.09  # a road is looked for this far either side of its edge
ROAD_SPAN = (0.2, 0.8)  # the part of the edge away from the buildings at its ends
ROAD_COVERAGE = 0.6  # share of the edge's length the road's colour must cover
ROAD_MIN_SHARE = 0.1  # and share of the band
ROAD_STEADY = 0.03  # spread of its distance across the edge (a bar, not scattered pixels)
BUILDING_RADIUS = 0.08  # a building is looked for in this disc around its crossing
BUILDING_SHARE = 0.4  # share of the disc its colour must cover
CORE_RADIUS = 0.045  # its colour (red or orange) is judged at its core
CITY_RADIUS = 0.2  # a building's body is measured within this distance of its crossing
BODY_WIDTH = 0.08  # wider than a road, narrower than a settlement
CITY_OVER_SETTLEMENT = 3.0  # a city's body is this much bigger than a typical settlement's. Settlements
# alone spread up to 2.8× their median (lean, perspective, roads joined): no labelled photo shows a city yet.
RED_HUE_MAX = 10  # warm pieces: median hue below this (wrapped around 180) is red, above is orange


@dataclass(frozen=True)
class PieceMasks:
    """Per-pixel player colours (uint8 0/1) and the hue, for one photo."""

    colours: dict[str, np.ndarray]
    warm_loose: np.ndarray  # red or orange, shaded faces included (for buildings)
    hue: np.ndarray


def piece_masks(image: np.ndarray) -> PieceMasks:
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    mean = cv2.blur(v, (5, 5))
    smooth = np.sqrt(np.maximum(cv2.blur(v * v, (5, 5)) - mean * mean, 0)) < 16
    colours = {
        "red": ((h < 7) | (h > 168)) & (s > 130) & (v > 70),
        "orange": (h >= 7) & (h <= 22) & (s > 165) & (v > 170) & smooth,
        "blue": (h >= 100) & (h <= 125) & (s > 140) & (v > 60) & (v < 200),
        "white": (s < 32) & (v > 200),
        "green": (h >= 45) & (h <= 85) & (s > 140) & (v > 60) & smooth,
        "brown": (h >= 5) & (h <= 20) & (s > 120) & (v > 40) & (v < 120) & smooth,
    }
    kernel = np.ones((3, 3), np.uint8)
    opened = {k: cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_OPEN, kernel) for k, m in colours.items()}
    warm_loose = (((h < 22) | (h > 168)) & (s > 130) & (v > 70)).astype(np.uint8)
    return PieceMasks(opened, warm_loose, h)


def crossing_point(c: Crossing, homography: np.ndarray) -> np.ndarray:
    board = np.array([[crossing_position(c)]], np.float64)
    return cv2.perspectiveTransform(board, homography)[0, 0]


def find_roads(masks: PieceMasks, homography: np.ndarray, spacing: float) -> dict[Edge, str]:
    found = {}
    for a, b in sorted(edges()):
        colour = _road_colour(masks, crossing_point(a, homography), crossing_point(b, homography), spacing)
        if colour is not None:
            found[(a, b)] = colour
    return found


def _road_colour(masks: PieceMasks, pa: np.ndarray, pb: np.ndarray, spacing: float) -> str | None:
    along = (pb - pa) / max(float(np.linalg.norm(pb - pa)), 1e-9)
    across = np.array([-along[1], along[0]])
    ts = np.linspace(*ROAD_SPAN, 16)
    offsets = np.linspace(-ROAD_BAND, ROAD_BAND, 10) * spacing
    points = np.array([pa + t * (pb - pa) + w * across for t in ts for w in offsets])
    xs, ys = _inside(points, masks.hue.shape)
    samples = {k: m[ys, xs].reshape(len(ts), len(offsets)) for k, m in masks.colours.items()}
    samples["warm"] = np.maximum(samples.pop("red"), samples.pop("orange"))
    shares = {k: float(s.mean()) for k, s in samples.items() if _is_bar(s, offsets, spacing)}
    if not shares:
        return None
    colour = max(shares, key=shares.get)
    if colour == "warm":
        colour = _warm_colour(masks.hue[ys, xs][samples["warm"].ravel() > 0])
    return colour


def _is_bar(samples: np.ndarray, offsets: np.ndarray, spacing: float) -> bool:
    covered = samples.sum(axis=1) >= 2
    if covered.mean() < ROAD_COVERAGE or samples.mean() < ROAD_MIN_SHARE:
        return False
    rows = samples[covered]
    across = (rows * offsets).sum(axis=1) / rows.sum(axis=1)
    return float(np.std(across)) / spacing <= ROAD_STEADY


def find_buildings(masks: PieceMasks, homography: np.ndarray, spacing: float) -> dict[Crossing, tuple[str, str]]:
    """Crossing → (colour, "settlement" or "city")."""
    found, cover = {}, {}
    for c in sorted(crossings()):
        point = crossing_point(c, homography)
        xs, ys = _inside(_disc(point, BUILDING_RADIUS * spacing), masks.hue.shape)
        shares = {"warm": float(masks.warm_loose[ys, xs].mean())}
        shares |= {k: float(m[ys, xs].mean()) for k, m in masks.colours.items() if k not in ("red", "orange")}
        colour = max(shares, key=shares.get)
        if shares[colour] < BUILDING_SHARE:
            continue
        mask = masks.warm_loose if colour == "warm" else masks.colours[colour]
        if colour == "warm":  # decided at the building's core: a road of the other colour may touch it
            cx, cy = _inside(_disc(point, CORE_RADIUS * spacing), masks.hue.shape)
            colour = _warm_colour(masks.hue[cy, cx][masks.warm_loose[cy, cx] > 0])
        found[c], cover[c] = colour, _body_area(mask, point, spacing)
    typical = float(np.median(list(cover.values()))) if cover else 0.0
    return {c: (colour, "city" if cover[c] > CITY_OVER_SETTLEMENT * typical else "settlement")
            for c, colour in found.items()}


def _body_area(mask: np.ndarray, point: np.ndarray, spacing: float) -> float:
    """Area (in spacings²) of the building's body at a crossing, the roads that leave it cut off
    (an opening wider than a road, narrower than a settlement)."""
    r = int(CITY_RADIUS * spacing)
    x, y = int(round(point[0])), int(round(point[1]))
    x0, y0 = max(0, x - r), max(0, y - r)
    window = mask[y0:y + r + 1, x0:x + r + 1]
    if window.size == 0:
        return 0.0
    size = max(3, int(BODY_WIDTH * spacing) | 1)
    body = cv2.morphologyEx(window, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    count, labels = cv2.connectedComponents(body)
    if count < 2:
        return 0.0
    ys, xs = np.nonzero(labels)
    nearest = labels[ys, xs][np.argmin(np.hypot(xs + x0 - point[0], ys + y0 - point[1]))]
    return float(np.count_nonzero(labels == nearest)) / spacing ** 2


def _warm_colour(hues: np.ndarray) -> str:
    wrapped = np.where(hues > 90, hues - 180, hues)
    return "red" if wrapped.size and float(np.median(wrapped)) < RED_HUE_MAX else "orange"


def _disc(centre: np.ndarray, radius: float) -> np.ndarray:
    r = max(1, int(radius))
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
    inside = np.hypot(xs, ys) <= radius
    return np.column_stack([xs[inside] + centre[0], ys[inside] + centre[1]])


def _inside(points: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, shape[1] - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, shape[0] - 1)
    return xs, ys


def crossing_name(c: Crossing) -> tuple[int, int, int]:
    """A (q, r, corner) name of a crossing, as board JSON writes it."""
    for h in LAND:
        for k in range(6):
            if crossing_key(h, k) == c:
                return (h[0], h[1], k)
    raise ValueError(f"{c} is not a crossing of the board")


def edge_name(e: Edge) -> tuple[int, int, int]:
    for h in LAND:
        for k in range(6):
            a, b = crossing_key(h, k), crossing_key(h, k + 1)
            if e in ((a, b), (b, a)):
                return (h[0], h[1], k)
    raise ValueError(f"{e} is not an edge of the board")
