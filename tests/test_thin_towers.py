"""Thin towers between two short walls in line: a long wall's middle, fattened (`thin_towers`)."""

import cv2
import numpy as np
import pytest

from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS
from tablesight.vision.castellan.box_limits import run_joined
from tablesight.vision.castellan.thin_towers import (
    HIDDEN_BY_KEEP_SHARE,
    MIN_WIDENING_SHARE,
    NARROW_SHARE,
    OFF_CENTRE_MM,
    OFF_CENTRE_SHARE,
    THIN_SHARE,
    CarvedTowers,
    hidden_by_a_keep_in_part,
    thin_towers_in_runs,
)
from tablesight.vision.castellan.towers import TowerReading, distance_map, widening_over_walls
from tablesight.vision.castellan.walls import WallReading
from tablesight.vision.table_view import Region

SPAN = DIMS.centre_spacing("short")
RADIUS = 14.0  # how wide this photo's towers read


def _castle(middle_radius: float, corner_radius: float = RADIUS,
            middle_off: float = 0.0) -> tuple[list[TowerReading], list[WallReading]]:
    """A courtyard two short spans by one: towers 0-1-2 along the bottom (tower 1 between two short walls in
    line, `middle_off` mm along them from their run's middle), 3-4-5 along the top; tower 3 at a corner, read
    as `corner_radius`."""
    places = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    towers = [TowerReading(SPAN * x, SPAN * y, RADIUS) for x, y in places]
    towers[1] = TowerReading(SPAN + middle_off, 0.0, middle_radius)
    towers[3] = TowerReading(0.0, SPAN, corner_radius)
    sides = [(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (2, 5)]
    return towers, [WallReading("short", a, b, None, 1.0) for a, b in sides]


def test_a_tower_far_thinner_than_the_photos_others_in_a_run_is_found():
    towers, walls = _castle(middle_radius=0.5 * RADIUS)
    assert thin_towers_in_runs(towers, walls) == [(1, (0, 1))]


def test_a_tower_as_wide_as_the_others_or_only_a_little_thinner_stays():
    assert thin_towers_in_runs(*_castle(middle_radius=RADIUS)) == []
    assert thin_towers_in_runs(*_castle(middle_radius=(THIN_SHARE + 0.05) * RADIUS)) == []


def test_a_thinner_tower_off_its_runs_middle_is_found_and_one_in_the_middle_stays():
    """Two short walls are one span each: a tower well off their run's middle makes them unequal, as a widening
    of a long wall anywhere along it does."""
    thinner = (THIN_SHARE + OFF_CENTRE_SHARE) / 2 * RADIUS
    off = OFF_CENTRE_MM + 2.0
    assert thin_towers_in_runs(*_castle(middle_radius=thinner, middle_off=off)) == [(1, (0, 1))]
    assert thin_towers_in_runs(*_castle(middle_radius=thinner, middle_off=-off)) == [(1, (0, 1))]
    assert thin_towers_in_runs(*_castle(middle_radius=thinner, middle_off=OFF_CENTRE_MM - 2.0)) == []
    # As wide as the castle's others, a tower off the middle is a tower (a castle built by hand).
    assert thin_towers_in_runs(*_castle(middle_radius=(OFF_CENTRE_SHARE + 0.05) * RADIUS, middle_off=off)) == []


def test_a_thin_tower_at_a_corner_is_no_long_wall():
    towers, walls = _castle(middle_radius=RADIUS, corner_radius=0.4 * RADIUS)
    assert thin_towers_in_runs(towers, walls) == []


def test_a_thin_tower_with_an_open_wall_beyond_it_is_an_open_long_walls_middle():
    """The same footprint rules judge it (session 102, over 416 photos: 6 of 7 such wall middles taken, no tower);
    a tower as wide as the castle's others stays, and the run joined is a long wall open where the short one was."""
    towers, walls = _castle(middle_radius=0.5 * RADIUS)
    walls[1] = WallReading("short", 1, None, (2 * SPAN, 0.0), 1.0)
    (tower, pair), = thin_towers_in_runs(towers, walls)
    _, joined = run_joined(towers, walls, tower, pair)
    assert joined[-1].kind == "long" and joined[-1].end is None and joined[-1].open_point == (2 * SPAN, 0.0)
    towers, walls = _castle(middle_radius=RADIUS)
    walls[1] = WallReading("short", 1, None, (2 * SPAN, 0.0), 1.0)
    assert thin_towers_in_runs(towers, walls) == []


def test_too_few_towers_seen_give_no_measure_to_go_by():
    towers = [TowerReading(SPAN * x, 0.0, RADIUS) for x in range(3)]
    towers[1] = TowerReading(SPAN, 0.0, 0.5 * RADIUS)
    walls = [WallReading("short", 0, 1, None, 1.0), WallReading("short", 1, 2, None, 1.0)]
    assert thin_towers_in_runs(towers, walls) == []


def test_towers_inferred_or_read_by_height_are_neither_measure_nor_candidates():
    towers, walls = _castle(middle_radius=0.5 * RADIUS)
    towers[1] = TowerReading(SPAN, 0.0, 0.5 * RADIUS, in_run=True)
    assert thin_towers_in_runs(towers, walls) == []


def test_the_run_joined_is_one_long_wall_between_the_towers_beyond():
    towers, walls = _castle(middle_radius=0.5 * RADIUS)
    (tower, pair), = thin_towers_in_runs(towers, walls)
    joined_towers, joined_walls = run_joined(towers, walls, tower, pair)
    assert len(joined_towers) == 5 and len(joined_walls) == 5
    (long_wall,) = [w for w in joined_walls if w.kind == "long"]
    ends = {joined_towers[long_wall.start].position, joined_towers[long_wall.end].position}
    assert ends == {(0.0, 0.0), (2 * SPAN, 0.0)}


def _carved(towers: list[TowerReading], walls: list[WallReading], wall_half_width: float) -> CarvedTowers:
    """The footprint the towers' radii were measured in: a disc of each tower's radius, each wall a band
    `wall_half_width` either side of its line (2 px per mm)."""
    region = Region(-40.0, -40.0, 2 * SPAN + 40.0, SPAN + 40.0, 2.0)
    solid = np.zeros(region.size[::-1], np.uint8)
    for t in towers:
        cv2.circle(solid, tuple(int(v) for v in region.to_pixels(t.position)), int(t.radius_mm * 2), 1, -1)
    for w in walls:
        a, b = (tuple(int(v) for v in region.to_pixels(towers[n].position)) for n in (w.start, w.end))
        cv2.line(solid, a, b, 1, int(2 * wall_half_width * 2))
    return CarvedTowers(solid > 0, region, DIMS)


def test_a_thinner_tower_hardly_wider_than_its_walls_at_their_widest_is_a_wall_fattened_all_along():
    """Fattened all along (a keep's shade beside it), a long wall clears `find_towers`' ring test at its widest
    point; a tower, however thin it reads, widens the footprint well beyond its walls."""
    towers, walls = _castle(middle_radius=(NARROW_SHARE - 0.05) * RADIUS)
    fattened = towers[1].radius_mm - 0.5 * MIN_WIDENING_SHARE * DIMS.tower_radius
    assert thin_towers_in_runs(towers, walls, _carved(towers, walls, fattened)) == [(1, (0, 1))]
    assert thin_towers_in_runs(towers, walls, _carved(towers, walls, DIMS.wall_thickness / 2)) == []
    assert thin_towers_in_runs(towers, walls) == []  # without the footprint, only its radius and place tell


def test_a_tower_as_wide_as_the_others_stays_however_fat_its_walls():
    towers, walls = _castle(middle_radius=RADIUS)
    assert thin_towers_in_runs(towers, walls, _carved(towers, walls, RADIUS - 0.5)) == []


def test_the_widening_is_the_towers_radius_over_its_walls_widest_clear_of_the_towers():
    towers, walls = _castle(middle_radius=RADIUS)
    carved = _carved(towers, walls, 5.0)
    dist = distance_map(carved.solid, carved.region)
    ends = [np.asarray(towers[0].position, float), np.asarray(towers[2].position, float)]
    assert widening_over_walls(dist, carved.region, DIMS, towers[1], ends) == pytest.approx(RADIUS - 5.0, abs=0.6)


def test_a_tower_a_keep_hides_in_part_is_told_from_one_clear_of_keeps():
    """A keep in front covering a share of the tower's disc: from HIDDEN_BY_KEEP_SHARE on, the tower is hidden in
    part (its thin footprint says nothing); a keep's cover beside the tower, clear of its disc, hides none of it."""
    region = Region(-50.0, -50.0, 50.0, 50.0, 2.0)
    tower = TowerReading(0.0, 0.0, 8.0)
    w, h = region.size
    cover = np.zeros((h, w), bool)
    x, y = region.to_pixels(np.array([0.0, 0.0])).astype(int)
    r = int(DIMS.tower_radius * region.px_per_mm)
    cover[:, x + r + 2:] = True  # a keep beside the tower
    assert not hidden_by_a_keep_in_part(tower, cover, region, DIMS)
    # A keep over the disc from half its radius out: a segment of 0.2 of it.
    cover[:, x + int(DIMS.tower_radius / 2 * region.px_per_mm):] = True
    disc = np.pi * DIMS.tower_radius ** 2
    assert region.area_within(cover, (0.0, 0.0), DIMS.tower_radius) > HIDDEN_BY_KEEP_SHARE * disc
    assert hidden_by_a_keep_in_part(tower, cover, region, DIMS)
