"""Accuracy of photo reading against truth: per-piece precision/recall, keep colours, exact boards
and exact scores, broken down by tilt, light and table; plus time per stage.

Run: python -m tablesight.vision.castellan.evaluate samples/castellan/photos [--known-lens] [--jobs N]
[--pictures DIR] (--known-lens reads each photo with its camera's lens profile, as `score --camera` does;
--pictures draws each photo whose scores come out wrong with what was missed and what was read that is
not there, `truth_picture`).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np
from scipy.spatial import cKDTree

from tablesight.calibration.camera import Lens
from tablesight.calibration.pieces import PieceProfile
from tablesight.errors import TablesightError
from tablesight.inputs import read_photo
from tablesight.photo_scoring import load_profiles
from tablesight.scoring.castellan.board import Board
from tablesight.scoring.castellan.board_json import board_from_dict
from tablesight.scoring.castellan.checks import castle_axis
from tablesight.scoring.castellan.report import score_board
from tablesight.synthetic.dataset import truth_path
from tablesight.vision.castellan.doubts import (
    AS_TOWER_RUN,
    WITH_HIDDEN_TOWER,
    Doubt,
    find_doubts,
    long_wall_split,
    run_as_long_wall,
    with_tower_at_open_end,
    without_tower,
)
from tablesight.vision.castellan.reader import CastellanReader
from tablesight.vision.castellan.trust import reading_trust
from tablesight.vision.castellan.truth_picture import Differences, truth_picture

MATCH_MM = 12.0
ALIGN_MM = (40.0, 20.0)  # tower pairs taken to align a reading with the truth, loosely then closer
SHIFTED_TOWERS = 3  # a photo's line shows its aligned towers where aligning matches this many more
KINDS = ("tower", "short", "long", "keep")


@dataclass
class PhotoScore:
    name: str
    scene: dict
    counts: dict[str, Counter] = field(default_factory=dict)  # kind → tp/fp/fn
    aligned_counts: dict[str, Counter] = field(default_factory=dict)  # the same, the castle aligned as a whole
    keep_colour_right: int = 0
    keep_colour_total: int = 0
    board_exact: bool = False
    scores_exact: bool = False
    doubts: int = 0  # pieces listed to check by eye
    scores_exact_once_checked: bool = False  # … and right once those are looked at on the table
    trust: str = "nothing read"  # what the report says of the reading (`trust.reading_trust`)
    timings_ms: dict[str, float] = field(default_factory=dict)


def _match(truth_pts, read_pts, tolerance) -> list[tuple[int, int]]:
    """Greedy nearest pairs within tolerance (pieces are far apart compared to the tolerance)."""
    pairs = sorted((math.dist(a, b), i, j) for i, a in enumerate(truth_pts) for j, b in enumerate(read_pts)
                   if math.dist(a, b) < tolerance)
    used_t, used_r, out = set(), set(), []
    for _, i, j in pairs:
        if i not in used_t and j not in used_r:
            used_t.add(i)
            used_r.add(j)
            out.append((i, j))
    return out


def _wall_points(board: Board) -> dict[str, list[tuple[float, float]]]:
    towers = board.tower_map()
    out: dict[str, list] = {"short": [], "long": []}
    for w in board.walls:
        a, b = board.wall_endpoints(w, towers)
        out[w.kind].append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    return out


def compare(truth: Board, read: Board | None) -> tuple[dict[str, Counter], int, int]:
    """Per kind, the pieces matched (tp), read and not there (fp) and missed (fn) (`differences`); and of the
    keeps matched by place, how many have the truth's colour, and how many there are."""
    read = read or Board()
    diff = differences(truth, read)
    counts = {kind: Counter(tp=len(diff.agreed[kind]), fp=len(diff.extra[kind]), fn=len(diff.missed[kind]))
              for kind in KINDS}
    pairs = _match([k.position for k in truth.keeps], [k.position for k in read.keeps], 2 * MATCH_MM)
    right = sum(truth.keeps[i].color == read.keeps[j].color for i, j in pairs)
    return counts, right, len(pairs)


def differences(truth: Board, read: Board) -> Differences:
    """The pieces matched and not, as `compare` matches them (a keep of the wrong colour or height is both
    missed and read where it is not)."""
    diff = Differences()
    pairs_of = {"tower": ([t.position for t in truth.towers], [t.position for t in read.towers], MATCH_MM),
                "keep": ([k.position for k in truth.keeps], [k.position for k in read.keeps], 2 * MATCH_MM)}
    tw, rw = _wall_points(truth), _wall_points(read)
    pairs_of.update({kind: (tw[kind], rw[kind], MATCH_MM) for kind in ("short", "long")})
    for kind, (want, got, tolerance) in pairs_of.items():
        pairs = _match(want, got, tolerance)
        if kind == "keep":
            pairs = [(i, j) for i, j in pairs if truth.keeps[i].color == read.keeps[j].color
                     and truth.keeps[i].double == read.keeps[j].double]
        found_t, found_r = {i for i, _ in pairs}, {j for _, j in pairs}
        diff.agreed[kind] = [got[j] for j in found_r]
        diff.missed[kind] = [p for i, p in enumerate(want) if i not in found_t]
        diff.extra[kind] = [p for j, p in enumerate(got) if j not in found_r]
    return diff


def aligned(truth: Board, read: Board) -> Board:
    """The reading turned and moved as a whole onto the truth (least squares over its towers paired
    with the truth's): what remains is the reading's own error, not the card's pose error."""
    for tolerance in ALIGN_MM:
        pairs = _match([t.position for t in truth.towers], [t.position for t in read.towers], tolerance)
        if len(pairs) < 3:
            return read
        got = np.array([read.towers[j].position for _, j in pairs])
        want = np.array([truth.towers[i].position for i, _ in pairs])
        u, _, vt = np.linalg.svd((got - got.mean(axis=0)).T @ (want - want.mean(axis=0)))
        rotation = vt.T @ np.diag([1.0, np.sign(np.linalg.det(vt.T @ u.T))]) @ u.T
        shift = want.mean(axis=0) - rotation @ got.mean(axis=0)
        read = read.transformed(math.degrees(math.atan2(rotation[1, 0], rotation[0, 0])), *shift)
    return read


def registered(truth: Board, read: Board) -> Board:
    """A reading made without the card (its places in a frame of its own) turned and moved onto the truth: the
    turn lining its castle's axes up with the truth's, a quarter-turn at a time, with the shift most towers
    agree on (each read tower put on each true one in turn), then `aligned`. As read if no axis is known."""
    truth_axis, read_axis = _castle_axis(truth), _castle_axis(read)
    if truth_axis is None or read_axis is None or not read.towers:
        return read
    want = np.array([t.position for t in truth.towers], float).reshape(-1, 2)
    found = cKDTree(want)
    best, best_count = read, -1
    for quarter in range(4):
        turned = read.transformed(math.degrees(truth_axis - read_axis) + 90.0 * quarter)
        got = np.array([t.position for t in turned.towers], float)
        for shift in (want[:, None, :] - got[None, :, :]).reshape(-1, 2):
            count = int(np.count_nonzero(found.query(got + shift)[0] < MATCH_MM))
            if count > best_count:
                best, best_count = turned.transformed(0.0, *shift), count
    return aligned(truth, best)


def _castle_axis(board: Board) -> float | None:
    """The angle (radians, modulo 90°) the board's walls run along (`checks.castle_axis`); None without walls."""
    if not board.walls:
        return None
    towers = board.tower_map()
    return math.radians(castle_axis(board.wall_endpoints(wall, towers) for wall in board.walls))


def evaluate_photo(path: Path, reader: CastellanReader, known_lens: bool = False,
                   pictures: Path | None = None) -> PhotoScore:
    """`pictures`: a folder to draw the photo in (`truth_picture`) if its scores come out wrong."""
    truth_doc = json.loads(truth_path(path).read_text())
    truth = board_from_dict(truth_doc["board"])
    photo = read_photo(path)
    if known_lens:  # as with `--camera`: the lens is calibrated, the pose still comes from the card
        reader = CastellanReader(reader.profile, Lens.from_dict(truth_doc["camera"]))
    reading = reader.read(photo.image, photo.focal_35mm)
    result = PhotoScore(path.name, truth_doc["scene"], timings_ms=reading.timings_ms)
    # Without the card, positions are in a frame of the reader's own: the castle is placed onto the truth first.
    card_seen = reading.card is not None and reading.card.seen
    positioned = reading.board if card_seen or reading.board is None else registered(truth, reading.board)
    result.counts, result.keep_colour_right, result.keep_colour_total = compare(truth, positioned)
    result.aligned_counts = compare(truth, aligned(truth, positioned) if positioned else None)[0]
    result.board_exact = all(c["fp"] == 0 and c["fn"] == 0 for c in result.counts.values())
    # Nothing read scores nothing: right for an empty table, wrong for any castle.
    report = score_board(reading.board, reader.profile.dimensions, truth_doc.get("boxes")) if reading.board else None
    got = report.to_dict()["scores"] if report else {}
    result.scores_exact = got == truth_doc["report"]["scores"]
    result.scores_exact_once_checked = result.scores_exact
    # The doubts the report lists (and its trust counts), as `score` finds them, at their places on `positioned`.
    doubts = find_doubts(reading, positioned, reader.profile.dimensions, truth_doc.get("boxes")) \
        if reading.board else []
    result.doubts = len(doubts)
    if positioned is not None:
        checked = score_board(settled(positioned, doubts, truth), reader.profile.dimensions,
                              truth_doc.get("boxes")).scores
        result.scores_exact_once_checked = checked == truth_doc["report"]["scores"]
        if pictures is not None and not result.scores_exact and card_seen:
            title = f"{path.name}: scores wrong, tilt {truth_doc['scene']['tilt_deg']:.0f} deg"
            picture = truth_picture(photo.image, reading.card.pose, differences(truth, positioned), reader.profile,
                                    title)
            cv2.imwrite(str(pictures / f"{path.stem}-truth.jpg"), picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if report is not None:
        result.trust = reading_trust(reading, report, result.doubts).level
    return result


def settled(board: Board, doubts: list[Doubt], truth: Board) -> Board:
    """The board once a player has looked at each doubtful piece on the table: a keep single or double
    as the truth's keep there is, an inferred keep, tower or wall kept only if the truth has one there (a tower
    read in a long wall's run, if not, made that long wall again; a long wall read where a thin tower stood
    made that tower and two short walls if the truth has the tower; an open end a keep hides closed by a tower if the
    truth has one there)."""
    keeps, absent = list(board.keeps), set()
    for doubt in doubts:
        if doubt.piece == "keep":
            i = int(doubt.id[1:])
            same = [k for k in truth.keeps if k.color == keeps[i].color
                    and math.dist(k.position, keeps[i].position) < 2 * MATCH_MM]
            if same:
                keeps[i] = replace(keeps[i], double=min(same, key=lambda k: math.dist(k.position, doubt.where)).double)
            elif doubt.otherwise == "absent":  # read where the castle needs a keep, and none is there
                absent.add(i)
    board = replace(board, keeps=tuple(k for i, k in enumerate(keeps) if i not in absent))

    def tower_in_truth(where: tuple[float, float]) -> bool:
        return any(math.dist(t.position, where) < MATCH_MM for t in truth.towers)

    for doubt in doubts:
        if doubt.piece == "tower" and not tower_in_truth(doubt.where):
            board = (without_tower(board, doubt.id) if doubt.otherwise == "absent"
                     else run_as_long_wall(board, doubt.id) or board)
        elif doubt.piece == "wall" and doubt.otherwise == WITH_HIDDEN_TOWER:  # an open end a keep hides
            if tower_in_truth(doubt.where):
                board = with_tower_at_open_end(board, doubt.where)
        elif doubt.piece == "wall" and doubt.otherwise == AS_TOWER_RUN:  # a long wall that may be a tower's run
            if tower_in_truth(doubt.where):
                board = long_wall_split(board, next(i for i, w in enumerate(board.walls) if w.id == doubt.id))
        elif doubt.piece == "wall" and not any(math.dist(m, doubt.where) < MATCH_MM
                                               for points in _wall_points(truth).values() for m in points):
            board = replace(board, walls=tuple(w for w in board.walls if w.id != doubt.id))
    return board


def ratio(tp: int, other: int) -> float:
    """Precision (other: false positives) or recall (other: misses)."""
    return tp / max(tp + other, 1)


def summed(per_photo: list[dict[str, Counter]]) -> dict[str, Counter]:
    """Per piece type, the tp/fp/fn counts of many photos added up."""
    total = {k: Counter() for k in KINDS}
    for counts in per_photo:
        for k in KINDS:
            total[k].update(counts[k])
    return total


def _bucket(scene: dict) -> dict[str, str]:
    tilt = scene["tilt_deg"]
    return {"tilt": "0-10°" if tilt < 10 else "10-25°" if tilt < 25 else "25-40°",
            "light": scene["light"], "table": scene["table"]}


def _shifted(result: PhotoScore) -> str:
    """The towers once the castle is aligned onto the truth, where that matches SHIFTED_TOWERS more: a castle
    read whole but off its place (the card's pose, or a look carving pieces to one side)."""
    towers, moved = result.counts["tower"], result.aligned_counts["tower"]
    if moved["tp"] - towers["tp"] < SHIFTED_TOWERS:
        return ""
    return f" (aligned t{moved['tp']}/{moved['fp']}/{moved['fn']})"


def _scores_said(result: PhotoScore) -> str:
    """Whether the photo's scores are right, and if not, whether the doubts its report lists would set them right."""
    if result.scores_exact:
        return "scores ok"
    return "scores WRONG" + (" (right once checked)" if result.scores_exact_once_checked else "")


def keep_colour_note(result: PhotoScore) -> str:
    """The keeps matched by place but read in another colour, said on the photo's line (else nothing)."""
    wrong = result.keep_colour_total - result.keep_colour_right
    return f" keep colour wrong: {wrong}" if wrong else ""


def print_tables(results: list[PhotoScore]) -> None:
    total = summed([r.counts for r in results])
    print(f"{'piece':<8} {'precision':>9} {'recall':>7} {'tp':>6} {'fp':>5} {'fn':>5}")
    for k, c in total.items():
        print(f"{k:<8} {ratio(c['tp'], c['fp']):>9.3f} {ratio(c['tp'], c['fn']):>7.3f} "
              f"{c['tp']:>6} {c['fp']:>5} {c['fn']:>5}")
    aligned_total = summed([r.aligned_counts for r in results])
    print("with each castle aligned as a whole onto the truth (the card's pose error taken out):")
    print("  " + ", ".join(f"{k} P {ratio(c['tp'], c['fp']):.3f} / R {ratio(c['tp'], c['fn']):.3f}"
                           for k, c in aligned_total.items()))
    colour_right = sum(r.keep_colour_right for r in results)
    colour_total = sum(r.keep_colour_total for r in results)
    print(f"keep colour accuracy: {colour_right}/{colour_total} = {colour_right / max(colour_total, 1):.3f}")
    print(f"boards exact: {sum(r.board_exact for r in results)}/{len(results)}, "
          f"scores exact: {sum(r.scores_exact for r in results)}/{len(results)}")
    doubts = [r.doubts for r in results]
    print(f"scores exact once the doubts listed are checked by eye: "
          f"{sum(r.scores_exact_once_checked for r in results)}/{len(results)} "
          f"(doubts per photo: median {statistics.median(doubts):.0f}, max {max(doubts)}; "
          f"photos with any: {sum(d > 0 for d in doubts)})")
    for axis in ("tilt", "light", "table"):
        groups = defaultdict(list)
        for r in results:
            groups[_bucket(r.scene)[axis]].append(r)
        print(f"\nby {axis}: {'photos':>6} {'boards exact':>12} {'scores exact':>12}")
        for key in sorted(groups):
            g = groups[key]
            print(f"  {key:<12} {len(g):>6} {sum(r.board_exact for r in g) / len(g):>12.2f} "
                  f"{sum(r.scores_exact for r in g) / len(g):>12.2f}")
    _print_by_trust(results)
    stages = sorted({s for r in results for s in r.timings_ms})
    print("\nmedian ms per stage: " + ", ".join(
        f"{s} {statistics.median(r.timings_ms.get(s, 0.0) for r in results):.0f}" for s in stages)
          + f"; total {statistics.median(sum(r.timings_ms.values()) for r in results):.0f}")


def _print_by_trust(results: list[PhotoScore]) -> None:
    """How often the scores are right at each level of trust the report gives its reading: whether "likely
    misread" and "read cleanly" can be taken at their word."""
    print(f"\nby trust: {'photos':>6} {'scores exact':>12}")
    for level in ("read", "check", "misread", "nothing read"):
        group = [r for r in results if r.trust == level]
        if group:
            print(f"  {level:<12} {len(group):>6} {sum(r.scores_exact for r in group) / len(group):>12.2f}")


def _evaluated(path: Path, known_lens: bool, profile: PieceProfile, pictures: Path | None) -> PhotoScore:
    return evaluate_photo(path, CastellanReader(profile), known_lens, pictures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tablesight.vision.castellan.evaluate",
                                     description="Photo reading against truth, per piece type and photo.")
    parser.add_argument("folder", nargs="?", type=Path, default=Path("samples/castellan/photos"),
                        help="photos with their .truth.json files")
    parser.add_argument("--known-lens", action="store_true",
                        help="read each photo with its camera's true lens, as `score --camera` does")
    parser.add_argument("--jobs", type=int, default=1,
                        help="photos read at once, one process each (the stage timings then share the cores)")
    parser.add_argument("--profile", type=Path, metavar="P.json",
                        help="piece profile JSON, as for `tablesight score` (photos of another box)")
    parser.add_argument("--pictures", type=Path, metavar="DIR",
                        help="draw each photo whose scores come out wrong, its truth against the reading, here")
    args = parser.parse_args(argv)
    try:
        profile, _ = load_profiles(args.profile, None)
    except TablesightError as exc:
        parser.error(str(exc))
    if args.pictures is not None:
        if args.pictures.is_file():
            parser.error(f"{args.pictures} is a file: --pictures takes a folder to draw the pictures in")
        try:
            args.pictures.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            parser.error(f"cannot write pictures to {args.pictures}: {exc.strerror}")
    known_lens, folder = args.known_lens, args.folder
    photos = sorted(p for p in folder.glob("*.jpg") if truth_path(p).exists())
    if not photos:
        parser.error(f"no .jpg photos with a .truth.json beside them in {folder}")
    results = []
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for i, r in enumerate(pool.map(_evaluated, photos, [known_lens] * len(photos), [profile] * len(photos),
                                            [args.pictures] * len(photos))):
            results.append(r)
            c = r.counts
            print(f"{r.name:<15} tilt {r.scene['tilt_deg']:>4.1f} {r.scene['table']:<9} "
                  + " ".join(f"{k[0]}{c[k]['tp']}/{c[k]['fp']}/{c[k]['fn']}" for k in KINDS) + _shifted(r)
                  + f" {'EXACT' if r.board_exact else ''} {_scores_said(r)} [{r.trust}]" + keep_colour_note(r),
                  flush=True)
            print(f"\r{i + 1}/{len(photos)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print_tables(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
