"""Photo in, report out: the Castellan reader, the rules, the overlay and the report documents."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tablesight.calibration.camera import CameraProfileError, Lens
from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile, PieceProfileError
from tablesight.errors import UnreadableInput
from tablesight.inputs import Photo
from tablesight.scoring.castellan.report import Report, score_board
from tablesight.scoring.castellan.text_report import format_report
from tablesight.vision.castellan.doubts import Doubt, find_doubts
from tablesight.vision.castellan.reader import CastellanReader, PhotoReading
from tablesight.vision.castellan.trust import Trust, reading_trust


def load_profiles(profile_path: Path | None, camera_path: Path | None) -> tuple[PieceProfile, Lens | None]:
    try:
        profile = PieceProfile.load(profile_path) if profile_path else NOMINAL_PROFILE
        lens = Lens.load(camera_path) if camera_path else None
    except (PieceProfileError, CameraProfileError) as exc:
        raise UnreadableInput(f"{exc}.") from None
    return profile, lens


@dataclass
class PhotoResult:
    photo: Photo
    reading: PhotoReading
    report: Report | None
    profile: PieceProfile
    doubts: list[Doubt]  # the pieces the photo leaves uncertain, and what hangs on each
    trust: Trust | None = None  # how far the reading can be relied on (None: no castle read)

    def annotated(self) -> np.ndarray:
        from tablesight.vision.castellan.annotate import annotate

        return annotate(self.photo.image, self.reading, self.report, self.profile, self.doubts)

    def to_dict(self) -> dict:
        doc = self.report.to_dict() if self.report else {"game": "castellan"}
        card = self.reading.card
        doc["reading"] = {
            "notes": self.reading.notes,
            "card": None if card is None else {
                "found": card.seen, "corners": card.corner_count if card.seen else 0,
                "in_part": card.seen_in_part,  # a corner of the card only: the castle is placed less surely
                "reprojection_px": round(card.reprojection_px, 3),
                "focal_px": round(card.pose.lens.focal, 1), "focal_from": card.focal_source,
                "tilt_deg": round(card.pose.tilt_deg, 1)},
            "ms": {k: round(v, 1) for k, v in self.reading.timings_ms.items()},
            "doubts": [d.to_dict() for d in self.doubts],
        }
        if self.trust is not None:
            doc["reading"]["trust"] = self.trust.to_dict()
        return doc

    def text(self) -> str:
        lines = [format_report(self.report), "", f"Reading: {self.trust.sentence()}."] if self.report else []
        if self.doubts:
            lines.append("")
            lines.append(f"Check by eye ({len(self.doubts)} piece(s) the photo leaves in doubt):")
            lines += [f"  - {doubt.sentence()}" for doubt in self.doubts]
        if self.reading.notes:
            lines.append("")
            lines.append("Reading notes:")
            lines += [f"  - {note}" for note in self.reading.notes]
        return "\n".join(lines)


def score_photo(photo: Photo, profile: PieceProfile = NOMINAL_PROFILE, lens: Lens | None = None,
                boxes: int | None = None, progress: Callable[[str], None] | None = None) -> PhotoResult:
    """`progress`: as for `CastellanReader`."""
    try:
        reading = CastellanReader(profile, lens, progress).read(photo.image, photo.focal_35mm)
    except CameraProfileError as exc:
        raise UnreadableInput(f"{exc}.") from None
    if photo.greyscale:
        reading.notes.append("the photo is grey-scale: keep colours cannot be told apart")
    if reading.board is None:
        return PhotoResult(photo, reading, None, profile, [])
    report = score_board(reading.board, profile.dimensions, boxes)
    doubts = find_doubts(reading, reading.board, profile.dimensions, boxes)
    return PhotoResult(photo, reading, report, profile, doubts, reading_trust(reading, report, len(doubts)))
