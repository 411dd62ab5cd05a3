"""The recognition overlay: every piece read, each courtyard tinted by its owner with its value,
the warnings, and the card — drawn on the photo as the camera saw it."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from tablesight.calibration.card import card_outline_mm
from tablesight.calibration.pieces import NOMINAL_KEEP_BGR, PieceProfile
from tablesight.scoring.castellan.report import Report
from tablesight.vision.castellan.doubts import Doubt
from tablesight.vision.castellan.reader import PhotoReading
from tablesight.vision.castellan.trust import Trust, reading_trust
from tablesight.vision.drawing import text_with_outline

WALL_BGR = (255, 255, 0)
TOWER_BGR = (0, 255, 255)
UNOWNED_BGR = (200, 200, 200)
WARNING_BGR = (0, 0, 255)


def annotate(image: np.ndarray, reading: PhotoReading, report: Report | None, profile: PieceProfile,
             doubts: Sequence[Doubt] = ()) -> np.ndarray:
    """The overlay; each piece in `doubts` (`doubts.find_doubts`: what the report lists to check by eye) is
    marked "?"."""
    out = image.copy()
    if reading.card is None:
        _banner(out, "No reference card found: print it with `tablesight card` and lay it beside the castle.")
        return out
    pose = reading.card.pose
    scale = max(1, round(max(image.shape[:2]) / 1000))
    if reading.card.seen:
        _draw_card(out, pose, scale)
    labels: list[np.ndarray] = []  # the courtyards' value labels (pixels), which warnings step aside from
    if report is not None:
        labels = _tint_courtyards(out, report, pose, profile, scale)
    board = reading.board
    if board is None:
        _banner(out, reading.notes[0] if reading.notes else "No castle found.")
        return out
    towers = board.tower_map()
    in_doubt = {(d.piece, d.id) for d in doubts}
    walls_in_doubt = []  # their midpoints, marked once the keeps in front of them are drawn
    for wall in board.walls:
        a, b = board.wall_endpoints(wall, towers)
        pts = pose.project(np.array([a, b]), profile.wall_height)
        cv2.line(out, _pt(pts[0]), _pt(pts[1]), WALL_BGR, 2 * scale if wall.kind == "long" else scale, cv2.LINE_AA)
        if wall.ends[1] is None:
            cv2.drawMarker(out, _pt(pts[1]), WALL_BGR, cv2.MARKER_TILTED_CROSS, 10 * scale, scale)
        if ("wall", wall.id) in in_doubt:
            walls_in_doubt.append(pts.mean(axis=0))
    for tower in board.towers:
        ring = _poly(pose.project(_circle(tower.position, profile.dimensions.tower_radius), profile.tower_height))
        cv2.polylines(out, [ring], True, TOWER_BGR, scale, cv2.LINE_AA)
        if ("tower", tower.id) in in_doubt:
            text_with_outline(out, "?", _pt(ring.reshape(-1, 2).max(axis=0) + [2 * scale, 0]), 0.5 * scale, scale)
    for i, keep in enumerate(board.keeps):
        colour = tuple(int(c) for c in NOMINAL_KEEP_BGR[keep.color])
        height = profile.keep_height * (2 if keep.double else 1)
        top = pose.project(np.array([keep.position]), height)[0]
        cv2.circle(out, _pt(top), 7 * scale, (255, 255, 255), -1, cv2.LINE_AA)
        cv2.circle(out, _pt(top), 5 * scale, colour, -1, cv2.LINE_AA)
        # "x2" for a double keep; "?" where single or double could not be told, or the keep was inferred.
        mark = ("x2" if keep.double else "") + ("?" if ("keep", f"k{i}") in in_doubt else "")
        if mark:
            text_with_outline(out, mark, _pt(top + [8 * scale, -4 * scale]), 0.5 * scale, scale)
    for middle in walls_in_doubt:
        text_with_outline(out, "?", _pt(middle + [-14 * scale, -6 * scale]), 0.5 * scale, scale)
    if report is not None:
        for warning in report.warnings:
            where = _beside_labels(pose.project(np.array([warning.where]), 0.0)[0], labels, scale)
            cv2.drawMarker(out, _pt(where), WARNING_BGR, cv2.MARKER_TRIANGLE_UP, 18 * scale, 2 * scale)
            cv2.putText(out, warning.rule or "!", _pt(where + [10 * scale, 0]), cv2.FONT_HERSHEY_SIMPLEX,
                        0.5 * scale, WARNING_BGR, scale, cv2.LINE_AA)
        _legend(out, report, _headline(reading_trust(reading, report, 0)), scale)
    return out


def _tint_courtyards(out: np.ndarray, report: Report, pose, profile: PieceProfile, scale: int) -> list[np.ndarray]:
    """Each courtyard tinted by its owner, with its value (\"?\" unclaimed); returns where the values are written."""
    overlay = out.copy()
    for yard in report.courtyards:
        colour = NOMINAL_KEEP_BGR.get(yard.owner, UNOWNED_BGR) if yard.owner else UNOWNED_BGR
        cv2.fillPoly(overlay, [_poly(pose.project(yard.polygon, profile.wall_height))], tuple(int(c) for c in colour))
    cv2.addWeighted(overlay, 0.35, out, 0.65, 0, out)
    labels = []
    for yard in report.courtyards:
        label = pose.project(np.array([yard.label]), profile.wall_height)[0]
        text = f"{yard.value}" if yard.owner else "?"
        text_with_outline(out, text, _pt(label), 0.7 * scale, scale)
        labels.append(label)
    return labels


def _beside_labels(where: np.ndarray, labels: list[np.ndarray], scale: int) -> np.ndarray:
    """A warning's marker moved below a courtyard's value label it would cover (a courtyard's own warning
    is placed where its value is written): both stay readable."""
    for label in labels:
        # A value label's text runs right and up from its origin, about 30 × 20 px at scale 1.
        if -14 * scale <= where[0] - label[0] <= 40 * scale and -30 * scale <= where[1] - label[1] <= 16 * scale:
            return np.array([where[0], label[1] + 20 * scale])
    return where


def _headline(trust: Trust) -> str | None:
    """What the legend says first, in the warnings' red, where the scores are not to be relied on: a reading
    likely misread, or a castle hardly seen (keeps read with a tower or two: `Trust.castle_unseen`)."""
    if trust.level == "misread":
        return "LIKELY MISREAD: take the photo again"
    if trust.castle_unseen:
        return "CASTLE HARDLY SEEN: take the photo again"
    return None


def _legend(out: np.ndarray, report: Report, headline: str | None, scale: int) -> None:
    """The scores, the winner and the warnings' count, top left; first, if given, the `headline` (`_headline`)."""
    lines = [f"{colour}: {score}" for colour, score in sorted(report.scores.items(), key=lambda kv: -kv[1])]
    winner = report.winner
    if winner:
        lines.append("winner: " + (" & ".join(winner) if isinstance(winner, list) else winner))
    if report.warnings:
        lines.append(f"{len(report.warnings)} warning(s)")
    y = 30 * scale
    if headline:
        text_with_outline(out, headline, (12 * scale, y), 0.8 * scale, scale, colour=WARNING_BGR)
        y += 28 * scale
    for line in lines:
        text_with_outline(out, line, (12 * scale, y), 0.8 * scale, scale)
        y += 28 * scale


def _draw_card(out: np.ndarray, pose, scale: int) -> None:
    cv2.polylines(out, [_poly(pose.project(card_outline_mm()))], True, (0, 200, 0), scale, cv2.LINE_AA)


def _banner(out: np.ndarray, text: str) -> None:
    scale = max(1, round(max(out.shape[:2]) / 1000))
    cv2.rectangle(out, (0, 0), (out.shape[1], 40 * scale), (0, 0, 0), -1)
    cv2.putText(out, text, (10 * scale, 27 * scale), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, (255, 255, 255),
                scale, cv2.LINE_AA)


def _circle(centre, radius: float, sides: int = 24) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, sides, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)])


def _pt(p) -> tuple[int, int]:
    return int(round(float(p[0]))), int(round(float(p[1])))


def _poly(points: np.ndarray) -> np.ndarray:
    return np.round(points).astype(np.int32).reshape(-1, 1, 2)
