"""Long walls that are two open short walls meeting at a tower's gap, told by the table the photo shows between them
(`wall_gaps`)."""

import cv2
import numpy as np

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.wall_gaps import MIN_GAP_MM, table_across_middle_mm
from tablesight.vision.table_view import Region, TableView

PX_PER_MM = 2.0
WOOD = (40, 80, 150)  # a brown table (BGR)
PLASTIC = (205, 205, 200)
A, B = np.array([-64.0, 0.0]), np.array([64.0, 0.0])  # two towers a long wall's span apart
DIMS = NOMINAL_PROFILE.dimensions


def _view(gap_mm: float, keep_in_gap: bool = False, seed: int = 1) -> TableView:
    """A grainy wooden table seen straight down, the towers A and B as grey discs and the run between them as a grey
    band broken by `gap_mm` of table in its middle (0: a long wall), with a dark red keep over the gap if asked."""
    rng = np.random.default_rng(seed)
    image = np.clip(np.array(WOOD) + rng.normal(0, 4, (300, 500, 3)), 0, 255).astype(np.uint8)
    card = virtual_card(image, PX_PER_MM)

    def px(point):
        return tuple(np.round(card.table_to_image(np.asarray([point], np.float64), 0.0)[0]).astype(int))

    for x0, x1 in ((A[0], -gap_mm / 2), (gap_mm / 2, B[0])):  # square-ended bands, as walls are
        cv2.rectangle(image, px((x0, -5.0)), px((x1, 5.0)), PLASTIC, -1)
    for centre in (A, B):
        cv2.circle(image, px(centre), int(12 * PX_PER_MM), PLASTIC, -1)
    if keep_in_gap:
        cv2.rectangle(image, px((-11.0, -11.0)), px((11.0, 11.0)), (30, 30, 120), -1)
    return TableView(image, virtual_card(image, PX_PER_MM))


def test_a_long_wall_shows_no_table_across_its_middle():
    assert table_across_middle_mm(_view(0.0), A, B, DIMS) == 0.0


def test_two_open_short_walls_show_the_table_between_their_ends():
    gap = table_across_middle_mm(_view(24.0), A, B, DIMS)
    assert gap >= MIN_GAP_MM
    assert abs(gap - 24.0) <= 2.0


def test_a_narrow_gap_is_measured_at_its_width():
    assert abs(table_across_middle_mm(_view(7.0), A, B, DIMS) - 7.0) <= 1.5


def test_where_a_keep_may_stand_in_front_nothing_is_table():
    """A dark red keep before a long wall's middle is nearer a brown table's colour than the wall's: it would read
    as a gap, but for where the keeps may hide a wall."""
    view = _view(24.0, keep_in_gap=True)
    assert table_across_middle_mm(view, A, B, DIMS) >= MIN_GAP_MM
    region = Region(-100.0, -50.0, 100.0, 50.0, 1.0)
    hidden = np.zeros(region.size[::-1], bool)
    hidden[region.to_pixels(np.array([[-15.0, -15.0]])).astype(int)[0, 1]:, :] = True  # all of the run's middle
    assert table_across_middle_mm(view, A, B, DIMS, hidden, region) == 0.0
