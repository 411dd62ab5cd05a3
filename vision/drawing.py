"""Small drawing helpers shared by the recognition overlays."""

from __future__ import annotations

import cv2
import numpy as np


def text_with_outline(out: np.ndarray, text: str, origin: tuple[int, int], size: float, scale: int) -> None:
    """White text with a black outline, readable on any photo."""
    cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), 4 * scale, cv2.LINE_AA)
    cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255), scale, cv2.LINE_AA)
