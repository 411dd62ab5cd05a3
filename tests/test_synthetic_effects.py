"""Camera effects of the scene generator keep the picture where the truth camera puts it."""

import numpy as np
import pytest

from tablesight.synthetic.effects import blur


@pytest.mark.parametrize("angle", [0.0, 0.4, 1.1, 2.0, 2.8])
def test_motion_blur_smears_a_point_without_moving_it(angle):
    image = np.zeros((41, 41, 3), np.float32)
    image[20, 20] = 255.0
    smeared = blur(image, 0.0, 3.0, angle)[..., 0]
    ys, xs = np.mgrid[0:41, 0:41]
    assert np.count_nonzero(smeared > 1) > 1  # smeared ...
    assert abs((smeared * xs).sum() / smeared.sum() - 20) < 0.05  # ... but not moved
    assert abs((smeared * ys).sum() / smeared.sum() - 20) < 0.05
