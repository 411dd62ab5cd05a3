"""A reading against its truth, drawn on the photo: what was missed, what was read that is not there.

For the evaluation (`evaluate --pictures DIR`): each wrong photo is drawn with its truth's pieces and
the reading's, matched as the evaluation matches them; the pieces both agree on are drawn thin and
grey, the truth's unmatched ones (missed) green, the reading's unmatched ones (read, not there) red.
A keep matched in place but of the wrong height or colour counts as both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from tablesight.calibration.camera import CameraPose
from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.drawing import text_with_outline

AGREED_BGR = (160, 160, 160)
MISSED_BGR = (0, 220, 0)
EXTRA_BGR = (0, 0, 255)


@dataclass
class Differences:
    """Table points (mm) of the pieces one side has and the other not, per kind ("tower", "short", "long",
    "keep"); `agreed`: those matched."""

    missed: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    extra: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    agreed: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def count(self) -> int:
        return sum(len(v) for v in self.missed.values()) + sum(len(v) for v in self.extra.values())


def truth_picture(image: np.ndarray, pose: CameraPose, differences: Differences, profile: PieceProfile,
                  title: str = "") -> np.ndarray:
    """The photo with the differences drawn at the pieces' tops (where the eye finds them in the photo)."""
    out = image.copy()
    scale = max(1, round(max(image.shape[:2]) / 1000))
    heights = {"tower": profile.tower_height, "short": profile.wall_height, "long": profile.wall_height,
               "keep": profile.keep_height}
    # The missed marks drawn bigger: a keep read at the right place but wrong shows both, one round the other.
    marks = ((differences.agreed, AGREED_BGR, 1, 1.0), (differences.missed, MISSED_BGR, 3, 1.4),
             (differences.extra, EXTRA_BGR, 3, 1.0))
    for points, colour, width, size in marks:
        for kind, where in points.items():
            if not where:
                continue
            pixels = pose.project(np.array(where, dtype=np.float64), heights[kind])
            for p in pixels:
                _mark(out, p, kind, colour, width * scale, size * scale)
    lines = [title] if title else []
    lines += [f"missed (green): {_listed(differences.missed)}", f"read, not there (red): {_listed(differences.extra)}"]
    for n, line in enumerate(lines):
        text_with_outline(out, line, (12 * scale, (28 + 26 * n) * scale), 0.7 * scale, scale)
    return out


def _mark(out: np.ndarray, p: np.ndarray, kind: str, colour: tuple[int, int, int], width: int, scale: float) -> None:
    centre = (int(round(p[0])), int(round(p[1])))
    if kind == "tower":
        cv2.circle(out, centre, round(9 * scale), colour, width, cv2.LINE_AA)
    elif kind == "keep":
        half = round(8 * scale)
        cv2.rectangle(out, (centre[0] - half, centre[1] - half), (centre[0] + half, centre[1] + half), colour, width,
                      cv2.LINE_AA)
    else:  # a wall, at its middle: a short one a dash, a long one a longer dash
        half = round((6 if kind == "short" else 12) * scale)
        cv2.line(out, (centre[0] - half, centre[1]), (centre[0] + half, centre[1]), colour, width, cv2.LINE_AA)


def _listed(points: dict[str, list]) -> str:
    parts = [f"{len(v)} {k}" for k, v in points.items() if v]
    return ", ".join(parts) if parts else "none"
