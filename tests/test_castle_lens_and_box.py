"""The castle as a ruler for the lens (joint fit with the card) and the box as evidence for split walls."""

from dataclasses import replace

import cv2
import numpy as np

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card import board_object_points
from tablesight.calibration.card_detection import CardDetection
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.castellan.box_limits import (
    box_holds_another_long_wall,
    mend_split_long_walls,
    short_walls_over_the_box,
)
from tablesight.vision.castellan.lens_refinement import refine_card_lens
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

DIMS = PieceDimensions()
SIZE = (1600, 1000)
TRUE_LENS = Lens(np.array([[1300.0, 0, 800], [0, 1300, 500], [0, 0, 1]]), np.array([-0.18, 0, 0, 0, 0]), SIZE)
# The camera 20° from straight down, the card near the bottom of the photo, the castle above it.
TRUE_POSE = CameraPose(TRUE_LENS, np.array([0.35, 0.0, 0.0]), np.array([-150.0, -420.0, 820.0]))


def _castle(rows: int = 5, cols: int = 6) -> tuple[np.ndarray, list[WallReading]]:
    """Towers on a grid of short spans beyond the card, each joined to its right and lower neighbour."""
    span = DIMS.centre_spacing("short")
    towers = np.array([(-120 + c * span, 250 + r * span) for r in range(rows) for c in range(cols)], float)
    walls = []
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if c + 1 < cols:
                walls.append(WallReading("short", i, i + 1, None, 1.0))
            if r + 1 < rows:
                walls.append(WallReading("short", i, i + cols, None, 1.0))
    return towers, walls


def _card_seen_through(lens: Lens, noise_px: float = 0.0, rng=None) -> CardDetection:
    """The card's corners where the true camera sees them (give or take `noise_px`), read through
    another (wrong) lens."""
    table = board_object_points()[:, :2]
    pixels = TRUE_POSE.project(table)
    if noise_px:
        pixels = pixels + rng.normal(0, noise_px, pixels.shape)
    obj = np.column_stack([table, np.zeros(len(table))])
    _, rvec, tvec = cv2.solvePnP(obj, pixels, lens.matrix, lens.distortion)
    pose = CameraPose(lens, rvec.ravel(), tvec.ravel())
    error = float(np.median(np.linalg.norm(pose.project(table) - pixels, axis=1)))
    homography, _ = cv2.findHomography(table, lens.undistort_points(pixels))
    return CardDetection(np.arange(len(table)), pixels, table, homography, pose, "card", error,
                         np.full(3, 230.0), np.full(3, 20.0))


def _card_photographed(camera: CameraPose, seen_through: Lens, table: np.ndarray, source: str) -> CardDetection:
    """The card lying at `table` (its corners, mm) as `camera` photographs it, its pose solved through another lens
    (`seen_through`), as the card finder would with `source` for its focal length."""
    pixels = camera.project(table)
    _, rvec, tvec = cv2.solvePnP(np.column_stack([table, np.zeros(len(table))]), pixels, seen_through.matrix,
                                 seen_through.distortion)
    pose = CameraPose(seen_through, rvec.ravel(), tvec.ravel())
    error = float(np.median(np.linalg.norm(pose.project(table) - pixels, axis=1)))
    homography, _ = cv2.findHomography(table, pixels)
    return CardDetection(np.arange(len(table)), pixels, table, homography, pose, source, error,
                         np.full(3, 230.0), np.full(3, 20.0))


def test_the_castle_corrects_the_lens_and_the_tilt_the_card_alone_got_wrong():
    """The card's corners found to 0.3 px, the towers to 1 px, through a lens 12 % long and without
    its barrel distortion: fitted with the castle's walls (along its axes, a span long), tower bases
    map to the table within 1 mm (median over the towers) in each of five photos, not 15 mm. (Fitting
    the focal length and k1 to the spans' lengths alone, with the pose from the card, left two of the
    five over 1.5 mm.)"""
    towers, walls = _castle()
    half = NOMINAL_PROFILE.tower_height * 0.5
    bases = TRUE_POSE.project(towers)
    rng = np.random.default_rng(5)
    before, after = [], []
    for _ in range(5):
        wrong = _card_seen_through(Lens.pinhole(1300.0 * 1.12, SIZE), 0.3, rng)
        seen = TRUE_POSE.project(towers, half) + rng.normal(0, 1.0, (len(towers), 2))  # the towers in the photo
        readings = [TowerReading(*p, DIMS.tower_radius) for p in wrong.pose.table_point(seen, half)]
        refined = refine_card_lens(wrong, readings, walls, NOMINAL_PROFILE)
        assert refined is not None and refined.focal_source == "castle"
        for card, errors in ((wrong, before), (refined, after)):
            errors.append(float(np.median(np.linalg.norm(card.image_to_table(bases) - towers, axis=1))))
    assert np.median(before) > 10.0  # mm: the castle is far from the card
    assert max(after) < 1.0


def test_a_lens_fit_that_places_the_castle_better_is_kept_though_its_walls_median_misfit_rose():
    """The card read to 0.05 px through a lens 7 % long (its distortion right), the castle built with a hand's
    slack (towers 1 mm off their grid): the fit to card and walls brings the tower bases from 0.7 mm to 0.2 mm.
    It was kept only if the walls' median misfit did not rise by 5 %, and in two photos of ten it rose a little
    (the slack, not the lens): the fit is now kept by what it minimises, the walls' robust cost (sample 024:
    bases 4.9 mm off at worst, 0.8 so)."""
    towers, walls = _castle()
    half = NOMINAL_PROFILE.tower_height * 0.5
    bases = TRUE_POSE.project(towers)
    focal = 1300.0 * 1.07
    long_lens = Lens(np.array([[focal, 0, 800], [0, focal, 500], [0, 0, 1]]), TRUE_LENS.distortion, SIZE)
    rng = np.random.default_rng(11)
    before, after = [], []
    for _ in range(10):
        card = _card_seen_through(long_lens, 0.05, rng)
        built = towers + rng.normal(0, 1.0, towers.shape)
        seen = TRUE_POSE.project(built, half) + rng.normal(0, 0.5, (len(towers), 2))
        readings = [TowerReading(*p, DIMS.tower_radius) for p in card.pose.table_point(seen, half)]
        refined = refine_card_lens(card, readings, walls, NOMINAL_PROFILE)
        assert refined is not None
        for c, errors in ((card, before), (refined, after)):
            errors.append(float(np.median(np.linalg.norm(c.image_to_table(bases) - towers, axis=1))))
    assert np.median(before) > 0.6 and np.median(after) < 0.3


def test_with_a_calibrated_lens_the_castle_corrects_only_the_pose_far_from_a_noisy_card():
    """The true lens known (as with `--camera`), the card's corners found to 1 px: the pose from the card
    alone misplaces the far castle; fitted with its walls, the tower bases land closer, and the lens
    (focal length and every distortion term) is kept exactly."""
    towers, walls = _castle()
    half = NOMINAL_PROFILE.tower_height * 0.5
    bases = TRUE_POSE.project(towers)
    lens = Lens(TRUE_LENS.matrix, np.array([-0.18, 0.05, 0.0, 0.0, 0.0]), SIZE)
    rng = np.random.default_rng(7)
    before, after = [], []
    for _ in range(5):
        card = replace(_card_seen_through(lens, 1.0, rng), focal_source="profile")
        seen = TRUE_POSE.project(towers, half) + rng.normal(0, 1.0, (len(towers), 2))
        readings = [TowerReading(*p, DIMS.tower_radius) for p in card.pose.table_point(seen, half)]
        refined = refine_card_lens(card, readings, walls, NOMINAL_PROFILE, lens_known=True)
        assert refined is not None and refined.focal_source == "profile"
        assert refined.pose.lens.focal == lens.focal
        assert np.array_equal(refined.pose.lens.distortion, lens.distortion)
        for c, errors in ((card, before), (refined, after)):
            errors.append(float(np.median(np.linalg.norm(c.image_to_table(bases) - towers, axis=1))))
    assert np.median(after) < np.median(before)


def test_a_lens_fit_ending_against_k1s_bound_is_fitted_again_without_distortion():
    """Towers read so that the walls would pull k1 past any camera's (here a pincushion beyond the
    plausible range; in photos, towers misread in a blurred or heavily compressed photo): a k1 stuck
    at its bound shifts the whole castle, so the focal length and pose are fitted with k1 held at 0."""
    from tablesight.calibration.camera import PLAUSIBLE_K1

    towers, walls = _castle()
    half = NOMINAL_PROFILE.tower_height * 0.5
    pincushion = Lens(TRUE_LENS.matrix, np.array([PLAUSIBLE_K1[1] + 0.15, 0, 0, 0, 0]), SIZE)
    camera = CameraPose(pincushion, TRUE_POSE.rvec, TRUE_POSE.tvec)
    card = _card_photographed(camera, Lens.pinhole(1300.0, SIZE), board_object_points()[:, :2], "card")
    pose = card.pose
    readings = [TowerReading(*p, DIMS.tower_radius) for p in pose.table_point(camera.project(towers, half), half)]
    refined = refine_card_lens(card, readings, walls, NOMINAL_PROFILE)
    assert refined is not None and refined.focal_source == "castle"
    assert abs(refined.pose.lens.distortion[0]) < 1e-3  # not at the bound (0.1)


def test_a_strong_barrel_lens_seen_from_nearly_straight_above_keeps_its_barrel_at_k1s_bound():
    """A wide webcam (k1 -0.25 at 1,260 px) 3° from straight down, the card at the photo's edge, read through the
    default focal length: the focal length is hardly told from the castle there, only k1 over its square is, so
    the fit ends at k1's barrel bound with a longer focal length, which bends the photo alike. Taken for a fit
    gone astray and replaced by a lens without distortion, the castle lay 19 mm off (fresh 17600-016: 23); kept, its
    tower bases land within 1 mm (median) and 3 mm."""
    from tablesight.calibration.camera import PLAUSIBLE_K1

    size = (2040, 1150)
    lens = Lens(np.array([[1260.0, 0, 1020], [0, 1260, 575], [0, 0, 1]]), np.array([-0.25, 0.02, 0, 0, 0]), size)
    camera = CameraPose(lens, np.array([0.05, 0.0, 0.0]), np.array([-350.0, -450.0, 1700.0]))
    towers, walls = _castle(rows=12, cols=16)
    towers = towers + np.array([-30.0, -150.0])
    card_at = board_object_points()[:, :2] + np.array([880.0, 50.0])
    card = _card_photographed(camera, Lens.pinhole(0.8 * size[0], size), card_at, "default")
    half = NOMINAL_PROFILE.tower_height * 0.5
    seen = camera.project(towers, half) + np.random.default_rng(3).normal(0, 0.7, (len(towers), 2))
    readings = [TowerReading(*p, DIMS.tower_radius) for p in card.pose.table_point(seen, half)]
    refined = refine_card_lens(card, readings, walls, NOMINAL_PROFILE)
    assert refined is not None
    assert refined.pose.lens.distortion[0] < PLAUSIBLE_K1[0] + 0.01
    errors = np.linalg.norm(refined.image_to_table(camera.project(towers)) - towers, axis=1)
    assert np.median(errors) < 1.0 and errors.max() < 3.0


def test_a_castle_of_too_few_walls_leaves_the_lens_alone():
    towers, walls = _castle(rows=2, cols=3)
    card = _card_seen_through(Lens.pinhole(1300.0, SIZE))
    readings = [TowerReading(*p, DIMS.tower_radius) for p in towers]
    assert refine_card_lens(card, readings, walls, NOMINAL_PROFILE) is None


def _row(n: int) -> list[TowerReading]:
    span = DIMS.centre_spacing("short")
    return [TowerReading(i * span, 0.0, DIMS.tower_radius) for i in range(n)]


def _full_box_filler(towers: int, shorts: int) -> tuple[list[TowerReading], list[WallReading]]:
    """Towers far away on a staircase of short walls (no two in line): pieces to reach the box's counts."""
    span = DIMS.centre_spacing("short")
    far = [TowerReading(1000.0 + span * ((i + 1) // 2), 1000.0 + span * (i // 2), DIMS.tower_radius)
           for i in range(towers)]
    return far, [WallReading("short", k, k + 1, None, 1.0) for k in range(shorts)]


def test_a_false_tower_in_a_long_wall_is_left_out_only_beyond_the_box():
    line = _row(3)  # towers 0 - 1 - 2, tower 1 weak (a bump of the wall)
    line[1] = TowerReading(line[1].x, 0.0, DIMS.tower_radius * 0.6)
    walls = [WallReading("short", 0, 1, None, 1.0), WallReading("short", 1, 2, None, 1.0)]
    filler_towers, filler_walls = _full_box_filler(30, 29)  # 33 towers and 31 short walls in all
    towers = line + filler_towers
    walls += [WallReading("short", w.start + 3, w.end + 3, None, 1.0) for w in filler_walls]
    mended_towers, mended_walls, notes = mend_split_long_walls(towers, walls, {"red", "blue"}, DIMS)
    assert len(mended_towers) == 32 and sum(w.kind == "short" for w in mended_walls) == 29
    longs = [w for w in mended_walls if w.kind == "long"]
    assert len(longs) == 1 and {longs[0].start, longs[0].end} == {0, 1}  # towers 0 and 2, renumbered
    assert len(notes) == 1 and "middle of a long wall" in notes[0]
    # Within the box the same reading may be a real castle in mid-game: left as it is.
    kept = mend_split_long_walls(line, walls[:2], {"red", "blue"}, DIMS)
    assert len(kept[0]) == 3 and not kept[2]


def test_a_tower_read_by_its_top_is_not_taken_for_the_false_one_by_the_profiles_radius():
    """Two towers between short walls in line, one box's short walls exceeded by one: the footprint measured
    thin against the photo's towers is left out, not the tower read by its top in a long wall's run, whose
    radius is the profile's (narrower than every tower this photo measures); neither if both are about as wide
    as the photo's towers."""
    wide = DIMS.tower_radius * 1.45  # the photo's towers measure wider than the profile's
    first, second = _row(3), [TowerReading(t.x, 300.0, wide) for t in _row(3)]
    first = [replace(t, radius_mm=wide) for t in first]
    first[1] = TowerReading(first[1].x, 0.0, DIMS.tower_radius, in_run=True)  # read by its top: kept
    second[1] = replace(second[1], radius_mm=wide * 0.78)  # measured thin: the false one
    walls = [WallReading("short", a, b, None, 1.0) for a, b in ((0, 1), (1, 2), (3, 4), (4, 5))]
    filler_towers, filler_walls = _full_box_filler(30, 27)  # 36 towers and 31 short walls in all
    filler_towers = [replace(t, radius_mm=wide) for t in filler_towers]
    towers = first + second + filler_towers
    walls += [WallReading("short", w.start + 6, w.end + 6, None, 1.0) for w in filler_walls]
    mended_towers, mended_walls, notes = mend_split_long_walls(towers, walls, {"red", "blue"}, DIMS)
    assert len(notes) == 1 and f"({second[1].x:.0f}, 300)" in notes[0]
    assert any(t.in_run for t in mended_towers) and sum(w.kind == "long" for w in mended_walls) == 1
    # A tower about as wide as the castle's others stays, even over the box: some other piece is misread.
    towers[4] = replace(second[1], radius_mm=wide * 0.94)
    towers[1] = replace(first[1], in_run=False, radius_mm=wide * 0.95)
    kept_towers, _, notes = mend_split_long_walls(towers, walls, {"red", "blue"}, DIMS)
    assert len(kept_towers) == len(towers) and not notes


def test_two_open_short_walls_meeting_become_a_long_wall_beyond_the_box():
    span = DIMS.centre_spacing("short")
    ends = [TowerReading(0.0, 0.0, DIMS.tower_radius), TowerReading(2 * span, 0.0, DIMS.tower_radius)]
    walls = [WallReading("short", 0, None, (span + 1.0, 0.5), 1.0),
             WallReading("short", 1, None, (span - 1.0, 0.0), 1.0)]
    filler_towers, filler_walls = _full_box_filler(30, 29)
    towers = ends + filler_towers
    walls += [WallReading("short", w.start + 2, w.end + 2, None, 1.0) for w in filler_walls]
    _, mended, notes = mend_split_long_walls(towers, walls, {"red", "blue"}, DIMS)
    longs = [w for w in mended if w.kind == "long"]
    assert len(longs) == 1 and {longs[0].start, longs[0].end} == {0, 1}
    assert sum(w.kind == "short" for w in mended) == 29 and "no tower between" in notes[0]


def test_a_tower_read_at_no_place_leaves_the_lens_and_does_not_raise():
    """A tower whose place could not be computed (NaN: its ray never meets the table plane) makes the
    walls' misfit meaningless: the card's lens is kept, nothing raises."""
    towers, walls = _castle()
    card = _card_seen_through(Lens.pinhole(1300.0, SIZE))
    readings = [TowerReading(*p, DIMS.tower_radius) for p in towers]
    readings[0] = TowerReading(float("nan"), float("nan"), DIMS.tower_radius)
    assert refine_card_lens(card, readings, walls, NOMINAL_PROFILE) is None


def test_over_half_a_box_more_towers_are_another_box_not_misreadings():
    """A 3-player game whose third player has no keep down yet: two boxes' pieces, one edition's keep
    colours. Towers between two short walls in line stay."""
    line = _row(3)
    walls = [WallReading("short", 0, 1, None, 1.0), WallReading("short", 1, 2, None, 1.0)]
    filler_towers, filler_walls = _full_box_filler(50, 49)  # 53 towers and 51 short walls in all
    towers = line + filler_towers
    walls += [WallReading("short", w.start + 3, w.end + 3, None, 1.0) for w in filler_walls]
    kept_towers, kept_walls, notes = mend_split_long_walls(towers, walls, {"red", "blue"}, DIMS)
    assert len(kept_towers) == 53 and len(kept_walls) == 51 and not notes


def test_the_box_holds_another_long_wall_only_below_its_count():
    """One box (red and blue keeps) holds 26 long walls; green and yellow beside them imply a second box."""
    towers = _row(2)
    longs = [WallReading("long", 0, 1, None, 1.0)] * 25
    assert box_holds_another_long_wall(towers, longs, {"red", "blue"})
    assert not box_holds_another_long_wall(towers, longs + longs[:1], {"red", "blue"})
    assert box_holds_another_long_wall(towers, longs + longs[:1], {"red", "blue", "green", "yellow"})


def test_short_walls_over_the_box_count_against_the_boxes_in_play():
    towers = _row(2)
    shorts = [WallReading("short", 0, 1, None, 1.0)] * 31
    assert short_walls_over_the_box(towers, shorts, {"red"}) == 1
    assert short_walls_over_the_box(towers, shorts[:30], {"red"}) == 0
    assert short_walls_over_the_box(towers, shorts, {"red", "green"}) == -29
