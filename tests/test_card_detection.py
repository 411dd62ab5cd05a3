"""Finding the card: homography, pose, focal length, hard views and no card."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card import board_object_points
from tablesight.calibration.card_detection import (
    VIRTUAL_INK_SHARE,
    find_card,
    focal_from_homography,
    through_focal,
    virtual_card,
)
from tablesight.calibration.lens_calibration import calibrate_lens
from tablesight.synthetic.card_views import card_view

LENS = Lens(np.array([[1100.0, 0, 645], [0, 1100, 355], [0, 0, 1]]), np.array([-0.15, 0.04, 0, 0, 0]),
            (1280, 720))


@pytest.fixture(scope="module")
def views():
    rng = np.random.default_rng(11)
    return [card_view(LENS, rng) for _ in range(10)]


def test_homography_and_pose_match_the_true_camera(views):
    image, truth = views[0]
    found = find_card(image, lens=LENS)
    assert found is not None and found.corner_count >= 20
    assert found.reprojection_px < 0.5
    corners = board_object_points()[:, :2]
    assert np.abs(found.table_to_image(corners) - truth.project(corners)).max() < 1.0
    assert np.linalg.norm(found.pose.centre - truth.centre) < 10.0  # mm, camera ~0.5 m away
    # A point 36 mm above the table (a tower top) lands where the true camera sees it.
    top = np.array([[100.0, 60.0]])
    assert np.linalg.norm(found.table_to_image(top, 36.0) - truth.project(top, 36.0)) < 1.5


def test_image_to_table_inverts_table_to_image(views):
    found = find_card(views[1][0], lens=LENS)
    points = np.array([[10.0, 20.0], [300.0, -50.0], [120.0, 160.0]])
    for height in (0.0, 26.0):
        back = found.image_to_table(found.table_to_image(points, height), height)
        assert np.abs(back - points).max() < 1e-3  # mm; lens undistortion is iterative


def test_focal_length_is_read_from_a_tilted_card():
    rng = np.random.default_rng(3)
    ideal = Lens.pinhole(1100.0, (1280, 720))
    for _ in range(3):
        image, truth = card_view(ideal, rng)
        homography, _ = cv2.findHomography(board_object_points()[:, :2], truth.project(board_object_points()[:, :2]))
        assert abs(focal_from_homography(homography, (1280, 720)) / 1100.0 - 1) < 0.01
        found = find_card(image)
        if truth.tilt_deg > 20:
            assert found.focal_source == "card"
            assert abs(found.pose.lens.focal / 1100.0 - 1) < 0.05


def test_small_partly_hidden_and_colour_cast_cards_are_found(views):
    image, truth = views[2]
    # Hide a third of the card under a grey block, tint the photo warm and shrink it.
    corners = truth.project(board_object_points()[:, :2])
    x0, y0 = corners.min(axis=0).astype(int)
    x1, _ = corners.max(axis=0).astype(int)
    hidden = image.copy()
    hidden[:, x0:x0 + (x1 - x0) // 3] = 120
    warm = np.clip(cv2.cvtColor(hidden, cv2.COLOR_GRAY2BGR) * np.array([0.7, 0.95, 1.25]), 0, 255).astype(np.uint8)
    assert find_card(warm) is not None
    # The card about 1/12 of the frame width: paste a reduced photo into a big empty frame.
    card_width = x1 - x0
    scale = (3000 / 12) / card_width
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    frame = np.full((2000, 3000), 110, np.uint8)
    frame[500:500 + small.shape[0], 900:900 + small.shape[1]] = small
    found = find_card(frame)
    assert found is not None and found.corner_count >= 10


def test_a_card_mostly_out_of_view_still_places_the_table(views):
    image, truth = views[3]
    corners = truth.project(board_object_points()[:, :2])
    # Hide all but the card's last row of corners and the markers beside it (the photo's edge).
    ys = np.sort(corners[:, 1])
    cut = int(ys[-len(ys) // 4] - 0.3 * (ys[-1] - ys[0]) / 4)
    edge = image.copy()
    edge[:cut] = 110
    found = find_card(edge, lens=LENS)
    seen = corners[:, 1] > cut + 5
    # Only corners in view, however many of them the markers beside the edge gave.
    assert found is not None and set(found.corner_ids) <= set(np.flatnonzero(seen))
    assert np.abs(found.table_to_image(board_object_points()[:, :2][seen]) - corners[seen]).max() < 2.0


def test_a_cards_corner_alone_in_view_places_the_whole_card_and_is_marked_seen_in_part(views):
    # Only the table within 80 mm of the board's corner shows: two or three markers, whose corners
    # OpenCV places only between two markers. Each is placed beside its single marker instead.
    grid = board_object_points()[:, :2]
    found_views = 0
    for image, truth in views:
        outline = truth.project(np.array([[-40.0, -40], [80, -40], [80, 80], [-40, 80]])).astype(np.int32)
        inside = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, outline, 1)
        corner_only = image.copy()
        corner_only[inside == 0] = 110
        found = find_card(corner_only, lens=LENS)
        if found is None:
            continue
        found_views += 1
        assert found.seen_in_part
        # The whole card's corners, three times as far as those seen, within 2 px.
        assert np.abs(found.table_to_image(grid) - truth.project(grid)).max() < 2.0
    assert found_views >= 8
    assert not find_card(views[0][0], lens=LENS).seen_in_part


def test_a_card_showing_one_row_of_corners_is_placed_by_its_markers_through_another_focal_length(views):
    # A card cut by the frame may show a single row of corners (fresh 13400-001): on one line, they fix no
    # plane; its markers' corners do. Read through another focal length, the card crashed the reader.
    image, truth = views[0]
    found = find_card(image, lens=LENS)
    row = found.table_points[:, 1] == found.table_points[:, 1].min()
    assert 3 <= row.sum() < len(row) and len(found.marker_table_points) >= 16
    one_row = replace(found, corner_ids=found.corner_ids[row], image_points=found.image_points[row],
                      table_points=found.table_points[row])
    again = through_focal(one_row, LENS.focal)
    grid = board_object_points()[:, :2]
    assert again.homography is not None
    assert np.abs(again.table_to_image(grid) - truth.project(grid)).max() < 2.0


def test_no_card_is_reported_as_none():
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 255, (720, 1280, 3), dtype=np.uint8)
    assert find_card(noise) is None
    assert find_card(np.full((480, 640, 3), 200, np.uint8)) is None


def test_lens_calibration_recovers_focal_and_principal_point(views):
    result = calibrate_lens([(str(i), image) for i, (image, _) in enumerate(views)])
    assert result.views_used == 10
    assert abs(result.lens.focal / LENS.focal - 1) < 0.01
    assert np.linalg.norm(np.subtract(result.lens.principal_point, LENS.principal_point)) < 5.0


def test_pose_reports_tilt():
    pose = CameraPose(LENS, np.zeros(3), np.array([0.0, 0.0, 500.0]))
    assert pose.tilt_deg == pytest.approx(0.0)


def test_markers_the_card_places_are_recovered_reading_their_bits_against_one_half():
    """Sample 048 (a far card): most of its markers are recovered from where the others place them. OpenCV 5.1's
    `detectBoard` began reading those bits against `validBitIdThreshold` (0.49) and recovered 12 markers and 10
    corners; read against one half, as 5.0 did, 14 markers and 16 corners, on either version."""
    from pathlib import Path

    from tablesight.calibration.card_detection import _detect_board

    grey = cv2.imread(str(Path(__file__).parents[1] / "samples/castellan/photos/photo-048.jpg"), cv2.IMREAD_GRAYSCALE)
    corners, ids, marker_corners, marker_ids = _detect_board(grey)
    assert len(marker_ids) == 14 and len(ids) == 16


def test_a_soft_photo_still_shows_its_card():
    """A defocused phone photo: the markers' bits blur into each other; they are read from the middle
    of their cells and with a finer threshold."""
    from pathlib import Path

    from tablesight.calibration import card_detection

    photo = cv2.imread(str(Path(__file__).parents[1] / "samples/castellan/photos/photo-055.jpg"))
    soft = cv2.GaussianBlur(photo, (0, 0), 1.6)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(card_detection, "SOFT_TRIES", ())
        patch.setattr(card_detection, "_detect_by_squares", lambda grey: None)  # see test_card_squares
        assert find_card(soft) is None  # read as usual, this copy shows no marker
    found = find_card(soft)
    assert found is not None and found.corner_count >= 10
    assert found.reprojection_px < 1.0


def test_a_lens_no_camera_has_is_not_read_from_the_card():
    from tablesight.calibration.card_detection import _distortion_from_card

    table = board_object_points()[:, :2]
    ideal = Lens.pinhole(1000.0, (1280, 720))
    pose = CameraPose(ideal, np.array([0.35, -0.2, 0.1]), np.array([-60.0, -40.0, 420.0]))
    for k1, kept in ((-0.2, True), (0.3, False)):  # barrel, as webcams are; a strong pincushion, as none is
        lens = Lens(ideal.matrix, np.array([k1, 0, 0, 0, 0.0]), ideal.image_size)
        pixels = CameraPose(lens, pose.rvec, pose.tvec).project(table)
        found = _distortion_from_card(ideal, table, pixels, fix_focal=True)
        assert (abs(found.distortion[0] - k1) < 0.02) if kept else found.distortion[0] == 0.0


def test_a_focal_length_fitted_with_the_lens_bend_stays_one_a_camera_has():
    """Card corners of a photo at 17° tilt (seed 7200, photo-008). Fitted together with k1, one view let
    the focal length run off to 0.28 of the true one, where the homography alone had 0.89; the castle's
    walls could not bring it back, and a third of the castle was misplaced."""
    import json
    from pathlib import Path

    from tablesight.calibration.card_detection import _distortion_from_card, plausible_focal

    doc = json.loads((Path(__file__).parent / "data" / "low-tilt-card-points.json").read_text())
    size, table, pixels = tuple(doc["image_size"]), np.array(doc["table"]), np.array(doc["pixels"])
    corners = doc["corners"]  # the ChArUco corners come first, the markers' corners after them
    homography, _ = cv2.findHomography(table[:corners], pixels[:corners])
    start = Lens.pinhole(focal_from_homography(homography, size), size)
    found = _distortion_from_card(start, table, pixels, fix_focal=False)
    assert plausible_focal(found.focal, size)
    assert abs(found.focal / doc["true_focal"] - 1) < 0.15


def test_an_over_exposed_card_takes_the_lights_colour_from_its_ink_only_if_the_ink_shows_one():
    """Paper clipped: the ink's channel ratios give the light's colour when the ink is bright enough to
    carry one; a few levels of ink are mostly noise, and tell nothing (None)."""
    from tablesight.calibration.card_detection import _unclip_white

    clipped = np.array([254.0, 254.0, 254.0])
    tinted = _unclip_white(clipped, np.array([60.0, 52.0, 52.0]))
    assert tinted[0] == 254.0 and np.allclose(tinted[1:], 254.0 * 52 / 60)
    assert _unclip_white(clipped, np.array([16.0, 17.0, 13.0])) is None
    # One channel clipped: the others and the ink's ratios raise it, if the ink carries a colour ...
    partly = _unclip_white(np.array([200.0, 220.0, 254.0]), np.array([30.0, 33.0, 42.0]))
    assert partly[2] > 254.0 and np.array_equal(partly[:2], [200.0, 220.0])
    # ... and dark ink leaves it to the ink's edges.
    assert _unclip_white(np.array([200.0, 220.0, 254.0]), np.array([10.0, 11.0, 14.0])) is None


def test_a_contrasty_photo_with_paper_and_ink_both_clipped_takes_the_lights_colour_from_the_inks_edges(views):
    """A phone's contrast curve can clip the paper to white and the ink to black in every channel: neither
    says what colour the light is, but the blends where ink meets paper still do."""
    image, _ = views[1]
    bluish = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR).astype(np.float32) * np.array([1.0, 0.9, 0.8])
    contrasty = np.clip((bluish - 128) * 1.8 + 128, 0, 255).astype(np.uint8)
    found = find_card(contrasty)
    assert found is not None
    blue, green, red = found.white_bgr - found.black_bgr
    assert blue > green * 1.05 and green > red * 1.05


def test_a_card_clipped_below_255_is_still_taken_as_clipped():
    """A photo darkened after it clipped, or a webcam's video range ending at 235, clips lower than 255.
    A channel near the photo's own top whose paper/ink ratio falls short of the others' is clipped; a
    channel whose ratio matches the others' is not, however near the top."""
    from tablesight.calibration.card_detection import _clipped_channels

    top = np.array([190, 235, 235], np.uint8).reshape(1, 1, 3)  # a photo whose top levels these are
    white, black = np.array([150.0, 196.0, 228.0]), np.array([30.0, 39.0, 60.0])
    assert list(_clipped_channels(white, black, top)) == [False, False, True]
    assert not _clipped_channels(np.array([150.0, 196.0, 228.0]), np.array([30.0, 39.0, 45.0]), top).any()
    assert not _clipped_channels(white, black, np.full((1, 1, 3), 255, np.uint8)).any()


def test_a_channel_clipped_low_is_found_over_a_few_pixels_ringing_above_the_clip():
    """A photo darkened after its red clipped tops at 153 in red, but JPEG's ringing lifts single pixels above
    that: the photo's top levels are read over small patches, where the clipped paper holds."""
    from tablesight.calibration.card_detection import _clipped_channels

    photo = np.full((64, 64, 3), (110, 140, 153), np.uint8)  # clipped paper at 153 in red
    photo[::9, ::9, 2] = 169  # ringing: single pixels over the clip
    white, black = np.array([117.0, 149.5, 148.0]), np.array([19.5, 25.0, 34.0])
    assert list(_clipped_channels(white, black, photo)) == [False, False, True]


def test_dark_ink_tells_a_clipped_channels_light_where_the_other_channels_ratios_agree():
    """Ink a little under MIN_INK_LEVEL still tells the light's colour when the unclipped channels' paper/ink
    ratios agree (noise would set them apart); disagreeing, or far darker, it tells nothing."""
    from tablesight.calibration.card_detection import _unclip_white

    clipped = np.array([False, False, True])
    agreeing = _unclip_white(np.array([117.0, 149.5, 148.0]), np.array([19.5, 25.0, 34.0]), clipped)
    assert agreeing is not None and agreeing[2] == pytest.approx(34.0 * 5.99, rel=0.01)
    assert _unclip_white(np.array([117.0, 149.5, 148.0]), np.array([19.5, 29.0, 34.0]), clipped) is None
    assert _unclip_white(np.array([117.0, 149.5, 148.0]), np.array([11.7, 15.0, 20.0]), clipped) is None


def test_a_contrasty_photo_with_only_the_paper_clipped_keeps_the_lights_colour(views):
    """A contrast curve lowers the ink towards black by an offset, so the ink's channel ratios no longer
    match the paper's; the blends where ink meets paper still give the light's colour."""
    image, _ = views[1]
    light = np.array([0.8, 0.9, 1.0])
    tinted = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR).astype(np.float32) * light
    contrasty = np.clip((tinted - 128) * 1.3 + 158, 0, 255).astype(np.uint8)
    found = find_card(contrasty)
    assert found is not None and (found.black_bgr > 5).all()  # the ink is not clipped ...
    assert np.median(contrasty[..., 2]) < 248 and found.white_bgr[2] > 255  # ... the red paper is
    span = found.white_bgr - found.black_bgr
    assert np.abs(span / span[1] - light / light[1]).max() < 0.03  # the ink's ratios: 0.047 off


def _pixel_sampler(seed: int, spread: float):
    """`pixels(colour, count)`: `count` BGR pixels of `colour` with camera noise of `spread` (seeded)."""
    rng = np.random.default_rng(seed)

    def pixels(colour, count):
        return np.clip(np.asarray(colour, float) + rng.normal(0, spread, (count, 3)), 0, 255)
    return pixels


def test_a_photo_without_the_card_is_balanced_on_its_grey_pieces():
    from tablesight.calibration.card_detection import grey_pieces_cast

    pixels = _pixel_sampler(7, 4.0)

    cast = np.array([0.8, 1.0, 0.95])  # BGR: a warm, greenish light
    table = pixels([150, 185, 230], 9000)  # a peach table filling most of the photo
    keeps = pixels([30, 40, 200], 300)  # red keeps: too saturated to be grey
    tinted_grey = pixels(170 * cast, 700)
    found = grey_pieces_cast(np.vstack([table, keeps, tinted_grey]))
    assert np.allclose(found, cast, atol=0.03)
    # Grey pieces already neutral: no cast; no pieces at all (an empty table): no cast either.
    assert np.allclose(grey_pieces_cast(np.vstack([table, keeps, pixels([170, 170, 170], 700)])), 1, atol=0.03)
    assert np.array_equal(grey_pieces_cast(np.vstack([table, keeps])), np.ones(3))


def test_a_photo_without_the_card_whose_plastic_has_the_tables_hue_is_balanced_on_it_not_on_a_cup():
    """Grey plastic under a green light on a green cloth has the cloth's chromaticity but is twice as bright:
    it is no table, and a mauve cup beside the castle must not give the cast (fresh 4343-026)."""
    from tablesight.calibration.card_detection import grey_pieces_cast

    pixels = _pixel_sampler(10, 3.0)

    table, plastic, cup = pixels([81, 87, 77], 9000), pixels([164, 182, 154], 500), pixels([94, 83, 89], 300)
    found = grey_pieces_cast(np.vstack([table, plastic, cup]))
    assert np.allclose(found, np.array([164, 182, 154]) / 182, atol=0.03)


def test_a_photo_without_the_card_whose_pale_plastic_is_near_the_tables_tint_is_balanced_on_it_not_on_keep_fringes():
    """A pale grey castle on a grey-green table under daylight (fresh 14400-018, its card out of frame): the
    plastic's tops are nearly the table's chromaticity and only half as bright again; taken for table, the
    blue keeps' soft fringes were all that was left, gave a blue cast, and no grey was seen at all."""
    from tablesight.calibration.card_detection import grey_pieces_cast

    pixels = _pixel_sampler(11, 3.0)

    table, plastic, fringes = pixels([105, 112, 97], 9000), pixels([160, 157, 142], 500), pixels([120, 95, 85], 150)
    found = grey_pieces_cast(np.vstack([table, plastic, fringes]))
    assert np.allclose(found, np.array([160, 157, 142]) / 160, atol=0.03)


def test_a_photo_without_the_card_on_a_black_table_is_balanced_on_its_grey_pieces_not_its_keeps():
    """A black cloth is darker than the pixels a cast is read from: the grey pieces are then the commonest
    chromaticity left and must not be taken for the table (fresh 7373-007: the yellow keeps and a brown cup
    gave a yellow cast, the grey castle was tinted past the grey test and the photo refused)."""
    from tablesight.calibration.card_detection import grey_pieces_cast

    pixels = _pixel_sampler(9, 3.0)

    table, plastic = pixels([14, 14, 14], 9000), pixels([116, 118, 113], 500)
    keeps, cup = pixels([40, 150, 170], 120), pixels([70, 95, 110], 200)  # yellow keeps, a brown cup
    found = grey_pieces_cast(np.vstack([table, plastic, keeps, cup]))
    assert np.allclose(found, np.array([116, 118, 113]) / 118, atol=0.03)


def test_a_photo_without_the_card_whose_plastic_has_the_tables_hue_is_balanced_on_its_brightest_pixels():
    """A warm lamp over a cloth of its own hue (fresh 5353-028, its card out of frame): the grey plastic's
    lit tops have the table's chromaticity, only brighter; they are taken for white. A pale table, its own
    brightest part, gives no cast."""
    from tablesight.calibration.card_detection import grey_pieces_cast

    pixels = _pixel_sampler(8, 2.0)

    table, plastic = pixels([73, 84, 116], 9000), pixels([127, 147, 207], 300)
    found = grey_pieces_cast(np.vstack([table, plastic]))
    assert np.allclose(found, np.array([127, 147, 207]) / 207, atol=0.03)
    pale = pixels([200, 215, 230], 9000)
    assert np.array_equal(grey_pieces_cast(np.vstack([pale, pixels([205, 220, 235], 300)])), np.ones(3))


def test_a_wide_lens_whose_bend_k1_alone_would_fold_keeps_a_focal_length_near_the_true_one():
    """Card corners of a photo through a wide lens (seed 8484, photo-003). Fitted with k1 alone, its barrel
    folds the photo's corners back on themselves, and k1 was thrown away: the pinhole's focal length, 1.91
    of the true one, was kept, and no piece of the castle was read. Now k1 is held where the corners just
    stay unfolded, the focal length fitted with it."""
    import json
    from pathlib import Path

    from tablesight.calibration.card_detection import _distortion_from_card

    doc = json.loads((Path(__file__).parent / "data" / "wide-lens-card-points.json").read_text())
    size, table, pixels = tuple(doc["image_size"]), np.array(doc["table"]), np.array(doc["pixels"])
    corners = doc["corners"]
    homography, _ = cv2.findHomography(table[:corners], pixels[:corners])
    start = Lens.pinhole(focal_from_homography(homography, size), size)
    assert start.focal / doc["true_focal"] > 1.5  # the pinhole's reading, far off
    found = _distortion_from_card(start, table, pixels, fix_focal=False)
    assert abs(found.focal / doc["true_focal"] - 1) < 0.06
    assert found.distortion[0] < -0.15
    w, h = size
    assert 1 + 3 * found.distortion[0] * ((w / 2) ** 2 + (h / 2) ** 2) / found.focal ** 2 > 0  # unfolded


def test_a_focal_length_no_homography_gives_is_fitted_with_k1_where_the_default_cannot_fit_the_card():
    """Card corners of a photo through a strong barrel (fresh 6969, photo-001: k1 -0.23 at 36° tilt). Its lines
    bent off any homography (whose focal length came out 9.6 times the true one), the default focal length was
    taken and k1 fitted at it (-0.33, the corners 0.18 px off): the castle beside the card landed tens of mm off
    and was not read. Fitted together, the focal length is the true one's to 1 %; where the default focal length
    is the true one, it is kept."""
    import json
    from pathlib import Path

    from tablesight.calibration.card_detection import _distortion_from_card, _focal_freed, default_focal
    from tablesight.calibration.card_fit import solve_pose

    doc = json.loads((Path(__file__).parent / "data" / "barrel-card-points.json").read_text())
    size, table, pixels = tuple(doc["image_size"]), np.array(doc["table"]), np.array(doc["pixels"])
    default = Lens.pinhole(default_focal(size), size)
    at_default = _distortion_from_card(default, table, pixels, fix_focal=True)
    assert abs(at_default.focal / doc["true_focal"] - 1) > 0.2  # the default's reading, far off
    found, source = _focal_freed(at_default, table, pixels)
    assert source == "card"
    assert abs(found.focal / doc["true_focal"] - 1) < 0.02
    assert abs(found.distortion[0] - doc["true_k1"]) < 0.02
    # The same card through a lens whose focal length is the default's, its corners found as closely as a photo's
    # are (0.03 px): nothing to gain, the default stays.
    true_lens = Lens(default.matrix, np.array([doc["true_k1"], 0, 0, 0, 0.0]), size)
    seen = solve_pose(true_lens, table, pixels).project(table) + np.random.default_rng(1).normal(0, 0.03, table.shape)
    fitted = _distortion_from_card(default, table, seen, fix_focal=True)
    assert _focal_freed(fitted, table, seen)[1] == "default"


def test_a_stand_in_cards_black_is_no_brighter_than_a_cards_ink_on_a_pale_photo():
    # A pale pink table with mid-grey pieces: nothing in the photo is near black, and its darkest tones (the
    # pieces' sides) taken for black turned the pieces to shade.
    photo = np.full((300, 400, 3), (203, 209, 238), np.uint8)
    photo[100:200, 150:160] = (163, 171, 194)
    card = virtual_card(photo, 1.0)
    assert card.black_bgr.max() <= VIRTUAL_INK_SHARE * card.white_bgr.max()
    dark = photo.copy()
    dark[:40, :40] = 10  # a black die: 1.3 % of the photo
    assert virtual_card(dark, 1.0).black_bgr.max() == pytest.approx(10, abs=1)


def test_a_small_card_at_a_wide_photos_edge_gives_way_to_the_default_focal_length_where_that_fits_it_closer():
    """Card corners of a photo through a barrel lens (fresh 13800, photo-017: k1 -0.20, the card 1/20 of the photo
    wide near its edge, 38° tilt). Its homography read the focal length 2.3 times the true one, with no k1 a camera
    has to go with it: the castle 0.9 m away came out scattered and nothing was scored. The default focal length
    with k1 fitted fits the card's points over three times closer, and is kept."""
    import json
    from pathlib import Path

    from tablesight.calibration.card_detection import _card_focal_or_default, _distortion_from_card

    doc = json.loads((Path(__file__).parent / "data" / "small-card-at-the-edge-points.json").read_text())
    size, table, pixels = tuple(doc["image_size"]), np.array(doc["table"]), np.array(doc["pixels"])
    corners = doc["corners"]
    homography, _ = cv2.findHomography(table[:corners], pixels[:corners])
    start = Lens.pinhole(focal_from_homography(homography, size), size)
    assert start.focal / doc["true_focal"] > 2  # the card's own reading, far off
    card_lens = _distortion_from_card(start, table, pixels, fix_focal=False)
    found, source = _card_focal_or_default(card_lens, "card", size, None, table, pixels)
    assert source == "default"
    assert abs(found.focal / doc["true_focal"] - 1) < 0.2
    assert found.distortion[0] < -0.15
    # The card's points rendered through the lens found: the card's reading fits as well, and is kept.
    from tablesight.calibration.card_fit import solve_pose

    true_lens = Lens(start.matrix, np.array([doc["true_k1"] / 4, 0, 0, 0, 0.0]), size)
    seen = solve_pose(true_lens, table, pixels).project(table) + np.random.default_rng(2).normal(0, 0.03, table.shape)
    assert _card_focal_or_default(_distortion_from_card(true_lens, table, seen, fix_focal=False), "card", size, None,
                                  table, seen)[1] == "card"


def test_a_photo_without_the_card_on_a_gingham_is_balanced_on_its_grey_pieces_not_the_ginghams_blends():
    """A pink and blue gingham (fresh 14600-008, its card out of frame): beside its commonest colour it shows
    the two colours' overlap and, along every stripe, their blends, nearly grey and as common as the pieces.
    Every one of them runs under the whole photo; the castle stands on part of it. Told by the commonest colour
    alone, the cast came from a blend (pink): the grey pieces were not seen, the scale was taken from the
    gingham's stripes, and nothing was read."""
    from tablesight.calibration.card_detection import grey_pieces_cast

    pixels = _pixel_sampler(12, 3.0)
    rng = np.random.default_rng(12)
    h, w = 120, 90
    stripes = (np.arange(h)[:, None] // 6 % 2) + 2 * (np.arange(w)[None, :] // 6 % 2)  # a checked cloth's cells
    colours = {0: [150, 120, 230], 1: [200, 140, 90], 2: [200, 140, 90], 3: [200, 90, 170]}  # pink, blue, mauve
    photo = np.zeros((h, w, 3))
    for cell, colour in colours.items():
        photo[stripes == cell] = pixels(colour, int((stripes == cell).sum()))
    edges = (np.arange(h)[:, None] % 6 == 0) | (np.arange(w)[None, :] % 6 == 0)  # the blends along the stripes
    photo[edges] = pixels([150, 135, 175], int(edges.sum()))
    cast = np.array([0.77, 0.89, 1.0])  # the grey plastic under a warm lamp
    castle = np.zeros((h, w), bool)
    castle[40:80, 30:60] = rng.random((40, 30)) < 0.3
    photo[castle] = pixels(150 * cast, int(castle.sum()))
    assert np.allclose(grey_pieces_cast(photo), cast, atol=0.03)
    # The same pixels without their layout: the blends are the commonest near-grey, and give the cast.
    assert not np.allclose(grey_pieces_cast(photo.reshape(-1, 3)), cast, atol=0.03)
