"""The Catan page: upload a photo of the board, see it drawn back as hexes with the pieces found,
each player's production as a heat map over the hexes, the scores and the warnings.

Nothing is stored: the photo is read and drawn, and the report can be downloaded as JSON.
"""

from __future__ import annotations

import base64
import json
import math

import cv2
import numpy as np
from flask import Blueprint, abort, render_template, request

from tablesight.errors import TablesightError
from tablesight.inputs import decode_photo
from tablesight.scoring.catan.board import CatanBoard
from tablesight.scoring.catan.geometry import crossing_position, hex_centre, hex_corner
from tablesight.scoring.catan.report import catan_report, production_by_hex
from tablesight.vision.catan.annotate import PLAYER_BGR, annotate

bp = Blueprint("catan", __name__)

HEX_PX = 34  # hex circumradius on the drawn board
TERRAIN_FILL = {"forest": "#2f6b34", "pasture": "#9ccc65", "fields": "#e6c44a", "hills": "#c0673a",
                "mountains": "#8d8a9c", "desert": "#e8d9a8"}
# The same player colours as the photo overlay, as CSS colours.
PLAYER_FILL = {colour: "#{2:02x}{1:02x}{0:02x}".format(*bgr) for colour, bgr in PLAYER_BGR.items()}


@bp.get("/catan")
def catan_form():
    return render_template("catan.html", result=None)


@bp.post("/catan")
def catan_read():
    from tablesight.vision.catan.reader import CatanReadError, read_catan_photo

    upload = request.files.get("photo")
    data = upload.read() if upload is not None else b""
    if not data:
        abort(400, "no photo in the request: choose a photo of the board first")
    try:
        photo = decode_photo(data, "the photo")
        reading = read_catan_photo(photo.image)
    except TablesightError as exc:
        return render_template("catan.html", result=None, error=exc.sentence), 400
    except CatanReadError as exc:
        return render_template("catan.html", result=None, error=f"No Catan board was read: {exc}."), 422
    board = reading.board()
    report = catan_report(board)
    overlay = annotate(photo.image, reading)
    scale = 1200 / max(overlay.shape[:2])
    if scale < 1:
        overlay = cv2.resize(overlay, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", overlay, [cv2.IMWRITE_JPEG_QUALITY, 85])
    drawing = board_drawing(board) | {"transform": _as_in_photo(reading.homography)}
    result = {"report": report, "notes": reading.notes, "drawing": drawing,
              "heat": {c: production_heat(board, c) for c in report["pieces"]},
              "overlay": base64.b64encode(jpeg.tobytes()).decode() if ok else None,
              "report_json": json.dumps(report, indent=2)}
    return render_template("catan.html", result=result)


def _as_in_photo(homography) -> str:
    """SVG transform turning the drawn board the way it lies in the photo (so the two compare at a glance)."""
    if homography is None:
        return ""
    o, ex, ey = cv2.perspectiveTransform(np.array([[[0, 0], [1, 0], [0, 1]]], np.float64), homography)[0]
    angle = math.degrees(math.atan2(*(ex - o)[::-1]))
    mirrored = float(np.cross(ex - o, ey - o)) < 0
    cx, cy = _xy((0.0, 0.0))
    return f"rotate({angle:.1f} {cx} {cy})" + (f" translate(0 {2 * cy}) scale(1 -1)" if mirrored else "")


def _xy(board_xy: tuple[float, float]) -> tuple[float, float]:
    x, y = board_xy
    return round(x * HEX_PX + 5.6 * HEX_PX, 1), round(y * HEX_PX + 5.0 * HEX_PX, 1)


def _crossing_xy(c: tuple[int, int]) -> tuple[float, float]:
    return _xy(crossing_position(c))


def _hex_points(h: tuple[int, int]) -> str:
    return " ".join(f"{x},{y}" for x, y in (_xy(hex_corner(h, k)) for k in range(6)))


def board_drawing(board: CatanBoard) -> dict:
    """Everything the SVG template draws, in its pixels."""
    hexes = []
    for h, (terrain, number) in sorted(board.hexes.items()):
        hexes.append({"hex": h, "points": _hex_points(h), "centre": _xy(hex_centre(h)),
                      "fill": TERRAIN_FILL.get(terrain, "#ccc"), "terrain": terrain, "number": number,
                      "red": number in (6, 8), "robber": h == board.robber})
    roads = [{"a": _crossing_xy(r.at[0]), "b": _crossing_xy(r.at[1]), "fill": PLAYER_FILL[r.colour],
              "colour": r.colour} for r in board.roads]
    buildings = [{"at": _crossing_xy(b.at), "fill": PLAYER_FILL[b.colour], "colour": b.colour, "kind": b.kind,
                  "size": 9 if b.kind == "city" else 6} for b in board.buildings]
    return {"hexes": hexes, "roads": roads, "buildings": buildings,
            "width": round(11.2 * HEX_PX), "height": round(10 * HEX_PX)}


def production_heat(board: CatanBoard, colour: str) -> dict:
    """Per hex, the rolls in 36 on which this player collects from it (settlement 1, city 2 per roll),
    the robber's hex excluded; with the hex drawing's points and an opacity for the heat map."""
    gain = production_by_hex(board, colour)
    top = max(gain.values(), default=1)
    cells = []
    for h in sorted(board.hexes):
        cells.append({"points": _hex_points(h), "centre": _xy(hex_centre(h)),
                      "value": gain.get(h, 0), "opacity": round(0.08 + 0.9 * gain.get(h, 0) / top, 2)})
    return {"cells": cells, "total": sum(gain.values()), "fill": PLAYER_FILL[colour]}
