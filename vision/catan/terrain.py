"""Terrain of each hex from the colours of its picture, around its number token, compared with
colour prototypes learnt from labelled photos (`learn_terrain`)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

PROTOTYPES = Path(__file__).with_name("terrain_prototypes.json")
RING = (0.22, 0.42)  # sampled between the number token and the hex's edge, in centre spacings


def load_prototypes() -> dict:
    return json.loads(PROTOTYPES.read_text())


def hex_features(image: np.ndarray, centres: np.ndarray, spacing: float) -> np.ndarray:
    """Colour of each hex's picture (Lab median and spread, saturation) around its token."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    step = max(1, int(spacing / 60))
    ys, xs = np.mgrid[0:image.shape[0]:step, 0:image.shape[1]:step]
    rows = []
    for cx, cy in centres:
        r = np.hypot(xs - cx, ys - cy) / spacing
        m = (r > RING[0]) & (r < RING[1])
        if not m.any():
            rows.append(np.zeros(6))
            continue
        pixels, sat = lab[ys[m], xs[m]], hsv[ys[m], xs[m], 1]
        rows.append(np.concatenate([np.median(pixels, axis=0), np.percentile(pixels[:, 0], [25, 75]),
                                    [np.median(sat)]]))
    return np.array(rows)


def classify_terrain(features: np.ndarray, prototypes: dict, numbered: list[bool] | None = None) -> list[str]:
    """Nearest prototype per hex. A hex whose number token was read is not the desert (the desert has
    none), whatever its colours: a pale pasture can look like sand."""
    scale = np.array(prototypes["scale"])
    means = {t: np.array(v) for t, v in prototypes["means"].items()}
    numbered = numbered or [False] * len(features)
    out = []
    for f, has_number in zip(features, numbered, strict=True):
        choices = [t for t in means if not (has_number and t == "desert")]
        out.append(min(choices, key=lambda t: float(np.linalg.norm((f - means[t]) / scale))))
    return out
