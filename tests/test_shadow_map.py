"""The generator's shadows of pieces on one another (synthetic/shadow_map.py)."""

from dataclasses import replace

import numpy as np

from tablesight.synthetic import meshes
from tablesight.synthetic.dataset import pick_board
from tablesight.synthetic.render import render
from tablesight.synthetic.scene import random_scene
from tablesight.synthetic.shadow_map import ShadowMap

UP = np.array([0.0, 0.0, -1.0])


def _slanting_light(towards_x: float) -> np.ndarray:
    direction = np.array([towards_x, 0.0, -1.0])
    return direction / np.linalg.norm(direction)


def test_a_tall_box_shadows_the_ground_behind_it_and_not_in_front():
    box = meshes.box((0.0, 0.0), 10.0, 10.0, 0.0, 0.0, 40.0, (150, 150, 150))
    shadows = ShadowMap([box], _slanting_light(1.0))  # light at 45° towards +x: the shadow falls towards -x
    behind, in_front, aside = [-20.0, 0.0, -1.0], [20.0, 0.0, -1.0], [-20.0, 30.0, -1.0]
    lit = shadows.lit(np.array([behind, in_front, aside]), UP)
    assert lit.tolist() == [0.0, 1.0, 1.0]


def test_a_lit_face_does_not_shadow_itself_and_its_far_side_is_dark():
    box = meshes.box((0.0, 0.0), 10.0, 10.0, 0.0, 0.0, 40.0, (150, 150, 150))
    shadows = ShadowMap([box], _slanting_light(1.0))
    near_side = np.array([[5.0, y, -z] for y in (-3.0, 0.0, 3.0) for z in (5.0, 20.0, 35.0)])
    far_side = near_side * [-1, 1, 1]
    assert shadows.lit(near_side, np.array([1.0, 0.0, 0.0])).min() == 1.0
    assert shadows.lit(far_side, np.array([-1.0, 0.0, 0.0])).max() == 0.0


def test_a_penumbra_lights_a_shadow_edge_in_part():
    box = meshes.box((0.0, 0.0), 10.0, 10.0, 0.0, 0.0, 40.0, (150, 150, 150))
    shadows = ShadowMap([box], _slanting_light(1.0), blur_mm=6.0)
    edge = shadows.lit(np.array([[-30.0, 5.0, -1.0]]), UP)[0]  # on the shadow's side edge
    assert 0.0 < edge < 1.0


def test_piece_shadows_darken_a_scene_only_around_its_pieces():
    board, _ = pick_board(5412)
    scene = random_scene(board, 5412, image_size=(640, 480))
    flat, shaded = render(scene), render(replace(scene, piece_shadows=True))
    darker = flat.astype(int).sum(axis=2) - shaded.astype(int).sum(axis=2)
    assert darker.mean() > 0.2  # the pieces' feet and the walls in their neighbours' shadows
    assert (darker < -30).mean() < 0.001  # nothing lighter (beyond the JPEG's and the noise's differences)
