"""Piece profiles: the sizes and colours of a real piece set, nominal or measured.

The rules need only footprints (`PieceDimensions`); the camera also needs heights
and colours. `tablesight calibrate pieces` measures a user's own set and writes a
profile that replaces these nominal values.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS, PieceDimensions

# Keep colours as hue ranges are decided in vision; here only typical BGR for drawing and rendering.
NOMINAL_KEEP_BGR = {"red": (40, 40, 200), "blue": (190, 90, 30), "yellow": (40, 200, 235), "green": (60, 150, 40)}


class PieceProfileError(ValueError):
    """A piece profile file that cannot be used; the message says why."""


@dataclass(frozen=True)
class PieceProfile:
    dimensions: PieceDimensions = NOMINAL_DIMENSIONS
    tower_height: float = 36.0
    wall_height: float = 26.0
    keep_height: float = 32.0  # body and roof; a double keep is twice this
    keep_roof_height: float = 10.0
    grey_bgr: tuple[float, float, float] = (128.0, 128.0, 128.0)
    keep_bgr: dict[str, tuple[float, float, float]] = field(default_factory=lambda: dict(NOMINAL_KEEP_BGR))

    def to_dict(self) -> dict:
        doc = asdict(self)
        doc["kind"] = "tablesight-pieces"
        doc["game"] = "castellan"
        return doc

    @classmethod
    def from_dict(cls, doc: dict) -> PieceProfile:
        if not isinstance(doc, dict) or doc.get("game", "castellan") != "castellan":
            raise PieceProfileError("a piece profile must be a JSON object for the castellan game")
        try:
            dims = PieceDimensions(**{f.name: float(doc["dimensions"][f.name])
                                      for f in fields(PieceDimensions) if f.name in doc["dimensions"]})
            values = {name: float(doc[name]) for name in
                      ("tower_height", "wall_height", "keep_height", "keep_roof_height") if name in doc}
            grey = tuple(float(c) for c in doc.get("grey_bgr", (128, 128, 128)))
            keeps = {k: tuple(float(c) for c in v) for k, v in doc.get("keep_bgr", NOMINAL_KEEP_BGR).items()}
        except (KeyError, TypeError, ValueError):
            raise PieceProfileError("the piece profile's sizes must be numbers in millimetres") from None
        sizes = [dims.tower_diameter, dims.short_wall_length, dims.long_wall_length, dims.wall_thickness,
                 dims.keep_side, *values.values()]
        if any(not 0 < s < 500 for s in sizes):
            raise PieceProfileError("the piece profile's sizes must be between 0 and 500 mm")
        return cls(dims, grey_bgr=grey, keep_bgr=keeps, **values)  # type: ignore[arg-type]

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n")

    @classmethod
    def load(cls, path: Path) -> PieceProfile:
        try:
            return cls.from_dict(json.loads(path.read_text()))
        except FileNotFoundError:
            raise PieceProfileError(f"piece profile {path} does not exist") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise PieceProfileError(f"piece profile {path} is not readable JSON ({exc})") from None


NOMINAL_PROFILE = PieceProfile()
