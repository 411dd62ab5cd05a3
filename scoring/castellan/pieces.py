"""Sizes of the Castellan pieces that the rules depend on, and the box contents.

These are rule-relevant numbers only (millimetres). The camera-side piece profile
in `tablesight.calibration` wraps them together with colours and heights; a user's
calibrated set replaces the nominal values, so nothing may hard-code them.
"""

from __future__ import annotations

from dataclasses import dataclass

KEEP_COLOURS = ("red", "blue", "yellow", "green")
# Each box holds keeps of two colours; its edition is named by them.
EDITIONS = (("red", "blue"), ("yellow", "green"))
BOX_CONTENTS = {"towers": 32, "short_walls": 30, "long_walls": 26}


@dataclass(frozen=True)
class PieceDimensions:
    tower_diameter: float = 24.0
    short_wall_length: float = 40.0  # between the two towers' surfaces
    long_wall_length: float = 104.0
    wall_thickness: float = 10.0
    keep_side: float = 22.0
    # Pieces nearer than this (mm) are taken to touch: a hand-built castle is never exact.
    contact_tolerance: float = 3.0
    # Walls more than this (degrees) off the castle's axes break C3.
    axis_tolerance_deg: float = 10.0
    # A wall whose length differs from its kind's by more than this share is suspicious.
    length_tolerance: float = 0.2

    @property
    def tower_radius(self) -> float:
        return self.tower_diameter / 2.0

    def centre_spacing(self, kind: str) -> float:
        """Distance between the centres of two towers joined by a wall of `kind`."""
        length = self.short_wall_length if kind == "short" else self.long_wall_length
        return length + self.tower_diameter


NOMINAL_DIMENSIONS = PieceDimensions()


def boxes_in_play(colours: set[str]) -> int:
    """How many boxes the keep colours on the table imply (at least one)."""
    editions = sum(1 for edition in EDITIONS if colours & set(edition))
    return max(1, editions, (len(colours) + 1) // 2)
