"""How the renderer models the pieces: a round tower's facets, the crenellations' count and size, a keep's
roof eaves, how much darker the tops are drawn and how glossy the plastic is.

`USUAL_STYLE` is the generator's own since its first photos. `random_piece_style` varies every one of these
far beyond it, so that a set drawn that way tests whether the reader reads the pieces by what they are (a
round tower, a crenellated wall, a keep with a roof) rather than by how this renderer happens to draw them;
the pieces' sizes (`PieceProfile`) are not touched.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PieceStyle:
    tower_sides: int = 28  # facets of a round tower
    tower_merlons: int = 6
    tower_merlon_height: float = 0.14  # share of the tower's height
    tower_merlon_depth: float = 0.4  # from the rim inwards, share of the radius
    tower_merlon_width: float = 0.5  # along the rim, share of the radius
    tower_top_shade: float = 0.9  # the flat top's albedo against the sides'
    wall_merlon_pitch_mm: float = 14.0
    wall_merlon_fill: float = 0.55  # share of the pitch a merlon fills
    wall_merlon_height: float = 0.18  # share of the wall's height
    wall_top_shade: float = 0.92
    keep_eaves: float = 1.08  # the roof's base, as a share of the body's side
    keep_roof_shade: float = 0.85
    grey_gloss: float = 0.3  # share of specular highlight (see `Lighting.shade`)
    keep_gloss: float = 0.35


USUAL_STYLE = PieceStyle()


def random_piece_style(rng: np.random.Generator) -> PieceStyle:
    """A style drawn far and wide around the usual one: coarse or fine towers, few or many crenellations,
    shallow or deep, flush or overhanging roofs, tops as light as the sides or far darker, matt or glossy."""
    return PieceStyle(
        tower_sides=int(rng.choice([10, 14, 20, 28, 40, 64])),
        tower_merlons=int(rng.integers(4, 11)),
        tower_merlon_height=float(rng.uniform(0.07, 0.24)),
        tower_merlon_depth=float(rng.uniform(0.2, 0.6)),
        tower_merlon_width=float(rng.uniform(0.3, 0.8)),
        tower_top_shade=float(rng.uniform(0.7, 1.05)),
        wall_merlon_pitch_mm=float(rng.uniform(7.0, 22.0)),
        wall_merlon_fill=float(rng.uniform(0.3, 0.75)),
        wall_merlon_height=float(rng.uniform(0.08, 0.3)),
        wall_top_shade=float(rng.uniform(0.7, 1.05)),
        keep_eaves=float(rng.uniform(1.0, 1.15)),
        keep_roof_shade=float(rng.uniform(0.65, 1.05)),
        grey_gloss=float(rng.uniform(0.0, 0.7)),
        keep_gloss=float(rng.uniform(0.05, 0.8)),
    )
