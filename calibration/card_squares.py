"""Finding the card by its black squares when none of its markers can be read.

In a soft photo (defocus, a shaky hand) or with the card small in the frame, a marker's cells are
a pixel or two wide and blur into each other: ArUco reads no bit and finds no marker. The card's
18 black squares, four times a cell wide and solid, are still outlined (ArUco finds and rejects
them). Their checker layout names them: each outline in turn is taken for each black square at each
turn, and the card placed that way that puts most other outlines on black squares wins. The checker
looks the same turned half round, and shifted by whole squares where only part of it is outlined;
which way round and where the card lies is read from the markers' blurred patterns, comparing the
photo with the card drawn each way.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from tablesight.calibration.card import SQUARE_MM, SQUARES, board_image, board_object_points, charuco_board

MIN_SQUARES = 8  # of the 18: a card this much in view, laid out as a checker, is no chance pattern
SQUARE_MATCH = 0.25  # an outline's centre within this share of a square of a black square's centre
SIZE_MATCH = (0.75, 1.3)  # and its area this share of a square's
CORNER_SLACK = 0.12  # a blurred square's outline rounds its corners off by up to this share of its side
MAX_SEEDS = 150  # outlines tried as a black square (a busy table has hundreds)
MIN_SEED_MATCHES = 3  # a rough placement is grown further only if it already finds this many squares
MAX_GROWN = 40  # ... and only the best this many
GROWING_ROUNDS = 3
MAX_CANDIDATES = 4  # grown placements from each pool of seeds turned, shifted and checked by the markers
# Whole-square shifts (black on black) tried, with quarter turns, to put a grown placement on the card.
ANCHOR_SHIFTS = [(dx, dy) for dx in range(-6, 7) for dy in range(-6, 7) if (dx + dy) % 2 == 0]
# Placements the checker alone cannot tell apart (whole squares, black on black) and the markers can.
CHECKER_SHIFTS = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if (dx + dy) % 2 == 0]
MIN_MARKER_CORRELATION = 0.2  # the markers drawn where the card is placed must match the photo this well
MIN_MARKER_LEAD = 0.08  # ... and better than placed any other way
DRAWN_PX_PER_MM = 2.0


def find_card_by_squares(grey: np.ndarray, outlines: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """The card's inner corners (pixels, ChArUco ids) from candidate `outlines` (each 4 × 2 pixels,
    as ArUco rejects them), or None when no checker of black squares is among them."""
    quads = np.array([o.reshape(4, 2) for o in outlines], np.float64).reshape(-1, 4, 2)
    if len(quads) < MIN_SQUARES:
        return None
    for homography, squares in _placements(quads, _centre_levels(grey, quads)):
        homography = _right_way_round(grey, _refined(homography, quads[squares]))
        if homography is not None:
            return _inner_corners(grey, homography)
    return None


def _inner_corners(grey: np.ndarray, homography: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card's inner corners placed by `homography` that fall inside the photo (pixels, ids)."""
    corners = board_object_points()[:, :2]
    pixels = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
    h, w = grey.shape[:2]
    inside = (pixels[:, 0] >= 0) & (pixels[:, 0] < w) & (pixels[:, 1] >= 0) & (pixels[:, 1] < h)
    return pixels[inside].astype(np.float32), np.flatnonzero(inside)


@cache
def _black_squares() -> np.ndarray:
    """(18, 4, 2) corners of the card's black squares in table mm, clockwise from the top-left."""
    cols, rows = SQUARES
    out = []
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2 == 0:
                x, y = c * SQUARE_MM, r * SQUARE_MM
                out.append([[x, y], [x + SQUARE_MM, y], [x + SQUARE_MM, y + SQUARE_MM], [x, y + SQUARE_MM]])
    return np.array(out, np.float64)


def _centre_levels(grey: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """The photo's grey level at each outline's centre."""
    h, w = grey.shape[:2]
    centres = np.round(quads.mean(axis=1)).astype(int)
    return grey[np.clip(centres[:, 1], 0, h - 1), np.clip(centres[:, 0], 0, w - 1)].astype(np.float64)


def _placements(quads: np.ndarray, levels: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Homographies (table mm → pixels) putting at least MIN_SQUARES outlines on black squares, with those
    outlines, the likeliest first: from each pool of seeds (`_likely_seeds`) the best MAX_CANDIDATES.
    One outline places the card only roughly (its corners are rounded by the blur, and its perspective
    is too small to measure): each placement is taken as affine, then refitted through the squares it
    finds, a few times over, the card growing from the seed. A checked tablecloth also puts outlines
    on black squares; only the markers (`_right_way_round`) tell the card, so several are kept."""
    centres = quads.mean(axis=1)
    areas = np.abs(np.array([cv2.contourArea(q.astype(np.float32)) for q in quads]))
    by_count, by_darkness = _likely_seeds(areas, levels)
    most_squares = _rough_placements(by_count, quads, centres, areas)[:MAX_GROWN]
    darkest = [placed[0] for placed in (_rough_placements(np.array([seed]), quads, centres, areas)
                                        for seed in by_darkness[:MAX_GROWN]) if placed]
    chosen = []
    for rough, by_squares in ((most_squares, True), (darkest, False)):
        grown = [g for g in (_grown(h, quads, centres, areas) for h in rough) if g is not None]
        most = sorted(grown, key=lambda g: -len(g[1]))[:MAX_CANDIDATES]
        # The darkest seeds' first placements, and their placements finding most squares: the darkest seeds
        # lie on the card's squares, but the first grown from them may find too few to count (soft 048 on a
        # patterned table: 7, 7, 5, 0 squares, the card's 8 and 10 further down the list).
        first = grown[:MAX_CANDIDATES]
        candidates = most if by_squares else first + [g for g in most if not any(g is f for f in first)]
        anchored = [_re_anchored(*g, quads, centres, areas) for g in candidates]
        chosen += [g for g in anchored if len(g[1]) >= MIN_SQUARES]
    return sorted(chosen, key=lambda g: -len(g[1]))


def _rough_placements(seeds: np.ndarray, quads: np.ndarray, centres: np.ndarray, areas: np.ndarray) -> list:
    """Affine placements (as 3 × 3 homographies) putting each seed outline on each black square at each
    turn, best first, those finding at least MIN_SEED_MATCHES outlines on black squares."""
    rough = []
    squares = _black_squares()
    for seed in seeds:
        affines = _seed_affines(_clockwise(quads[seed]), squares)
        # Any placement from this seed gives squares about the seed's size: only outlines near it count.
        alike = np.abs(np.log(np.maximum(areas, 1.0) / max(areas[seed], 1.0))) < np.log(SIZE_MATCH[1] / SIZE_MATCH[0])
        counts = _rough_counts(affines, centres[alike], areas[alike])
        for index in np.flatnonzero(counts >= MIN_SEED_MATCHES):
            rough.append((int(counts[index]), np.vstack([affines[index], [0.0, 0.0, 1.0]])))
    rough.sort(key=lambda r: -r[0])
    return [homography for _, homography in rough]


def _grown(homography: np.ndarray, quads: np.ndarray, centres: np.ndarray, areas: np.ndarray):
    """A rough placement refitted through the squares it finds, a few times over (the card growing from
    the seed), and those squares; None if it loses them all."""
    matched = _on_black_squares(homography, centres, areas)
    for _ in range(GROWING_ROUNDS):
        homography = _refined(homography, quads[matched])
        matched = _on_black_squares(homography, centres, areas)
        if matched is None:
            return None
    return (homography, matched) if len(matched) else None


def _re_anchored(homography: np.ndarray, matched: np.ndarray, quads: np.ndarray, centres: np.ndarray,
                 areas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The placement grown from a seed may fit the checker but not the card: turned a quarter, or
    shifted by whole squares, it covers only part of the outlines. Each quarter turn and shift (black
    kept on black) is tried, and the one putting most outlines on the card's black squares kept. Turns
    and shifts move whole cells, so the outlines' cells are worked out once and moved."""
    placed = _checker_cells(homography, centres, areas)
    if placed is None:
        return homography, matched
    cells, fits = placed
    middles = (cells[fits] + 0.5) * SQUARE_MM
    every = np.arange(len(middles))
    best, best_count = None, len(matched)
    for move in _anchor_moves():
        # Table points p of this placement are move @ p in the grown one's.
        moved = (middles - move[:2, 2]) @ move[:2, :2]  # the inverse of a turn is its transpose
        count = len(_distinct_on_card(np.floor(moved / SQUARE_MM), every))
        if count > best_count:
            best, best_count = move, count
    if best is None:
        return homography, matched
    moved = homography @ best
    refitted = _refined(moved, quads[_on_black_squares(moved, centres, areas)])
    found = _on_black_squares(refitted, centres, areas)
    return (homography, matched) if found is None else (refitted, found)


@cache
def _anchor_moves() -> tuple[np.ndarray, ...]:
    """The quarter turns (about the card's corner) and whole-square shifts tried by `_re_anchored`, as
    3 x 3 maps of table mm."""
    moves = []
    for turn in range(4):
        c, s = np.round(np.cos(turn * np.pi / 2)), np.round(np.sin(turn * np.pi / 2))
        rotation = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
        for dx, dy in ANCHOR_SHIFTS:
            moves.append(rotation @ np.array([[1.0, 0, dx * SQUARE_MM], [0, 1.0, dy * SQUARE_MM], [0, 0, 1]]))
    return tuple(moves)


def _likely_seeds(areas: np.ndarray, levels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Outlines worth trying as a black square, at most MAX_SEEDS of them, in two pools: those whose size
    most others share (the card's squares look alike), and the darkest of those whose size enough others
    share (a checked tablecloth can outnumber the card's squares, but its squares are rarely as dark).
    Each pool gets its own share of the placements grown, so a tablecloth cannot crowd the card out."""
    log_area = np.log(np.maximum(areas, 1.0))
    alike = (np.abs(log_area[:, None] - log_area[None]) < np.log(SIZE_MATCH[1] / SIZE_MATCH[0])).sum(axis=1)
    by_count = np.argsort(-alike, kind="stable")[:MAX_SEEDS // 2]
    candidates = np.flatnonzero(alike >= MIN_SQUARES)
    by_darkness = candidates[np.argsort(levels[candidates], kind="stable")]
    by_darkness = by_darkness[~np.isin(by_darkness, by_count)][:MAX_SEEDS - len(by_count)]
    # (The darkest are tried first, one placement each: see `_placements`.)
    return by_count, by_darkness


def _seed_affines(seed_quad: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """(len(squares) × 4, 2, 3) affine maps table mm → pixels putting each black square, at each turn,
    on the seed outline (from three of its corners)."""
    out = []
    for square in squares:
        for turn in range(4):
            corners = np.roll(seed_quad, -turn, axis=0)
            out.append(cv2.getAffineTransform(square[:3].astype(np.float32), corners[:3].astype(np.float32)))
    return np.array(out, np.float64)


def _rough_counts(affines: np.ndarray, centres: np.ndarray, areas: np.ndarray) -> np.ndarray:
    """For each affine placement, how many outlines lie on black squares about their size (a square
    counted once per outline; `_on_black_squares` sorts out repeats)."""
    linear, shift = affines[:, :, :2], affines[:, :, 2]
    det = np.linalg.det(linear)
    valid = np.abs(det) > 1e-9
    inverse = np.linalg.inv(np.where(valid[:, None, None], linear, np.eye(2)))
    table = (centres[None] - shift[:, None]) @ inverse.transpose(0, 2, 1)
    cell = np.floor(table / SQUARE_MM)
    offset = np.linalg.norm(table - (cell + 0.5) * SQUARE_MM, axis=2)
    cols, rows = SQUARES
    black = ((cell[..., 0] + cell[..., 1]) % 2 == 0) & (cell[..., 0] >= 0) & (cell[..., 0] < cols) \
        & (cell[..., 1] >= 0) & (cell[..., 1] < rows)
    share = areas[None] / np.maximum(np.abs(det)[:, None] * SQUARE_MM ** 2, 1e-9)
    ok = black & (offset < SQUARE_MATCH * SQUARE_MM) & (share > SIZE_MATCH[0]) & (share < SIZE_MATCH[1])
    return np.where(valid, ok.sum(axis=1), 0)


def _on_black_squares(homography: np.ndarray, centres: np.ndarray, areas: np.ndarray) -> np.ndarray | None:
    """Indices of the outlines lying on distinct black squares, as placed by `homography`."""
    placed = _checker_cells(homography, centres, areas)
    if placed is None:
        return None
    cells, fits = placed
    return _distinct_on_card(cells, np.flatnonzero(fits))


def _checker_cells(homography: np.ndarray, centres: np.ndarray, areas: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray] | None:
    """Each outline's cell (column, row) on the card's checker continued past its edges, as placed by
    `homography`, and whether the outline fits a black square there (near its middle, about its size)."""
    try:
        inverse = np.linalg.inv(homography)
    except np.linalg.LinAlgError:
        return None
    table = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), inverse).reshape(-1, 2)
    cells = np.floor(table / SQUARE_MM)
    offset = np.linalg.norm(table - (cells + 0.5) * SQUARE_MM, axis=1)
    # An outline's area against the square's as placed (perspective changes it across the card).
    scale = np.abs(np.linalg.det(_jacobian(homography, table)))
    share = areas / np.maximum(scale * SQUARE_MM ** 2, 1e-9)
    fits = (((cells[:, 0] + cells[:, 1]) % 2 == 0) & (offset < SQUARE_MATCH * SQUARE_MM)
            & (share > SIZE_MATCH[0]) & (share < SIZE_MATCH[1]))
    return cells, fits


def _distinct_on_card(cells: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Of the outlines `chosen`, those on the card, one a cell."""
    cols, rows = SQUARES
    x, y = cells[chosen, 0], cells[chosen, 1]
    chosen = chosen[(x >= 0) & (x < cols) & (y >= 0) & (y < rows)]
    _, first = np.unique(cells[chosen, 1] * cols + cells[chosen, 0], return_index=True)
    return chosen[first]


def _jacobian(homography: np.ndarray, table: np.ndarray) -> np.ndarray:
    """(n, 2, 2) derivative of the homography at table points."""
    x, y = table[:, 0], table[:, 1]
    h = homography
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    return np.stack([np.stack([(h[0, 0] - u * h[2, 0]) / w, (h[0, 1] - u * h[2, 1]) / w], axis=-1),
                     np.stack([(h[1, 0] - v * h[2, 0]) / w, (h[1, 1] - v * h[2, 1]) / w], axis=-1)], axis=1)


def _refined(homography: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """The homography through every corner of the squares found, each paired with the nearest corner of
    the black square it lies on (an outline's own corner order may start anywhere)."""
    if len(quads) < 2:
        return homography
    squares = _black_squares().reshape(-1, 2)
    predicted = cv2.perspectiveTransform(squares.reshape(-1, 1, 2), homography).reshape(-1, 2)
    pixels = quads.reshape(-1, 2)
    nearest = np.argmin(np.linalg.norm(pixels[:, None] - predicted[None], axis=2), axis=1)
    side_px = float(np.median(np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2)))
    refined, _ = cv2.findHomography(squares[nearest], pixels, cv2.RANSAC, max(1.0, CORNER_SLACK * side_px))
    return homography if refined is None else refined


def _right_way_round(grey: np.ndarray, homography: np.ndarray) -> np.ndarray | None:
    """The placement whose markers match the photo: the checker looks the same turned half round, and
    shifted by whole squares where the card is partly hidden or out of the frame, but its markers do not."""
    width, height = SQUARES[0] * SQUARE_MM, SQUARES[1] * SQUARE_MM
    half_turn = np.array([[-1.0, 0, width], [0, -1.0, height], [0, 0, 1]])
    ways = [homography @ np.array([[1.0, 0, dx * SQUARE_MM], [0, 1.0, dy * SQUARE_MM], [0, 0, 1]]) @ turn
            for dx, dy in CHECKER_SHIFTS for turn in (np.eye(3), half_turn)]
    scores = np.array([_correlation(grey, way) for way in ways])
    order = np.argsort(-scores)
    if scores[order[0]] < MIN_MARKER_CORRELATION or scores[order[0]] - scores[order[1]] < MIN_MARKER_LEAD:
        return None
    return ways[int(order[0])]


def _correlation(grey: np.ndarray, homography: np.ndarray) -> float:
    """How well the card's markers drawn through `homography` match the photo there (the black squares,
    alike however the checker is placed, are left out)."""
    drawn, markers = _drawn_markers()
    to_image = homography @ np.diag([1 / DRAWN_PX_PER_MM, 1 / DRAWN_PX_PER_MM, 1.0])
    h, w = drawn.shape
    outline = cv2.perspectiveTransform(np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float64), to_image)
    x0, y0 = np.maximum(np.floor(outline.min(axis=(0, 1))), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(outline.max(axis=(0, 1))), grey.shape[::-1]).astype(int)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return -1.0
    to_crop = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]]) @ to_image
    warped = cv2.warpPerspective(drawn, to_crop, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(markers, to_crop, (x1 - x0, y1 - y0), flags=cv2.INTER_NEAREST) > 0
    if mask.sum() < 100:
        return -1.0
    a, b = warped[mask], grey[y0:y1, x0:x1][mask].astype(np.float32)
    a, b = a - a.mean(), b - b.mean()
    return float((a @ b) / max(np.sqrt((a @ a) * (b @ b)), 1e-9))


@cache
def _drawn_markers() -> tuple[np.ndarray, np.ndarray]:
    """The card drawn at DRAWN_PX_PER_MM, and a mask of its markers."""
    drawn = board_image(DRAWN_PX_PER_MM).astype(np.float32)
    mask = np.zeros(drawn.shape, np.uint8)
    for corners in charuco_board().getObjPoints():
        cv2.fillConvexPoly(mask, np.round(np.asarray(corners)[:, :2] * DRAWN_PX_PER_MM).astype(np.int32), 1)
    return drawn, mask


def _clockwise(quad: np.ndarray) -> np.ndarray:
    """Corners turning clockwise on the screen (image y down), as the black squares' are listed."""
    a, b, c = quad[0], quad[1], quad[2]
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return quad if cross > 0 else quad[::-1].copy()
