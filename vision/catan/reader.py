"""Reading a Catan board photo, one stage per module: the board and its lattice (`board_view`), each
hex's terrain (`terrain`), the number tokens (`tokens`), the robber (`robber`), and the players'
buildings and roads (`pieces`). This class of work is wired here and timed as a whole.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from tablesight.scoring.catan.board import Building, CatanBoard, Road
from tablesight.scoring.catan.geometry import LAND, Crossing, Edge, Hex
from tablesight.vision.catan.board_view import CatanReadError, board_view
from tablesight.vision.catan.pieces import crossing_name, edge_name, find_buildings, find_roads, piece_masks
from tablesight.vision.catan.robber import find_robber, robber_likeness
from tablesight.vision.catan.terrain import classify_terrain, hex_features, load_prototypes
from tablesight.vision.catan.tokens import read_token

__all__ = ["CatanPhotoReading", "CatanReadError", "read_catan_photo"]


@dataclass
class CatanPhotoReading:
    centres: dict[Hex, tuple[float, float]]  # in the photo's pixels
    spacing_px: float
    terrain: dict[Hex, str]
    numbers: dict[Hex, int | None]
    robber: Hex | None
    buildings: dict[Crossing, tuple[str, str]]  # crossing → (colour, "settlement" | "city")
    roads: dict[Edge, str]
    homography: np.ndarray | None  # board (hex-unit) coordinates → the photo's pixels
    notes: list[str] = field(default_factory=list)
    ms: float = 0.0

    def board(self) -> CatanBoard:
        """The board model of what was read (a hidden or unread number is None)."""
        buildings = tuple(Building(colour, kind, c, crossing_name(c)) for c, (colour, kind) in self.buildings.items())
        roads = tuple(Road(colour, e, edge_name(e)) for e, colour in self.roads.items())
        hexes = {h: (t, self.numbers[h]) for h, t in self.terrain.items()}
        return CatanBoard(hexes, self.robber, buildings, roads)


def read_catan_photo(image: np.ndarray, prototypes: dict | None = None) -> CatanPhotoReading:
    start = time.perf_counter()
    view = board_view(image)
    printed = [None if t is None else read_token(view.image, t).number for t in view.tokens]
    features = hex_features(view.image, view.centres, view.spacing)
    terrain = classify_terrain(features, prototypes or load_prototypes(), [n is not None for n in printed])
    tokens = [None if kind == "desert" else t for t, kind in zip(view.tokens, terrain, strict=True)]
    robber = find_robber(robber_likeness(view.image, view.centres, view.spacing), terrain, tokens)
    notes: list[str] = []
    numbers: list[int | None] = []
    for i, kind in enumerate(terrain):
        number = None
        if kind != "desert" and i == robber:
            notes.append(f"the number of the {kind} hex is hidden under the robber")
        elif kind != "desert":
            number = printed[i]
            if number is None:
                x, y = view.photo_points(view.centres[i])[0]
                notes.append(f"the number token of the {kind} hex at pixel ({x:.0f}, {y:.0f}) could not be read")
        numbers.append(number)
    if robber is None:
        notes.append("the robber was not seen on the board")
    buildings, roads, homography = {}, {}, None
    if view.homography is None:
        notes.append("too few number tokens were seen to place the pieces; buildings and roads were not read")
    else:
        masks = piece_masks(view.image)
        buildings = find_buildings(masks, view.homography, view.spacing)
        roads = find_roads(masks, view.homography, view.spacing)
        homography = view.to_photo @ view.homography
    photo_centres = view.photo_points(view.centres)
    centres = {h: (float(x), float(y)) for h, (x, y) in zip(LAND, photo_centres, strict=True)}
    middle = photo_centres[LAND.index((0, 0))]  # spacing: the mean distance to its six neighbours
    spacing = float(np.sort(np.linalg.norm(photo_centres - middle, axis=1))[1:7].mean())
    return CatanPhotoReading(centres, spacing, dict(zip(LAND, terrain, strict=True)),
                             dict(zip(LAND, numbers, strict=True)), None if robber is None else LAND[robber],
                             buildings, roads, homography, notes, (time.perf_counter() - start) * 1000)
