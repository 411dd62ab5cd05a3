"""The robber: smooth unsaturated grey plastic standing on the desert or on a number token."""

from __future__ import annotations

import cv2
import numpy as np

from tablesight.vision.catan.tokens import Token

ROBBER_REACH = 0.22  # the robber is looked for this far from a hex's centre (spacings)
MIN_ROBBER_SHARE = 0.06  # least share of that disc the robber's grey covers
TOKEN_HIDDEN = 0.85  # a "token" this much darker than the others is the robber standing on it


def robber_likeness(image: np.ndarray, centres: np.ndarray, spacing: float) -> np.ndarray:
    """Share of each hex's middle covered by smooth unsaturated grey: the robber's plastic (the hexes'
    pictures are textured, the tokens cream)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    sat, val = hsv[..., 1], hsv[..., 2]
    mean = cv2.blur(val, (5, 5))
    spread = np.sqrt(np.maximum(cv2.blur(val * val, (5, 5)) - mean * mean, 0))
    grey = ((sat < 60) & (val > 90) & (val < 215) & (spread < 10)).astype(np.uint8)
    grey = cv2.morphologyEx(grey, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    r = max(2, int(ROBBER_REACH * spacing))
    ys, xs = np.mgrid[-r:r, -r:r]
    disc = np.hypot(xs, ys) < r
    shares = []
    for cx, cy in centres:
        x, y = int(cx), int(cy)
        patch = grey[max(0, y - r):y + r, max(0, x - r):x + r]
        shares.append(float(patch[disc[:patch.shape[0], :patch.shape[1]]].mean()) if patch.size else 0.0)
    return np.array(shares)


def find_robber(likeness: np.ndarray, terrain: list[str], tokens: list[Token | None]) -> int | None:
    """The robber stands on the desert or hides a token: the greyest such hex, if grey enough."""
    creams = [t.cream_value for t in tokens if t is not None]
    typical = float(np.median(creams)) if creams else 255.0
    for i in np.argsort(-likeness):
        if likeness[i] < MIN_ROBBER_SHARE:
            return None
        token = tokens[i]
        if terrain[i] == "desert" or token is None or token.cream_value < TOKEN_HIDDEN * typical:
            return int(i)
    return None
