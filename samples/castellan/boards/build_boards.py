"""Writes the hand-checked Castellan sample boards and their expected reports.

Each board is laid out here by hand on a 64 mm grid (nominal short-wall spacing)
and its expected courtyards, scores, winner and warnings were counted by hand,
not computed: the tests compare the scorer against these numbers.
Run: python samples/castellan/boards/build_boards.py
"""

from __future__ import annotations

import json
import math
from pathlib import Path

HERE = Path(__file__).parent
S = 64.0  # centre spacing of a short wall; a long wall spans 2 * S


class Layout:
    def __init__(self) -> None:
        self.towers: dict[tuple[float, float], str] = {}
        self.walls: list[dict] = []
        self.keeps: list[dict] = []

    def tower(self, i: float, j: float) -> str:
        key = (i * S, j * S)
        if key not in self.towers:
            self.towers[key] = f"t{len(self.towers) + 1}"
        return self.towers[key]

    def wall(self, a: tuple[float, float], b: tuple[float, float], open_end: bool = False) -> None:
        steps = math.hypot(b[0] - a[0], b[1] - a[1])
        kind = "short" if steps < 1.5 else "long"
        entry = {"id": f"w{len(self.walls) + 1}", "kind": kind, "ends": [self.tower(*a), None]}
        if open_end:
            entry["to"] = [b[0] * S, b[1] * S]
        else:
            entry["ends"][1] = self.tower(*b)
        self.walls.append(entry)

    def ring(self, *corners: tuple[float, float]) -> None:
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            self.wall(a, b)

    def keep(self, colour: str, i: float, j: float, double: bool = False) -> None:
        self.keeps.append({"color": colour, "x": i * S, "y": j * S, "double": double})

    def to_dict(self) -> dict:
        return {"game": "castellan",
                "towers": [{"id": t, "x": x, "y": y} for (x, y), t in self.towers.items()],
                "walls": self.walls, "keeps": self.keeps}


def yard(owner, towers, double=False):
    value = 0 if owner is None else towers * (2 if double else 1)
    return {"owner": owner, "double": double, "towers": towers, "value": value}


def square_grid(layout: Layout, cols: int, rows: int, x0: int = 0) -> None:
    """Short walls along every grid line of a cols × rows block of cells."""
    for j in range(rows + 1):
        for i in range(cols):
            layout.wall((x0 + i, j), (x0 + i + 1, j))
    for i in range(cols + 1):
        for j in range(rows):
            layout.wall((x0 + i, j), (x0 + i, j + 1))


def boards() -> dict[str, tuple[Layout, dict]]:
    out: dict[str, tuple[Layout, dict]] = {}

    b = Layout()  # long, short, long, short: 4 towers
    b.ring((0, 0), (2, 0), (2, 1), (0, 1))
    b.keep("red", 1, 0.5)
    out["plain-rectangle"] = (b, {"courtyards": [yard("red", 4)], "scores": {"red": 4},
                                  "winner": "red", "warnings": []})

    b = Layout()  # 2 × 2 square, top side of short walls, a spur tower pokes in from the top
    b.wall((0, 0), (2, 0)); b.wall((2, 0), (2, 2)); b.wall((0, 2), (0, 0))  # noqa: E702
    b.wall((2, 2), (1, 2)); b.wall((1, 2), (0, 2)); b.wall((1, 2), (1, 1))  # noqa: E702
    b.keep("red", 0.5, 0.5)
    out["spur-tower-inside"] = (b, {"courtyards": [yard("red", 6)], "scores": {"red": 6},
                                    "winner": "red", "warnings": []})

    b = Layout()  # 2 × 1 cells split by a middle wall: the two middle towers count on both sides
    square_grid(b, 2, 1)
    b.keep("red", 0.5, 0.5); b.keep("blue", 1.5, 0.5)  # noqa: E702
    out["split-shared-towers"] = (b, {"courtyards": [yard("red", 4), yard("blue", 4)],
                                      "scores": {"red": 4, "blue": 4},
                                      "winner": ["blue", "red"], "warnings": []})

    b = Layout()  # 2 × 2 cells: the centre tower touches all four courtyards
    square_grid(b, 2, 2)
    b.keep("red", 0.5, 0.5); b.keep("red", 1.5, 0.5); b.keep("red", 0.5, 1.5)  # noqa: E702
    b.keep("blue", 1.5, 1.5)
    out["tower-in-four-courtyards"] = (b, {
        "courtyards": [yard("red", 4)] * 3 + [yard("blue", 4)], "scores": {"red": 12, "blue": 4},
        "winner": "red", "warnings": []})

    b = Layout()  # two squares side by side, red's doubled
    square_grid(b, 2, 1)
    b.keep("red", 0.5, 0.5, double=True); b.keep("blue", 1.5, 0.5)  # noqa: E702
    out["double-keep"] = (b, {"courtyards": [yard("red", 4, True), yard("blue", 4)],
                              "scores": {"red": 8, "blue": 4}, "winner": "red", "warnings": []})

    b = Layout()  # a doubled courtyard split in two: only one half stays doubled
    square_grid(b, 3, 1)
    b.keep("red", 0.5, 0.5, double=True); b.keep("red", 1.5, 0.5); b.keep("blue", 2.5, 0.5)  # noqa: E702
    out["split-double-keep"] = (b, {
        "courtyards": [yard("red", 4, True), yard("red", 4), yard("blue", 4)],
        "scores": {"red": 12, "blue": 4}, "winner": "red", "warnings": []})

    b = Layout()
    square_grid(b, 2, 1)
    b.keep("red", 0.5, 0.5)
    out["unclaimed-courtyard"] = (b, {
        "courtyards": [yard("red", 4), yard(None, 4)], "scores": {"red": 4}, "winner": "red",
        "warnings": [["C5", "unclaimed-courtyard"]]})

    b = Layout()  # blue: one 8-tower courtyard = 8; red: a doubled 4-tower courtyard = 8, 2 keep pieces
    square_grid(b, 3, 1)
    b.wall((3, 0), (4, 0)); b.wall((4, 0), (4, 1)); b.wall((4, 1), (3, 1))  # noqa: E702
    b.walls = [w for i, w in enumerate(b.walls) if w["ends"] not in (["t2", "t6"], ["t3", "t7"])]
    b.keep("blue", 1.5, 0.5); b.keep("red", 3.5, 0.5, double=True)  # noqa: E702
    out["tie-break-keeps"] = (b, {"courtyards": [yard("blue", 8), yard("red", 4, True)],
                                  "scores": {"red": 8, "blue": 8}, "winner": "red", "warnings": []})

    b = Layout()  # a tower standing against a corner tower, not joined to anything
    b.ring((0, 0), (1, 0), (1, 1), (0, 1))
    b.keep("red", 0.5, 0.5)
    b.towers[(1 * S + 20.0, 1 * S + 10.0)] = "t99"
    out["c1-tower-contact"] = (b, {"courtyards": [yard("red", 4)], "scores": {"red": 4},
                                   "winner": "red",
                                   "warnings": [["C1", "tower-contact"], ["C4", "disconnected"]]})

    b = Layout()  # two long walls crossing in an X of right angles: wall–wall contact
    b.wall((0, 0), (2, 0)); b.wall((1, -1), (1, 1))  # noqa: E702
    out["c1-walls-crossing"] = (b, {"courtyards": [], "scores": {}, "winner": None,
                                    "warnings": [["C1", "wall-contact"], ["C4", "disconnected"]]})

    b = Layout()  # an open wall end pointing at the middle of a long wall: no room for a tower
    b.wall((0, 2), (2, 2)); b.wall((0, 2), (0, 1)); b.wall((0, 1), (1, 1))  # noqa: E702
    b.wall((1, 1), (1, 2), open_end=True)
    out["c2-no-room-for-tower"] = (b, {"courtyards": [], "scores": {}, "winner": None,
                                       "warnings": [["C2", "no-room-for-tower"]]})

    b = Layout()  # a spur wall leaving a square at 30 degrees
    b.ring((0, 0), (1, 0), (1, 1), (0, 1))
    b.keep("red", 0.5, 0.5)
    b.towers[(S + S * math.cos(math.radians(30)), S + S * math.sin(math.radians(30)))] = "t90"
    b.walls.append({"id": "w90", "kind": "short", "ends": [b.tower(1, 1), "t90"]})
    out["c3-off-axis"] = (b, {"courtyards": [yard("red", 4)], "scores": {"red": 4},
                              "winner": "red", "warnings": [["C3", "off-axis-wall"]]})

    b = Layout()  # a second little castle three squares away
    b.ring((0, 0), (1, 0), (1, 1), (0, 1)); b.wall((4, 0), (5, 0))  # noqa: E702
    b.keep("blue", 0.5, 0.5)
    out["c4-disconnected"] = (b, {"courtyards": [yard("blue", 4)], "scores": {"blue": 4},
                                  "winner": "blue", "warnings": [["C4", "disconnected"]]})

    b = Layout()
    b.ring((0, 0), (1, 0), (1, 1), (0, 1))
    b.keep("red", 0.5, 0.5); b.keep("blue", 3, 3)  # noqa: E702
    out["keep-outside-courtyard"] = (b, {"courtyards": [yard("red", 4)],
                                         "scores": {"red": 4, "blue": 0}, "winner": "red",
                                         "warnings": [["C5", "keep-outside-courtyard"]]})

    b = Layout()
    square_grid(b, 2, 1)
    b.keep("red", 0.3, 0.5); b.keep("blue", 0.7, 0.5); b.keep("blue", 1.5, 0.5)  # noqa: E702
    out["contested-courtyard"] = (b, {"courtyards": [yard(None, 4), yard("blue", 4)],
                                      "scores": {"red": 0, "blue": 4}, "winner": "blue",
                                      "warnings": [["C7", "contested-courtyard"]]})

    b = Layout()
    square_grid(b, 2, 1)
    b.keep("red", 0.5, 0.5, double=True); b.keep("red", 1.5, 0.5, double=True)  # noqa: E702
    out["c8-two-double-keeps"] = (b, {"courtyards": [yard("red", 4, True), yard("red", 4, True)],
                                      "scores": {"red": 16}, "winner": "red",
                                      "warnings": [["C8", "several-double-keeps"]]})

    b = Layout()  # 33 towers in a row: one more than a box holds
    for i in range(32):
        b.wall((i, 0), (i + 1, 0))
    out["too-many-towers"] = (b, {"courtyards": [], "scores": {}, "winner": None,
                                  "warnings": [[None, "too-many-pieces"], [None, "too-many-pieces"]]})
    return out


def main() -> None:
    for name, (layout, expected) in boards().items():
        (HERE / f"{name}.json").write_text(json.dumps(layout.to_dict(), indent=1) + "\n")
        (HERE / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")
        print("wrote", name)


if __name__ == "__main__":
    main()
