"""Ways of seeing a photo's colours, and how the readings they give are weighed against each other.

Each look sees some tables better than the others do (shade taken for table or for plastic, dark
colours kept apart, grey tinted by mixed light). A reading that breaks the rules is more likely a
misreading than an illegal castle: the reader keeps the reading whose broken rules take the fewest
misread pieces (`misfits`), provided it still reads most of what the first did (`keeps_the_pieces`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tablesight.scoring.castellan.report import Report
from tablesight.vision.segmentation import MAX_GREY_SATURATION, STEPS_AROUND_MM

if TYPE_CHECKING:
    from tablesight.vision.castellan.reading import PhotoReading

KEPT_PIECES_SHARE = 0.85  # another look must read at least this share of the first's towers and claimed courtyards
MIN_KEPT_TOWERS_SHARE = 0.5  # ... however many rules the first broke: half of its towers misread is no castle
# ... unless it broke so many that they take more misread pieces than a castle of its towers has walls and keeps
# (about two a tower): then it is the table's texture read as plastic, not a castle, and need not be kept at
# all (sample 016 with colour fringes: the plain table's noise, turned to chroma noise at the photo's edges,
# read as 172 towers taking 482 misread pieces; the look taking shade for table read the 63 towers exact).
MAX_FLOORED_MISFITS_PER_TOWER = 2.0
# ... yet a castle read as texture is not lost to a look reading no castle at all: this many towers or fewer is
# a game's start or specks of the table (`specks.drop_specks`), and breaks no rule for want of pieces to break them with
# (fresh 11100-028, grey castle on grey cloth: 39 towers with 81 misfits first, then 1 tower and none kept).
MAX_SPECK_TOWERS = 2


@dataclass(frozen=True)
class Look:
    """A way of seeing a photo's colours (`carving.classify_pixels`): each sees some tables better than the
    others do. `shadows_are_table`: any colour the table takes in shade (darker, its chromaticity drifting)
    is table, not grey plastic — cast shadows on a dark table no longer fatten the walls, but grey pieces
    darker than a grey table are lost. `deep_shade_is_plastic`: the other way round, anything far darker
    than the table's light (DEEP_SHADE_STOPS) is grey plastic whatever its colour — grey pieces on a pale
    table of their own colour, otherwise taken for its shade, are seen, and so are the deepest shadows
    (the carving keeps only what stands up). `grey_saturation`: the most saturated grey plastic is taken
    to look (the card's white balance is that of the light falling on it; a wall's side lit by another,
    a lamp and a window, comes out tinted)."""

    name: str
    camera_chroma: bool = False  # chromaticity part way back to the camera's own levels (`colour_features`)
    shadows_are_table: bool = False  # the table's colours in shade are table, not plastic (`classify_pixels`)
    deep_shade_is_plastic: bool = False  # ... or, far darker than the table, plastic (`classify_pixels`)
    # The planes below a piece's top that its body is carved on, as shares of its height (`carve_heights`).
    lower_shares: tuple[float, ...] = (0.25, 0.5)
    grey_saturation: float = MAX_GREY_SATURATION  # the most saturated grey plastic looks (`classify_pixels`)
    dark_sides: bool = False  # grey plastic's darkest sides, tinted by the shade's light, too (`grey_mask`)
    darkest_sides: bool = False  # ... and what is darker than the card's ink, far below the table (`far_darker`)
    own_tint: bool = False  # grey seen in the photo balanced on the plastic's own tint (`plastic_tint`)
    nearer_grey: bool = False  # ... or as what is nearer grey than a tinted table (`TableTint.nearer_grey`)
    local_steps: bool = False  # what steps from the table right around it (`steps_from_table_around`)
    steps_around_mm: float = STEPS_AROUND_MM  # ... over this much table around
    grey_by_colour: bool = True  # grey plastic is also what is unsaturated and of a colour the table lacks
    # Whether a reading through this look, as consistent with the rules as the best so far, is kept if it raises
    # fewer warnings. The look taking steps from the table around does not: it takes broad shade for plastic
    # too, and its reading must break fewer rules (sample 002: the shade-as-table reading, as consistent,
    # was right). Nor do the two taking deep shade for plastic: seen from nearly above they take the walls'
    # cast shadows for the walls (fresh 7272-001: a castle read whole, 10 mm towards its shadows, as
    # consistent as the usual reading and with fewer warnings).
    wins_ties: bool = True

    @property
    def sees_more_grey(self) -> bool:
        """Whether this look takes some pixels for grey plastic that the usual look does not (deep shade,
        a more saturated grey, darker sides, grey of the plastic's own tint, steps from the table around):
        where the usual look saw no castle, these may."""
        return (self.deep_shade_is_plastic or self.grey_saturation > MAX_GREY_SATURATION or self.dark_sides
                or self.own_tint or self.nearer_grey or self.local_steps)

    def carve_heights(self, height: float, top_share: float) -> list[float]:
        """The planes a piece of `height` is carved on: `lower_shares` of it and `top_share`."""
        return [height * f for f in (*self.lower_shares, top_share)]


TOWER_TOP_SHARE, WALL_TOP_SHARE = 0.78, 0.8  # below the merlons' gaps
# With shade taken for table, a piece's faces turned from the light go with it and often only its lit top
# is left: the planes low down then see that top leaning beyond the footprint, and a wall square to the
# lean is carved away. Such a look carves from higher up. Grey pieces on a pale table of their own grey
# are a stop darker than it and colour alone takes them for its shade: two looks take deep shade for
# plastic, the second with the table's shallower shades for table. That one sees the pieces' bodies
# whole (their shaded faces are the deep shade it takes for plastic) and carves from low down like the
# others: from higher up, in a view tilted 30–40° the walls came out twice as thick, leaning with the
# body below the planes (session 23, grey-piece errors: samples 382 -> 347, fresh seeds 4040
# 127 -> 123, 3939 776 -> 684, 3838 630 -> 646).
# Under a lamp and a window at once the card takes one light's colour and a wall's side the other's: grey
# plastic then comes out tinted in card units (a sixth of photos of one fresh seed, up to 0.12 median
# saturation). The last look takes grey to be that much more saturated.
MIXED_LIGHT_GREY_SATURATION = 0.3
# A box of a tinted grey (mauve, greenish) is saturated in card units whatever the light: the last look sees
# the photo balanced on the plastic's own tint (`plastic_tint`). Its shaded sides, lit by other light than
# its tops, stay a little off that tint, so it takes grey as saturated as the mixed-light look does (16
# photos of plastic tinted ±15 at greys 60–110: tower recall 0.56 with neither, 0.76 with the tint alone,
# 0.82 with both; the eight usual sets alike either way).
# Pale grey plastic on a faintly tinted table of its brightness (lavender, cream) falls in the table's own
# colour bin and steps nowhere from its light: a look takes what is nearer grey than the table.
# Grey plastic of a plain table's own tint and brightness shows only by its lit tops and shaded sides, steps
# that a mottled table or uneven light hides from the smooth light's spread: the last two looks take the steps
# from the table right around each pixel. Where the sides step from the table no more than its own grain, only
# the tops are seen, and the planes low down see them leaning beyond the footprint (fresh 10500-021, 28°: the
# castle's near side, its walls' sides turned to the camera the table's shade, carved apart, 12 of 61 towers
# missed): the next look carves from higher up, as the look taking shadows for table does.
# Heavy JPEG on a pale grey table breaks its colour into 8-px blocks, some of them unsaturated and of a colour
# the table "lacks": colour then takes the table for specks of plastic everywhere (held-out 12900-011, grey
# pieces on lavender-grey under an overcast sky, q67: 9 towers read among 94 misfits, the castle lost). The
# last look takes grey by its steps alone, and from the table over LOCAL_STEPS_WIDE_MM around: a tower (24 mm
# across) fills most of the usual 25 mm window, which then steps with it (on 12900-011, 14 of 16 towers, 2
# misfits; the six looked-at sets read as before).
LOCAL_STEPS_WIDE_MM = 60.0
LOOKS = (Look("as usual"), Look("dark colours kept apart", camera_chroma=True),
         Look("shadows taken for table", shadows_are_table=True, lower_shares=(0.6, 0.7)),
         Look("deep shade taken for plastic", deep_shade_is_plastic=True, wins_ties=False),
         Look("only deep shade taken for plastic", shadows_are_table=True, deep_shade_is_plastic=True,
              wins_ties=False),
         Look("grey tinted by mixed light", grey_saturation=MIXED_LIGHT_GREY_SATURATION),
         Look("dark sides taken for plastic", dark_sides=True),
         Look("sides darker than the card's ink taken for plastic", dark_sides=True, darkest_sides=True),
         Look("grey of the plastic's own tint", own_tint=True, grey_saturation=MIXED_LIGHT_GREY_SATURATION),
         Look("grey nearer grey than a tinted table", nearer_grey=True),
         Look("steps from the table right around taken for plastic", local_steps=True, wins_ties=False),
         Look("steps from the table right around taken for plastic, carved from higher up", local_steps=True,
              lower_shares=(0.6, 0.7), wins_ties=False),
         Look("only steps from the table right around taken for plastic", local_steps=True, grey_by_colour=False,
              steps_around_mm=LOCAL_STEPS_WIDE_MM, wins_ties=False))


def misfits(reading: PhotoReading, report: Report | None) -> int:
    """What speaks against a reading: the rules its board breaks (`rules_broken`), and the pieces it saw but
    left off the castle (towers in specks of up to MAX_SPECK_TOWERS apart, keeps far from it or too small). A
    finished castle is one piece of plastic and a game has little else on the table: a look that leaves
    towers apart has most often cut its castle short, and one that reads specks in the table's texture has
    seen plastic where there is none. (Counted only for fragments, a look that left 14 of a castle's towers
    apart won over one leaving 3 by breaking one rule fewer; counted always, grey-piece errors over the
    samples and three fresh seeds 1,800 -> 1,763, keep errors 235 -> 220, scores 96 -> 97 of 160.)"""
    return rules_broken(report) + reading.stranded


def misfit_rate(misfits_found: float, reading: PhotoReading) -> float:
    """A reading's misfits per tower read: what one look read of a bigger part of the castle is weighed
    fairly against what another read of less (each tower read is a chance to misread one): a look reading
    a castle's corner the first lost (fresh 7272-025: 55 towers and 18 misfits against 53 and 18) is kept,
    where the count alone tied and kept the first. Infinite (no castle) stays infinite."""
    return misfits_found / max(len(reading.towers), 1)


def no_castle(reading: PhotoReading) -> bool:
    """Whether a reading found no castle: no board, or MAX_SPECK_TOWERS towers or fewer."""
    return reading.board is None or len(reading.towers) <= MAX_SPECK_TOWERS


def fragment(reading: PhotoReading) -> bool:
    """Whether a reading left more pieces off its castle than the castle has towers: a reserve keep or a
    die may lie beside a castle, but dozens of towers "apart" from a castle of three are the castle,
    misread."""
    return reading.stranded > len(reading.towers)


def rules_broken(report: Report | None) -> int:
    """How many misreadings a reading's broken rules take at the least (none for an empty or missing board):
    one stray wall touching another, blocking two open ends and standing off the axes breaks four rules,
    but is one piece misread. Greedily, the piece named in most of the warnings left is taken to be
    misread, until none is left; a warning naming no piece (a keep outside every courtyard) is one."""
    if report is None:
        return 0
    left = [set(w.pieces) for w in report.warnings if w.pieces]
    misread = len(report.warnings) - len(left)
    while left:
        counts = Counter(piece for pieces in left for piece in pieces)
        worst = max(sorted(counts), key=counts.__getitem__)
        left = [pieces for pieces in left if worst not in pieces]
        misread += 1
    return misread


def keeps_the_pieces(other: PhotoReading, other_report: Report | None, first: PhotoReading,
                      first_report: Report | None, first_misfits: int = 0) -> bool:
    """Whether another look still reads most of what the first did: a reading that lost part of the castle
    breaks fewer rules only because it has less to break them with. Of the first's towers, those its
    `first_misfits` (rules broken, pieces stranded) may stand for need not be kept (a first reading with
    towers read in the table's texture breaks rules for each, and another look rightly drops them), but
    half of them must (MIN_KEPT_TOWERS_SHARE), unless its misfits are more than MAX_FLOORED_MISFITS_PER_TOWER
    a tower (texture read as a castle) — though even then one reading no castle (MAX_SPECK_TOWERS towers or
    fewer) does not replace one that read a castle. Of the keeps, the courtyards the first reading has claimed count (by
    one colour); keeps it read outside every courtyard or beside another colour's are what another look may
    well lose (the table's colour in the walls' shadows read as keeps), and so are keeps beyond a courtyard's
    one (a claim places one keep, C5)."""
    floor = MIN_KEPT_TOWERS_SHARE * len(first.towers)
    if first_misfits > MAX_FLOORED_MISFITS_PER_TOWER * len(first.towers):
        floor = MAX_SPECK_TOWERS + 1 if len(first.towers) > MAX_SPECK_TOWERS else 0
    return (other_report is not None  # reading nothing breaks no rule: it lost everything
            and len(other.towers) >= max(KEPT_PIECES_SHARE * (len(first.towers) - first_misfits), floor)
            and _claimed_courtyards(other_report) >= KEPT_PIECES_SHARE * _claimed_courtyards(first_report))


@dataclass(frozen=True)
class Standing:
    """A reading among the looks at a photo and what it is weighed by: the misread pieces its broken rules and
    stranded pieces take (`misfits`; infinite where the usual look saw no castle, so that any castle beats it),
    the warnings its report raises, and the look whose keep masks it was read with."""

    reading: PhotoReading
    report: Report | None
    misfits: float
    warnings: int
    keeps_seen_by: str

    def beaten_by(self, other: Standing, look: Look) -> bool:
        """Whether `other`, read through `look`, has fewer misfits per tower (`misfit_rate`) or, as many, raises
        fewer warnings (one misplaced wall touching another and blocking an open end is one piece, but two
        warnings) — the tie not won by a look weaker as evidence (`Look.wins_ties`)."""
        rate, best_rate = misfit_rate(other.misfits, other.reading), misfit_rate(self.misfits, self.reading)
        return (rate, other.warnings) < (best_rate, self.warnings) if look.wins_ties else rate < best_rate


def _claimed_courtyards(report: Report | None) -> int:
    """Courtyards holding keeps of one colour."""
    return 0 if report is None else sum(1 for y in report.courtyards if len(y.colours) == 1)
