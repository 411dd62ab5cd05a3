"""Camera models: lens intrinsics (a stored camera profile) and a pose over the table."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

# Radial distortion k1 of the cameras a game is photographed with: webcams and phones are barrel
# (negative) or corrected to nearly none; a marked pincushion is not a lens, it is a bad estimate.
PLAUSIBLE_K1 = (-0.35, 0.1)


class CameraProfileError(ValueError):
    """A camera profile file that cannot be used; the message says why."""


@dataclass(frozen=True)
class Lens:
    """Intrinsics for one image size: 3 × 3 matrix K and OpenCV distortion coefficients."""

    matrix: np.ndarray
    distortion: np.ndarray
    image_size: tuple[int, int]  # (width, height)

    @property
    def focal(self) -> float:
        return float((self.matrix[0, 0] + self.matrix[1, 1]) / 2)

    @property
    def principal_point(self) -> tuple[float, float]:
        return float(self.matrix[0, 2]), float(self.matrix[1, 2])

    @classmethod
    def pinhole(cls, focal: float, image_size: tuple[int, int]) -> Lens:
        w, h = image_size
        matrix = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]], dtype=np.float64)
        return cls(matrix, np.zeros(5), image_size)

    def for_size(self, image_size: tuple[int, int]) -> Lens:
        """The same lens for a photo scaled to another size (same aspect ratio)."""
        if image_size == self.image_size:
            return self
        sx, sy = image_size[0] / self.image_size[0], image_size[1] / self.image_size[1]
        if abs(sx - sy) > 0.01 * max(sx, sy):
            raise CameraProfileError(
                f"the camera profile is for {self.image_size[0]}×{self.image_size[1]} photos, "
                f"not {image_size[0]}×{image_size[1]} (another aspect ratio)")
        matrix = self.matrix.copy()
        matrix[0] *= sx
        matrix[1] *= sy
        return Lens(matrix, self.distortion.copy(), image_size)

    def undistort_points(self, pixels: np.ndarray) -> np.ndarray:
        """Pixel positions as an ideal pinhole camera with the same K would see them."""
        pts = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        if not np.any(self.distortion):
            return pts.reshape(-1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix).reshape(-1, 2)

    def to_dict(self) -> dict:
        return {"image_size": list(self.image_size), "matrix": self.matrix.round(4).tolist(),
                "distortion": self.distortion.ravel().round(6).tolist()}

    @classmethod
    def from_dict(cls, doc: dict) -> Lens:
        try:
            matrix = np.array(doc["matrix"], dtype=np.float64)
            distortion = np.array(doc["distortion"], dtype=np.float64).ravel()
            size = (int(doc["image_size"][0]), int(doc["image_size"][1]))
        except (KeyError, TypeError, ValueError, IndexError):
            raise CameraProfileError("a camera profile needs image_size, matrix (3×3) and distortion") from None
        if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)) or matrix[0, 0] <= 0 or matrix[1, 1] <= 0:
            raise CameraProfileError("the camera profile's matrix must be a 3×3 intrinsic matrix")
        if distortion.size not in (4, 5, 8, 12, 14) or not np.all(np.isfinite(distortion)):
            raise CameraProfileError("the camera profile's distortion must have 4, 5, 8, 12 or 14 numbers")
        if min(size) <= 0:
            raise CameraProfileError("the camera profile's image_size must be positive")
        return cls(matrix, distortion, size)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"kind": "tablesight-camera", **self.to_dict()}, indent=2) + "\n")

    @classmethod
    def load(cls, path: Path) -> Lens:
        try:
            doc = json.loads(path.read_text())
        except FileNotFoundError:
            raise CameraProfileError(f"camera profile {path} does not exist") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CameraProfileError(f"camera profile {path} is not readable JSON ({exc})") from None
        if not isinstance(doc, dict):
            raise CameraProfileError(f"camera profile {path} must be a JSON object")
        return cls.from_dict(doc)


@dataclass(frozen=True)
class CameraPose:
    """A lens placed over the table: table (card) coordinates → camera by (rvec, tvec)."""

    lens: Lens
    rvec: np.ndarray
    tvec: np.ndarray

    def project(self, table_points: np.ndarray, height: float | np.ndarray = 0.0) -> np.ndarray:
        """Pixels of table points (x, y) mm at `height` mm above the table."""
        pts = np.asarray(table_points, dtype=np.float64).reshape(-1, 2)
        z = -np.broadcast_to(np.asarray(height, dtype=np.float64), (len(pts),))
        obj = np.column_stack([pts, z])
        img, _ = cv2.projectPoints(obj, self.rvec, self.tvec, self.lens.matrix, self.lens.distortion)
        return img.reshape(-1, 2)

    @property
    def rotation(self) -> np.ndarray:
        return cv2.Rodrigues(self.rvec)[0]

    @property
    def centre(self) -> np.ndarray:
        """The camera's position in table coordinates (z negative: above the table)."""
        return (-self.rotation.T @ self.tvec.reshape(3)).ravel()

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and straight down onto the table."""
        axis = self.rotation.T @ np.array([0.0, 0.0, 1.0])
        return math.degrees(math.acos(min(1.0, abs(float(axis[2])))))

    def table_point(self, pixels: np.ndarray, height: float = 0.0) -> np.ndarray:
        """Where the rays through `pixels` meet the plane `height` mm above the table."""
        rays = self.lens.undistort_points(pixels)
        k_inv = np.linalg.inv(self.lens.matrix)
        dirs = (k_inv @ np.column_stack([rays, np.ones(len(rays))]).T).T @ self.rotation  # in table frame
        centre = self.centre
        s = (-height - centre[2]) / dirs[:, 2]
        return (centre[None, :] + s[:, None] * dirs)[:, :2]
