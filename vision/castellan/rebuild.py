"""The kept reading mended: steps taken once the look is kept, where the rules and the photo tell how (walls
hidden behind keeps, thin towers that are a long wall's middle, open walls read across breaks, on grey blurred
into the table, grown long across a short break, or through a tower; towers where those end; long walls over the
boxes' count split, `box_count_splits`).

They run after the look is weighed because walls and towers weigh in the lens's fit and in how looks are
compared (by the rules their readings break): taken in earlier, each moved pieces far from where it acted.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np

from tablesight.calibration.pieces import PieceDimensions, PieceProfile
from tablesight.vision.castellan.box_count_splits import long_walls_split_to_the_box_count
from tablesight.vision.castellan.box_limits import box_holds_another_long_wall, run_joined, short_walls_over_the_box
from tablesight.vision.castellan.carving import card_mask, carve, grey_mixed_into_the_table, keep_coloured
from tablesight.vision.castellan.hidden_towers import open_ends_behind_keeps
from tablesight.vision.castellan.hidden_walls import (
    hidden_wall_note,
    kept_in_place_of_open_walls,
    wall_note,
    walls_hidden,
    without_open_walls_within,
)
from tablesight.vision.castellan.looks import WALL_TOP_SHARE
from tablesight.vision.castellan.open_end_towers import towers_at_late_open_ends, towers_short_of_open_long_walls
from tablesight.vision.castellan.overlong_runs import read_towers_in_overlong_runs
from tablesight.vision.castellan.reading import (
    PhotoReading,
    board_of,
    kept_if_fewer_broken,
    pose_known,
    rules_broken_now,
)
from tablesight.vision.castellan.specks import join_apart_by_steps
from tablesight.vision.castellan.thin_towers import (
    OFF_CENTRE_MM,
    THIN_SHARE,
    CarvedTowers,
    hidden_by_a_keep_in_part,
    off_centre_mm,
    thin_towers_in_runs,
)
from tablesight.vision.castellan.timing import timed
from tablesight.vision.castellan.towers import TowerReading, median_seen_radius
from tablesight.vision.castellan.towers_in_long_walls import height_step, stands_above
from tablesight.vision.castellan.wall_gaps import long_walls_split_at_gaps
from tablesight.vision.castellan.wall_steps import walls_seen_by_their_step
from tablesight.vision.castellan.walls import (
    OPEN_RUN_GAP_SHARE,
    OPEN_WALL_SHIFT_MM,
    WallReading,
    castle_axis,
    far_end,
    find_walls,
    open_walls_at_free_sockets,
    open_walls_grown_long,
    open_walls_past_unseen_starts,
    open_walls_through_towers,
    ray_steps,
    solid_along,
    span_free,
    walls_half_seen,
    without_open_walls_across_walls,
)

# An open short wall is read on as a long one across a break (a third of a tower's width, 8 mm of a long wall's 104)
# without the box's word only where the long wall's body is seen all but that break: a short wall's end and a
# stripe's border beyond it carve a body seen in part (sample 010: 0.8 of it, grown long wrongly when tried). The
# open walls so grown right over 288 photos (samples, fresh 12400-12900) were seen 0.93-1.0.
GROWN_SEEN_SHARE = 0.9
# The card's sheet and a margin are never read as castle (`carving.card_mask`), so a wall running onto the card shows
# only up to there: an open short wall whose strip is seen solid (ONTO_CARD_SEEN_SHARE of it) right up to the card,
# past a short wall's body by ONTO_CARD_BEYOND_MM or more, the rest of a long wall's body on the card (or seen again
# beyond it), is an open long wall (samples 011 and 024: an open long wall ending on the card, read short).
ONTO_CARD_SEEN_SHARE = 0.9
ONTO_CARD_BEYOND_MM = 8.0



def rebuild(reading: PhotoReading, profile: PieceProfile) -> None:
    """The kept reading's walls mended where the rules and the photo tell how (walls hidden behind keeps, thin
    towers that are a long wall's middle, open walls read across breaks, grown long across a short break, onto
    the card or through a tower; long walls over the boxes' count split), its board made again."""
    with timed(reading.timings_ms, "rebuild"):
        _apart_joined_by_steps(reading, profile)
        _walls_behind_keeps_left(reading, profile)
        _thin_towers_as_long_walls(reading, profile)
        axis = _open_walls_across_breaks(reading, profile)
        if axis is not None:
            _open_walls_past_shade(reading, profile, axis)
            _open_walls_on_grey_mixed_into_the_table(reading, profile, axis)
            _open_walls_grown_long(reading, profile, axis)
        _open_walls_onto_the_card(reading, profile)
        _open_walls_through_towers(reading, profile)
        towers_at_late_open_ends(reading, profile)
        towers_short_of_open_long_walls(reading, profile)
        read_towers_in_overlong_runs(reading, profile)
        long_walls_split_at_gaps(reading, profile)
        long_walls_split_to_the_box_count(reading, profile)
        half_seen_walls_the_rules_need(reading, profile)
        walls_seen_by_step_the_rules_need(reading, profile)
        _open_ends_behind_keeps_marked(reading, profile)


def _open_ends_behind_keeps_marked(reading: PhotoReading, profile: PieceProfile) -> None:
    """The open walls whose open end keeps in front hide (`open_ends_behind_keeps`) marked so, to be listed in doubt."""
    if reading.planes is None or reading.region is None:
        return
    for i in open_ends_behind_keeps(reading.walls, reading.planes.cover.walls, reading.region, profile.dimensions):
        reading.walls[i] = replace(reading.walls[i], end_hidden=True)


def _open_walls_onto_the_card(reading: PhotoReading, profile: PieceProfile) -> None:
    """Each open short wall running onto the card (`_runs_onto_the_card`) read as an open long wall while the box
    holds another, named in the notes."""
    if reading.board is None or reading.view is None or reading.wall_solid is None or not reading.view.card.seen:
        return
    card = card_mask(reading.region, seen=True)
    dims, changed = profile.dimensions, False
    for i, wall in enumerate(reading.walls):
        if wall.kind != "short" or wall.end is not None or not _runs_onto_the_card(reading, wall, card, dims):
            continue
        if not box_holds_another_long_wall(reading.towers, reading.walls, reading.keep_colours):
            break
        origin, direction = _open_wall_ray(reading, wall)
        end = origin + direction * dims.centre_spacing("long")
        reading.walls[i] = replace(wall, kind="long", open_point=(float(end[0]), float(end[1])))
        reading.notes.append(f"the open short wall from the tower at ({origin[0]:.0f}, {origin[1]:.0f}) mm runs on "
                             f"onto the reference card, where pieces are not read: read as an open long wall")
        changed = True
    if changed:
        reading.board = board_of(reading)


def _runs_onto_the_card(reading: PhotoReading, wall: WallReading, card: np.ndarray, dims: PieceDimensions) -> bool:
    """Whether an open wall's strip is seen solid right up to the card's mask, past a short wall's body, and the rest
    of a long wall's body along it lies on the card or is seen beyond it."""
    origin, direction = _open_wall_ray(reading, wall)
    start, stop = dims.tower_radius + 2, dims.centre_spacing("long") - dims.tower_radius
    steps = ray_steps(start, stop)  # where `solid_along` samples
    on_card = reading.region.sample(card, origin + np.outer(steps, direction)).astype(bool)
    if not on_card.any():
        return False
    seen = solid_along(reading.wall_solid, reading.region, origin, direction, start, stop)
    card_from = int(np.argmax(on_card))
    if steps[card_from] < dims.centre_spacing("short") - dims.tower_radius + ONTO_CARD_BEYOND_MM:
        return False
    # Seen up to the card; past it, the rest of the long wall's body on the card or seen again beyond it.
    return (float(seen[:card_from].mean()) >= ONTO_CARD_SEEN_SHARE
            and float((on_card | seen)[card_from:].mean()) >= ONTO_CARD_SEEN_SHARE)


def _open_wall_ray(reading: PhotoReading, wall: WallReading) -> tuple[np.ndarray, np.ndarray]:
    """An open wall's tower (table mm) and the unit direction it leaves by."""
    origin = np.asarray(reading.towers[wall.start].position, float)
    reach = np.asarray(wall.open_point, float) - origin
    return origin, reach / max(float(np.linalg.norm(reach)), 1e-9)


def _walls_behind_keeps_left(reading: PhotoReading, profile: PieceProfile) -> None:
    """The walls hidden behind keeps that the rules did not call for (`PieceInference.walls_the_rules_need`), each
    added to the kept reading, named in the notes and listed as a doubt. Neither the photo nor the rules can
    tell: without the wall its courtyard merges with the next, and a courtyard left unclaimed (C5, a claim
    forgotten) reads as legal merged with a claimed one. The castle's build decides: it grows wall by wall,
    and towers a span apart along its axes are nearly always joined (in the simulator's games 96 % a short
    span apart, 90 % a long one with nothing between). After the look is kept, so that how looks are
    weighed (by the rules their readings break) stays as it was."""
    if reading.board is None or reading.planes is None or reading.wall_solid is None or not pose_known(reading):
        return
    hidden = walls_hidden(reading, reading.wall_solid, reading.region, reading.planes, profile.dimensions)
    for wall in hidden:
        reading.walls[:] = [*without_open_walls_within(reading, wall), wall]
        reading.notes.append(hidden_wall_note(wall, reading, "its towers stand a span apart"))
    if hidden:
        reading.board = board_of(reading)


def half_seen_walls_the_rules_need(reading: PhotoReading, profile: PieceProfile) -> None:
    """Walls between two towers a span apart seen along only part of their body (`walls_half_seen`: grey on a table
    of its own shade), each added where the board then breaks fewer rules (two courtyards read as one with two
    owners, C7; a keep outside every courtyard; open ends blocking each other), named in the notes and listed as a
    doubt. Last of the mending, so that only what the rules still lack is offered."""
    dims = profile.dimensions
    broken_and_axis = _rules_broken_and_axis(reading, dims) if reading.board is not None else None
    if broken_and_axis is None:
        return
    broken, axis = broken_and_axis
    for wall in walls_half_seen(reading.towers, reading.walls, reading.region, dims, axis, reading.wall_solid):
        reading.walls.append(wall)
        broken = kept_if_fewer_broken(reading, dims, broken, reading.walls.pop, wall_note(
            wall, reading, f"seen along only {wall.filled:.0%} of its length, was read", "without it the castle "
                                                                                          "breaks more rules"))
    reading.board = board_of(reading)


def walls_seen_by_step_the_rules_need(reading: PhotoReading, profile: PieceProfile) -> None:
    """Walls between two towers a span apart whose top steps from the table on both sides all along
    (`wall_steps`: grey the colour classes took for the table in shade), each added where the board then breaks
    fewer rules (in place of any open wall read along it), named in the notes and listed as a doubt. Last of the
    mending, after the walls half seen: weaker evidence. Only once the look is kept: on each look's reading (tried
    before towers standing apart are left out) a look that lost pieces was mended to read clean, and no other
    look was tried (fresh 14800-020: two towers lost so)."""
    broken_and_axis = _rules_broken_and_axis_for_steps(reading, profile.dimensions)
    if broken_and_axis is None:
        return
    broken, axis = broken_and_axis
    dims = profile.dimensions
    positions = np.array([t.position for t in reading.towers], float)  # towers are not added here, only walls
    for wall in list(walls_seen_by_their_step(reading.view, reading.towers, reading.walls, profile, axis)):
        closed = [w for w in reading.walls if w.end is not None]
        if not span_free(wall.start, wall.end, wall.kind, positions, reading.towers, closed, dims):
            continue  # a wall added just before leaves one of its towers this way
        note = wall_note(wall, reading, "seen only by its top's step from the table, was read",
                         "without it the castle breaks more rules")
        broken = kept_in_place_of_open_walls(reading, wall, dims, broken, note)
    reading.board = board_of(reading)


def _apart_joined_by_steps(reading: PhotoReading, profile: PieceProfile) -> None:
    """The towers set apart as specks joined to the castle by walls seen by their step (`specks.join_apart_by_steps`:
    a row whose walls the colour classes lost stands apart), kept only if the board breaks no more rules (it has
    fewer pieces stranded off the castle). First of the mending: the open walls mended after may run to them."""
    if not reading.apart.towers:
        return
    broken_and_axis = _rules_broken_and_axis_for_steps(reading, profile.dimensions)
    if broken_and_axis is None:
        return
    broken, axis = broken_and_axis
    before = (reading.towers, reading.walls, reading.apart, reading.stranded, list(reading.notes))
    if join_apart_by_steps(reading, profile, axis) and rules_broken_now(reading, profile.dimensions) > broken:
        reading.towers, reading.walls, reading.apart, reading.stranded, reading.notes = before
    reading.board = board_of(reading)


def _rules_broken_and_axis_for_steps(reading: PhotoReading, dims: PieceDimensions) -> tuple[int, float] | None:
    """`_rules_broken_and_axis` where walls can be measured by their step: a board read, its view and the camera's
    pose known (heights are projected); else None."""
    if reading.board is None or reading.view is None or not pose_known(reading):
        return None
    return _rules_broken_and_axis(reading, dims)


def _rules_broken_and_axis(reading: PhotoReading, dims: PieceDimensions) -> tuple[int, float] | None:
    """How many misread pieces the rules the reading breaks take, and the castle's axis; None if it breaks none
    (nothing for a wall offered on weak evidence to mend) or its walls' solid was not carved."""
    if reading.wall_solid is None:
        return None
    broken = rules_broken_now(reading, dims)
    if not broken:
        return None
    return broken, castle_axis(reading.towers, dims, reading.wall_solid, reading.region)


def _thin_towers_as_long_walls(reading: PhotoReading, profile: PieceProfile) -> None:
    """Towers between two short walls in line, far thinner than the photo's others (or thinner and off their
    run's middle) and showing no top above the walls (`thin_towers`), each read as the middle of one long
    wall while the box holds another (`box_limits`): named in the notes and listed as a doubt. After the look
    is kept, as the thin towers were measured."""
    if reading.board is None or reading.classes is None or not pose_known(reading):
        return
    hidden, median = keep_coloured(reading.classes), median_seen_radius(reading.towers)
    carved = None if reading.tower_solid is None else \
        CarvedTowers(reading.tower_solid, reading.region, profile.dimensions)
    standing: set[tuple[float, float]] = set()  # thin, but their tops stand above the walls, or kept for a reason
    while True:
        candidates = [c for c in thin_towers_in_runs(reading.towers, reading.walls, carved)
                      if reading.towers[c[0]].position not in standing]
        if not candidates:
            break
        i, pair = candidates[0]
        tower = reading.towers[i]
        ends = [far_end(reading.walls[n], i, reading.towers) for n in pair]
        u = (ends[1] - ends[0]) / max(float(np.linalg.norm(ends[1] - ends[0])), 1e-9)
        step = height_step(reading.view, reading.classes.grey, hidden, np.asarray(tower.position, float), u,
                           profile)
        if step is not None and stands_above(step):
            standing.add(tower.position)
            continue
        kept_for = _why_a_thin_tower_stands(reading, tower, profile.dimensions)
        if kept_for is not None:
            standing.add(tower.position)
            reading.notes.append(f"the tower read at ({tower.x:.0f}, {tower.y:.0f}) mm between two short walls in "
                                 f"line is thinner than the castle's other towers, but {kept_for}: kept as a tower — "
                                 f"check it")
            continue
        off = off_centre_mm(reading.towers, reading.walls, i, pair)
        reading.towers, reading.walls = run_joined(reading.towers, reading.walls, i, pair)
        reading.walls[-1] = replace(reading.walls[-1], through_thin_tower=True)
        far = "far " if tower.radius_mm < THIN_SHARE * median else ""
        off_middle = f", {off:.0f} mm off their run's middle," if off > OFF_CENTRE_MM else ""
        reading.notes.append(f"the tower read at ({tower.x:.0f}, {tower.y:.0f}) mm between two short walls in "
                             f"line is {far}thinner than the castle's other towers (its footprint "
                             f"{2 * tower.radius_mm:.0f} mm across, theirs {2 * median:.0f}){off_middle} and shows "
                             f"no top above the walls: read as the middle of one long wall — check it")
        reading.board = board_of(reading)


def _why_a_thin_tower_stands(reading: PhotoReading, tower: TowerReading, dims: PieceDimensions) -> str | None:
    """Why a thin tower showing no top above its walls is still a tower, for the notes, or None: first the box's count
    (it says for sure), then a keep in front hiding part of it (it only says why the tower carves thin)."""
    if not box_holds_another_long_wall(reading.towers, reading.walls, reading.keep_colours):
        # Every long wall the box holds is read elsewhere: this is a tower (fresh 12600-017, one hidden behind a
        # green double keep, its footprint 19 mm across against the castle's 28). It stays listed in doubt.
        return "every long wall the box holds is read elsewhere"
    if reading.planes is not None and hidden_by_a_keep_in_part(tower, reading.planes.cover.walls, reading.region,
                                                               dims):
        return "a keep in front hides part of it"
    return None


def _open_walls_across_breaks(reading: PhotoReading, profile: PieceProfile) -> float | None:
    """Open walls whose carved solid a short break cuts near their socket (a merlon's shade, a shadow's edge),
    read across breaks of up to OPEN_RUN_GAP_SHARE of a tower's width at the sockets no wall holds, and up to
    OPEN_WALL_SHIFT_MM beside a socket nothing leaves (a tower at the castle's edge read a few mm off its place,
    its open wall beside the ray from its centre: fresh 12000-025's two long walls). Once
    the look is kept: walls weigh in the lens's fit and the looks' rules, and reading them across breaks
    there moved other pieces (tried: 160 photos' long walls found +52, but twenty-two sets' scores exact
    536 -> 534). The castle's axis the walls were read along (None where none were read again)."""
    if reading.board is None or reading.wall_solid is None or reading.planes is None or not pose_known(reading):
        return None
    dims = profile.dimensions
    axis = castle_axis(reading.towers, dims, reading.wall_solid, reading.region)
    again = find_walls(reading.towers, reading.wall_solid, reading.region, dims, axis,
                       cover=reading.planes.cover, bridge_mm=OPEN_RUN_GAP_SHARE * dims.tower_diameter,
                       shift_mm=OPEN_WALL_SHIFT_MM)
    at_free_sockets = open_walls_at_free_sockets(reading.walls, again, reading.towers)
    added = without_open_walls_across_walls(reading.towers, at_free_sockets, dims, across=reading.walls)
    if added:
        reading.walls.extend(added)
        reading.board = board_of(reading)
    return axis


def _open_walls_past_shade(reading: PhotoReading, profile: PieceProfile, axis: float) -> None:
    """Open walls whose start by their tower is unseen (a neighbouring wall's shadow across it: see
    `open_walls_past_unseen_starts`), at the sockets still free once walls are read across short breaks; each
    named in the notes and listed to check. `axis`: the castle's, as `_open_walls_across_breaks` found it."""
    dims = profile.dimensions
    past_shade = open_walls_past_unseen_starts(reading.towers, reading.walls, reading.wall_solid, reading.region,
                                               dims, axis, OPEN_RUN_GAP_SHARE * dims.tower_diameter)
    past_shade = without_open_walls_across_walls(reading.towers, past_shade, dims, across=reading.walls)
    for wall in past_shade:
        x, y = reading.towers[wall.start].position
        reading.notes.append(f"an open {wall.kind} wall from the tower at ({x:.0f}, {y:.0f}) mm was read from "
                             f"{wall.unseen_start_mm:.0f} mm out, its start by the tower unseen (in shade?) — check it")
    if past_shade:
        reading.walls.extend(past_shade)
        reading.board = board_of(reading)


def _open_walls_on_grey_mixed_into_the_table(reading: PhotoReading, profile: PieceProfile, axis: float) -> None:
    """Open walls read again on the grey with what a phone's chroma smoothing mixed into a strongly coloured
    table (`grey_mixed_into_the_table`): at the sockets no wall holds, and open short walls that run on as
    long ones. Once the look is kept, as `_open_walls_across_breaks`: taken into the pixel classes, that
    grey moved the lens's fit and, through it, pieces far away (tried: 384 photos' scores exact 297 -> 293,
    though the lost walls were found). `axis`: the castle's, as `_open_walls_across_breaks` found it."""
    view, region, dims = reading.view, reading.region, profile.dimensions
    # A wall wholly lost reaches a long span out from the grey seen.
    grey = grey_mixed_into_the_table(view, reading.look, reading.classes,
                                     dims.centre_spacing("long") + dims.tower_diameter)
    if grey is None:
        return
    heights = reading.look.carve_heights(profile.wall_height, WALL_TOP_SHARE)
    solid = (carve(view, grey, heights, region) & ~card_mask(region, seen=view.card.seen)) | reading.wall_solid
    ends = Counter(i for w in reading.walls for i in (w.start, w.end) if i is not None)
    open_ends = {i for i in range(len(reading.towers)) if ends[i] < 4}

    def walls_on(footprint: np.ndarray) -> list[WallReading]:
        return find_walls(reading.towers, footprint, region, dims, axis, cover=reading.planes.cover,
                          only=open_ends, bridge_mm=OPEN_RUN_GAP_SHARE * dims.tower_diameter)

    again = walls_on(solid)
    grown = open_walls_grown_long(reading.walls, again, reading.towers)
    if grown:  # by the mixed grey, not by reading across a break alone (a pattern's border beyond a wall's end)
        anyway = {i for i, _ in open_walls_grown_long(reading.walls, walls_on(reading.wall_solid), reading.towers)}
        grown = [(i, w) for i, w in grown if i not in anyway]
    free = open_walls_at_free_sockets(reading.walls, again, reading.towers)
    kept = without_open_walls_across_walls(reading.towers, [w for _, w in grown] + free, dims,
                                           across=reading.walls)
    grown = [(i, w) for i, w in grown if w in kept]
    free = [w for w in free if w in kept]
    for i, wall in grown:
        reading.walls[i] = wall
    reading.walls.extend(free)
    if grown or free:
        reading.notes.append(f"{len(grown) + len(free)} open wall(s) read on grey blurred into the table's "
                             f"colour")
        reading.board = board_of(reading)


def _open_walls_grown_long(reading: PhotoReading, profile: PieceProfile, axis: float) -> None:
    """Open short walls read on as open long ones across short breaks (OPEN_RUN_GAP_SHARE of a tower's width, as
    `_open_walls_across_breaks` reads walls at free sockets), the most solid first, while the box holds another
    long wall: where the long wall's body is seen all but the break (GROWN_SEEN_SHARE), or, however little of it is
    seen, while the reading has more short walls than the box holds (the box says one is a long wall's: fresh
    12700-005, a yellow grid's dark line across an open long wall read as its end; 12500-016, a merlon's shade).
    Each named in the notes. `axis`: the castle's, as `_open_walls_across_breaks` found it."""
    only = {w.start for w in reading.walls if w.kind == "short" and w.end is None}
    if not only:
        return
    colours = reading.keep_colours
    over = short_walls_over_the_box(reading.towers, reading.walls, colours)
    dims = profile.dimensions
    again = find_walls(reading.towers, reading.wall_solid, reading.region, dims, axis, cover=reading.planes.cover,
                       only=only, bridge_mm=OPEN_RUN_GAP_SHARE * dims.tower_diameter)
    grown = open_walls_grown_long(reading.walls, again, reading.towers)
    kept = without_open_walls_across_walls(reading.towers, [w for _, w in grown], dims, across=reading.walls)
    grown = sorted(((i, w) for i, w in grown if w in kept), key=lambda g: -g[1].filled)
    changed = False
    for rank, (i, wall) in enumerate(grown):
        by_box = rank < over
        if not (by_box or wall.filled >= GROWN_SEEN_SHARE):
            break
        if not box_holds_another_long_wall(reading.towers, reading.walls, colours):
            break
        reading.walls[i] = wall
        changed = True
        x, y = reading.towers[wall.start].position
        why = "the box holds no further short wall" if by_box else f"{wall.filled:.0%} of its body seen"
        reading.notes.append(f"the open short wall from the tower at ({x:.0f}, {y:.0f}) mm was read on across a "
                             f"break as an open long wall: {why}")
    if changed:
        reading.board = board_of(reading)


def _open_walls_through_towers(reading: PhotoReading, profile: PieceProfile) -> None:
    """Open walls running through another tower read as the walls to it (`open_walls_through_towers`), each
    named in the notes. Once the look is kept: the walls joining two towers weigh in the lens's fit, and one
    to a tower read a little off its place would pull it."""
    if reading.board is None:
        return
    walls, joined = open_walls_through_towers(reading.towers, reading.walls, profile.dimensions)
    dropped = len(reading.walls) - len(walls)
    if not dropped and not joined:
        return
    reading.walls = walls
    if dropped:
        reading.notes.append(f"left out {dropped} open wall(s) running through a tower already joined to their "
                             f"own, or standing too near it for a wall between (walls only join towers)")
    for index in joined:
        a, b = reading.towers[walls[index].start], reading.towers[walls[index].end]
        reading.notes.append(f"an open wall from ({a.x:.0f}, {a.y:.0f}) mm ran through the tower at ({b.x:.0f}, "
                             f"{b.y:.0f}) mm (walls only join towers): read as the {walls[index].kind} wall to it "
                             f"— check it")
    reading.board = board_of(reading)
