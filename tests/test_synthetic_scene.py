"""Scenes the generator lays out keep to the physical set-up of shared/spec/setup.md."""

import numpy as np
import pytest

from tablesight.calibration.card import card_outline_mm
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.scoring.castellan.board import Board
from tablesight.synthetic import effects, meshes
from tablesight.synthetic.dataset import pick_board
from tablesight.synthetic.phone_processing import PhoneProcessing, process
from tablesight.synthetic.piece_styles import USUAL_STYLE, PieceStyle
from tablesight.synthetic.scene import SCENE_VARIANTS, USUAL_REALISM, Realism, place_castle, random_scene


@pytest.mark.parametrize("seed", range(12))
def test_the_castle_and_its_open_walls_lie_beside_the_card_never_on_it(seed):
    board, _ = pick_board(seed)
    placed, _ = place_castle(board, np.random.default_rng(seed))
    points = [t.position for t in placed.towers] + [end for w in placed.walls for end in placed.wall_endpoints(w)]
    lo, hi = card_outline_mm().min(axis=0), card_outline_mm().max(axis=0)
    x0, y0 = np.min(points, axis=0)
    x1, y1 = np.max(points, axis=0)
    apart = x1 < lo[0] or hi[0] < x0 or y1 < lo[1] or hi[1] < y0  # the castle's box and the card's do not meet
    assert apart


@pytest.mark.parametrize("seed", range(8))
def test_a_castle_by_the_card_all_but_touches_it_and_is_the_same_castle_otherwise(seed):
    from tablesight.synthetic.scene import CARD_GAP_NEAR_MM

    board, _ = pick_board(seed)
    usual, _ = place_castle(board, np.random.default_rng(seed))
    near, _ = place_castle(board, np.random.default_rng(seed), by_card=True)
    lo, hi = card_outline_mm().min(axis=0), card_outline_mm().max(axis=0)

    def gap(placed):  # between the castle's box (its open walls' ends too) and the card's
        points = [t.position for t in placed.towers] + [e for w in placed.walls for e in placed.wall_endpoints(w)]
        x0, y0 = np.min(points, axis=0)
        x1, y1 = np.max(points, axis=0)
        return max(lo[0] - x1, x0 - hi[0], lo[1] - y1, y0 - hi[1])

    assert 0 < gap(near) <= CARD_GAP_NEAR_MM + 2.0 + 3.0  # a placing step, and the towers' hand jitter
    assert gap(usual) > CARD_GAP_NEAR_MM
    shift = np.subtract(near.towers[0].position, usual.towers[0].position)
    assert all(np.allclose(np.subtract(a.position, b.position), shift, atol=6.0)
               for a, b in zip(near.towers, usual.towers, strict=True))


def test_an_empty_table_is_framed_whatever_the_seed():
    # Seed 2034 once drew a camera cutting the card on an empty table: nothing else was left to frame.
    for seed in (2034, *range(20)):
        scene = random_scene(Board(), seed)
        assert scene.pose.lens.image_size[0] > 0


def test_a_forgotten_claim_leaves_one_courtyard_unclaimed_in_the_truth():
    from tablesight.scoring.castellan.report import score_board
    from tablesight.synthetic.dataset import pick_board, with_a_claim_forgotten

    board, boxes = pick_board(2424)
    forgotten = with_a_claim_forgotten(board, 2424)
    assert len(forgotten.keeps) == len(board.keeps) - 1
    codes = [w.code for w in score_board(forgotten, boxes=boxes).warnings]
    assert codes.count("unclaimed-courtyard") == 1 and not score_board(board, boxes=boxes).warnings


@pytest.mark.parametrize("seed", range(12))
def test_clutter_stays_off_the_pieces_and_the_loose_walls_ends(seed):
    """A cup once stood on a calibration photo's loose walls: only towers and keeps were kept clear."""
    from tablesight.calibration.pieces import NOMINAL_PROFILE
    from tablesight.synthetic.piece_layout import calibration_layout

    for board in (pick_board(seed)[0], calibration_layout(NOMINAL_PROFILE)):
        scene = random_scene(board, seed)
        pieces = [t.position for t in scene.board.towers] + [k.position for k in scene.board.keeps]
        pieces += [end for w in scene.board.walls for end in scene.board.wall_endpoints(w)]
        x0, y0 = np.min(pieces, axis=0)
        x1, y1 = np.max(pieces, axis=0)
        for item in scene.clutter:
            assert not (x0 - item.size < item.x < x1 + item.size and y0 - item.size < item.y < y1 + item.size)


def test_castles_of_another_box_are_built_to_its_spans():
    from tablesight.calibration.pieces import PieceProfile
    from tablesight.scoring.castellan.pieces import PieceDimensions

    box = PieceProfile(PieceDimensions(tower_diameter=28, short_wall_length=46, long_wall_length=120))
    board, _ = pick_board(7, box)
    towers = board.tower_map()
    spans = {w.kind: np.hypot(*np.subtract(*board.wall_endpoints(w, towers))) for w in board.walls if w.is_closed}
    assert spans["short"] == pytest.approx(74.0) and spans["long"] == pytest.approx(148.0)


def test_the_dataset_renders_photos_at_the_size_asked_and_refuses_a_size_it_cannot(tmp_path, capsys):
    import cv2

    from tablesight.synthetic.dataset import main

    assert main(["--out", str(tmp_path / "set"), "--count", "1", "--seed", "5500", "--no-video",
                 "--image-size", "640", "480", "--piece-shadows"]) == 0
    photo = cv2.imread(str(tmp_path / "set" / "photos" / "photo-000.jpg"))
    assert photo.shape[:2] == (480, 640)
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "bad"), "--count", "1", "--image-size", "10", "480"])
    assert "--image-size" in capsys.readouterr().err and not (tmp_path / "bad").exists()


def test_varied_pieces_change_how_the_pieces_are_drawn_and_nothing_else():
    board, _ = pick_board(9393)
    usual, varied = random_scene(board, 9393), random_scene(board, 9393, realism=Realism(varied_pieces=True))
    assert varied.piece_style != usual.piece_style == USUAL_STYLE
    assert varied.board == usual.board and varied.light_kind == usual.light_kind
    assert np.array_equal(varied.pose.rvec, usual.pose.rvec) and varied.effects == usual.effects
    again = random_scene(board, 9393, realism=Realism(varied_pieces=True))
    assert again.piece_style == varied.piece_style  # from the seed
    assert "piece_style" in varied.describe() and "piece_style" not in usual.describe()


def test_a_styled_tower_has_its_style_s_merlons_and_facets():
    style = PieceStyle(tower_sides=12, tower_merlons=9)
    tower = meshes.tower((0.0, 0.0), NOMINAL_PROFILE, (128.0, 128.0, 128.0), style)
    # a prism is its sides, a top and a bottom; the body first, then one box (6 faces) per merlon
    assert len(tower.faces) == (12 + 2) + 9 * 6
    top = -min(float(f[:, 2].min()) for f in tower.faces)
    assert top == pytest.approx(NOMINAL_PROFILE.tower_height)


def test_phone_processing_changes_how_the_photo_is_processed_and_nothing_else():
    board, _ = pick_board(9595)
    raw, phone = random_scene(board, 9595), random_scene(board, 9595, realism=Realism(phone_processing=True))
    assert raw.phone is None and phone.phone is not None
    assert phone.board == raw.board and phone.light_kind == raw.light_kind and phone.piece_style == raw.piece_style
    assert np.array_equal(phone.pose.rvec, raw.pose.rvec) and phone.effects == raw.effects
    assert random_scene(board, 9595, realism=Realism(phone_processing=True)).phone == phone.phone  # from the seed
    assert "phone_processing" in phone.describe() and "phone_processing" not in raw.describe()


def _step_picture(dark: float, light: float) -> np.ndarray:
    picture = np.full((64, 64, 3), light, np.float32)
    picture[:, :32] = dark
    return picture


def test_phone_sharpening_rings_at_an_edge_and_leaves_flat_grey_grey():
    sharp = PhoneProcessing(denoise=0, chroma_blur=0, shadow_lift=0, highlight_hold=0, clarity=0, tone_radius=0.02,
                            saturation=1.3, sharpen=1.0, sharpen_radius=1.5)
    out = process(_step_picture(80.0, 160.0), sharp)
    row = out[32, :, 1]
    assert row[29:32].min() < 79 and row[32:35].max() > 161  # overshoot either side of the edge: a halo
    assert abs(row[5] - 80) < 1 and abs(row[60] - 160) < 1  # far from it, levels as they were
    assert np.ptp(out[:, 5], axis=-1).max() < 1  # a neutral grey stays neutral whatever the saturation boost


def test_phone_tone_curve_lifts_the_shadows_more_than_the_highlights():
    hdr = PhoneProcessing(denoise=0, chroma_blur=0, shadow_lift=0.3, highlight_hold=0, clarity=0, tone_radius=0.02,
                          saturation=1.0, sharpen=0, sharpen_radius=1.0)
    dark, light = process(_step_picture(40.0, 200.0), hdr)[32, [5, 60], 0]
    assert dark / 40.0 > light / 200.0 > 1.0


def test_a_second_light_lights_the_same_scene_from_another_side():
    board, _ = pick_board(9595)
    one, two = random_scene(board, 9595), random_scene(board, 9595, realism=Realism(second_light=True))
    assert one.second_light is None and two.second_light is not None
    assert two.board == one.board and np.array_equal(two.pose.rvec, one.pose.rvec) and two.effects == one.effects
    assert not np.allclose(two.second_light.direction, one.lighting.direction)
    # the two together light the table about as the key light did alone
    assert two.lighting.table_light + two.second_light.table_light == pytest.approx(one.lighting.table_light, rel=0.6)
    assert two.second_light.ambient == 0 and "second_light" in two.describe()


def test_an_srgb_camera_gives_back_the_colours_it_encoded_and_lightens_the_shade():
    board, _ = pick_board(9595)
    linear, srgb = random_scene(board, 9595), random_scene(board, 9595, realism=Realism(srgb=True))
    assert srgb.srgb and not linear.srgb and srgb.board == linear.board and srgb.effects == linear.effects
    assert "srgb" in srgb.describe() and "srgb" not in linear.describe()
    colours = np.array([20.0, 128.0, 235.0])
    lit = effects.camera_response(effects.srgb_to_linear(colours), 1.0, np.ones(3), effects.SRGB_GAMMA)
    assert np.allclose(lit, colours, atol=0.01)  # fully lit: the colour as encoded
    shaded = effects.camera_response(0.25 * effects.srgb_to_linear(colours), 1.0, np.ones(3), effects.SRGB_GAMMA)
    assert np.allclose(shaded / colours, 0.25 ** (1 / effects.SRGB_GAMMA), rtol=0.01)  # a quarter of the light: ~0.53


def test_every_scene_variant_renders_the_same_scene_otherwise():
    board, _ = pick_board(9601)
    usual = random_scene(board, 9601)
    for name, options in SCENE_VARIANTS.items():
        scene = random_scene(board, 9601, realism=options)
        assert scene.board == usual.board and np.array_equal(scene.pose.rvec, usual.pose.rvec), name
        # each variant says what it changed
        assert (scene.describe() == usual.describe()) == (options == USUAL_REALISM), name
