"""What a reading is unsure of, and what hangs on each doubt.

Some pieces cannot be settled from one photo: a keep seen from nearly straight above may be single or
double, a keep of the table's own colour was read only where the castle needs one, a tower or a wall
hidden behind a keep was inferred (from the rules, or its towers a span apart), not seen, a tower read
in a long wall's run (by its height alone) or between two short walls in line and thinner than the castle's
other towers may be that wall's middle, a long wall read where a thin tower stood (`thin_towers`) or whose
middle a keep hides may be a tower and two short walls, and a wall read to a tower an open wall's run passed
through (`walls.open_walls_through_towers`) may not be there, and an open wall whose open end a keep hides may
end in a tower there. The reader marks them;
here the board is scored the other way round for each, so a player or an organiser knows which few
pieces to look at on the table, and which of them would change a score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from tablesight.scoring.castellan.board import Board, Keep, Point, Tower, Wall
from tablesight.scoring.castellan.checks import midpoint
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.scoring.castellan.report import score_board
from tablesight.vision.castellan.reader import PhotoReading
from tablesight.vision.castellan.thin_towers import thin_towers_in_doubt
from tablesight.vision.castellan.walls import WallReading

AS_TOWER_RUN = "a tower and two short walls"  # what a long wall read where a thin tower stood may be instead
# What an open wall whose open end keeps in front hide (`WallReading.end_hidden`) may be instead
WITH_HIDDEN_TOWER = "closed by a tower there"
SAME_SOCKET_MM = 6.0  # open wall ends this close end at one tower placed there


@dataclass(frozen=True)
class Doubt:
    """One piece read one way that may be the other."""

    piece: str  # "keep", "tower" or "wall"
    id: str  # the piece's id on the board: its tower or wall id, or "k" and the keep's index
    where: Point  # table mm
    read: str  # how it was read: "single red keep", "tower hidden behind a keep", …
    otherwise: str  # what it may be instead: "double", "absent"
    scores: dict[str, int]  # the scores as read
    scores_otherwise: dict[str, int]  # … and if the piece is the other way

    @property
    def changed(self) -> dict[str, tuple[int, int]]:
        """The colours whose score the doubt changes: (as read, otherwise)."""
        colours = sorted(set(self.scores) | set(self.scores_otherwise))
        return {c: (self.scores.get(c, 0), self.scores_otherwise.get(c, 0)) for c in colours
                if self.scores.get(c, 0) != self.scores_otherwise.get(c, 0)}

    def sentence(self) -> str:
        x, y = self.where
        stake = (", ".join(f"{c} {other} (not {read})" for c, (read, other) in self.changed.items())
                 or "no score changes")
        return f"{self.read} at ({x:.0f}, {y:.0f}) mm, may be {self.otherwise}: if so, {stake}"

    @property
    def read_double(self) -> bool:
        """For a keep: whether it was read double."""
        return self.read.startswith("double")

    def to_dict(self) -> dict:
        return {"piece": self.piece, "id": self.id, "x": round(self.where[0], 1), "y": round(self.where[1], 1),
                "read": self.read, "otherwise": self.otherwise, "scores_otherwise": self.scores_otherwise,
                "sentence": self.sentence()}


def find_doubts(reading: PhotoReading, board: Board, dims: PieceDimensions,
                boxes: int | None = None) -> list[Doubt]:
    """Each uncertain piece of `reading` (whose board is `board`), with the scores if it is the other way;
    those that change a score first."""
    scores = score_board(board, dims, boxes).scores

    def doubt(piece: str, piece_id: str, where: Point, read: str, otherwise: str, other_board: Board) -> Doubt:
        return Doubt(piece, piece_id, where, read, otherwise, scores, score_board(other_board, dims, boxes).scores)

    found = []
    for i, keep in enumerate(reading.keeps):
        if i >= len(board.keeps):
            continue
        kind, other = ("double", "single") if keep.double else ("single", "double")
        # An inferred keep is one line: whoever looks whether it is there sees whether it is double too.
        if keep.inferred:
            found.append(doubt("keep", f"k{i}", board.keeps[i].position, f"{kind} {keep.color} keep read where "
                               f"the castle needs one", "absent", board.without_keep(i)))
        elif not keep.double_certain:
            found.append(doubt("keep", f"k{i}", board.keeps[i].position, f"{kind} {keep.color} keep", other,
                               _keep_flipped(board, i)))
    thin = thin_towers_in_doubt(reading.towers, reading.walls)
    for i, (tower, read) in enumerate(zip(board.towers, reading.towers, strict=True)):
        if read.inferred:
            how = "tower hidden behind a keep" if read.behind_keep else "tower inferred where walls end"
            found.append(doubt("tower", tower.id, tower.position, how, "absent", without_tower(board, tower.id)))
        elif (read.in_run or i in thin) and (as_long := run_as_long_wall(board, tower.id)) is not None:
            how = "tower in a long wall's run" if read.in_run else \
                "tower between two short walls in line, thinner than the castle's others,"
            found.append(doubt("tower", tower.id, tower.position, how, "the middle of a long wall", as_long))
        elif read.one_look:
            # The looks disagree: the one kept saw a wall's middle, or the table, where the first saw this tower.
            as_long = run_as_long_wall(board, tower.id)
            otherwise, other_board = ("absent", without_tower(board, tower.id)) if as_long is None else \
                ("the middle of a long wall", as_long)
            found.append(doubt("tower", tower.id, tower.position, "tower read the usual way, not with the colours "
                               "seen as kept,", otherwise, other_board))
    for i, wall in enumerate(reading.walls):
        if wall.end_hidden and wall.end is None and i < len(board.walls):
            where = _open_end(board, board.walls[i])
            if where is not None:
                found.append(doubt("wall", board.walls[i].id, where, f"{wall.kind} wall open where a keep hides "
                                   "its end", WITH_HIDDEN_TOWER, with_tower_at_open_end(board, where)))
        # Only a long wall between two towers is flagged so; one later re-kinded or opened keeps its flags.
        middle_hidden = wall.middle_hidden and wall.kind == "long" and wall.end is not None
        unseen_start = wall.unseen_start_mm > 0 and wall.end is None
        maybe_absent = wall.inferred or wall.half_seen or wall.by_step or wall.through_tower or unseen_start
        if not (maybe_absent or wall.through_thin_tower or middle_hidden):
            continue
        middle = midpoint(*board.wall_endpoints(board.walls[i]))
        if maybe_absent:
            walls = board.walls[:i] + board.walls[i + 1:]
            found.append(doubt("wall", board.walls[i].id, middle, f"{wall.kind} wall {_how_read(wall)}", "absent",
                               replace(board, walls=walls)))
        else:
            read = "long wall read where a thin tower stood" if wall.through_thin_tower else \
                "long wall whose middle a keep hides"
            found.append(doubt("wall", board.walls[i].id, middle, read, AS_TOWER_RUN, long_wall_split(board, i)))
    return sorted(found, key=lambda d: not d.changed)


def _how_read(wall: WallReading) -> str:
    """How a wall that may be absent was read."""
    if wall.inferred:
        return "hidden behind a keep"
    if wall.half_seen:
        return f"seen along only {wall.filled:.0%} of its length"
    if wall.by_step:
        return "seen only by its top's step from the table"
    if wall.through_tower:
        return "read from an open wall's run through a tower"
    return f"open, seen only from {wall.unseen_start_mm:.0f} mm out of its tower"


def still_in_doubt(doubts: list[dict], board: Board, dims: PieceDimensions, boxes: int | None = None) -> list[Doubt]:
    """Earlier doubts (`Doubt.to_dict`) carried onto `board`, a board corrected by hand: a piece corrected
    (deleted, moved, a keep's double flag set) is settled; the others are scored again on the new board,
    under their new ids."""
    scores = score_board(board, dims, boxes).scores
    kept = []
    for doc in doubts:
        where = (float(doc["x"]), float(doc["y"]))
        old = Doubt(doc["piece"], doc["id"], where, doc["read"], doc["otherwise"], {}, {})
        found = _piece_at(board, old)
        if found is None:
            continue
        piece_id, other_board = found
        kept.append(Doubt(old.piece, piece_id, where, old.read, old.otherwise, scores,
                          score_board(other_board, dims, boxes).scores))
    return sorted(kept, key=lambda d: not d.changed)


def _piece_at(board: Board, doubt: Doubt, slack_mm: float = 1.0) -> tuple[str, Board] | None:
    """The id of the doubt's piece on `board`, still as it was read, and the board with it the other way;
    None if the piece is no longer there as read."""
    def near(point: Point) -> bool:
        return abs(point[0] - doubt.where[0]) <= slack_mm and abs(point[1] - doubt.where[1]) <= slack_mm

    if doubt.piece == "keep":
        for i, keep in enumerate(board.keeps):
            if doubt.otherwise == "absent":  # read where the castle needs a keep
                if near(keep.position) and f"{keep.color} keep read where" in doubt.read:
                    return f"k{i}", board.without_keep(i)
            elif near(keep.position) and keep.double == doubt.read_double \
                    and doubt.read.endswith(f"{keep.color} keep"):
                return f"k{i}", _keep_flipped(board, i)
    elif doubt.piece == "tower":
        for tower in board.towers:
            if near(tower.position):
                if doubt.otherwise != "absent":  # read in a long wall's run
                    as_long = run_as_long_wall(board, tower.id)
                    return None if as_long is None else (tower.id, as_long)
                return tower.id, without_tower(board, tower.id)
    elif doubt.otherwise == WITH_HIDDEN_TOWER:
        for wall in board.walls:
            end = _open_end(board, wall)
            if end is not None and near(end):
                return wall.id, with_tower_at_open_end(board, end)
    else:
        towers = board.tower_map()
        for i, wall in enumerate(board.walls):
            a, b = board.wall_endpoints(wall, towers)
            if not near(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)):
                continue
            if doubt.otherwise != AS_TOWER_RUN:
                return wall.id, replace(board, walls=board.walls[:i] + board.walls[i + 1:])
            if wall.kind == "long" and wall.is_closed:
                return wall.id, long_wall_split(board, i)
    return None


def _keep_flipped(board: Board, index: int) -> Board:
    """The board with keep `index` single if it is double, or double if single: then the colour's other
    double (if any) is single, a player stacking one double keep a game (C8)."""
    flipped = board.keeps[index]
    keeps = []
    for i, keep in enumerate(board.keeps):
        if i == index:
            keeps.append(replace(keep, double=not keep.double))
        elif keep.color == flipped.color and not flipped.double and keep.double:
            keeps.append(Keep(keep.color, keep.x, keep.y, False))
        else:
            keeps.append(keep)
    return replace(board, keeps=tuple(keeps))


def run_as_long_wall(board: Board, tower_id: str) -> Board | None:
    """The board with the tower and its two short walls in line read as one long wall through where it
    stands; None unless the tower has just those two walls."""
    mine = [w for w in board.walls if tower_id in w.ends]
    if len(mine) != 2 or any(w.kind != "short" for w in mine):
        return None
    towers = board.tower_map()
    here = towers[tower_id].position
    far = []
    for wall in mine:
        a, b = board.wall_endpoints(wall, towers)
        other = wall.ends[1] if wall.ends[0] == tower_id else wall.ends[0]
        far.append((other, b if wall.ends[0] == tower_id else a))
    (u_id, u), (v_id, v) = far
    if (u[0] - here[0]) * (v[0] - here[0]) + (u[1] - here[1]) * (v[1] - here[1]) >= 0:
        return None  # a corner, not a run
    if u_id is None:  # a wall's open end is its second
        (u_id, u), (v_id, v) = (v_id, v), (u_id, u)
    long_wall = Wall(mine[0].id, "long", (u_id, v_id), u, v)
    walls = tuple(long_wall if w is mine[0] else w for w in board.walls if w is not mine[1])
    return replace(board, towers=tuple(t for t in board.towers if t.id != tower_id), walls=walls)


def long_wall_split(board: Board, index: int) -> Board:
    """The board with its `index`-th wall, a long wall, read as a tower at its middle and two short walls
    (`run_as_long_wall` the other way round); an open end stays open where it was."""
    wall = board.walls[index]
    a, b = board.wall_endpoints(wall)
    middle = Tower(board.new_tower_id(), round((a[0] + b[0]) / 2, 1), round((a[1] + b[1]) / 2, 1))
    halves = (Wall(wall.id, "short", (wall.ends[0], middle.id), wall.start),
              Wall(f"{wall.id}b", "short", (middle.id, wall.ends[1]), None, wall.end))
    walls = board.walls[:index] + halves + board.walls[index + 1:]
    return replace(board, towers=board.towers + (middle,), walls=walls)


def with_tower_at_open_end(board: Board, where: Point) -> Board:
    """The board with a tower at `where`, an open wall end: the walls ending open within SAME_SOCKET_MM of it end in
    it."""
    tower = Tower(board.new_tower_id(), round(where[0], 1), round(where[1], 1))
    towers = board.tower_map()
    walls = []
    for wall in board.walls:
        ends = tuple(tower.id if end is None and math.dist(point, where) <= SAME_SOCKET_MM else end
                     for end, point in zip(wall.ends, board.wall_endpoints(wall, towers), strict=True))
        walls.append(replace(wall, ends=ends))
    return replace(board, towers=board.towers + (tower,), walls=tuple(walls))


def _open_end(board: Board, wall: Wall) -> Point | None:
    """Where a wall open at one end would meet its tower; None for a wall between two towers."""
    if wall.is_closed:
        return None
    a, b = board.wall_endpoints(wall)
    return a if wall.ends[0] is None else b


def without_tower(board: Board, tower_id: str) -> Board:
    """The board without the tower: its walls end open where it stood (a wall open at both ends goes)."""
    towers = board.tower_map()
    walls = []
    for wall in board.walls:
        if tower_id not in wall.ends:
            walls.append(wall)
            continue
        a, b = board.wall_endpoints(wall, towers)
        other, open_at = (wall.ends[1], a) if wall.ends[0] == tower_id else (wall.ends[0], b)
        far = b if wall.ends[0] == tower_id else a
        if other is not None:
            walls.append(replace(wall, ends=(other, None), start=far, end=open_at))
    return replace(board, towers=tuple(t for t in board.towers if t.id != tower_id), walls=tuple(walls))
