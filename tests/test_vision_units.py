"""Stage-level checks of the Castellan reader on drawn footprints (no photo involved)."""

import cv2
import numpy as np

from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS
from tablesight.vision.castellan.towers import find_towers
from tablesight.vision.castellan.walls import find_walls
from tablesight.vision.table_view import Region

REGION = Region(0.0, 0.0, 400.0, 300.0, 2.0)


def footprint(towers, walls) -> np.ndarray:
    """A carved solid as the reader would see it: discs of a tower's width, strips of a wall's."""
    mask = np.zeros(REGION.size[::-1], np.uint8)
    for a, b in walls:
        pa, pb = (tuple(int(v) for v in REGION.to_pixels(p)) for p in (a, b))
        cv2.line(mask, pa, pb, 1, int(DIMS.wall_thickness * REGION.px_per_mm))
    for t in towers:
        cv2.circle(mask, tuple(int(v) for v in REGION.to_pixels(t)), int(DIMS.tower_radius * REGION.px_per_mm), 1, -1)
    return mask.astype(bool)


def test_a_lone_tower_early_in_the_game_is_found():
    towers = find_towers(footprint([(100, 100)], []), REGION, DIMS)
    assert len(towers) == 1 and np.hypot(towers[0].x - 100, towers[0].y - 100) < 2


def test_towers_on_a_ring_of_walls_are_found_and_walls_are_not_towers():
    corners = [(100, 100), (164, 100), (164, 164), (100, 164)]
    walls = [(corners[i], corners[(i + 1) % 4]) for i in range(4)] + [((164, 100), (292, 100))]
    towers = find_towers(footprint(corners, walls), REGION, DIMS)
    assert len(towers) == 4
    assert all(min(np.hypot(t.x - x, t.y - y) for x, y in corners) < 3 for t in towers)


def test_walls_are_read_from_the_sockets_with_their_kind_and_open_end():
    corners = [(100, 100), (164, 100), (164, 164), (100, 164)]
    walls = [(corners[i], corners[(i + 1) % 4]) for i in range(4)] + [((164, 100), (164 + 104 + 12, 100))]
    solid = footprint(corners, walls)
    towers = find_towers(solid, REGION, DIMS)
    read = find_walls(towers, solid, REGION, DIMS, axis=0.0)
    closed = [w for w in read if w.end is not None]
    opened = [w for w in read if w.end is None]
    assert len(closed) == 4 and all(w.kind == "short" for w in closed)
    assert len(opened) == 1 and opened[0].kind == "long"


def test_double_keeps_are_decided_by_evidence_weighed_with_the_rule():
    from tablesight.vision.castellan.keeps import KeepReading, decide_doubles

    def keep(share, span, colour="red", x=0.0):
        return KeepReading(colour, x, 0.0, False, False, None, share, span)

    clear_double, clear_single = keep(1.0, 20.0), keep(0.0, 20.0, x=50.0)
    faint = keep(0.6, 3.0, x=100.0)  # a little more lean than a single's, but the leans hardly differ
    decided = decide_doubles([clear_double, clear_single, faint])
    assert decided[0].double and decided[0].double_certain
    assert not decided[1].double and decided[1].double_certain
    # A player stacks one double a game (C8): with red's double clearly elsewhere, the faint one is single.
    assert not decided[2].double and decided[2].double_certain
    # The same faint evidence on a lone keep of its colour is not enough to call it either way.
    assert not decide_doubles([keep(0.6, 3.0, colour="blue")])[0].double_certain
    # Two keeps both leaning like doubles: at most one of a colour is read double.
    twins = decide_doubles([keep(1.1, 10.0), keep(1.4, 10.0, x=50.0)])
    assert [k.double for k in twins] == [False, True]
    # Unmeasured keeps pass through untouched.
    unmeasured = KeepReading("green", 0.0, 0.0, False, False, None)
    assert decide_doubles([unmeasured]) == [unmeasured]
