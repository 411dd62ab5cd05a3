"""What the reader read from one photo: the board, the pieces behind it, and the evidence for the overlay."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tablesight.calibration.card_detection import CardDetection
from tablesight.calibration.colour_fringes import ColourFringes
from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.scoring.castellan.report import Report, score_board
from tablesight.vision.castellan.carving import PixelClasses
from tablesight.vision.castellan.keeps import KeepPlanes, KeepReading
from tablesight.vision.castellan.looks import Look, rules_broken
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading
from tablesight.vision.table_view import Region, TableView


@dataclass
class SetApart:
    """Towers left out as standing apart from the castle (`specks`), and the walls read from them (their `start` and
    `end` index `towers`)."""

    towers: list[TowerReading] = field(default_factory=list)
    walls: list[WallReading] = field(default_factory=list)


@dataclass
class PhotoReading:
    """What was read from one photo, with the evidence the overlay draws and the time each stage took."""

    board: Board | None
    card: CardDetection | None
    region: Region | None = None
    towers: list[TowerReading] = field(default_factory=list)
    walls: list[WallReading] = field(default_factory=list)
    keeps: list[KeepReading] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stranded: int = 0  # pieces seen but left off the castle: keep-coloured ones, and the towers `apart` holds
    apart: SetApart = field(default_factory=SetApart)  # those towers, offered again once walls are read otherwise
    # Towers the first look read where another look was kept (0 where the first was): the trust weighs it only
    # where clearly more than the kept look's (`trust.LOOK_LOST_TOWERS`: part of the castle may be lost in it).
    first_look_towers: int = 0
    # The castle's pieces the reading misread when its look was kept (`trust.look_misread`), and its towers then:
    # the pieces inferred after (towers and walls hidden behind keeps, in runs, at corners) mend broken rules, and a
    # reading that needed many of them to look legal is as likely misread as one still breaking them.
    look_misread: int = 0
    look_towers: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)
    # The evidence behind the pieces, for the stage views: the photo through the card, and its pixel classes.
    view: TableView | None = None
    classes: PixelClasses | None = None
    raw_classes: PixelClasses | None = None  # the same, of the photo as taken (for other looks to reuse)
    planes: KeepPlanes | None = None  # the keeps' carved planes (what they hide), for steps after the look is kept
    wall_solid: np.ndarray | None = None  # the walls' carved footprint on the reading's region, likewise
    tower_solid: np.ndarray | None = None  # the footprint carved at the towers' tops, where they were found
    look: Look | None = None  # how its colours were seen
    table_keep_colours: tuple[str, ...] = ()  # the keep colours the table has (a keep of one may hide on it)
    # The lens's colour fringes as measured on the card (taken out only where worth it); None if not measured.
    # A live camera's next frames reuse them: a lens does not change between frames.
    fringes: ColourFringes | None = None

    @property
    def keep_colours(self) -> set[str]:
        """The colours of the keeps read: the boxes they imply are in play (`box_limits`)."""
        return {k.color for k in self.keeps}


def report_of(reading: PhotoReading, dims: PieceDimensions) -> Report | None:
    """The reading's board scored (None without a board)."""
    return None if reading.board is None else score_board(reading.board, dims)


def rules_broken_now(reading: PhotoReading, dims: PieceDimensions) -> int:
    """How many misread pieces the rules the reading's pieces, as they stand, break take (`rules_broken`)."""
    return rules_broken(score_board(board_of(reading), dims))


def put_if_no_worse(reading: PhotoReading, dims: PieceDimensions, towers: list[TowerReading],
                    walls: list[WallReading], strictly_better: bool = False) -> bool:
    """The reading's towers and walls replaced by `towers` and `walls` if its board then breaks no more rules than
    before (fewer, if `strictly_better`); else left as they were. Whether they were put in."""
    broken, before = rules_broken_now(reading, dims), (reading.towers, reading.walls)
    reading.towers, reading.walls = towers, walls
    now = rules_broken_now(reading, dims)
    if now > broken or (strictly_better and now == broken):
        reading.towers, reading.walls = before
        return False
    return True


def kept_if_fewer_broken(reading: PhotoReading, dims: PieceDimensions, broken: int, undo: Callable[[], object],
                         note: str) -> int:
    """A piece just added to the reading, inferred where the rules need it: kept, and `note` added to the notes, if
    the board now breaks fewer rules than `broken`; else taken out again (`undo`). Returns how many the board breaks
    as it is left."""
    with_it = rules_broken_now(reading, dims)
    if with_it < broken:
        reading.notes.append(note)
        return with_it
    undo()
    return broken


def board_of(reading: PhotoReading) -> Board:
    """The board model of the reading's pieces as they stand (ids numbered in order, places to 0.1 mm)."""
    towers = tuple(Tower(f"t{i + 1}", round(t.x, 1), round(t.y, 1)) for i, t in enumerate(reading.towers))
    walls = []
    for n, w in enumerate(reading.walls):
        ends = (towers[w.start].id, towers[w.end].id if w.end is not None else None)
        walls.append(Wall(f"w{n + 1}", w.kind, ends, None, w.open_point))
    keeps = tuple(Keep(k.color, round(k.x, 1), round(k.y, 1), k.double) for k in reading.keeps)
    return Board(towers, tuple(walls), keeps)


def pose_known(reading: PhotoReading) -> bool:
    """Whether the reading's camera pose is known (not assumed straight above): pieces' heights need it."""
    return reading.card is not None and reading.card.focal_source != "assumed"
