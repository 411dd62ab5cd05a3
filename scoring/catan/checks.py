"""Catan rule checks on one board state (K1, K2, K4, K5, K7, K8, K9).

K3 (no road continued through an opponent's building) and K6 (a city replaces a settlement)
are about the order of building, which one board cannot show: a road that an opponent's later
settlement cut in two is legal. The cut is applied where it matters, in the longest road.
"""

from __future__ import annotations

from collections import Counter

from tablesight.scoring.catan.board import CatanBoard
from tablesight.scoring.catan.geometry import LAND, edges, neighbours

TERRAIN_COUNTS = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}
TOKENS = Counter([2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12])
LIMITS = {"settlement": 5, "city": 4, "road": 15}


def warning(code: str, rule: str, message: str, where: dict | None = None) -> dict:
    return {"code": code, "rule": rule, "message": message, "where": where or {}}


def check_board(board: CatanBoard) -> list[dict]:
    return [*_roads(board), *_buildings(board), *_limits(board), *_robber(board), *_hexes(board)]


def _roads(board: CatanBoard) -> list[dict]:
    found = []
    counts = Counter(r.at for r in board.roads)
    valid = edges()
    for road in board.roads:
        where = {"edge": list(road.name)}
        if road.at not in valid:
            found.append(warning("road-off-edge", "K1", f"a {road.colour} road is not on a hex edge", where))
        elif counts[road.at] > 1:
            found.append(warning("two-roads-one-edge", "K1", "two roads lie on the same edge", where))
    own_points = {(b.colour, b.at) for b in board.buildings}
    ends = Counter((r.colour, end) for r in board.roads for end in r.at)
    for road in board.roads:
        touches = any((road.colour, end) in own_points or ends[(road.colour, end)] > 1 for end in road.at)
        if not touches:
            found.append(warning("loose-road", "K2", f"a {road.colour} road touches none of its owner's roads "
                                 "or buildings", {"edge": list(road.name)}))
    return found


def _buildings(board: CatanBoard) -> list[dict]:
    found = []
    at = Counter(b.at for b in board.buildings)
    by_point = {b.at: b for b in board.buildings}
    for b in board.buildings:
        where = {"crossing": list(b.name)}
        if at[b.at] > 1:
            found.append(warning("two-buildings-one-crossing", "K4", "two buildings stand on one crossing", where))
        near = [by_point[n] for n in neighbours(b.at) if n in by_point]
        if near:
            found.append(warning("distance-rule", "K4", f"{b.colour}'s {b.kind} stands next to "
                                 f"{near[0].colour}'s {near[0].kind}", where))
        if not any(r.colour == b.colour and b.at in r.at for r in board.roads):
            found.append(warning("building-without-road", "K5", f"{b.colour}'s {b.kind} touches none of its "
                                 "owner's roads", where))
    return found


def _limits(board: CatanBoard) -> list[dict]:
    found = []
    pieces = Counter((b.colour, b.kind) for b in board.buildings) + Counter((r.colour, "road") for r in board.roads)
    for (colour, kind), n in sorted(pieces.items()):
        if n > LIMITS[kind]:
            found.append(warning("too-many-pieces", "K7", f"{colour} has {n} {kind}s; a colour has {LIMITS[kind]}"))
    return found


def _robber(board: CatanBoard) -> list[dict]:
    if board.robber is None:
        return [warning("no-robber", "K8", "the robber is not on the board")]
    return []


def _hexes(board: CatanBoard) -> list[dict]:
    found = []
    missing = [h for h in LAND if h not in board.hexes]
    if missing:
        found.append(warning("missing-hexes", "K9", f"{len(missing)} land hex(es) are not read"))
    terrains = Counter(t for t, _ in board.hexes.values())
    for terrain, n in TERRAIN_COUNTS.items():
        if terrains[terrain] != n and not missing:
            found.append(warning("unusual-terrain", "K9", f"{terrains[terrain]} {terrain} hex(es); the base game "
                                 f"has {n}"))
    tokens = Counter(n for _, n in board.hexes.values() if n is not None)
    if not missing and tokens != TOKENS:
        extra, short = tokens - TOKENS, TOKENS - tokens
        found.append(warning("unusual-tokens", "K9", "number tokens differ from the base game's"
                             + (f": extra {sorted(extra.elements())}" if extra else "")
                             + (f", missing {sorted(short.elements())}" if short else "")))
    for (q, r), (terrain, number) in board.hexes.items():
        if terrain == "desert" and number is not None:
            found.append(warning("desert-token", "K9", "the desert carries a number token", {"hex": [q, r]}))
    return found
