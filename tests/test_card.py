"""The printed reference card: true scale in the PDF, the same layout OpenCV detects."""

import re

import numpy as np
from PIL import Image

from tablesight.calibration.card import (
    SQUARE_MM,
    black_rectangles,
    board_image,
    card_pdf,
    write_card,
)

PT_PER_MM = 72 / 25.4


def test_pdf_page_is_a4_landscape():
    pdf = card_pdf().decode("latin-1")
    width, height = map(float, re.search(r"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf).groups())
    assert abs(width / PT_PER_MM - 297.0) < 0.01 and abs(height / PT_PER_MM - 210.0) < 0.01


def test_pdf_squares_measure_36_mm_in_pdf_units():
    pdf = card_pdf().decode("latin-1")
    sizes = [float(w) for w, h in re.findall(r"[\d.]+ [\d.]+ ([\d.]+) ([\d.]+) re f", pdf)]
    squares = [s for s in sizes if s > 50]
    assert len(squares) == 18  # 35 squares: 17 carry markers, 18 are solid black
    assert all(abs(s / PT_PER_MM - SQUARE_MM) < 0.001 for s in squares)


def test_vector_card_matches_opencv_board_pixel_for_pixel():
    px = 4
    raster = np.full((180 * px, 252 * px), 255, np.uint8)
    for x, y, w, h in black_rectangles():
        raster[round(y * px):round((y + h) * px), round(x * px):round((x + w) * px)] = 0
    assert np.array_equal(raster, board_image(px))


def test_png_card_carries_its_resolution(tmp_path):
    path = tmp_path / "card.png"
    write_card(path, dpi=150)
    with Image.open(path) as image:
        assert abs(image.info["dpi"][0] - 150) < 0.5
        assert abs(image.width / 150 * 25.4 - 297) < 0.5
