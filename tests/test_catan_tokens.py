"""Number tokens are read by pips and digit topology, not by a font: tokens drawn here in a font the
reader never saw, at any rotation, must read right."""

import cv2
import numpy as np
import pytest

from tablesight.vision.catan.tokens import Token, find_token, read_token

PIPS = {2: 1, 12: 1, 3: 2, 11: 2, 4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}
FELT = (60, 120, 60)


def token_image(number: int, angle: float, radius: int = 40) -> tuple[np.ndarray, tuple[int, int]]:
    size = 4 * radius
    image = np.full((size, size, 3), FELT, np.uint8)
    centre = (size // 2, size // 2)
    cv2.circle(image, centre, radius, (175, 225, 240), -1, cv2.LINE_AA)
    ink = (40, 40, 200) if number in (6, 8) else (30, 30, 30)
    scale, thickness = radius / 28, max(2, radius // 12)
    (w, h), _ = cv2.getTextSize(str(number), cv2.FONT_HERSHEY_DUPLEX, scale, thickness)
    cv2.putText(image, str(number), (centre[0] - w // 2, centre[1] + h // 2 - radius // 10),
                cv2.FONT_HERSHEY_DUPLEX, scale, ink, thickness, cv2.LINE_AA)
    for i in range(PIPS[number]):
        x = centre[0] + (i - (PIPS[number] - 1) / 2) * 0.147 * radius
        cv2.circle(image, (round(x), round(centre[1] + 0.55 * radius)), max(2, round(0.055 * radius)), ink, -1,
                   cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D(centre, angle, 1.0)
    return cv2.warpAffine(image, turn, (size, size), borderValue=FELT), centre


@pytest.mark.parametrize("number", sorted(PIPS))
@pytest.mark.parametrize("angle", [0, 70, 180, 290])
def test_token_reads_at_any_rotation(number, angle):
    image, (x, y) = token_image(number, angle)
    assert read_token(image, Token(x, y, 40, 230, 60)).number == number


def test_token_is_found_near_the_hex_centre():
    image, (x, y) = token_image(8, 0)
    token = find_token(image, (x + 10, y - 8), spacing=200)
    assert token is not None
    assert abs(token.x - x) < 4 and abs(token.y - y) < 4 and abs(token.radius - 40) < 5


def test_blank_disc_has_no_number():
    image = np.full((160, 160, 3), FELT, np.uint8)
    cv2.circle(image, (80, 80), 40, (175, 225, 240), -1)
    assert read_token(image, Token(80, 80, 40, 230, 60)).number is None
