"""What the web companion does with a game: read photos, apply corrections, undo, check history."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile
from tablesight.inputs import decode_photo
from tablesight.photo_scoring import score_photo
from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.board_json import board_from_dict, board_to_dict
from tablesight.scoring.castellan.courtyards import find_faces, smallest_face_containing
from tablesight.scoring.castellan.pieces import KEEP_COLOURS
from tablesight.scoring.castellan.report import Report, score_board
from tablesight.vision.castellan.doubts import still_in_doubt
from tablesight.webui.store import GameStore


class GameError(ValueError):
    """A request the game cannot take; the message is shown to the player as is."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def pose_to_dict(pose: CameraPose) -> dict:
    return {**pose.lens.to_dict(), "rvec": pose.rvec.tolist(), "tvec": pose.tvec.tolist()}


def pose_from_dict(doc: dict | None) -> CameraPose | None:
    if not doc:
        return None
    return CameraPose(Lens.from_dict(doc), np.array(doc["rvec"]), np.array(doc["tvec"]))


def ingest_photo(store: GameStore, images: Path, game_id: str, data: bytes, name: str, source: str = "photo",
                 profile: PieceProfile = NOMINAL_PROFILE, lens: Lens | None = None,
                 progress: Callable[[str], None] | None = None) -> dict:
    """A photo stored and read (with the set's `profile` and the camera's `lens`, if calibrated) as the
    game's next state; `progress` is told each step of the reading (as `CastellanReader`'s)."""
    photo = decode_photo(data, name)
    digest = hashlib.sha256(data).hexdigest()
    _store_jpeg(images, digest, lambda: _jpeg(photo.image))
    result = score_photo(photo, profile, lens, progress=progress)
    if result.report is None:
        raise GameError(f"{result.reading.notes[0]}.", 422)
    return record_state(store, game_id, source, result.reading.board, digest,
                        pose_to_dict(result.reading.card.pose), notes=result.reading.notes,
                        doubts=[d.to_dict() for d in result.doubts], profile=profile, trust=result.trust.to_dict())


def store_frame(images: Path, frame: np.ndarray) -> str:
    """A live camera's frame stored as the photo of the state read from it; its name (and the verification
    record's photo hash) is the SHA-256 of the JPEG stored."""
    data = _jpeg(frame)
    digest = hashlib.sha256(data).hexdigest()
    _store_jpeg(images, digest, lambda: data)
    return digest


def _jpeg(image: np.ndarray) -> bytes:
    import cv2

    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    if not ok:
        raise GameError("the photo could not be stored as JPEG.", 500)
    return data.tobytes()


def _store_jpeg(images: Path, digest: str, encoded: Callable[[], bytes]) -> None:
    """Stored under its hash once; written whole or not at all (a server killed mid-write leaves no half photo)."""
    images.mkdir(parents=True, exist_ok=True)
    target = images / f"{digest}.jpg"
    if not target.exists():
        tmp = target.with_suffix(".partial.jpg")
        tmp.write_bytes(encoded())
        tmp.replace(target)


def record_state(store: GameStore, game_id: str, source: str, board: Board, photo: str | None,
                 pose: dict | None, notes: list[str] | None = None, doubts: list[dict] | None = None,
                 profile: PieceProfile = NOMINAL_PROFILE, trust: dict | None = None) -> dict:
    """`doubts`: the pieces the photo left uncertain (`Doubt.to_dict`), until a correction settles the board;
    `profile`: the set's pieces, whose sizes the rules are checked with; `trust`: how far the photo's reading
    can be relied on (`Trust.to_dict`), dropped once the board is corrected by hand (it is then the player's)."""
    previous = store.latest_state(game_id)
    scored = score_board(board, profile.dimensions)
    report = scored.to_dict()
    report["history_warnings"] = history_warnings(board_from_dict(previous["board"]) if previous else None, board,
                                                  scored)
    report["notes"] = notes or []
    report["doubts"] = doubts or []
    if trust is not None:
        report["trust"] = trust
    state_id = store.add_state(game_id, source, board_to_dict(board), report, photo, pose)
    return store.state(state_id)


def history_warnings(before: Board | None, after: Board, after_report: Report | None = None) -> list[dict]:
    """Rules only a sequence of boards shows: building in an opponent's courtyard (C7), a split courtyard
    claimed by another colour (C6), a double keep added to a courtyard that was already claimed (C8)."""
    if before is None:
        return []
    found = []
    faces = find_faces(before)
    keeps = np.array([k.position for k in before.keeps]).reshape(-1, 2)
    owners: dict[int, set[str]] = {}
    for keep, home in zip(before.keeps, smallest_face_containing(faces, keeps), strict=True):
        if home is not None:
            owners.setdefault(home, set()).add(keep.color)
    old_towers = {(round(t.x), round(t.y)) for t in before.towers}
    new_towers = [t for t in after.towers if (round(t.x), round(t.y)) not in old_towers]
    new_keeps = [k for k in after.keeps if not any(math.dist(k.position, o.position) < 15 for o in before.keeps)]
    movers = {k.color for k in new_keeps}
    points = np.array([t.position for t in new_towers]).reshape(-1, 2)
    for tower, home in zip(new_towers, smallest_face_containing(faces, points), strict=True):
        if home is not None and owners.get(home) and movers and not movers & owners[home]:
            found.append({"code": "built-in-opponent-courtyard", "rule": "C7",
                          "message": f"a tower was built inside {'/'.join(sorted(owners[home]))}'s courtyard",
                          "where": {"x": round(tower.x, 1), "y": round(tower.y, 1)}})
    found += _claim_history(after_report or score_board(after), faces, owners)
    points = np.array([k.position for k in new_keeps if k.double]).reshape(-1, 2)
    doubles = [k for k in new_keeps if k.double]
    for keep, home in zip(doubles, smallest_face_containing(faces, points), strict=True):
        if home is not None and owners.get(home):
            found.append({"code": "late-double-keep", "rule": "C8",
                          "message": f"a {keep.color} double keep was added to a courtyard already claimed",
                          "where": {"x": round(keep.x, 1), "y": round(keep.y, 1)}})
    return found


def _claim_history(after: Report, faces_before, owners) -> list[dict]:
    """A courtyard split off an owned courtyard since the last state must carry the owner's colour (C6).
    (Who completed a new courtyard, for C5, needs whose turn it was, which the photos do not show.)"""
    found = []
    old_sets = {frozenset(f.tower_ids) for f in faces_before}
    for yard in after.courtyards:
        if frozenset(yard.tower_ids) in old_sets or not yard.keeps:
            continue
        home = smallest_face_containing(faces_before, np.array([yard.label]))[0]
        previous = owners.get(home) if home is not None else None
        if previous and yard.colours != previous:
            found.append({"code": "split-claimed-by-other", "rule": "C6",
                          "message": f"courtyard {yard.id} was split off {'/'.join(sorted(previous))}'s "
                                     f"courtyard but holds {'/'.join(sorted(yard.colours))}",
                          "where": {"x": round(yard.label[0], 1), "y": round(yard.label[1], 1)}})
    return found


def apply_correction(store: GameStore, game_id: str, action: dict, profile: PieceProfile = NOMINAL_PROFILE) -> dict:
    state = store.latest_state(game_id)
    if state is None:
        raise GameError("there is no board to correct yet: add a photo first")
    board = board_from_dict(state["board"])
    pose = pose_from_dict(state["pose"])
    corrected = _edit(board, action, pose)
    # The photo's other doubts still stand (the piece corrected is settled); scored again on the new board.
    doubts = still_in_doubt(state["report"].get("doubts", []), corrected, profile.dimensions)
    new = record_state(store, game_id, "correction", corrected, state["photo_sha256"], state["pose"],
                       doubts=[d.to_dict() for d in doubts], profile=profile)
    store.add_correction(game_id, action, new["id"])
    return new


def undo(store: GameStore, game_id: str, profile: PieceProfile = NOMINAL_PROFILE) -> dict:
    last = store.last_live_correction(game_id)
    if last is None:
        raise GameError("there is no correction to undo")
    before = store.state_before(game_id, last["state_id"])
    store.mark_undone(last["id"])
    board = board_from_dict(before["board"])
    return record_state(store, game_id, "undo", board, before["photo_sha256"], before["pose"],
                        notes=before["report"].get("notes"), doubts=before["report"].get("doubts"), profile=profile,
                        trust=before["report"].get("trust"))


def _table_point(pose: CameraPose | None, action: dict) -> tuple[float, float]:
    try:
        px, py = float(action["px"]), float(action["py"])
    except (KeyError, TypeError, ValueError):
        raise GameError("a new piece needs a position (px, py) on the photo") from None
    if pose is None:
        raise GameError("this board has no photo to place pieces on")
    x, y = pose.table_point(np.array([[px, py]]))[0]
    return float(x), float(y)


def _edit(board: Board, action: dict, pose: CameraPose | None) -> Board:
    kind = action.get("action")
    if kind == "delete":
        return _delete(board, str(action.get("id", "")))
    if kind == "add_tower":
        x, y = _table_point(pose, action)
        return replace(board, towers=board.towers + (Tower(board.new_tower_id(), round(x, 1), round(y, 1)),))
    if kind == "add_keep":
        colour = action.get("color")
        if colour not in KEEP_COLOURS:
            raise GameError(f"a keep is {', '.join(KEEP_COLOURS)}, not {colour!r}")
        x, y = _table_point(pose, action)
        return replace(board, keeps=board.keeps + (Keep(colour, round(x, 1), round(y, 1), bool(action.get("double"))),))
    if kind == "add_wall":
        towers = board.tower_map()
        a, b = action.get("from"), action.get("to")
        if a not in towers or b not in towers or a == b:
            raise GameError("a wall joins two different towers: choose them on the photo")
        length = math.dist(towers[a].position, towers[b].position)
        wall_kind = "short" if length < 96 else "long"
        ids = {w.id for w in board.walls}
        n = len(ids) + 1
        while f"w{n}" in ids:
            n += 1
        return replace(board, walls=board.walls + (Wall(f"w{n}", wall_kind, (a, b)),))
    if kind == "set_keep":
        index = _keep_index(board, action.get("id"))
        keep = board.keeps[index]
        colour = action.get("color", keep.color)
        if colour not in KEEP_COLOURS:
            raise GameError(f"a keep is {', '.join(KEEP_COLOURS)}, not {colour!r}")
        changed = replace(keep, color=colour, double=bool(action.get("double", keep.double)))
        return replace(board, keeps=board.keeps[:index] + (changed,) + board.keeps[index + 1:])
    if kind == "set_wall":
        wall_kind = action.get("kind")
        if wall_kind not in ("short", "long"):
            raise GameError("a wall is short or long")
        walls = tuple(replace(w, kind=wall_kind) if w.id == action.get("id") else w for w in board.walls)
        if walls == board.walls:
            raise GameError(f"there is no wall {action.get('id')!r}")
        return replace(board, walls=walls)
    raise GameError(f"unknown correction {kind!r}")


def _keep_index(board: Board, ident) -> int:
    try:
        index = int(str(ident).removeprefix("k"))
    except ValueError:
        raise GameError(f"there is no keep {ident!r}") from None
    if not 0 <= index < len(board.keeps):
        raise GameError(f"there is no keep {ident!r}")
    return index


def _delete(board: Board, ident: str) -> Board:
    if ident.startswith("k"):
        index = _keep_index(board, ident)
        return board.without_keep(index)
    towers = board.tower_map()
    if ident in towers:
        # Walls in a removed tower keep their end as an open end where the tower stood.
        walls = []
        for w in board.walls:
            if ident in w.ends:
                a, b = board.wall_endpoints(w, towers)
                w = Wall(w.id, w.kind, tuple(None if e == ident else e for e in w.ends),
                         a if w.ends[0] == ident or w.ends[0] is None else None,
                         b if w.ends[1] == ident or w.ends[1] is None else None)
                if w.ends == (None, None):
                    continue
            walls.append(w)
        return replace(board, towers=tuple(t for t in board.towers if t.id != ident), walls=tuple(walls))
    walls = tuple(w for w in board.walls if w.id != ident)
    if len(walls) == len(board.walls):
        raise GameError(f"there is no piece {ident!r}")
    return replace(board, walls=walls)


def view_of(state: dict | None, profile: PieceProfile = NOMINAL_PROFILE) -> dict:
    """The state as the page draws it: report, pieces and courtyards in photo pixels (at the heights of
    the set's pieces, `profile`)."""
    if state is None:
        return {"state": None}
    board = board_from_dict(state["board"])
    pose = pose_from_dict(state["pose"])
    marks, yards = [], []
    if pose is not None:
        towers = board.tower_map()
        dims = profile.dimensions
        for t in board.towers:
            marks.append({"kind": "tower", "id": t.id, "px": _px(pose, t.position, profile.tower_height),
                          "r": _px_size(pose, t.position, profile.tower_height, dims.tower_diameter / 2)})
        for w in board.walls:
            a, b = board.wall_endpoints(w, towers)
            middle = (np.asarray(a) + np.asarray(b)) / 2
            marks.append({"kind": "wall", "id": w.id, "wall": w.kind, "px": _px(pose, a, profile.wall_height),
                          "to": _px(pose, b, profile.wall_height),
                          "width": _px_size(pose, middle, profile.wall_height, dims.wall_thickness)})
        for i, k in enumerate(board.keeps):
            height = profile.keep_height * (2 if k.double else 1)
            marks.append({"kind": "keep", "id": f"k{i}", "color": k.color, "double": k.double,
                          "px": _px(pose, k.position, height),
                          "r": _px_size(pose, k.position, height, dims.keep_side / 2)})
        report = score_board(board, profile.dimensions)
        for yard in report.courtyards:
            polygon = pose.project(yard.polygon, profile.wall_height)
            yards.append({"id": yard.id, "owner": yard.owner, "value": yard.value,
                          "points": [[round(float(x), 1), round(float(y), 1)] for x, y in polygon],
                          "towers": sorted(yard.tower_ids)})
    return {"state": {"id": state["id"], "source": state["source"], "created": state["created"],
                      "report": state["report"], "photo": state["photo_sha256"],
                      "image_size": pose.lens.image_size if pose else None, "marks": marks, "courtyards": yards}}


def _px_size(pose: CameraPose, point, height: float, size_mm: float) -> float:
    """How many photo pixels `size_mm` spans at a point `height` above the table (its mean over two
    directions: a tilted view shortens one)."""
    x, y = point
    ends = pose.project(np.array([[x, y], [x + size_mm, y], [x, y + size_mm]]), height)
    return round(float(np.linalg.norm(ends[1:] - ends[0], axis=1).mean()), 1)


def _px(pose: CameraPose, point, height: float) -> list[float]:
    x, y = pose.project(np.array([point]), height)[0]
    return [round(float(x), 1), round(float(y), 1)]
