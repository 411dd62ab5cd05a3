"""Finding the card by its black squares when no marker can be read: a soft photo, a small card."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesight.calibration import card_detection
from tablesight.calibration.card import SQUARE_MM, SQUARES, board_image, charuco_board
from tablesight.calibration.card_detection import find_card_points
from tablesight.calibration.card_squares import find_card_by_squares

PHOTOS = Path(__file__).parents[1] / "samples/castellan/photos"


def _grey(name: str) -> np.ndarray:
    return cv2.cvtColor(cv2.imread(str(PHOTOS / name)), cv2.COLOR_BGR2GRAY)


def _corners_by_id(found) -> dict[int, np.ndarray]:
    return dict(zip(found[1].tolist(), found[0], strict=True))


@pytest.fixture(scope="module")
def sharp_and_soft():
    sharp = _grey("photo-002.jpg")
    return sharp, cv2.GaussianBlur(sharp, (0, 0), 2.5)


def _found_by_squares_only(sharp: np.ndarray, soft: np.ndarray) -> list[float]:
    """Asserts no marker of the soft card can be read and its squares find at least 12 corners; gives
    their distances (px) from the corners found on the sharp photo."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(card_detection, "_detect_by_squares", lambda grey: None)
        assert find_card_points(soft) is None  # no marker can be read
    found = find_card_points(soft)
    assert found is not None and len(found[1]) >= 12
    truth = _corners_by_id(find_card_points(sharp))
    return [float(np.linalg.norm(truth[i] - p)) for i, p in _corners_by_id(found).items()]


def test_a_card_too_soft_for_its_markers_is_found_by_its_squares(sharp_and_soft):
    errors = _found_by_squares_only(*sharp_and_soft)
    assert np.median(errors) < 1.0 and max(errors) < 3.0


def test_the_card_turned_half_round_is_read_the_right_way_round(sharp_and_soft):
    """The checker looks the same turned half round: the markers' blurred patterns decide."""
    sharp, soft = sharp_and_soft
    h, w = soft.shape
    found = find_card_points(np.ascontiguousarray(soft[::-1, ::-1]))
    assert found is not None
    truth = _corners_by_id(find_card_points(sharp))
    for i, p in _corners_by_id(found).items():
        assert np.linalg.norm(truth[i] - (np.array([w - 1, h - 1]) - p)) < 3.0


def test_a_small_card_is_found_by_its_squares():
    small = cv2.resize(_grey("photo-010.jpg"), None, fx=0.33, fy=0.33, interpolation=cv2.INTER_AREA)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(card_detection, "_detect_by_squares", lambda grey: None)
        assert find_card_points(small) is None
    found = find_card_points(small)
    assert found is not None and len(found[1]) >= 12


def test_a_checker_without_the_cards_markers_is_not_a_card():
    """Black squares laid out as the card's, its white squares empty (a chess board, a tiled box): the
    markers, not the checker, make the card."""
    px_per_mm = 1.0
    checker = board_image(px_per_mm)
    for r in range(SQUARES[1]):
        for c in range(SQUARES[0]):
            if (r + c) % 2:
                x, y = int(c * SQUARE_MM * px_per_mm), int(r * SQUARE_MM * px_per_mm)
                checker[y:y + int(SQUARE_MM * px_per_mm), x:x + int(SQUARE_MM * px_per_mm)] = 255
    frame = np.full((720, 1280), 230, np.uint8)
    frame[200:200 + checker.shape[0], 400:400 + checker.shape[1]] = checker
    assert find_card_points(cv2.GaussianBlur(frame, (0, 0), 1.5)) is None


def test_a_soft_card_on_a_checked_tablecloth_is_found_by_its_squares():
    """A checked cloth's squares, as big as the card's and more of them, also lie on a checker: the
    darkest squares are tried too, and the markers pick the card."""
    sharp = _grey("photo-042.jpg")  # a red, green and tan checked cloth
    errors = _found_by_squares_only(sharp, cv2.GaussianBlur(sharp, (0, 0), 1.6))
    assert np.median(errors) < 1.0 and max(errors) < 3.0


def test_a_soft_card_on_a_netted_table_is_found_where_the_first_placements_find_too_few_squares():
    """Sample 048's card, out of focus on a table netted with thin lines: the placements grown first from
    the darkest outlines find 7, 7, 5 and 0 of its black squares (8 are needed), the card's placements
    finding 10 and 8 further down the list; those finding most are checked by the markers too."""
    soft = cv2.cvtColor(cv2.GaussianBlur(cv2.imread(str(PHOTOS / "photo-048.jpg")), (0, 0), 1.6),
                        cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(charuco_board().getDictionary(), card_detection._detector_parameters())
    _, _, outlines = detector.detectMarkers(soft)
    found = find_card_by_squares(soft, list(outlines))
    assert found is not None and len(found[1]) >= 20
    truth = _corners_by_id(find_card_points(_grey("photo-048.jpg")))
    errors = [float(np.linalg.norm(truth[i] - p)) for i, p in _corners_by_id(found).items() if i in truth]
    # Placed by the blurred squares alone, before any corner is refined (a placement a square off, or turned,
    # would put them 27 px or more away; refined as `find_card` goes on to, median 0.02 px).
    assert np.median(errors) < 2.0 and max(errors) < 4.0
