"""Lens calibration from 10 generated views of the card, over several random lenses.

Prints the focal-length error (%) and principal-point error (px) per lens.
Run: python benchmarks/bench_lens_calibration.py
"""

from __future__ import annotations

import numpy as np

from tablesight.calibration.camera import Lens
from tablesight.calibration.lens_calibration import calibrate_lens
from tablesight.synthetic.card_views import card_view


def main(lenses: int = 8, views: int = 10) -> None:
    print(f"{'lens':>4} {'focal px':>8} {'k1':>6} {'focal err %':>11} {'pp err px':>9} {'rms px':>6}")
    focal_errors, pp_errors = [], []
    for seed in range(lenses):
        rng = np.random.default_rng(100 + seed)
        focal = rng.uniform(800, 1600)
        pp = (640 + rng.uniform(-20, 20), 360 + rng.uniform(-15, 15))
        k1 = rng.uniform(-0.25, 0.05)
        lens = Lens(np.array([[focal, 0, pp[0]], [0, focal, pp[1]], [0, 0, 1]]), np.array([k1, 0.02, 0, 0, 0]),
                    (1280, 720))
        shots = [card_view(lens, rng)[0] for _ in range(views)]
        result = calibrate_lens([(str(i), s) for i, s in enumerate(shots)])
        f_err = 100 * (result.lens.focal / focal - 1)
        p_err = float(np.hypot(*np.subtract(result.lens.principal_point, pp)))
        focal_errors.append(abs(f_err))
        pp_errors.append(p_err)
        print(f"{seed:>4} {focal:>8.0f} {k1:>6.2f} {f_err:>11.2f} {p_err:>9.1f} {result.rms_px:>6.2f}")
    print(f"worst focal error {max(focal_errors):.2f} %, worst principal point error {max(pp_errors):.1f} px; "
          f"within 1 % and 5 px: {sum(f < 1 and p < 5 for f, p in zip(focal_errors, pp_errors, strict=True))}"
          f"/{lenses}")


if __name__ == "__main__":
    main()
