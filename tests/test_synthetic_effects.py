"""Camera effects of the scene generator keep the picture where the truth camera puts it."""

import numpy as np
import pytest

from tablesight.synthetic.effects import blur, distort, pinhole_canvas


@pytest.mark.parametrize("angle", [0.0, 0.4, 1.1, 2.0, 2.8])
def test_motion_blur_smears_a_point_without_moving_it(angle):
    image = np.zeros((41, 41, 3), np.float32)
    image[20, 20] = 255.0
    smeared = blur(image, 0.0, 3.0, angle)[..., 0]
    ys, xs = np.mgrid[0:41, 0:41]
    assert np.count_nonzero(smeared > 1) > 1  # smeared ...
    assert abs((smeared * xs).sum() / smeared.sum() - 20) < 0.05  # ... but not moved
    assert abs((smeared * ys).sum() / smeared.sum() - 20) < 0.05


def test_a_barrel_lens_shows_more_of_the_table_at_its_edges_not_a_mirror_of_it():
    """The pinhole picture is drawn on a canvas wide enough for what the lens sees: along the photo's middle row
    the table's x keeps growing to the very edges (a reflected border would turn it back)."""
    size = (640, 360)
    matrix = np.array([[500.0, 0, 319.5], [0, 500.0, 179.5], [0, 0, 1]])
    distortion = np.array([-0.2, 0.0, 0, 0, 0])
    canvas, (cw, ch) = pinhole_canvas(matrix, distortion, size)
    assert cw > size[0] and ch > size[1]
    ramp = np.tile(np.arange(cw, dtype=np.float32) - canvas[0, 2], (ch, 1))  # pinhole x, 0 at the centre
    photo = distort(ramp, matrix, distortion, canvas, size)
    assert photo.shape == (size[1], size[0])
    row = photo[size[1] // 2]
    assert np.all(np.diff(row) > 0)
    assert row[0] < -320 and row[-1] > 320  # beyond the pinhole frame's half width
