"""The printed reference card of shared/spec/setup.md: a 7 × 5 ChArUco board on A4.

Table coordinates are the board's object points in millimetres: x along the
7-square side, y along the 5-square side, the table at z = 0. OpenCV's board
frame has z pointing into the table, so a point h mm above the table is at z = -h.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

SQUARES = (7, 5)
SQUARE_MM = 36.0
MARKER_MM = 27.0
BOARD_MM = (SQUARES[0] * SQUARE_MM, SQUARES[1] * SQUARE_MM)  # 252 × 180
A4_LANDSCAPE_MM = (297.0, 210.0)
# Where the board sits on the sheet: centred, so the white margin is 22.5 mm × 15 mm.
SHEET_OFFSET_MM = ((A4_LANDSCAPE_MM[0] - BOARD_MM[0]) / 2, (A4_LANDSCAPE_MM[1] - BOARD_MM[1]) / 2)
MM_PER_INCH = 25.4


def charuco_board() -> cv2.aruco.CharucoBoard:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.CharucoBoard(SQUARES, SQUARE_MM, MARKER_MM, dictionary)


def board_image(px_per_mm: float) -> np.ndarray:
    """The board alone (no margin), grey-scale, `px_per_mm` pixels per millimetre."""
    size = (round(BOARD_MM[0] * px_per_mm), round(BOARD_MM[1] * px_per_mm))
    return charuco_board().generateImage(size, marginSize=0, borderBits=1)


def sheet_image(dpi: float = 300.0) -> np.ndarray:
    """The whole A4 landscape sheet as printed, grey-scale, at `dpi`."""
    px_per_mm = dpi / MM_PER_INCH
    sheet = np.full((round(A4_LANDSCAPE_MM[1] * px_per_mm), round(A4_LANDSCAPE_MM[0] * px_per_mm)),
                    255, np.uint8)
    board = board_image(px_per_mm)
    x0, y0 = (round(o * px_per_mm) for o in SHEET_OFFSET_MM)
    sheet[y0:y0 + board.shape[0], x0:x0 + board.shape[1]] = board
    label = "tablesight reference card - print at 100% (actual size) - squares 36.0 mm"
    cv2.putText(sheet, label, (x0, y0 + board.shape[0] + round(8 * px_per_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.09 * px_per_mm, 90, max(1, round(0.25 * px_per_mm)), cv2.LINE_AA)
    return sheet


def black_rectangles() -> list[tuple[float, float, float, float]]:
    """Every black area of the board as (x, y, width, height) in board millimetres.

    Built from OpenCV's own layout (marker corners and bits), so a vector PDF of these
    rectangles is exactly the board OpenCV detects.
    """
    board = charuco_board()
    rects = []
    marker_squares = set()
    cell = MARKER_MM / 6  # 4 × 4 bits plus a one-bit border on each side
    for marker_id, corners in zip(board.getIds().ravel(), board.getObjPoints(), strict=True):
        x0, y0 = float(corners[0][0]), float(corners[0][1])
        marker_squares.add((int(x0 // SQUARE_MM), int(y0 // SQUARE_MM)))
        bits = board.getDictionary().generateImageMarker(int(marker_id), 6, borderBits=1)
        for r in range(6):
            for c in range(6):
                if bits[r, c] == 0:
                    rects.append((x0 + c * cell, y0 + r * cell, cell, cell))
    for row in range(SQUARES[1]):
        for col in range(SQUARES[0]):
            if (col, row) not in marker_squares:
                rects.append((col * SQUARE_MM, row * SQUARE_MM, SQUARE_MM, SQUARE_MM))
    return rects


def card_pdf() -> bytes:
    """A one-page vector PDF of the card on A4 landscape: exact sizes, no resampling."""
    pt = 72.0 / MM_PER_INCH
    page_w, page_h = A4_LANDSCAPE_MM[0] * pt, A4_LANDSCAPE_MM[1] * pt
    ox, oy = SHEET_OFFSET_MM
    ops = ["0 g"]
    for x, y, w, h in black_rectangles():
        ops.append(f"{(ox + x) * pt:.4f} {page_h - (oy + y + h) * pt:.4f} {w * pt:.4f} {h * pt:.4f} re f")
    label = "tablesight reference card - print at 100% (actual size) - squares 36.0 mm"
    ops.append(f"0.35 g BT /F1 9 Tf {ox * pt:.2f} {(oy - 6) * pt:.2f} Td ({label}) Tj ET")
    content = "\n".join(ops).encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w:.4f} {page_h:.4f}] "
         "/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>").encode("ascii"),
        b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_card(path: Path, dpi: float = 300.0) -> None:
    """Write the card as a vector PDF (A4 at true scale) or as an image, by the file's extension."""
    from PIL import Image

    suffix = path.suffix.lower()
    if suffix == ".pdf":
        path.write_bytes(card_pdf())
    elif suffix in (".png", ".jpg", ".jpeg", ".tif", ".tiff"):
        sheet = Image.fromarray(sheet_image(dpi))
        sheet.save(path, dpi=(dpi, dpi))
    else:
        raise ValueError(f"cannot write a card as {suffix or 'a file without extension'}; use .pdf or .png")


def board_object_points() -> np.ndarray:
    """The (24, 3) inner chessboard corners in table millimetres, indexed by ChArUco corner id."""
    return charuco_board().getChessboardCorners().astype(np.float64)


def sheet_to_table(px_per_mm: float) -> np.ndarray:
    """The homography from a pixel of `sheet_image` drawn at `px_per_mm` to table mm. A pixel's centre is
    half a pixel into it: placed by its corner, a drawn card lay 0.125 mm (at 4 px/mm) off its truth."""
    ox, oy = card_outline_mm()[0]
    half = 0.5 / px_per_mm
    return np.array([[1 / px_per_mm, 0, ox + half], [0, 1 / px_per_mm, oy + half], [0, 0, 1]])


def card_outline_mm() -> np.ndarray:
    """The sheet's four corners in table coordinates (board origin at the board's corner)."""
    ox, oy = SHEET_OFFSET_MM
    w, h = A4_LANDSCAPE_MM
    return np.array([[-ox, -oy], [w - ox, -oy], [w - ox, h - oy], [-ox, h - oy]], dtype=np.float64)
