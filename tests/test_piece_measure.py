"""`tablesight calibrate pieces`: a box of pieces measured from one generated calibration photo (one tower,
one short wall, one long wall and keeps beside the card), a box other than the nominal one included."""

import json
from dataclasses import replace

import cv2
import pytest

from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile
from tablesight.cli import main
from tablesight.scoring.castellan.board import Tower
from tablesight.synthetic.piece_layout import BIGGER_BOX, calibration_layout
from tablesight.synthetic.render import render
from tablesight.synthetic.scene import random_scene
from tablesight.vision.castellan.piece_measure import PieceMeasureError, measure_pieces


@pytest.mark.parametrize("seed", [2, 16])  # a wood table 20° tilted; one 3° from straight down
def test_a_bigger_box_is_measured_to_its_tower_span_and_diameter(seed):
    """The span between two towers a short wall joins within 3 % (the reader's figure: a loose wall's ends
    in the sockets and the photo's widening cancel out), the tower within 1.5 mm across its lean."""
    photo = render(random_scene(calibration_layout(BIGGER_BOX), seed, BIGGER_BOX))
    measured = measure_pieces(photo)
    truth = BIGGER_BOX.dimensions
    assert measured.dimensions.centre_spacing("short") == pytest.approx(truth.centre_spacing("short"), rel=0.03)
    assert measured.dimensions.tower_diameter == pytest.approx(truth.tower_diameter, abs=1.5)
    assert set(measured.keep_bgr) == {"red", "blue"}


def test_a_bigger_boxs_tower_height_is_read_from_its_lean_in_a_tilted_photo():
    """At 23° tilt a 41 mm tower reaches ~20 mm further along its lean than its diameter: its height is read
    from that (the nominal 36 mm otherwise), the walls' and keeps' heights scaled with it."""
    measured = measure_pieces(render(random_scene(calibration_layout(BIGGER_BOX), 3, BIGGER_BOX)))
    assert measured.tower_height == pytest.approx(BIGGER_BOX.tower_height, abs=2.0)
    assert measured.wall_height == pytest.approx(BIGGER_BOX.wall_height, abs=2.0)


def test_a_second_tower_in_the_calibration_photo_is_refused_with_what_to_lay_out():
    layout = calibration_layout(NOMINAL_PROFILE)
    crowded = replace(layout, towers=layout.towers + (Tower("t2", 0.0, 70.0),))
    with pytest.raises(PieceMeasureError, match="lay exactly one tower, one short wall and one long wall"):
        measure_pieces(render(random_scene(crowded, 2, NOMINAL_PROFILE)))


def test_calibrate_pieces_writes_a_profile_score_reads(tmp_path, capsys):
    photo, out = tmp_path / "pieces.jpg", tmp_path / "pieces.json"
    cv2.imwrite(str(photo), render(random_scene(calibration_layout(BIGGER_BOX), 2, BIGGER_BOX)))
    assert main(["calibrate", "pieces", str(photo), "--out", str(out)]) == 0
    assert f"use it with --profile {out}" in capsys.readouterr().out
    profile = PieceProfile.load(out)
    assert json.loads(out.read_text())["kind"] == "tablesight-pieces"
    assert profile.dimensions.centre_spacing("long") == pytest.approx(2 * profile.dimensions.centre_spacing("short"))
