"""Reading a Catan board photo: the board by its blue sea frame, the 19-hex lattice, each hex's
terrain from its colours, and the robber. Number tokens and pieces are not read yet.

The lattice needs no reference card: the land inside the sea frame gives the board's centre and
size (19 hexes), and its outline's six far corners give the lattice's axes.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tablesight.scoring.catan.geometry import LAND, Hex

PROTOTYPES = Path(__file__).with_name("terrain_prototypes.json")
HEX_AREA = 3 * np.sqrt(3) / 2  # area of a hexagon of circumradius 1
LAND_MARGIN = 0.915  # the land inside the frame includes the beach rim around the hexes
RING = (0.22, 0.42)  # sampled between the number token and the hex's edge, in centre spacings
ROBBER_DARKER = 0.82  # the robber's hex middle is this much darker than a typical token


class CatanReadError(ValueError):
    """No Catan board could be found in the photo; the message says why."""


@dataclass
class CatanPhotoReading:
    centres: dict[Hex, tuple[float, float]]
    spacing_px: float
    terrain: dict[Hex, str]
    robber: Hex | None
    notes: list[str] = field(default_factory=list)
    ms: float = 0.0


def hex_features(image: np.ndarray, centres: np.ndarray, spacing: float) -> np.ndarray:
    """Colour of each hex's picture (Lab median and spread, saturation) around its token."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    step = max(1, int(spacing / 60))
    ys, xs = np.mgrid[0:image.shape[0]:step, 0:image.shape[1]:step]
    rows = []
    for cx, cy in centres:
        r = np.hypot(xs - cx, ys - cy) / spacing
        m = (r > RING[0]) & (r < RING[1])
        if not m.any():
            rows.append(np.zeros(6))
            continue
        pixels, sat = lab[ys[m], xs[m]], hsv[ys[m], xs[m], 1]
        rows.append(np.concatenate([np.median(pixels, axis=0), np.percentile(pixels[:, 0], [25, 75]),
                                    [np.median(sat)]]))
    return np.array(rows)


def find_lattice(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The 19 hex centres (image pixels, in LAND order) and the centre spacing, from the sea frame."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    blue = cv2.inRange(hsv, (95, 90, 70), (125, 255, 255))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(blue, connectivity=8)
    if count < 2 or stats[1:, cv2.CC_STAT_AREA].max() < 0.02 * blue.size:
        raise CatanReadError("no blue sea frame was found; the whole board must be in the photo")
    frame = ((labels == 1 + np.argmax(stats[1:, cv2.CC_STAT_AREA])) * 255).astype(np.uint8)
    outside = frame.copy()
    cv2.floodFill(outside, np.zeros((frame.shape[0] + 2, frame.shape[1] + 2), np.uint8), (0, 0), 255)
    inside = cv2.morphologyEx(cv2.bitwise_not(outside), cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(inside)
    if count < 2:
        raise CatanReadError("the sea frame encloses no land; is the whole board in the photo?")
    land_id = 1 + np.argmax(stats[1:, cv2.CC_STAT_AREA])
    area = stats[land_id, cv2.CC_STAT_AREA]
    if area < 0.05 * inside.size:
        raise CatanReadError("the land inside the sea frame is too small to read")
    centre = centroids[land_id]
    spacing = LAND_MARGIN * np.sqrt(3) * np.sqrt(area / (19 * HEX_AREA))
    contours, _ = cv2.findContours((labels == land_id).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea)).reshape(-1, 2).astype(float)
    angle = np.arctan2(hull[:, 1] - centre[1], hull[:, 0] - centre[0])
    weight = np.linalg.norm(hull - centre, axis=1) ** 8  # the six far corners decide
    theta = np.arctan2((weight * np.sin(6 * angle)).sum(), (weight * np.cos(6 * angle)).sum()) / 6
    a1 = np.array([np.cos(theta), np.sin(theta)])
    a2 = np.array([np.cos(theta + np.pi / 3), np.sin(theta + np.pi / 3)])
    return np.array([centre + spacing * (q * a1 + r * a2) for q, r in LAND]), float(spacing)


def classify_terrain(features: np.ndarray, prototypes: dict) -> list[str]:
    scale = np.array(prototypes["scale"])
    means = {t: np.array(v) for t, v in prototypes["means"].items()}
    return [min(means, key=lambda t: float(np.linalg.norm((f - means[t]) / scale))) for f in features]


def find_robber(image: np.ndarray, centres: np.ndarray, spacing: float) -> int | None:
    """The hex whose middle is clearly darker than the others': the grey robber stands where the
    other hexes show a cream number token (or the desert's sand)."""
    value = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 2]
    r = max(2, int(0.12 * spacing))
    middles = []
    for cx, cy in centres:
        patch = value[max(0, int(cy) - r):int(cy) + r, max(0, int(cx) - r):int(cx) + r]
        middles.append(float(np.median(patch)) if patch.size else 255.0)
    best = int(np.argmin(middles))
    return best if middles[best] < ROBBER_DARKER * float(np.median(middles)) else None


def read_catan_photo(image: np.ndarray, prototypes: dict | None = None) -> CatanPhotoReading:
    start = time.perf_counter()
    prototypes = prototypes or json.loads(PROTOTYPES.read_text())
    centres, spacing = find_lattice(image)
    terrain = classify_terrain(hex_features(image, centres, spacing), prototypes)
    robber = find_robber(image, centres, spacing)
    notes = ["number tokens, settlements, cities and roads are not read from photos yet"]
    if robber is None:
        deserts = [i for i, t in enumerate(terrain) if t == "desert"]
        robber = deserts[0] if len(deserts) == 1 else None
        notes.append("the robber was not seen; it is assumed on the desert")
    return CatanPhotoReading({h: tuple(map(float, c)) for h, c in zip(LAND, centres, strict=True)}, spacing,
                             dict(zip(LAND, terrain, strict=True)), None if robber is None else LAND[robber],
                             notes, (time.perf_counter() - start) * 1000)
