"""The Catan board model and its JSON (the board of a Catan report)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tablesight.scoring.catan.geometry import LAND, Crossing, Edge, Hex, crossing_key, edge_key

TERRAINS = ("forest", "pasture", "fields", "hills", "mountains", "desert")
RESOURCE = {"forest": "lumber", "pasture": "wool", "fields": "grain", "hills": "brick", "mountains": "ore"}
COLOURS = ("red", "blue", "white", "orange", "green", "brown")


class CatanFormatError(ValueError):
    """A Catan board document that does not follow the schema; names the first problem."""


@dataclass(frozen=True)
class Building:
    colour: str
    kind: str  # "settlement" or "city"
    at: Crossing
    name: tuple[int, int, int]  # (q, r, corner) as written


@dataclass(frozen=True)
class Road:
    colour: str
    at: Edge
    name: tuple[int, int, int]


@dataclass(frozen=True)
class CatanBoard:
    hexes: dict[Hex, tuple[str, int | None]]
    robber: Hex | None
    buildings: tuple[Building, ...] = ()
    roads: tuple[Road, ...] = ()
    knights: dict[str, int] = field(default_factory=dict)  # played knights (off the board)
    vp_cards: dict[str, int] = field(default_factory=dict)
    longest_road_holder: str | None = None  # who held it before, when known (ties keep the holder)


def _triple(value: Any, what: str) -> tuple[int, int, int]:
    if not (isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value)):
        raise CatanFormatError(f"{what} must be [q, r, k] with three integers")
    q, r, k = value
    if (q, r) not in LAND or not 0 <= k < 6:
        raise CatanFormatError(f"{what} {value} is not on the board (q, r a land hex, k in 0–5)")
    return q, r, k


def _colour(value: Any, what: str) -> str:
    if value not in COLOURS:
        raise CatanFormatError(f"{what} has colour {value!r}; expected one of {', '.join(COLOURS)}")
    return value


def board_from_dict(doc: Any) -> CatanBoard:
    if not isinstance(doc, dict) or doc.get("game") != "catan":
        raise CatanFormatError("a Catan board is a JSON object with \"game\": \"catan\"")
    hexes: dict[Hex, tuple[str, int | None]] = {}
    for i, h in enumerate(doc.get("hexes", [])):
        if not isinstance(h, dict) or not isinstance(h.get("q"), int) or not isinstance(h.get("r"), int):
            raise CatanFormatError(f"hex #{i + 1} needs integer q and r")
        key = (h["q"], h["r"])
        if key not in LAND:
            raise CatanFormatError(f"hex #{i + 1} at q={key[0]}, r={key[1]} is not a land hex")
        if h.get("terrain") not in TERRAINS:
            raise CatanFormatError(f"hex #{i + 1} has terrain {h.get('terrain')!r}")
        number = h.get("number")
        if number is not None and (not isinstance(number, int) or not 2 <= number <= 12 or number == 7):
            raise CatanFormatError(f"hex #{i + 1} has number {number!r}; tokens are 2–6 and 8–12")
        hexes[key] = (h["terrain"], number)
    robber = doc.get("robber")
    if robber is not None:
        if not isinstance(robber, dict) or (robber.get("q"), robber.get("r")) not in LAND:
            raise CatanFormatError("the robber must be {\"q\": …, \"r\": …} on a land hex")
        robber = (robber["q"], robber["r"])
    buildings = []
    for i, b in enumerate(doc.get("buildings", [])):
        what = f"building #{i + 1}"
        if not isinstance(b, dict) or b.get("kind") not in ("settlement", "city"):
            raise CatanFormatError(f"{what} needs kind 'settlement' or 'city'")
        name = _triple(b.get("at"), f"{what} 'at'")
        buildings.append(Building(_colour(b.get("colour"), what), b["kind"], crossing_key(name[:2], name[2]), name))
    roads = []
    for i, r in enumerate(doc.get("roads", [])):
        what = f"road #{i + 1}"
        if not isinstance(r, dict):
            raise CatanFormatError(f"{what} must be an object")
        name = _triple(r.get("at"), f"{what} 'at'")
        roads.append(Road(_colour(r.get("colour"), what), edge_key(name[:2], name[2]), name))
    counts = {}
    for key in ("knights", "vp_cards"):
        value = doc.get(key, {})
        if not isinstance(value, dict) or not all(isinstance(v, int) and v >= 0 for v in value.values()):
            raise CatanFormatError(f"'{key}' must map colours to counts")
        counts[key] = {_colour(c, key): v for c, v in value.items()}
    holder = doc.get("longest_road_holder")
    if holder is not None:
        _colour(holder, "longest_road_holder")
    return CatanBoard(hexes, robber, tuple(buildings), tuple(roads), counts["knights"], counts["vp_cards"], holder)


def board_to_dict(board: CatanBoard) -> dict:
    return {
        "game": "catan",
        "hexes": [{"q": q, "r": r, "terrain": t, "number": n} for (q, r), (t, n) in sorted(board.hexes.items())],
        "robber": None if board.robber is None else {"q": board.robber[0], "r": board.robber[1]},
        "buildings": [{"colour": b.colour, "kind": b.kind, "at": list(b.name)} for b in board.buildings],
        "roads": [{"colour": r.colour, "at": list(r.name)} for r in board.roads],
        "knights": board.knights, "vp_cards": board.vp_cards, "longest_road_holder": board.longest_road_holder,
    }
