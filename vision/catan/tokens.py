"""Number tokens: found as a cream disc near each hex's centre, read by what the printing is, not by
a font: the dots (pips) give the number's probability class, and two numbers share each class — a
one-digit and a two-digit number (2/12, 3/11, 4/10), or two one-digit numbers that differ in their
holes (5 has none, 9 has one; 6 has one, 8 has two). The pips also give the token's "down", so a
token photographed upside down reads the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TOKEN_RADIUS = (0.13, 0.27)  # token radius range, in hex centre spacings
SEARCH = 0.45  # the token is looked for this far from the hex's centre (spacings)
INNER = 0.82  # the printing lies inside this share of the token's radius
PIP_PITCH = 0.147  # distance between neighbouring pips, in token radii (the tokens' design)
PIP_DIAMETER = 0.111
MIN_INK = 0.25  # ink is at least this much darker (or redder) than the cream
PAIRS = {1: (2, 12), 2: (3, 11), 3: (4, 10), 4: (5, 9), 5: (6, 8)}


@dataclass(frozen=True)
class Token:
    x: float
    y: float
    radius: float
    cream_value: float  # median brightness (HSV V) of the disc
    cream_saturation: float


@dataclass(frozen=True)
class TokenReading:
    number: int | None
    pips: int
    digits: int
    holes: int
    red: bool


def find_token(image: np.ndarray, centre: tuple[float, float], spacing: float) -> Token | None:
    """The brightest, least saturated circle of a token's size near the hex's centre, or None."""
    cx, cy = centre
    reach = int(SEARCH * spacing)
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    crop = image[y0:int(cy) + reach, x0:int(cx) + reach]
    if crop.size == 0:
        return None
    grey = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (0, 0), 1.5)
    circles = cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT_ALT, 1.5, spacing * 0.2, param1=150, param2=0.6,
                               minRadius=int(TOKEN_RADIUS[0] * spacing), maxRadius=int(TOKEN_RADIUS[1] * spacing))
    if circles is None:
        return None
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    best, best_score = None, -np.inf
    for x, y, r in circles[0]:
        off = float(np.hypot(x + x0 - cx, y + y0 - cy))
        if off > 0.3 * spacing:
            continue
        inside = np.zeros(grey.shape, np.uint8)
        cv2.circle(inside, (int(x), int(y)), int(r * 0.9), 1, -1)
        value = float(np.median(hsv[..., 2][inside > 0]))
        saturation = float(np.median(hsv[..., 1][inside > 0]))
        score = value - saturation - 0.5 * off
        if score > best_score:
            best, best_score = Token(float(x + x0), float(y + y0), float(r), value, saturation), score
    return best


def read_token(image: np.ndarray, token: Token) -> TokenReading:
    """The number printed on a token (None if the printing cannot be made out)."""
    ink, red, centre, r = _ink(image, token)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    pip_ids, digit_ids = _split_pips_and_digits(labels, stats, centroids, count, centre, r)
    if not pip_ids or not digit_ids:
        return TokenReading(None, len(pip_ids), len(digit_ids), 0, False)
    pips, down = _count_pips(np.isin(labels, pip_ids), centre, r)
    digits = np.isin(labels, digit_ids)
    is_red = bool(np.count_nonzero(red & digits) > 0.3 * np.count_nonzero(digits))
    holes = _holes(digits, r)
    centroid = np.column_stack(np.nonzero(digits))[:, ::-1].mean(axis=0)
    number = _number(pips, len(digit_ids), holes, is_red, centroid, down)
    return TokenReading(number, pips, len(digit_ids), len(holes), is_red)


def _ink(image: np.ndarray, token: Token) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Printing on the token: darker than the cream, or red (6 and 8); split from the cream by Otsu's
    threshold so that blur and exposure do not fill the small holes of an 8."""
    r = token.radius
    half = int(np.ceil(r))
    x, y = int(round(token.x)), int(round(token.y))
    crop = image[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]
    centre = np.array([x - max(0, x - half), y - max(0, y - half)], float)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.float32)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    ys, xs = np.mgrid[0:crop.shape[0], 0:crop.shape[1]]
    disc = np.hypot(xs - centre[0], ys - centre[1]) < INNER * r
    cream_v, cream_s = float(np.median(val[disc])), float(np.median(sat[disc]))
    red_hue = (hue < 12) | (hue > 165)
    score = np.maximum(1 - val / max(cream_v, 1.0), red_hue * (sat - cream_s) / max(255 - cream_s, 1.0))
    score8 = np.clip(score * 255, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(score8[disc], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = disc & (score8 > max(otsu, MIN_INK * 255))
    red = disc & red_hue & (sat > cream_s + 40) & (val > 0.3 * cream_v)
    return ink, red, centre, r


def _split_pips_and_digits(labels, stats, centroids, count, centre, r) -> tuple[list[int], list[int]]:
    """Pips: small or thin-and-short marks off the middle (a row of touching pips is one such mark);
    digits: the larger marks."""
    pips, digits = [], []
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < 0.003 * r * r:
            continue
        ys, xs = np.nonzero(labels == i)
        (_, _), (w, h), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        short, long_ = sorted((w + 1, h + 1))
        off_middle = np.hypot(*(centroids[i] - centre)) / r
        if short <= 0.19 * r and long_ <= 0.8 * r and off_middle >= 0.33:
            pips.append(i)
        elif area >= 0.02 * r * r:
            digits.append(i)
    return pips, digits


def _count_pips(mask: np.ndarray, centre: np.ndarray, r: float) -> tuple[int, np.ndarray]:
    """How many pips (from the row's length: touching pips still count), and the token's down."""
    ys, xs = np.nonzero(mask)
    down = np.array([xs.mean(), ys.mean()]) - centre
    down /= np.linalg.norm(down) + 1e-9
    across = np.column_stack([xs, ys]) @ np.array([-down[1], down[0]])
    length = float(across.max() - across.min() + 1)
    return int(np.clip(round((length - PIP_DIAMETER * r) / (PIP_PITCH * r)) + 1, 1, 5)), down


def _holes(digits: np.ndarray, r: float) -> list[np.ndarray]:
    """Centres of the enclosed holes of the digits (an 8 has two, a 6 or 9 one)."""
    contours, hierarchy = cv2.findContours(digits.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    holes = []
    if hierarchy is None:
        return holes
    for contour, link in zip(contours, hierarchy[0], strict=True):
        if link[3] >= 0 and cv2.contourArea(contour) >= 0.002 * r * r:
            m = cv2.moments(contour)
            holes.append(np.array([m["m10"], m["m01"]]) / max(m["m00"], 1e-9))
    return holes


def _number(pips: int, digit_marks: int, holes: list[np.ndarray], red: bool, centroid: np.ndarray,
            down: np.ndarray) -> int:
    if red or pips == 5:  # 6 or 8: red print, five pips
        if len(holes) >= 2:
            return 8
        # One hole: low in the digit is a 6; high is a 9 printed black (then the pips were misread).
        if len(holes) == 1 and not red and float((holes[0] - centroid) @ down) < 0:
            return 9
        return 6
    one_digit, other = PAIRS[pips]
    if pips == 4:
        return other if holes else one_digit  # 9 has a hole, 5 none
    return other if digit_marks >= 2 else one_digit
