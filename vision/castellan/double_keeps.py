"""Single or double: each keep's measured lean, shadow and area weighed against its colour's other keeps.

A keep's top stands 1 or 2 keep-heights above the table (`keeps` measures how far its colour leans, the area it
carves and, under a hard light, its shadow's reach). A player stacks at most one double keep a game (C8), so for
each colour the hypotheses are "no double" or "this one keep is the double", each weighed by those measures
against the measurement's noise. Near straight below the camera the measures hardly differ; where the evidence
is weak the keep is marked uncertain, not guessed (a doubt the reading lists for a player to check).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import replace

import numpy as np

from tablesight.vision.castellan.keeps import ALONG_LESS_ACROSS_NOISE_MM, KeepReading

# Spread of a measured lean around the predicted one: a part in every keep (its colour's edges at about
# a pixel a millimetre) and a part growing with the single–double gap (a keep seen more obliquely
# shows longer, unevenly lit sides). Fitted to 2,500 keeps (the samples and seven held-out sets).
LEAN_NOISE_MM = 2.5
LEAN_NOISE_SHARE_OF_SPAN = 0.2
# A player stacks a double keep at most once a game (C8): taken here as about one claim in three doubled
# until it is used, so the more courtyards a colour holds, the likelier one of them is doubled.
DOUBLED_CLAIM_SHARE = 1 / 3
# A shadow's reach is misleading about one time in seven (measured on the samples: another piece's shadow
# or a table's pattern where the light was misjudged); such a measure is then anywhere in about two shares.
SHADOW_OUTLIER_SHARE, SHADOW_OUTLIER_DENSITY = 0.15, 0.5
# Some photos' shadows mislead far more often (a soft sky and a lamp from another side: fresh 13800-015, five of
# its nineteen single keeps shaded where only a double's shadow would reach, its blue double lit there, called single
# for certain). C8 says which keeps must be single: all but one of each colour. The share of those, past the
# likeliest double of each colour, measuring shaded (over SHADOWED_SHARE) tells this photo's outlier share, weighed
# with SHADOW_OUTLIER_SHARE as if from SHADOW_PRIOR_KEEPS keeps more. On 1,860 keeps of the samples and four fresh
# sets (13800-14100): wrong calls 20 -> 20, certain and wrong 4 -> 3, keeps in doubt 169 -> 172.
SHADOWED_SHARE = 0.5
SHADOW_PRIOR_KEEPS = 20
# A keep's colour now and then runs into something else of its colour along the lean (a keep beside it,
# a patch of the table): its lean then measures several gaps beyond a double's, which says nothing of
# its height. Such a measure is taken to be anywhere within about twenty gaps, one time in twenty.
LEAN_OUTLIER_SHARE, LEAN_OUTLIER_DENSITY = 0.05, 0.05
# A photo's keeps all lean a few mm more (or less) than the model predicts (their colour's edges grown or
# shrunk by its exposure and blur alike; on 1,830 keeps of six sets the singles' median lean beyond a
# single's varies from −5 to +6 mm between photos, 2.5 mm within one), and each colour its own few mm more
# (its plastic told from the table with its own margin). That shared lean is taken off each keep: told from
# its colour's other keeps (if it is the double, C8 makes them single) and, less surely, from the photo's
# other colours, as the area is (`_shrunk_centre`). Single keeps' lean spreads LEAN_SPREAD_IN_COLOUR_MM about
# their colour's, a colour's LEAN_SPREAD_BETWEEN_COLOURS_MM about the other colours' (MAD over 6,700 keeps,
# session 43's dump). Replayed there, against the photo's median: photos with a wrong single/double call
# 69 → 58 (calls 94 → 82; certain and wrong 12 → 15), each half of the photos alike. The shared lean and the
# leans' noise (`_lean_noise_scale`) are told from MIN_KEEPS_FOR_PHOTO_MEDIAN keeps on: fewer say too little.
MIN_KEEPS_FOR_PHOTO_MEDIAN = 6
LEAN_SPREAD_IN_COLOUR_MM = 1.9
LEAN_SPREAD_BETWEEN_COLOURS_MM = 2.3
# A double keep's colour carves more table on its body's planes than a single's (its taller sides, and its top
# leaning farther): over a single's area where it stands, doubles carve AREA_GAIN[0] + AREA_GAIN[1] × the
# single–double lean gap (mm) more (fitted to 1,830 keeps of six sets; on 2,200 more of the samples and six fresh
# sets the doubles' median gain is 0.33 at gaps of 6–8 mm, 0.54 at 10–14, 0.7 at 14–20). Weighed at every gap,
# beside the lean, though both measure one blob: in a steep view a single's lean is now and then measured as long
# as a double's (a neighbour's colour or the table joining its blob), and the area tells them apart there (fresh
# 14000-003: a red single leaning 1.49 of the gap and the double 1.58, their areas 1.41 and 3.66 of a keep's at a
# 33 mm gap). On 1,860 keeps of the samples and fresh 13800-14100, the doubles' gain measured 0.69 at gaps of
# 20–30 mm and 0.86 at 30–40 (these figures give 0.61 and 0.76), singles' spread 0.06–0.08; weighed there too,
# wrong calls 20 -> 17, none new, certain and wrong 3 -> 3 (until session 98 the area was weighed under 20 mm).
AREA_GAIN = (0.09, 0.03)
# Each colour's plastic is told from the table with its own margin (a dark blue's shaded sides fall out of its
# colour sooner than a yellow's), so a single keep carves a different area in each colour. A keep's area is
# weighed against a single's of its colour, told from the colour's other keeps (if this one is the double, C8
# makes them all single) and, less surely, from the photo's keeps of other colours. Measured on 6,700 keeps
# (the samples and twenty-two sets, session 43): single keeps' log area spreads 0.08 about their colour's
# (MAD), a colour's singles 0.25 about the other colours' (SD; heavy-tailed). Against the colour's median from
# four keeps on, else the photo's (before): 103 wrong calls in 73 of 609 photos, 14 of them certain, 594 keeps in
# doubt; this way: 94 in 69, 12 certain, 433 in doubt (each half of the photos alike).
AREA_SPREAD_IN_COLOUR = 0.08
AREA_SPREAD_BETWEEN_COLOURS = 0.25
MEDIAN_FROM = 3  # other keeps of a colour from which their median, not their mean, tells what a single measures
AREA_OUTLIER_SHARE, AREA_OUTLIER_DENSITY = 0.05, 0.2  # a keep partly hidden, or joined to a patch of its colour
GAUSSIAN_MEDIAN_SQUARE = 0.455  # the median of a squared standard Gaussian
MAX_LEAN_DISAGREEMENT = 2.5  # the two lean measures' difference, in their noise, beyond which neither is trusted
# A single/double decision is reported certain from these odds on (97.5 %). With the area weighed at lean gaps up
# to 12 mm, more calls clear 20 : 1; at that level the photos with a certain wrong call rose 11 -> 13 (of 288, the
# keeps measured in the samples and six fresh sets), at 40 : 1 they are 11 again, keeps left in doubt 203 -> 218.
CERTAIN_ODDS = 40.0
# A keep of a colour the table has (wood's yellow, a red cloth's red) measures less surely: its blob joins the
# table's patches of its colour. Called at CERTAIN_ODDS, 7 of 460 such calls were wrong (1.5 %, against 5 of
# 4,310 for the other colours; the keeps read in 475 of the 416 photos and five fresh sets, session 69); from these
# odds, none of 386, for 74 more keeps left in doubt.
TABLE_COLOUR_CERTAIN_ODDS = CERTAIN_ODDS ** 2
# A colour whose measured keeps all lean this share of a single–double gap short of a single's, or more, is measured
# short (its roofs dark or lost to the table, say): its double leans no further than a single should, and no call of
# that colour is certain (fresh 11600-003: three red keeps at -1.1, -0.9 and -0.8, the last a double read single
# for certain, the photo "read cleanly"). Judged on the leans as measured: with six keeps and more the lean they share
# is taken off each (`_without_shared_lean`), mostly from their own colour's, which makes a colour measured short look
# as the model says (fresh 17200-016: five green keeps 0.7-1.4 gaps short, their double called single for certain).
# Replayed on the keeps of 320 photos (samples, fresh 16600-17300): certain and wrong calls 7 -> 5, right calls made
# doubtful 5 of 2,842.
SHORT_COLOUR_LEAN = 0.5


def decide_doubles(keeps: list[KeepReading], tables_colours: Collection[str] = ()) -> list[KeepReading]:
    """Single or double for each keep, decided per colour: a player stacks at most one double keep a
    game (C8), so the hypotheses are "no double" or "this one keep is the double", "no double" the less
    likely the more keeps the colour has (DOUBLED_CLAIM_SHARE). Each is weighed by
    the keeps' measured leans (how far from a single's and a double's, against the measurement's
    noise, once the lean the photo's keeps all share is taken off), their shadows' reach and the area they
    carve (`_area_evidence`); a keep whose posterior is not clear either way
    is marked uncertain, more readily if of one of the table's own colours (`tables_colours`) or standing on table
    of its colour (`KeepReading.on_its_colour`)."""
    by_colour: dict[str, list[int]] = {}
    for i, k in enumerate(keeps):
        by_colour.setdefault(k.color, []).append(i)
    as_measured, keeps = keeps, _without_shared_lean(keeps)
    decided = list(keeps)
    spread = _lean_noise_scale(keeps)
    by_area = _area_evidence(keeps)
    shadow_outliers = _shadow_outlier_share(keeps)
    for members in by_colour.values():
        measured = [i for i in members if keeps[i].lean_share is not None or keeps[i].shadow_share is not None
                    or keeps[i].lean_at_least is not None or i in by_area]
        if not measured:
            continue
        no_double = (1 - DOUBLED_CLAIM_SHARE) ** len(members)
        log_prior_each = math.log((1 - no_double) / len(members))
        scores = {None: math.log(no_double)}
        scores.update({i: log_prior_each + _double_evidence(keeps[i], spread, shadow_outliers) + by_area.get(i, 0.0)
                       for i in measured})
        top = max(scores.values())
        weights = {h: math.exp(s - top) for h, s in scores.items()}
        # Unmeasured keeps of the colour could be the double too: their hypotheses keep their prior.
        total = sum(weights.values()) + (len(members) - len(measured)) * math.exp(log_prior_each - top)
        best = max(scores, key=scores.get)
        short = _measured_short([as_measured[i] for i in members])
        for i in measured:
            p_double = weights[i] / total
            on_table_colour = keeps[i].color in tables_colours or keeps[i].on_its_colour
            odds = TABLE_COLOUR_CERTAIN_ODDS if on_table_colour else CERTAIN_ODDS
            certain = (not 1 / (1 + odds) <= p_double <= odds / (1 + odds) and _leans_agree(keeps[i], spread)
                       and not short)
            decided[i] = replace(keeps[i], double=i == best, double_certain=certain)
        if best is not None:
            decided[best] = _placed_as_double(decided[best])
    return decided


def _measured_short(colour_keeps: list[KeepReading]) -> bool:
    """Whether a colour's keeps (two measured at least) all lean SHORT_COLOUR_LEAN of a gap or more short of a
    single's."""
    leans = [k.lean_share for k in colour_keeps if k.lean_share is not None]
    return len(leans) >= 2 and max(leans) <= -SHORT_COLOUR_LEAN


def _without_shared_lean(keeps: list[KeepReading]) -> list[KeepReading]:
    """The keeps with the lean they share beyond the model's taken off their lean shares (mm): for each, the
    lean its colour's other keeps and the photo's other colours show (`_shrunk_centre`), told from
    MIN_KEEPS_FOR_PHOTO_MEDIAN measured keeps on."""
    leans = [k.lean_share * k.lean_span_mm if k.lean_share is not None else None for k in keeps]
    if sum(lean is not None for lean in leans) < MIN_KEEPS_FOR_PHOTO_MEDIAN:
        return list(keeps)
    shed = []
    for i, keep in enumerate(keeps):
        if leans[i] is None:
            shed.append(keep)
            continue
        offset, _ = _shrunk_centre(*_around(leans, keeps, i), LEAN_SPREAD_IN_COLOUR_MM, LEAN_SPREAD_BETWEEN_COLOURS_MM)
        shed.append(replace(keep, lean_share=keep.lean_share - offset / keep.lean_span_mm))
    return shed


def _area_evidence(keeps: list[KeepReading]) -> dict[int, float]:
    """Log-likelihood ratio double : single of the area each keep carves (see AREA_GAIN), against a single's
    area where it stands (`_shrunk_centre`), its noise scaled by how much the photo's areas scatter (`_noise_scale`).
    Keeps whose area was not measured, or read where the castle needs one (`inferred`), are neither weighed
    nor a reference."""
    seen = [math.log(max(k.area_share, 1e-3)) if k.area_share is not None and not k.inferred else None
            for k in keeps]
    shares = {}  # each keep's area as a share of the single–double gain, and that share's noise
    for i, keep in enumerate(keeps):
        if seen[i] is None:
            continue
        single = _shrunk_centre(*_around(seen, keeps, i), AREA_SPREAD_IN_COLOUR, AREA_SPREAD_BETWEEN_COLOURS)
        if single is None:
            continue
        expected, variance = single
        gain = math.log(1 + AREA_GAIN[0] + AREA_GAIN[1] * keep.lean_span_mm)
        shares[i] = ((seen[i] - expected) / gain, math.sqrt(AREA_SPREAD_IN_COLOUR ** 2 + variance) / gain)
    # Where the photo's areas scatter more than the model says (a table taking some keeps' sides, a pattern
    # joining others), they tell singles from doubles less surely (fresh 12200-001: a yellow double carving less
    # than two of its colour's singles, called single for certain; on 1,564 keeps in 139 photos of the samples and
    # fresh 12200-12400: wrong calls 23 -> 21, certain wrong 5 -> 4, 10 right calls of 1,430 made unsure).
    scale = _noise_scale(list(shares.values()))
    return {i: _robust_evidence(share, noise * scale, AREA_OUTLIER_SHARE, AREA_OUTLIER_DENSITY)
            for i, (share, noise) in shares.items()}


def _around(values: list[float | None], keeps: list[KeepReading], i: int) -> tuple[list[float], list[float]]:
    """The measured `values` (None: not measured) of keep `i`'s colour's other keeps, and of the photo's keeps
    of other colours."""
    colour = keeps[i].color
    same = [v for j, v in enumerate(values) if v is not None and j != i and keeps[j].color == colour]
    other = [v for j, v in enumerate(values) if v is not None and keeps[j].color != colour]
    return same, other


def _shrunk_centre(same: list[float], other: list[float], within: float,
                   between: float) -> tuple[float, float] | None:
    """What a single keep of a colour measures, and that estimate's variance, from the colour's other keeps
    (`same`: all single if the keep weighed is the double; spread `within` about their colour's) and the
    photo's keeps of other colours (`other`: a colour's singles differ from another's by `between`), each
    weighed by how surely it tells; None with neither."""
    precision, weighted = 0.0, 0.0
    if same:
        centre = float(np.median(same)) if len(same) >= MEDIAN_FROM else float(np.mean(same))
        variance = within ** 2 / len(same)
        precision, weighted = precision + 1 / variance, weighted + centre / variance
    if other:
        variance = between ** 2 + within ** 2 / len(other)
        precision, weighted = precision + 1 / variance, weighted + float(np.median(other)) / variance
    if precision == 0:
        return None
    return weighted / precision, 1 / precision


def _placed_as_double(keep: KeepReading) -> KeepReading:
    """A keep read double, moved back towards the camera by half the single–double gap in its lean: it is
    found where its colour carves on planes through a single keep's body, and a double's colour reaches
    that much farther along its lean there (its base's near edge stays put), so its carved centre
    lies half as far beyond its true one."""
    if keep.lean_direction is None or keep.from_base:
        return keep
    shift = keep.lean_span_mm / 2
    return replace(keep, x=keep.x - shift * keep.lean_direction[0], y=keep.y - shift * keep.lean_direction[1])


def _lean_noise(keep: KeepReading) -> float:
    """The noise of a keep's lean share (in shares of its single–double gap)."""
    return math.hypot(LEAN_NOISE_MM, LEAN_NOISE_SHARE_OF_SPAN * keep.lean_span_mm) / keep.lean_span_mm


def _leans_agree(keep: KeepReading, spread: float = 1.0) -> bool:
    """Whether a keep's two measures of its lean (its colour's length, and that length less its width)
    agree within MAX_LEAN_DISAGREEMENT of their noise. They are taken as independent; one far from the
    other means something else (a shadow, a neighbour's colour) joined the blob, and neither is to be
    trusted enough to call the keep certain (on 1,200 keeps: 8 certain calls left in doubt, 3 of them
    wrong, of 13 wrong in all)."""
    if keep.lean_share is None or keep.width_share is None:
        return True
    noise = math.hypot(_lean_noise(keep), ALONG_LESS_ACROSS_NOISE_MM / keep.width_span_mm) * spread
    return abs(keep.lean_share - keep.width_share) <= MAX_LEAN_DISAGREEMENT * noise


def _lean_noise_scale(keeps: list[KeepReading]) -> float:
    """How much noisier the leans of this photo's keeps are than the noise model says (`_noise_scale`). In some
    photos every keep leans a whole gap less than a single can (a lens read wrong): their leans then
    tell singles from doubles far less surely than the model would claim."""
    return _noise_scale([(k.lean_share, _lean_noise(k)) for k in keeps if k.lean_share is not None])


def _noise_scale(measures: list[tuple[float, float]]) -> float:
    """How much noisier a photo's measures (each a share of the single–double gap, and its noise) are than the
    noise model says (at least 1): each lies near 0 (single) or 1 (double), so its distance to the nearer, over
    its noise, is a residual; their median square, over a Gaussian's (0.455), is the noise's variance scale."""
    residuals = [min(abs(share), abs(share - 1)) / noise for share, noise in measures]
    if len(residuals) < MIN_KEEPS_FOR_PHOTO_MEDIAN:
        return 1.0
    return max(1.0, math.sqrt(float(np.median(np.square(residuals))) / GAUSSIAN_MEDIAN_SQUARE))


def _shadow_outlier_share(keeps: list[KeepReading]) -> float:
    """How often this photo's shadow measures mislead (at least SHADOW_OUTLIER_SHARE): the share of its keeps
    that C8 makes single (each colour's measured keeps but the one shaded farthest) measured shaded, shrunk
    towards SHADOW_OUTLIER_SHARE as if SHADOW_PRIOR_KEEPS keeps more had shown it."""
    by_colour: dict[str, list[float]] = {}
    for keep in keeps:
        if keep.shadow_share is not None:
            by_colour.setdefault(keep.color, []).append(keep.shadow_share)
    singles = [share for shares in by_colour.values() for share in sorted(shares)[:-1]]
    shaded = sum(share > SHADOWED_SHARE for share in singles)
    share = (shaded + SHADOW_OUTLIER_SHARE * SHADOW_PRIOR_KEEPS) / (len(singles) + SHADOW_PRIOR_KEEPS)
    return max(SHADOW_OUTLIER_SHARE, share)


def _double_evidence(keep: KeepReading, spread: float = 1.0,
                     shadow_outliers: float = SHADOW_OUTLIER_SHARE) -> float:
    """Log-likelihood ratio double : single of a keep's measured lean (Gaussian noise around each, scaled
    by the photo's `spread`, allowing for a blob that took in something else now and then) and of its
    shadow's reach (the same, allowing for a misleading measure more often: `shadow_outliers` of the time)."""
    evidence = 0.0
    if keep.lean_share is not None:
        noise = _lean_noise(keep) * spread
        evidence += _robust_evidence(keep.lean_share, noise, LEAN_OUTLIER_SHARE, LEAN_OUTLIER_DENSITY)
    if keep.width_share is not None:  # a second measurement, its errors taken as independent
        noise = ALONG_LESS_ACROSS_NOISE_MM / keep.width_span_mm * spread
        evidence += _robust_evidence(keep.width_share, noise, LEAN_OUTLIER_SHARE, LEAN_OUTLIER_DENSITY)
    if keep.shadow_share is not None:
        evidence += _robust_evidence(keep.shadow_share, keep.shadow_noise, shadow_outliers, SHADOW_OUTLIER_DENSITY)
    if keep.lean_at_least is not None:
        evidence += _censored_evidence(keep.lean_at_least, _lean_noise(keep) * spread, LEAN_OUTLIER_SHARE)
    return evidence


def _censored_evidence(at_least: float, noise: float, outlier_share: float) -> float:
    """Log-likelihood ratio double : single of a lean known only to be `at_least` a share (Gaussian `noise`
    about each; in a share `outlier_share` of keeps the measure is anything, above it half the time)."""
    def log_tail(expected: float) -> float:
        tail = 0.5 * math.erfc((at_least - expected) / (noise * math.sqrt(2)))
        return math.log((1 - outlier_share) * tail + outlier_share / 2)
    return log_tail(1.0) - log_tail(0.0)


def _robust_evidence(share: float, noise: float, outlier_share: float, outlier_density: float) -> float:
    """Log-likelihood ratio double (share 1) : single (share 0) of a measure with Gaussian `noise` that
    is, in a share `outlier_share` of keeps, anything at all (`outlier_density` per share). In logs throughout: a
    measure many noises from both is no evidence either way, not an overflow."""
    def log_likelihood(expected: float) -> float:
        z = (share - expected) / noise
        gaussian = -0.5 * z * z - math.log(noise * math.sqrt(2 * math.pi)) + math.log(1 - outlier_share)
        return float(np.logaddexp(gaussian, math.log(outlier_share * outlier_density)))
    return log_likelihood(1.0) - log_likelihood(0.0)
