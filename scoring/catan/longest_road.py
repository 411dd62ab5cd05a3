"""Longest road: the longest trail in a colour's roads, broken at crossings held by an opponent."""

from __future__ import annotations

from collections import defaultdict

from tablesight.scoring.catan.board import CatanBoard
from tablesight.scoring.catan.geometry import Crossing, Edge


def road_length(board: CatanBoard, colour: str) -> int:
    """Segments in the colour's longest continuous road (a road may branch and loop; each segment
    counts once; a trail cannot pass through a crossing with an opponent's building)."""
    own = {r.at for r in board.roads if r.colour == colour}
    blocked = {b.at for b in board.buildings if b.colour != colour}
    around: dict[Crossing, list[Edge]] = defaultdict(list)
    for edge in own:
        for end in edge:
            around[end].append(edge)

    def walk(at: Crossing, used: set[Edge]) -> int:
        if used and at in blocked:
            return 0  # the road is broken here: it can end at the building but not pass through
        best = 0
        for edge in around[at]:
            if edge not in used:
                used.add(edge)
                other = edge[1] if edge[0] == at else edge[0]
                best = max(best, 1 + walk(other, used))
                used.remove(edge)
        return best

    return max((walk(start, set()) for start in around), default=0)


def longest_road_holder(board: CatanBoard, colours: list[str]) -> tuple[str | None, int, list[str]]:
    """(holder or None, its length, colours tied at the top). At least 5 segments are needed; a tie
    keeps the previous holder when the board says who held it, else nobody can be named."""
    lengths = {c: road_length(board, c) for c in colours}
    best = max(lengths.values(), default=0)
    if best < 5:
        return None, best, []
    leaders = sorted(c for c, n in lengths.items() if n == best)
    if len(leaders) == 1:
        return leaders[0], best, leaders
    if board.longest_road_holder in leaders:
        return board.longest_road_holder, best, leaders
    return None, best, leaders
