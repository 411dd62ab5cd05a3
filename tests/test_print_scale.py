"""A card printed at another size than the profile's pieces make them out to be: the user is told."""

from dataclasses import replace
from pathlib import Path

from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile
from tablesight.inputs import read_photo
from tablesight.vision.castellan.reader import CastellanReader

PHOTO = Path(__file__).parent.parent / "samples" / "castellan" / "photos" / "photo-000.jpg"


def _profile_scaled(share: float) -> PieceProfile:
    """The nominal profile with every size times `share`: read through it, a card printed at `share` of its
    size (a printer's "fit to page") is mimicked — the pieces look 1/share of the profile's sizes."""
    d = NOMINAL_PROFILE.dimensions
    dims = replace(d, tower_diameter=d.tower_diameter * share, short_wall_length=d.short_wall_length * share,
                   long_wall_length=d.long_wall_length * share, wall_thickness=d.wall_thickness * share,
                   keep_side=d.keep_side * share)
    p = NOMINAL_PROFILE
    return replace(p, dimensions=dims, tower_height=p.tower_height * share, wall_height=p.wall_height * share,
                   keep_height=p.keep_height * share, keep_roof_height=p.keep_roof_height * share)


def _print_notes(profile: PieceProfile) -> list[str]:
    reading = CastellanReader(profile=profile).read(read_photo(PHOTO).image)
    return [n for n in reading.notes if "card's squares measure" in n]


def test_a_card_printed_small_is_named():
    notes = _print_notes(_profile_scaled(0.94))
    assert len(notes) == 1 and "longer" in notes[0]


def test_a_card_printed_true_is_not():
    assert _print_notes(NOMINAL_PROFILE) == []
