"""Reading and writing the Castellan board JSON of shared/spec/interface.md.

Validation stops at the first problem and names it in one sentence, so a user
editing a board file by hand knows exactly what to fix.
"""

from __future__ import annotations

import math
from typing import Any

from tablesight.scoring.castellan.board import Board, Keep, Point, Tower, Wall
from tablesight.scoring.castellan.pieces import KEEP_COLOURS

# Coordinates beyond 100 m are a unit mistake, not a table.
TABLE_LIMIT_MM = 100_000.0


class BoardFormatError(ValueError):
    """A board document that does not follow the schema; the message names the first problem."""


def board_from_dict(doc: Any) -> Board:
    if not isinstance(doc, dict):
        raise BoardFormatError("the board must be a JSON object with towers, walls and keeps")
    game = doc.get("game", "castellan")
    if game != "castellan":
        raise BoardFormatError(f"the board is for game {game!r}, expected 'castellan'")
    towers = tuple(_tower(i, t) for i, t in enumerate(_list(doc, "towers")))
    _unique_ids(towers, "tower")
    tower_ids = {t.id for t in towers}
    walls = tuple(_wall(i, w, tower_ids) for i, w in enumerate(_list(doc, "walls")))
    _unique_ids(walls, "wall")
    keeps = tuple(_keep(i, k) for i, k in enumerate(_list(doc, "keeps")))
    return Board(towers=towers, walls=walls, keeps=keeps)


def board_to_dict(board: Board) -> dict[str, Any]:
    walls = []
    for w in board.walls:
        entry: dict[str, Any] = {"id": w.id, "kind": w.kind, "ends": list(w.ends)}
        if w.start is not None:
            entry["from"] = [round(w.start[0], 2), round(w.start[1], 2)]
        if w.end is not None:
            entry["to"] = [round(w.end[0], 2), round(w.end[1], 2)]
        walls.append(entry)
    return {
        "game": "castellan",
        "towers": [{"id": t.id, "x": round(t.x, 2), "y": round(t.y, 2)} for t in board.towers],
        "walls": walls,
        "keeps": [
            {"color": k.color, "x": round(float(k.x), 2), "y": round(float(k.y), 2), "double": bool(k.double)}
            for k in board.keeps
        ],
    }


def _list(doc: dict, key: str) -> list:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise BoardFormatError(f"'{key}' must be a list")
    return value


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BoardFormatError(f"{what} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise BoardFormatError(f"{what} is {value}, not a finite number")
    if abs(value) > TABLE_LIMIT_MM:
        raise BoardFormatError(f"{what} is {value} mm, farther than any table ({TABLE_LIMIT_MM:g} mm)")
    return float(value)


def _point(value: Any, what: str) -> Point:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise BoardFormatError(f"{what} must be a pair [x, y]")
    return (_number(value[0], f"{what} x"), _number(value[1], f"{what} y"))


def _identifier(entry: dict, what: str) -> str:
    ident = entry.get("id")
    if not isinstance(ident, str) or not ident:
        raise BoardFormatError(f"{what} needs a non-empty string 'id'")
    return ident


def _tower(index: int, entry: Any) -> Tower:
    if not isinstance(entry, dict):
        raise BoardFormatError(f"tower #{index + 1} must be an object")
    ident = _identifier(entry, f"tower #{index + 1}")
    return Tower(ident, _number(entry.get("x"), f"tower {ident} x"),
                 _number(entry.get("y"), f"tower {ident} y"))


def _wall(index: int, entry: Any, tower_ids: set[str]) -> Wall:
    if not isinstance(entry, dict):
        raise BoardFormatError(f"wall #{index + 1} must be an object")
    ident = _identifier(entry, f"wall #{index + 1}")
    kind = entry.get("kind")
    if kind not in ("short", "long"):
        raise BoardFormatError(f"wall {ident} has kind {kind!r}; expected 'short' or 'long'")
    ends = entry.get("ends")
    if not isinstance(ends, list) or len(ends) != 2:
        raise BoardFormatError(f"wall {ident} needs 'ends', a list of two tower ids or nulls")
    for end in ends:
        if end is not None and end not in tower_ids:
            raise BoardFormatError(f"wall {ident} names tower {end}, which does not exist")
    if ends[0] is not None and ends[0] == ends[1]:
        raise BoardFormatError(f"wall {ident} has both ends in the same tower {ends[0]}")
    start = _point(entry["from"], f"wall {ident} 'from'") if "from" in entry else None
    end = _point(entry["to"], f"wall {ident} 'to'") if "to" in entry else None
    if ends[0] is None and start is None:
        raise BoardFormatError(f"wall {ident} has an open first end, so it needs 'from'")
    if ends[1] is None and end is None:
        raise BoardFormatError(f"wall {ident} has an open second end, so it needs 'to'")
    return Wall(ident, kind, (ends[0], ends[1]), start, end)


def _keep(index: int, entry: Any) -> Keep:
    what = f"keep #{index + 1}"
    if not isinstance(entry, dict):
        raise BoardFormatError(f"{what} must be an object")
    colour = entry.get("color")
    if colour not in KEEP_COLOURS:
        raise BoardFormatError(
            f"{what} has colour {colour!r}; expected one of {', '.join(KEEP_COLOURS)}")
    double = entry.get("double", False)
    if not isinstance(double, bool):
        raise BoardFormatError(f"{what} 'double' must be true or false")
    return Keep(colour, _number(entry.get("x"), f"{what} x"), _number(entry.get("y"), f"{what} y"),
                double)


def _unique_ids(items: tuple, what: str) -> None:
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise BoardFormatError(f"two {what}s share the id {item.id}")
        seen.add(item.id)
