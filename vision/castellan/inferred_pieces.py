"""Pieces the photo hides or shows too faintly, inferred where the castle needs them.

Walls only join towers, a courtyard is claimed by a keep standing in it, and a long wall is not two short walls and
a tower: a reading that breaks such rules is more likely a misreading than an illegal castle. Each piece inferred
here (a tower behind a keep or where a wall ends across a long wall, a wall hidden behind a keep, a keep of the
table's own colour) is kept only where the board then breaks fewer rules, and is named in the reading's notes for
a player to check. The towers and walls the first reading saw less surely (at open wall ends, in long walls' runs)
are joined to the castle here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.report import score_board
from tablesight.vision.castellan.box_limits import mend_split_long_walls
from tablesight.vision.castellan.carving import PixelClasses, keep_colours_of_the_table, keeps_apart
from tablesight.vision.castellan.corner_towers import (
    towers_where_walls_leave_long_walls,
    towers_where_walls_turn,
)
from tablesight.vision.castellan.courtyard_keeps import keeps_in_courtyards
from tablesight.vision.castellan.double_keeps import decide_doubles
from tablesight.vision.castellan.hidden_towers import (
    HiddenTower,
    corners_behind_keeps,
    hidden_towers,
    towers_another_look_saw,
    towers_in_runs_another_look_saw,
    walls_ending_on_long_walls,
)
from tablesight.vision.castellan.hidden_walls import hidden_wall_note, kept_in_place_of_open_walls, walls_hidden
from tablesight.vision.castellan.keep_fragments import keep_fragments_in_courtyards
from tablesight.vision.castellan.keeps import KeepPlanes, KeepReading, find_keeps, keep_planes, merge_close
from tablesight.vision.castellan.looks import misfit_rate, misfits
from tablesight.vision.castellan.reading import (
    PhotoReading,
    board_of,
    kept_if_fewer_broken,
    pose_known,
    report_of,
    rules_broken_now,
)
from tablesight.vision.castellan.timing import timed
from tablesight.vision.castellan.towers import OPEN_END_PROMINENCE, TowerReading, towers_at_open_ends
from tablesight.vision.castellan.towers_in_long_walls import towers_in_long_walls
from tablesight.vision.castellan.walls import (
    WallReading,
    castle_axis,
    find_walls,
    meeting_distance,
    merged_walls,
    split_at,
    split_at_towers_in_runs,
)
from tablesight.vision.table_view import Region, TableView

# A first reading whose broken rules and stranded pieces take more misread pieces a tower than this is no witness
# to the towers another look lost (of 320 generated photos' first readings whose towers were taken back: 0.06-0.13
# where all were right, 0.6 where one was its reading of the table's texture; two at 0.58 and 1.3 gained a tower).
MAX_WITNESS_MISFITS = 0.25
# A tower found only once holes in the grey were filled (`carving.glints_filled`) has this much of its top filled in:
# the hole in its middle (fresh 13800-023), not specks along the walls around it.
MIN_GLINT_IN_TOP_MM2 = 56.0  # half the largest hole filled (GLINT_MM2)
MAX_TURNING_ROUNDS = 3  # towers inferred where walls turn, then where the walls they hold turn, ...


@dataclass(frozen=True)
class PieceInference:
    """The pieces a reading's board needs, inferred for a piece profile (see the module's docstring)."""

    profile: PieceProfile

    def add_hidden_towers(self, view: TableView, classes: PixelClasses, region: Region, planes: KeepPlanes,
                          wall_solid: np.ndarray, reading: PhotoReading) -> None:
        """Towers unseen where several open walls end (see `hidden_towers`): behind keeps, or lost where the walls
        of two towers meet; each named in the notes."""
        dims = self.profile.dimensions
        found = hidden_towers(view, classes, reading.towers, reading.walls, reading.keeps, self.profile)
        for hidden in found:
            reading.notes.append(f"a tower at ({hidden.x:.0f}, {hidden.y:.0f}) mm, {_hiding(hidden)}, was inferred "
                                 f"from the {len(hidden.walls)} walls ending there (walls only join towers) — check it")
        self._join_towers([(h.tower(dims.tower_radius), h.walls) for h in found], wall_solid, region, planes, reading)

    def _towers_the_rules_need(self, view: TableView, classes: PixelClasses, region: Region, planes: KeepPlanes,
                               wall_solid: np.ndarray, reading: PhotoReading) -> None:
        """Towers hidden behind keeps where one open wall ends (`hidden_towers` with one wall), each kept,
        with the walls hidden behind keeps it then needs, where the board breaks fewer rules with them (most
        often: the courtyard a keep stands in closes at a corner the keep hides), and named in the notes."""
        dims = self.profile.dimensions
        broken = self._rules_broken(reading)
        tried: set[tuple[int, int]] = set()
        while broken:
            found = [h for h in hidden_towers(view, classes, reading.towers, reading.walls, reading.keeps,
                                              self.profile, min_walls=1) if (round(h.x), round(h.y)) not in tried]
            if not found:
                return
            hidden = found[0]
            tried.add((round(hidden.x), round(hidden.y)))
            before = list(reading.towers), list(reading.walls), list(reading.notes)
            self._join_towers([(hidden.tower(dims.tower_radius), hidden.walls)], wall_solid, region, planes, reading)
            self.walls_the_rules_need(wall_solid, region, planes, reading)

            def undo(before=before) -> None:
                reading.towers, reading.walls, reading.notes = before

            broken = self._kept_if_fewer_broken(reading, broken, undo, (
                f"a tower at ({hidden.x:.0f}, {hidden.y:.0f}) mm, {_hiding(hidden)}, was inferred from the wall ending "
                f"there: without it the castle breaks more rules — check it"))

    def _corners_the_rules_need(self, reading: PhotoReading) -> None:
        """Towers hidden behind keeps at a courtyard's corner, with their two walls (`corners_behind_keeps`), each
        kept in place of the open walls from its neighbours that ran towards it where the keep hiding it stood
        outside every courtyard and no longer does, and the board then breaks fewer rules; named in the notes. Only
        for such a keep: a corner offered to mend other broken rules took a messy reading further off (sample 021:
        the towers then read in long walls' runs put more short walls on the table than the box holds)."""
        broken, tried = self._rules_broken(reading), set()
        while broken:
            outside = self._keeps_outside(reading)
            if not outside:
                return
            found = [c for c in corners_behind_keeps(reading.view, reading.classes, reading.towers, reading.walls,
                                                     reading.keeps, self.profile)
                     if (round(c.x), round(c.y)) not in tried and (c.keep.x, c.keep.y) in outside]
            if not found:
                return
            corner = found[0]
            tried.add((round(corner.x), round(corner.y)))
            before = list(reading.towers), list(reading.walls)
            index = len(reading.towers)
            reading.walls = [w for i, w in enumerate(reading.walls) if i not in corner.open] + [
                WallReading("short", side, index, None, 0.0, inferred=True) for side in corner.sides]
            # Its other sockets read: an open wall read on through the corner ran on beyond it (fresh 17800-020).
            self._join_towers([(corner.tower(self.profile.dimensions.tower_radius), ())], reading.wall_solid,
                              reading.region, reading.planes, reading)

            def undo(before=before) -> None:
                reading.towers, reading.walls = before

            if (corner.keep.x, corner.keep.y) in self._keeps_outside(reading):
                undo()
                continue
            broken = self._kept_if_fewer_broken(reading, broken, undo, (
                f"a tower at ({corner.x:.0f}, {corner.y:.0f}) mm, hidden behind the {corner.keep.color} keep at a "
                f"courtyard's corner, was inferred with its two walls: without them the keep stands outside every "
                f"courtyard — check them"))

    def _keeps_outside(self, reading: PhotoReading) -> set[tuple[float, float]]:
        """Where the reading's keeps that stand outside every courtyard of its board stand (table mm)."""
        report = score_board(board_of(reading), self.profile.dimensions)
        outside = {w.where for w in report.warnings if w.code == "keep-outside-courtyard"}
        return {(k.x, k.y) for k, on_board in zip(reading.keeps, report.board.keeps, strict=True)
                if on_board.position in outside}

    def _towers_where_walls_end_on_long_walls(self, reading: PhotoReading) -> None:
        """A tower unseen where an open wall ends across the middle of a long wall (`walls_ending_on_long_walls`):
        the open wall joined to it, the long wall split into the two short walls joining it; each kept where the
        board then breaks fewer rules, and named in the notes (and listed to check: it may be absent). After the
        towers seen standing in long walls' runs (`split_long_walls_at_towers`): a tower seen is placed better."""
        broken, tried = self._rules_broken(reading), set()
        while broken:
            found = [f for f in walls_ending_on_long_walls(reading.towers, reading.walls, reading.keeps,
                                                            self.profile.dimensions) if f.middle not in tried]
            if not found:
                return
            tee = found[0]
            tried.add(tee.middle)
            before = list(reading.towers), list(reading.walls)
            # Joined as any tower added is: its sockets read, the long wall split where it now stands in its run.
            self._join_towers([(tee.tower(self.profile.dimensions.tower_radius), (tee.open_wall,))],
                              reading.wall_solid, reading.region, reading.planes, reading)

            def undo(before=before) -> None:
                reading.towers, reading.walls = before

            broken = self._kept_if_fewer_broken(reading, broken, undo, (
                f"a tower at ({tee.middle[0]:.0f}, {tee.middle[1]:.0f}) mm, where a wall ends across the middle of "
                f"a long wall, was inferred (walls only join towers): the long wall is two short walls and it — "
                f"check it"))

    def towers_the_first_look_saw(self, reading: PhotoReading, first: PhotoReading) -> None:
        """Towers the first look read where open walls of the look kept end (`towers_another_look_saw`: a look
        seeing less grey lost them, lit and whole, and kept their walls), each joined to those walls and its other
        sockets read, and those it read in the middle of a long wall of the look kept, that wall split into two
        short walls joining it (`towers_in_runs_another_look_saw`); named in the notes — unless the board then
        breaks more rules (fresh 11800-003: a corner
        tower of a pale castle on a pale table, lost with shadows taken for table; 11400-023: three towers at the
        castle's open ends). Not from a first reading that misread much (MAX_WITNESS_MISFITS per tower: sample
        056's read the table's texture as towers, 0.6 a tower, and one of them stood where an open wall ends)."""
        if reading.board is None or reading.planes is None or not pose_known(reading):
            return
        dims = self.profile.dimensions
        found = towers_another_look_saw(reading.towers, reading.walls, first.towers, dims)
        in_runs = towers_in_runs_another_look_saw(reading.towers, reading.walls, first.towers, dims)
        # The first board is scored again only where it has a tower to offer (`looked_again` weighed it once).
        if not (found or in_runs) or misfit_rate(misfits(first, report_of(first, dims)), first) > MAX_WITNESS_MISFITS:
            return
        with timed(reading.timings_ms, "rebuild"):
            broken, before = self._rules_broken(reading), (list(reading.towers), list(reading.walls))
            # Each one a doubt (`TowerReading.one_look`): the look kept, judged the better, did not see it.
            self._join_towers([(replace(t, one_look=True), walls) for t, walls in found], reading.wall_solid,
                              reading.region, reading.planes, reading)
            for tower, wall in in_runs:
                reading.towers = [*reading.towers, replace(tower, one_look=True)]
                reading.walls = [w for w in reading.walls if w is not wall] + split_at(wall, len(reading.towers) - 1)
            if self._rules_broken(reading) > broken:
                reading.towers, reading.walls = before
                return
            reading.notes.extend(f"a tower at ({t.x:.0f}, {t.y:.0f}) mm, where {_walls_end(len(walls))}, was read the "
                                 f"usual way though not with the colours seen as kept — check it" for t, walls in found)
            reading.notes.extend(f"a tower at ({t.x:.0f}, {t.y:.0f}) mm, in the middle of a long wall's run, was read "
                                 f"the usual way though not with the colours seen as kept: the run is two short walls "
                                 f"and it — check it" for t, _ in in_runs)
            reading.board = board_of(reading)

    def towers_after_the_look(self, reading: PhotoReading) -> None:
        """The kept reading's towers hidden behind keeps that the rules need (`_towers_the_rules_need`) and
        its long walls that are runs of two short walls and a tower (`split_long_walls_at_towers`), each
        added, and its board made again. Only once the look is kept: either makes a reading break fewer
        rules, and a look that lost part of the castle (fewer pieces, fewer rules to break) was kept over
        the one reading it whole."""
        if reading.board is None or reading.planes is None or not pose_known(reading):
            return
        with timed(reading.timings_ms, "rebuild"):
            towers = len(reading.towers)
            self._towers_the_rules_need(reading.view, reading.classes, reading.region, reading.planes,
                                        reading.wall_solid, reading)
            self._corners_the_rules_need(reading)
            self.split_long_walls_at_towers(reading.view, reading.classes, reading.region, reading.planes,
                                             reading.wall_solid, reading)
            self._towers_where_walls_end_on_long_walls(reading)
            self._towers_where_walls_leave_long_walls(reading)
            if len(reading.towers) == towers:
                return
            # A wall leaving such a tower sideways confirms it (C1: walls join towers): no doubt left.
            for i, tower in enumerate(reading.towers):
                if tower.in_run and sum(i in (w.start, w.end) for w in reading.walls) > 2:
                    reading.towers[i] = replace(tower, in_run=False)
            reading.towers, reading.walls, notes = mend_split_long_walls(
                reading.towers, reading.walls, reading.keep_colours, self.profile.dimensions)
            reading.notes.extend(notes)
            reading.board = board_of(reading)

    def keeps_the_rules_need(self, reading: PhotoReading) -> None:
        """Keeps the colour masks missed, told by how they stand apart from the table around them, each added
        where the board then breaks fewer rules (most often: it claims an enclosed courtyard no keep read
        claims, C5) and named in the notes. Elsewhere such a patch is more likely the table's pattern seen
        between walls (beside another colour's keep, outside every courtyard) than a keep. Only once the
        look is kept, and only while the board breaks rules: keeps of a colour the table has in part, told by
        their step from the pattern around them (`keeps_apart`), then keep-sized patches standing out in the
        courtyards still unclaimed (`keeps_in_courtyards`: a red keep on a red cloth). Without the card too, through
        the pose the castle gave: a keep's colour is told from the table around it whatever the scale (fresh
        15100-006: the card cut off by the photo's edge, five red keeps on a red cloth)."""
        if reading.board is None or reading.raw_classes is None or reading.view is None:
            return
        broken = self._rules_broken(reading)
        if not broken:
            return
        with timed(reading.timings_ms, "keeps"):
            broken = self._keeps_apart_the_rules_need(reading, broken)
            if broken:
                broken = self._keeps_in_unclaimed_courtyards(reading, broken)
            if broken:
                self._keep_fragments_in_unclaimed_courtyards(reading, broken)
            reading.board = board_of(reading)

    def _keeps_apart_the_rules_need(self, reading: PhotoReading, broken: int) -> int:
        apart = keeps_apart(reading.view, reading.look, reading.raw_classes.keeps)
        if not apart:
            return broken
        planes = keep_planes(reading.view, PixelClasses(reading.classes.grey, apart), reading.region, self.profile,
                             apart)
        found = merge_close(find_keeps(reading.view, planes, reading.region, self.profile),
                            self.profile.dimensions.keep_side)
        for keep in found:
            reading.keeps.append(replace(decide_doubles([keep], planes.tables_colours)[0], inferred=True))
            broken = self._kept_if_fewer_broken(reading, broken, reading.keeps.pop, (
                f"a {keep.color} keep at ({keep.x:.0f}, {keep.y:.0f}) mm, of a colour the table has, was read "
                f"where the castle needs it (without it the board breaks more rules) — check it"))
        return broken

    def _keeps_in_unclaimed_courtyards(self, reading: PhotoReading, broken: int) -> int:
        unclaimed, claimed = self._courtyards_unclaimed_and_claimed(reading)
        table_colours = keep_colours_of_the_table(reading.view, reading.look)
        towers = np.array([[t.x, t.y] for t in reading.towers], np.float64).reshape(-1, 2)
        for found in keeps_in_courtyards(reading.view, reading.classes.grey, list(reading.classes.keeps.values()),
                                         unclaimed, towers, self.profile, [(k.x, k.y) for k in reading.keeps],
                                         claimed):
            reading.keeps.append(_inferred_keep(found.color, found.x, found.y))
            # What kept it from the colour masks, as far as the reading can tell (fresh 15700-014: a wine-red keep,
            # too dark for them, on an olive table).
            why = "of nearly the table's colour" if found.color in table_colours else "missed by the colour masks"
            broken = self._kept_if_fewer_broken(reading, broken, reading.keeps.pop, (
                f"a {found.color} keep at ({found.x:.0f}, {found.y:.0f}) mm, {why}, was read in a courtyard no other "
                f"keep claims ({found.evidence}) — check it"))
        return broken

    def _keep_fragments_in_unclaimed_courtyards(self, reading: PhotoReading, broken: int) -> None:
        """Keeps whose colour is seen only in patches (`keep_fragments_in_courtyards`: a roof bleached by a flash,
        the body hidden by the walls in front), in the courtyards still unclaimed; each kept where the board then
        breaks fewer rules, and named in the notes."""
        unclaimed, claimed = self._courtyards_unclaimed_and_claimed(reading)
        # The table's own keep colours are looked at too: the claimed courtyards' level (`CLAIMED_FACTOR`) holds back
        # a cloth's specks of its colour, and a blue keep on a blue cloth was read so (fresh 15300-025). (Until
        # session 107 they were meant to be left out, but `table_keep_colours` is only learnt later in the reading:
        # nothing was left out, and every figure measured was with them.)
        keeps_mm = [(k.x, k.y) for k in reading.keeps]
        for found in keep_fragments_in_courtyards(reading.view, reading.classes.keeps, unclaimed, keeps_mm,
                                                  self.profile, claimed):
            reading.keeps.append(_inferred_keep(found.color, found.x, found.y))
            broken = self._kept_if_fewer_broken(reading, broken, reading.keeps.pop, (
                f"a {found.color} keep at ({found.x:.0f}, {found.y:.0f}) mm, its colour seen only in patches "
                f"({found.area_mm2:.0f} mm², its faces bleached by the light or hidden by the walls), was read in a "
                f"courtyard no other keep claims — check it"))
            if not broken:
                return

    def _courtyards_unclaimed_and_claimed(self, reading: PhotoReading) -> tuple[list, list]:
        """The polygons (table mm) of the reading's courtyards no keep claims, and of those keeps claim."""
        report = score_board(board_of(reading), self.profile.dimensions)
        return ([c.polygon for c in report.courtyards if not c.keeps],
                [c.polygon for c in report.courtyards if c.keeps])

    def split_long_walls_at_towers(self, view: TableView, classes: PixelClasses, region: Region,
                                   planes: KeepPlanes, wall_solid: np.ndarray, reading: PhotoReading) -> None:
        """Long walls whose middle is a tower standing above them (see `towers_in_long_walls`) read as the
        two short walls and the tower they are, each named in the notes."""
        found = towers_in_long_walls(view, classes, reading.towers, reading.walls, self.profile)
        new = []
        for split in found:
            tower, ending = split.tower, []
            joined_as = len(reading.towers) + len(new)  # the index `_join_towers` gives it
            # Each long wall becomes a short wall open where the tower stands, and the other half a short wall
            # from the tower it reached (open where the tower stands too) or from the tower to its open end;
            # the tower joins them and its sockets are read, which finds any wall leaving sideways.
            for index in split.walls:
                wall = reading.walls[index]
                reading.walls[index] = replace(wall, kind="short", end=None, open_point=tower.position)
                ending.append(index)
                if wall.end is not None:
                    reading.walls.append(replace(wall, kind="short", start=wall.end, end=None,
                                                 open_point=tower.position))
                    ending.append(len(reading.walls) - 1)
                else:
                    reading.walls.append(replace(wall, kind="short", start=joined_as))
            new.append((tower, tuple(ending)))
            reading.notes.append(f"a tower at ({tower.x:.0f}, {tower.y:.0f}) mm, standing above the walls in the "
                                 f"middle of a long wall's run, was read: the run is two short walls and it — "
                                 f"check it")
        self._join_towers(new, wall_solid, region, planes, reading)

    def add_towers_at_open_ends(self, tower_solid: np.ndarray, wall_solid: np.ndarray, region: Region,
                                planes: KeepPlanes, reading: PhotoReading, filled: np.ndarray | None = None,
                                prominence_share: float = OPEN_END_PROMINENCE, wide_as_walls: bool = False,
                                min_radius_mm: float = 0.0) -> None:
        """Towers where open walls end, found as `towers_at_open_ends` finds them: as wide as a tower, and by default
        standing out less from the walls around them than `find_towers` asks. `filled` (over the region): where the
        tower solid was filled in (`carving.glints_filled`), if it was: then only towers whose top holds
        MIN_GLINT_IN_TOP_MM2 of it. `prominence_share` and `wide_as_walls`: what is asked of a tower's widening and
        width (see `towers_at_open_ends`); `min_radius_mm`: the inscribed radius asked besides."""
        dims = self.profile.dimensions
        open_walls = [i for i, w in enumerate(reading.walls) if w.end is None]
        points = [np.array(reading.walls[i].open_point) for i in open_walls]
        meet = meeting_distance(dims)
        new = []
        for tower in towers_at_open_ends(tower_solid, region, dims, points, reading.towers, prominence_share,
                                         wide_as_walls):
            if tower.radius_mm < min_radius_mm or (filled is not None and region.area_within(
                    filled, tower.position, dims.tower_radius) < MIN_GLINT_IN_TOP_MM2):
                continue
            ending = tuple(i for i, p in zip(open_walls, points, strict=True)
                           if np.hypot(*(p - tower.position)) < meet)
            new.append((tower, ending))
        self._join_towers(new, wall_solid, region, planes, reading)

    def add_towers_where_walls_turn(self, wall_solid: np.ndarray, region: Region, planes: KeepPlanes,
                                    reading: PhotoReading) -> None:
        """Towers the carving lost where open walls end and a wall not read yet leaves across them (see
        `towers_where_walls_turn`), each named in the notes; again from the towers added, whose own walls may
        end open where another such tower stands. Not through a look taking every step from the table around for
        plastic: it takes broad shade for plastic too, and a wall body in its solid is no sure sign of a wall
        (tests/data's grey castle on a JPEG-blocked table: a false tower 123 mm from any)."""
        if reading.look.local_steps:
            return
        dims = self.profile.dimensions
        for _ in range(MAX_TURNING_ROUNDS):
            axis = castle_axis(reading.towers, dims, wall_solid, region)
            new = towers_where_walls_turn(reading.towers, reading.walls, wall_solid, region, dims, axis, planes.cover)
            if not new:
                return
            for tower, _ending in new:
                reading.notes.append(f"a tower at ({tower.x:.0f}, {tower.y:.0f}) mm was inferred where a wall ends "
                                     f"and another leaves across it (walls only join towers) — check it")
            self._join_towers(new, wall_solid, region, planes, reading)

    def _towers_where_walls_leave_long_walls(self, reading: PhotoReading) -> None:
        """Towers the carving lost in the middle of long walls' runs where a wall not read yet leaves across
        (`towers_where_walls_leave_long_walls`): each tower added, its long wall made the two short walls joining it
        (the far one open where the long wall was) and the walls leaving it across added; each named in the notes.
        After the towers seen standing in long walls' runs: one seen is read with all its walls. Not through a look
        taking every step from the table for plastic (see `add_towers_where_walls_turn`)."""
        if reading.look.local_steps:
            return
        dims = self.profile.dimensions
        axis = castle_axis(reading.towers, dims, reading.wall_solid, reading.region)
        tees = towers_where_walls_leave_long_walls(reading.towers, reading.walls, reading.wall_solid, reading.region,
                                                   dims, axis, reading.planes.cover)
        for tee in tees:
            index, wall = len(reading.towers), reading.walls[tee.long_wall]
            reading.towers.append(tee.tower)
            wall = replace(wall, kind="short", middle_hidden=False)
            reading.walls[tee.long_wall] = replace(wall, end=index, open_point=None)
            reading.walls.append(replace(wall, start=index))  # to the tower or open point the long wall reached
            reading.walls.extend(replace(w, start=index) for w in tee.leaving)
            reading.notes.append(f"a tower at ({tee.tower.x:.0f}, {tee.tower.y:.0f}) mm was inferred where a wall "
                                 f"leaves the middle of a long wall's run across it (walls only join towers): the run "
                                 f"is two short walls and it — check it")
        if tees:
            reading.walls = split_at_towers_in_runs(reading.towers, reading.walls, dims)

    def _join_towers(self, new: list[tuple[TowerReading, tuple[int, ...]]], wall_solid: np.ndarray, region: Region,
                     planes: KeepPlanes, reading: PhotoReading) -> None:
        """Towers added to a reading, the open walls ending in each (indices) joined to it, and their other
        sockets read."""
        added = set()
        for tower, ending in new:
            index = len(reading.towers)
            added.add(index)
            reading.towers.append(tower)
            for i in ending:
                reading.walls[i] = replace(reading.walls[i], end=index, open_point=None)
        if added:
            dims = self.profile.dimensions
            axis = castle_axis(reading.towers, dims, wall_solid, region)
            again = find_walls(reading.towers, wall_solid, region, dims, axis, only=added, cover=planes.cover)
            merged = merged_walls(reading.walls, again, reading.towers)
            reading.walls = split_at_towers_in_runs(reading.towers, merged, dims)

    def walls_the_rules_need(self, wall_solid: np.ndarray, region: Region, planes: KeepPlanes,
                             reading: PhotoReading) -> None:
        """Walls hidden behind keeps (`walls_behind_keeps`), each added where the board with it breaks fewer
        rules (most often: it closes the courtyard a keep stands in), and named in the notes."""
        broken = self._rules_broken(reading)
        for wall in walls_hidden(reading, wall_solid, region, planes, self.profile.dimensions):
            broken = self._hidden_wall_kept_if_fewer_broken(reading, wall, broken)

    def _hidden_wall_kept_if_fewer_broken(self, reading: PhotoReading, wall: WallReading, broken: int) -> int:
        """`wall`, offered as hidden behind a keep, added in place of the open walls it takes in
        (`hidden_walls.without_open_walls_within`), and kept only if the board then breaks fewer rules."""
        return kept_in_place_of_open_walls(reading, wall, self.profile.dimensions, broken,
                                           hidden_wall_note(wall, reading, "without it the castle breaks more rules"))

    def _kept_if_fewer_broken(self, reading: PhotoReading, broken: int, undo: Callable[[], object], note: str) -> int:
        return kept_if_fewer_broken(reading, self.profile.dimensions, broken, undo, note)

    def _rules_broken(self, reading: PhotoReading) -> int:
        return rules_broken_now(reading, self.profile.dimensions)


def _inferred_keep(color: str, x: float, y: float) -> KeepReading:
    """A single keep read where the castle needs one, by a search that measures neither its height nor its lean."""
    return KeepReading(color, x, y, double=False, double_certain=False, top_height_mm=None, inferred=True)


def _hiding(hidden: HiddenTower) -> str:
    """What hides a tower inferred from the walls ending in it, for the notes."""
    return f"hidden behind the {hidden.keep.color} keep" if hidden.keep else "its body seen all round"


def _walls_end(count: int) -> str:
    return "an open wall ends" if count == 1 else f"{count} open walls end"
