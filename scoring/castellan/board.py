"""The Castellan board model, in table millimetres (see shared/spec/setup.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

Point = tuple[float, float]


@dataclass(frozen=True)
class Tower:
    id: str
    x: float
    y: float

    @property
    def position(self) -> Point:
        return (self.x, self.y)


@dataclass(frozen=True)
class Wall:
    """A wall between two tower sockets; an end is `None` when no tower sits there.

    `start`/`end` are the tower-centre positions of the two ends (where a tower
    stands or would stand). They are required for open ends and optional otherwise.
    """

    id: str
    kind: str  # "short" or "long"
    ends: tuple[str | None, str | None]
    start: Point | None = None
    end: Point | None = None

    @property
    def is_closed(self) -> bool:
        return self.ends[0] is not None and self.ends[1] is not None


@dataclass(frozen=True)
class Keep:
    color: str
    x: float
    y: float
    double: bool = False

    @property
    def position(self) -> Point:
        return (self.x, self.y)

    @property
    def pieces(self) -> int:
        return 2 if self.double else 1


@dataclass(frozen=True)
class Board:
    towers: tuple[Tower, ...] = ()
    walls: tuple[Wall, ...] = ()
    keeps: tuple[Keep, ...] = ()
    game: str = field(default="castellan")

    def tower_map(self) -> dict[str, Tower]:
        return {t.id: t for t in self.towers}

    def wall_endpoints(self, wall: Wall, towers: dict[str, Tower] | None = None) -> tuple[Point, Point]:
        """Both ends of a wall as tower-centre positions (towers win over stored points)."""
        towers = towers if towers is not None else self.tower_map()
        a = towers[wall.ends[0]].position if wall.ends[0] is not None else wall.start
        b = towers[wall.ends[1]].position if wall.ends[1] is not None else wall.end
        assert a is not None and b is not None, "validated boards give every open end a position"
        return a, b

    def new_tower_id(self) -> str:
        """A tower id ("t<n>") the board does not use yet."""
        ids = {t.id for t in self.towers}
        number = len(self.towers) + 1
        while f"t{number}" in ids:
            number += 1
        return f"t{number}"

    def without_keep(self, index: int) -> Board:
        """The same board with its `index`-th keep taken off."""
        return replace(self, keeps=self.keeps[:index] + self.keeps[index + 1:])

    def transformed(self, angle_deg: float = 0.0, dx: float = 0.0, dy: float = 0.0) -> Board:
        """The same board rotated about the origin by `angle_deg` and then translated."""
        c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))

        def move(p: Point | None) -> Point | None:
            if p is None:
                return None
            return (c * p[0] - s * p[1] + dx, s * p[0] + c * p[1] + dy)

        return replace(
            self,
            towers=tuple(replace(t, x=move(t.position)[0], y=move(t.position)[1]) for t in self.towers),
            walls=tuple(replace(w, start=move(w.start), end=move(w.end)) for w in self.walls),
            keeps=tuple(replace(k, x=move(k.position)[0], y=move(k.position)[1]) for k in self.keeps),
        )
