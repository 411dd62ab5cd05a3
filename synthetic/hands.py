"""Hands and arms reaching over the table, drawn over a rendered frame (for video)."""

from __future__ import annotations

import math

import cv2
import numpy as np

SKIN_TONES = ((150, 180, 225), (110, 145, 200), (80, 110, 160), (60, 80, 120), (170, 195, 235))


def draw_arm(image: np.ndarray, entry: tuple[float, float], reach: tuple[float, float],
             tone: tuple[int, int, int], width: float) -> np.ndarray:
    """An arm from `entry` (on the frame's edge) to a hand at `reach`, with a soft shadow."""
    out = image.copy()
    shadow = np.zeros(image.shape[:2], np.float32)
    offset = np.array([width * 0.6, width * 0.4])
    _arm_mask(shadow, np.add(entry, offset), np.add(reach, offset), width)
    shadow = cv2.GaussianBlur(shadow, (0, 0), width * 0.4)
    out = (out.astype(np.float32) * (1 - 0.45 * shadow[..., None])).astype(np.uint8)
    mask = np.zeros(image.shape[:2], np.float32)
    _arm_mask(mask, entry, reach, width)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.2)
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float32)
    direction = np.subtract(reach, entry) / max(math.dist(entry, reach), 1e-6)
    across = (xs - entry[0]) * -direction[1] + (ys - entry[1]) * direction[0]
    shade = 0.75 + 0.25 * np.cos(np.clip(across / width, -1.5, 1.5))
    skin = np.array(tone, np.float32)[None, None, :] * shade[..., None]
    return (out * (1 - mask[..., None]) + skin * mask[..., None]).astype(np.uint8)


def _arm_mask(mask: np.ndarray, entry, reach, width: float) -> None:
    a = tuple(int(round(v)) for v in entry)
    b = tuple(int(round(v)) for v in reach)
    cv2.line(mask, a, b, 1.0, int(width), cv2.LINE_AA)
    direction = np.subtract(reach, entry) / max(math.dist(entry, reach), 1e-6)
    palm = np.add(reach, direction * width * 0.5)
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(width * 0.75), int(width * 0.6)),
                math.degrees(math.atan2(direction[1], direction[0])), 0, 360, 1.0, -1, cv2.LINE_AA)
    for k in range(4):
        spread = (k - 1.5) * 0.22
        fx = math.cos(math.atan2(direction[1], direction[0]) + spread)
        fy = math.sin(math.atan2(direction[1], direction[0]) + spread)
        tip = (palm[0] + fx * width * 1.4, palm[1] + fy * width * 1.4)
        cv2.line(mask, tuple(int(v) for v in palm), tuple(int(v) for v in tip), 1.0, max(2, int(width * 0.22)),
                 cv2.LINE_AA)
