"""Rule checks that a single board state can show (C1–C4, C8, piece limits).

Courtyard-level warnings (C5, two colours, keeps outside) are raised where the
courtyards are scored, in `report.py`, because they need the claims.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from tablesight.scoring.castellan.board import Board, Point, Wall
from tablesight.scoring.castellan.courtyards import components
from tablesight.scoring.castellan.geometry import (
    SpatialGrid,
    distance,
    point_segment_distance,
    segment_distance,
    shrink_segment,
)
from tablesight.scoring.castellan.pieces import BOX_CONTENTS, PieceDimensions, boxes_in_play


@dataclass(frozen=True)
class RuleWarning:
    code: str
    rule: str | None
    message: str
    where: Point
    # The towers and walls (ids) the broken rule is between, where it is between named pieces: one misplaced
    # wall touching another, blocking an open end and standing off the axes breaks several rules at once.
    pieces: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        named = {"pieces": list(self.pieces)} if self.pieces else {}
        return {"code": self.code, "rule": self.rule, "message": self.message,
                "where": {"x": round(self.where[0], 1), "y": round(self.where[1], 1)}, **named}


def midpoint(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


class _Layout:
    """Board geometry prepared once for all checks: wall ends, bodies and a spatial index."""

    def __init__(self, board: Board, dims: PieceDimensions) -> None:
        self.board, self.dims = board, dims
        self.towers = board.tower_map()
        self.ends = {w.id: board.wall_endpoints(w, self.towers) for w in board.walls}
        self.bodies = {wid: shrink_segment(a, b, dims.tower_radius) for wid, (a, b) in self.ends.items()}
        self.grid = SpatialGrid(dims.centre_spacing("short"))
        for t in board.towers:
            self.grid.insert(("tower", t.id), [t.position], dims.tower_radius)
        for wid, body in self.bodies.items():
            self.grid.insert(("wall", wid), body, dims.wall_thickness)


def check_board(board: Board, dims: PieceDimensions, boxes: int | None = None) -> list[RuleWarning]:
    """All single-board warnings. `boxes` is how many boxes are in play when known (from
    the number of players); otherwise it is inferred from the keep colours on the table."""
    layout = _Layout(board, dims)
    return [
        *_tower_contacts(layout),
        *_wall_contacts(layout),
        *_open_ends(layout),
        *_off_axis(layout),
        *_wall_lengths(layout),
        *_disconnected(layout),
        *_double_keeps(board),
        *_piece_limits(board, boxes),
    ]


def _tower_contacts(layout: _Layout) -> list[RuleWarning]:
    dims, found = layout.dims, []
    reach = dims.tower_diameter + dims.contact_tolerance
    for t in layout.board.towers:
        for kind, other in layout.grid.near([t.position], reach):
            if kind == "tower" and other > t.id:
                o = layout.towers[other]
                if distance(t.position, o.position) < reach:
                    found.append(RuleWarning("tower-contact", "C1",
                                         f"towers {t.id} and {o.id} touch; towers only join through walls",
                                         midpoint(t.position, o.position), (t.id, o.id)))
    return found


def _wall_contacts(layout: _Layout) -> list[RuleWarning]:
    dims, found = layout.dims, []
    # Wall bodies are treated as capsules of the wall's thickness: overlapping capsules touch.
    wall_reach = dims.wall_thickness
    tower_reach = dims.tower_radius + dims.wall_thickness / 2
    for wall in layout.board.walls:
        a, b = layout.bodies[wall.id]
        for kind, other in layout.grid.near([a, b], wall_reach):
            if kind == "wall" and other > wall.id:
                c, d = layout.bodies[other]
                if segment_distance(a, b, c, d) < wall_reach:
                    found.append(RuleWarning("wall-contact", "C1",
                                         f"walls {wall.id} and {other} touch; walls only join towers",
                                         midpoint(midpoint(a, b), midpoint(c, d)), (wall.id, other)))
            elif kind == "tower" and other not in wall.ends:
                centre = layout.towers[other].position
                if point_segment_distance(centre, a, b) < tower_reach - dims.contact_tolerance:
                    found.append(RuleWarning("wall-through-tower", "C1",
                                         f"wall {wall.id} runs into tower {other} without sitting in it",
                                         centre, (wall.id, other)))
    return found


def _open_ends(layout: _Layout) -> list[RuleWarning]:
    found = []
    for wall in layout.board.walls:
        for side in (0, 1):
            if wall.ends[side] is None:
                problem = _no_room_reason(layout, wall, layout.ends[wall.id][side])
                if problem:
                    reason, blocker = problem
                    found.append(RuleWarning("no-room-for-tower", "C2",
                                         f"the open end of wall {wall.id} {reason}",
                                         layout.ends[wall.id][side], (wall.id, blocker)))
    return found


def _no_room_reason(layout: _Layout, wall: Wall, spot: Point) -> tuple[str, str] | None:
    """Why a tower could not be added at an open wall end, and the piece in the way; None if it could."""
    dims = layout.dims
    for kind, other in sorted(layout.grid.near([spot], dims.tower_diameter)):
        if kind == "tower":
            gap = distance(spot, layout.towers[other].position)
            if gap < dims.contact_tolerance:
                return f"stops at tower {other} but is not recorded as sitting in it", other
            if gap < dims.tower_diameter - dims.contact_tolerance:
                return f"has no room for a tower: tower {other} is in the way", other
        elif other != wall.id:
            ends = layout.ends[other]
            # Another wall ending at the same spot (to within a measurement's slack, half a tower's
            # radius): one tower added there will serve both.
            if min(distance(spot, ends[0]), distance(spot, ends[1])) < dims.tower_radius / 2:
                continue
            a, b = layout.bodies[other]
            clearance = dims.tower_radius + dims.wall_thickness / 2 - dims.contact_tolerance
            if point_segment_distance(spot, a, b) < clearance:
                return f"is blocked by wall {other}: no tower fits there", other
    return None


def castle_axis(ends: Iterable[tuple[Point, Point]]) -> float:
    """The castle's axis angle in [0, 90) degrees from its walls' end points: length-weighted mean of their
    angles mod 90°."""
    sx = sy = 0.0
    for a, b in ends:
        angle = math.atan2(b[1] - a[1], b[0] - a[0])
        length = distance(a, b)
        sx += length * math.cos(4 * angle)
        sy += length * math.sin(4 * angle)
    return math.degrees(math.atan2(sy, sx) / 4) % 90.0


def _off_axis(layout: _Layout) -> list[RuleWarning]:
    if len(layout.ends) < 2:
        return []
    axis, found = castle_axis(layout.ends.values()), []
    for wid, (a, b) in layout.ends.items():
        angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        off = abs((angle - axis + 45.0) % 90.0 - 45.0)
        if off > layout.dims.axis_tolerance_deg:
            found.append(RuleWarning("off-axis-wall", "C3",
                                 f"wall {wid} is {off:.0f}° off the castle's axes; corners must be right angles",
                                 midpoint(a, b), (wid,)))
    return found


def _wall_lengths(layout: _Layout) -> list[RuleWarning]:
    dims, found = layout.dims, []
    for wall in layout.board.walls:
        a, b = layout.ends[wall.id]
        expected, actual = dims.centre_spacing(wall.kind), distance(a, b)
        if abs(actual - expected) > dims.length_tolerance * expected:
            found.append(RuleWarning("wall-length", None,
                                 f"{wall.kind} wall {wall.id} spans {actual:.0f} mm between tower centres, "
                                 f"expected about {expected:.0f} mm",
                                 midpoint(a, b), (wall.id,)))
    return found


def _disconnected(layout: _Layout) -> list[RuleWarning]:
    """Every group of pieces apart from the largest one breaks C4."""
    board = layout.board
    groups = [{"towers": g, "walls": []} for g in components(board)]
    owner = {tid: i for i, g in enumerate(groups) for tid in g["towers"]}
    for wall in board.walls:
        tower = wall.ends[0] if wall.ends[0] is not None else wall.ends[1]
        if tower is None:
            groups.append({"towers": set(), "walls": [wall.id]})
        else:
            groups[owner[tower]]["walls"].append(wall.id)
    sizes = [len(g["towers"]) + len(g["walls"]) for g in groups]
    if len(groups) < 2:
        return []
    castle = max(range(len(groups)), key=lambda i: (sizes[i], -i))
    found = []
    for i, group in enumerate(groups):
        if i == castle:
            continue
        points = [layout.towers[t].position for t in group["towers"]] + [
            midpoint(*layout.ends[w]) for w in group["walls"]]
        where = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        names = sorted(group["towers"]) + sorted(group["walls"])
        found.append(RuleWarning("disconnected", "C4",
                             f"{sizes[i]} piece(s) ({', '.join(names[:4])}{'…' if len(names) > 4 else ''}) "
                             "are not connected to the castle",
                             where))
    return found


def _double_keeps(board: Board) -> list[RuleWarning]:
    doubles = Counter(k.color for k in board.keeps if k.double)
    found = []
    for colour, count in sorted(doubles.items()):
        if count > 1:
            where = next(k.position for k in board.keeps if k.double and k.color == colour)
            found.append(RuleWarning("several-double-keeps", "C8",
                                 f"{colour} has {count} double keeps; only one is allowed per game",
                                 where))
    return found


def _piece_limits(board: Board, boxes: int | None) -> list[RuleWarning]:
    boxes = boxes or boxes_in_play({k.color for k in board.keeps})
    counts = {
        "towers": len(board.towers),
        "short_walls": sum(w.kind == "short" for w in board.walls),
        "long_walls": sum(w.kind == "long" for w in board.walls),
    }
    # The count is the whole castle's: the warning stands at its middle (not at the card's corner).
    n = len(board.towers)
    middle = (sum(t.x for t in board.towers) / n, sum(t.y for t in board.towers) / n) if n else (0.0, 0.0)
    found = []
    for name, count in counts.items():
        limit = BOX_CONTENTS[name] * boxes
        if count > limit:
            found.append(RuleWarning("too-many-pieces", None,
                                 f"{count} {name.replace('_', ' ')} on the table, "
                                 f"but {boxes} box(es) hold only {limit}",
                                 middle))
    return found
