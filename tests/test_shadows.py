"""Cast shadows: the light from the walls' shadow bands, and single or double keeps from their own."""

import math

import cv2
import numpy as np

from tablesight.calibration.pieces import NOMINAL_PROFILE as PROFILE
from tablesight.vision.castellan.double_keeps import (
    SHADOW_OUTLIER_SHARE,
    _double_evidence,
    _shadow_outlier_share,
    decide_doubles,
)
from tablesight.vision.castellan.keeps import KeepReading
from tablesight.vision.castellan.shadows import (
    _band,
    double_shadow_share,
    find_shadows,
    grey_shadows,
    keeps_shade_as_the_walls_do,
    own_shadow_share,
)
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading
from tablesight.vision.table_view import Region

DIMS = PROFILE.dimensions
REGION = Region(0.0, 0.0, 400.0, 460.0, 2.0)
LIGHT = np.array([0.55, 0.35])  # mm of shadow per mm of height


def _castle_on_a_lit_table(doubles: dict[tuple[float, float], bool], light=LIGHT, depth=-1.0, keep_shadows=True):
    """Two long-walled courtyards seen on the table plane: the pieces' footprints (occupied), and the
    table's log brightness, lit (0) but where a piece's shadow falls (`depth`); a keep at each key of
    `doubles`, double or not, casting its shadow unless not `keep_shadows`."""
    towers = [TowerReading(x, y, DIMS.tower_radius) for y in (100.0, 228.0, 356.0) for x in (100.0, 228.0)]
    walls = [WallReading("long", 0, 1, None, 1.0), WallReading("long", 2, 3, None, 1.0),
             WallReading("long", 4, 5, None, 1.0), WallReading("long", 0, 2, None, 1.0),
             WallReading("long", 2, 4, None, 1.0), WallReading("long", 1, 3, None, 1.0),
             WallReading("long", 3, 5, None, 1.0)]
    occupied = np.zeros((REGION.size[1], REGION.size[0]), np.uint8)
    shadow = np.zeros_like(occupied)

    def fill(mask, outline):
        hull = cv2.convexHull(np.asarray(outline, np.float32))
        cv2.fillConvexPoly(mask, np.round(REGION.to_pixels(hull.reshape(-1, 2))).astype(np.int32), 1)

    circle = np.array([[math.cos(t), math.sin(t)] for t in np.linspace(0, 2 * math.pi, 24, endpoint=False)])
    pieces = [(np.array(t.position) + DIMS.tower_radius * circle, PROFILE.tower_height) for t in towers]
    for w in walls:
        a, b = np.array(towers[w.start].position), np.array(towers[w.end].position)
        n = np.array([-(b - a)[1], (b - a)[0]]) / np.linalg.norm(b - a) * DIMS.wall_thickness / 2
        pieces.append((np.array([a + n, a - n, b - n, b + n]), PROFILE.wall_height))
    half = DIMS.keep_side / 2
    for (x, y), double in doubles.items():
        square = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]])
        pieces.append((square, PROFILE.keep_height * (2 if double else 1) - PROFILE.keep_roof_height))
        apex = np.array([[x, y]]) + PROFILE.keep_height * (2 if double else 1) * light
        if keep_shadows:
            fill(shadow, np.vstack([square, apex]))
    for i, (outline, height) in enumerate(pieces):
        fill(occupied, outline)
        if keep_shadows or i < len(pieces) - len(doubles):
            fill(shadow, np.vstack([outline, outline + height * light]))
    rng = np.random.default_rng(3)
    log_table = np.where(shadow > 0, depth, 0.0) + rng.normal(0, 0.05, occupied.shape)
    near = cv2.dilate(occupied, np.ones((5, 5), np.uint8)) > 0
    return towers, walls, log_table.astype(np.float32), ~near


def test_the_lights_offset_is_read_from_the_walls_shadow_bands():
    towers, walls, log_table, free = _castle_on_a_lit_table({})
    shadows = find_shadows(log_table, free, REGION, towers, walls, 0.0, PROFILE)
    assert shadows is not None
    assert np.allclose(shadows.offset, LIGHT, atol=0.08)
    assert -1.2 < shadows.depth < -0.8


def test_no_light_is_read_without_a_shadow_band():
    towers, walls, log_table, free = _castle_on_a_lit_table({}, depth=0.0)  # a flash or an overcast sky
    assert find_shadows(log_table, free, REGION, towers, walls, 0.0, PROFILE) is None


def test_a_soft_shadows_edge_tells_no_width():
    hard = np.zeros(89)
    hard[44 + 7:44 + 20] = -1.0
    assert _band(hard, 0.02, 5.0) is not None
    soft = hard.copy()
    soft[44 + 7:44 + 35] = np.linspace(-1.0, 0.0, 28)  # fading over 28 mm
    assert _band(soft, 0.02, 5.0) is None


def test_a_double_keep_shades_the_table_a_singles_shadow_does_not_reach():
    single, double = (164.0, 164.0), (164.0, 292.0)
    towers, walls, log_table, free = _castle_on_a_lit_table({single: False, double: True})
    shadows = find_shadows(log_table, free, REGION, towers, walls, 0.0, PROFILE)
    usable = free & ~grey_shadows(shadows, towers, walls, PROFILE)
    single_share, noise = double_shadow_share(shadows, usable, np.array(single), [np.array(double)], PROFILE)
    double_share, _ = double_shadow_share(shadows, usable, np.array(double), [np.array(single)], PROFILE)
    assert single_share < 0.25 < 0.75 < double_share
    assert 0 < noise < 0.5


def test_a_keeps_shadow_weighs_in_where_its_lean_cannot_but_one_odd_shadow_decides_nothing_alone():
    def keep(shadow, colour="red", lean=None, span=0.0):
        return KeepReading(colour, 0.0, 0.0, False, False, None, lean, span, shadow_share=shadow, shadow_noise=0.3)

    assert decide_doubles([keep(1.0)])[0].double
    assert not decide_doubles([keep(0.0)])[0].double
    # A shadow far darker than any double's is as likely another shadow: it cannot outweigh a clear lean.
    clear_single = decide_doubles([keep(4.0, lean=0.0, span=20.0)])[0]
    assert not clear_single.double and clear_single.double_certain


def test_where_a_photos_single_keeps_often_read_shaded_a_lit_shadow_says_less_of_a_keeps_height():
    def keep(shadow, colour):
        return KeepReading(colour, 0.0, 0.0, False, False, None, shadow_share=shadow, shadow_noise=0.3)

    def photo(singles):  # each colour: one keep shaded as a double's shadow would, and its singles
        return [keep(share, colour) for colour in ("red", "yellow", "green") for share in [1.0, *singles]]

    clean = photo([0.0, 0.05, 0.1, 0.0, 0.1])
    misleading = photo([0.9, 0.0, 1.0, 0.05, 0.8])  # two singles of each colour shaded: C8 allows one double
    assert _shadow_outlier_share(clean) == SHADOW_OUTLIER_SHARE
    assert _shadow_outlier_share(misleading) > SHADOW_OUTLIER_SHARE
    lit = keep(0.15, "blue")
    against_double = _double_evidence(lit, shadow_outliers=_shadow_outlier_share(clean))
    assert against_double < 0
    assert against_double < _double_evidence(lit, shadow_outliers=_shadow_outlier_share(misleading)) < 0


def test_under_a_high_light_a_keeps_turn_tells_where_only_a_doubles_shadow_falls():
    """A quarter of a mm of shadow per mm of height: whatever a keep's turn, a single's shadow may reach
    as far as a double's, and nothing is measured. Knowing the turn (the square it carves), the table
    a double alone shades is drawn exactly, and tells the two apart."""
    high = np.array([0.25, 0.12])
    single, double = (164.0, 164.0), (164.0, 292.0)
    towers, walls, log_table, free = _castle_on_a_lit_table({single: False, double: True}, light=high)
    shadows = find_shadows(log_table, free, REGION, towers, walls, 0.0, PROFILE)
    usable = free & ~grey_shadows(shadows, towers, walls, PROFILE)
    assert double_shadow_share(shadows, usable, np.array(double), [np.array(single)], PROFILE) is None
    single_share, _ = double_shadow_share(shadows, usable, np.array(single), [np.array(double)], PROFILE, turn=0.0)
    double_share, _ = double_shadow_share(shadows, usable, np.array(double), [np.array(single)], PROFILE, turn=0.0)
    assert single_share < 0.25 < 0.75 < double_share


def test_keeps_that_cast_no_shadow_where_the_walls_say_are_not_judged_by_their_shadows():
    """Every keep shades the table just beyond it, single or double, where the walls' shadows say. Where the
    keeps leave it lit (a second lamp filling their shadows, a dark margin along the walls that no light
    cast), the walls' light is not theirs, and how far their shadows reach says nothing of their heights."""
    keeps = {(164.0, 164.0): False, (164.0, 292.0): True, (292.0, 164.0): False}
    readings = [KeepReading("red", x, y, False, False, None, turn=0.0) for x, y in keeps]
    for cast, expected in ((True, True), (False, False)):
        towers, walls, log_table, free = _castle_on_a_lit_table(keeps, keep_shadows=cast)
        shadows = find_shadows(log_table, free, REGION, towers, walls, 0.0, PROFILE)
        usable = free & ~grey_shadows(shadows, towers, walls, PROFILE)
        shares = [own_shadow_share(shadows, usable, np.array(centre), PROFILE, turn) for centre in keeps
                  for turn in (0.0, None)]
        assert all(share is not None and (share > 0.75 if cast else share < 0.25) for share in shares)
        assert keeps_shade_as_the_walls_do(shadows, usable, readings, PROFILE) is expected


def test_under_a_light_nearly_overhead_a_turned_keeps_shadow_strip_is_too_thin_to_read():
    """At 0.2 mm of shadow per mm of height a double's shadow outreaches a single's by 6 mm, and within the
    margins the keep's place and the light's offset need, 3 mm are left: a strip the few mm either may be off
    would move wholly onto lit table or into the single's shadow. Nothing is measured."""
    single, double = (164.0, 164.0), (164.0, 292.0)
    towers, walls, log_table, free = _castle_on_a_lit_table({single: False, double: True}, light=np.array([0.17, 0.08]))
    shadows = find_shadows(log_table, free, REGION, towers, walls, 0.0, PROFILE)
    assert shadows is not None  # the walls still show the light
    usable = free & ~grey_shadows(shadows, towers, walls, PROFILE)
    for keep, other in ((double, single), (single, double)):
        assert double_shadow_share(shadows, usable, np.array(keep), [np.array(other)], PROFILE, turn=0.0) is None
