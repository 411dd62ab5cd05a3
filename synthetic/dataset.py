"""Regenerate the committed synthetic samples: photos with truth, a video with per-frame truth,
and a contact sheet.  python -m tablesight.synthetic.dataset --out samples/castellan
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import fields, replace
from pathlib import Path

import cv2
import numpy as np

from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile, PieceProfileError
from tablesight.scoring.castellan.board import Board
from tablesight.scoring.castellan.board_json import board_to_dict
from tablesight.scoring.castellan.report import score_board
from tablesight.scoring.castellan.simulator import GameSimulator, simulate_game
from tablesight.synthetic.hands import SKIN_TONES, draw_arm
from tablesight.synthetic.render import render
from tablesight.synthetic.scene import USUAL_GREY, USUAL_REALISM, PlasticGrey, Realism, Scene, random_scene

MAX_SAMPLE_QUALITY = 80  # keeps the repository light


def pick_board(seed: int, profile: PieceProfile = NOMINAL_PROFILE) -> tuple[Board, int]:
    """A board from a random legal game (with the pieces of `profile`): mostly late in the game, sometimes
    early."""
    rng = np.random.default_rng(seed)
    game = simulate_game(seed, players=int(rng.choice([2, 2, 2, 3, 4])), dims=profile.dimensions)
    index = int(rng.choice([len(game) - 1, int(rng.integers(len(game)))], p=[0.55, 0.45]))
    return game[index].board, game[index].boxes


def camera_truth(scene: Scene) -> dict:
    lens = scene.pose.lens
    return {**lens.to_dict(), "rvec": scene.pose.rvec.round(6).tolist(), "tvec": scene.pose.tvec.round(4).tolist()}


def truth_document(scene: Scene, boxes: int) -> dict:
    return {"board": board_to_dict(scene.board), "boxes": boxes,
            "report": score_board(scene.board, scene.profile.dimensions, boxes).to_dict(),
            "camera": camera_truth(scene), "scene": scene.describe(),
            "keep_angles": [round(a, 4) for a in scene.keep_angles]}


def truth_path(photo: Path) -> Path:
    """Where a generated photo's truth lies: beside it, `NAME.truth.json` for `NAME.jpg`."""
    return photo.with_suffix("").with_suffix(".truth.json")


def write_photo(out: Path, name: str, scene: Scene, boxes: int) -> np.ndarray:
    image = render(scene)
    quality = min(scene.effects["jpeg_quality"], MAX_SAMPLE_QUALITY)
    photo = out / f"{name}.jpg"
    cv2.imwrite(str(photo), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    truth_path(photo).write_text(json.dumps(truth_document(scene, boxes)) + "\n")
    return image


def with_a_claim_forgotten(board: Board, seed: int) -> Board:
    """The board with one keep taken off (a player who forgot to claim a courtyard, C5): the simulator
    always claims, but at a real table a finished castle may hold an unclaimed courtyard, and the reader
    must not invent its keep or open its walls to make the rules look kept."""
    if not board.keeps:
        return board
    forgotten = int(np.random.default_rng(seed).integers(len(board.keeps)))
    return board.without_keep(forgotten)


def generate_photos(out: Path, count: int, seed: int, forgotten_claims: float = 0.0,
                    profile: PieceProfile = NOMINAL_PROFILE, grey: PlasticGrey = USUAL_GREY,
                    piece_shadows: bool = False, image_size: tuple[int, int] | None = None,
                    realism: Realism = USUAL_REALISM) -> list[Path]:
    """`forgotten_claims`: the share of boards with one claim forgotten (`with_a_claim_forgotten`);
    `profile`: the box the castles are built of (sizes and heights; another box than the nominal one);
    `grey`: the greys its plastic is drawn from; `piece_shadows`: pieces shadow one another; `image_size`:
    every photo this size (width, height), as a phone's 12 MP, its card never cut by the frame; `realism`: the
    ways each photo is rendered harder than the usual (`scene.Realism`)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        board, boxes = pick_board(seed + i, profile)
        if np.random.default_rng([seed + i, 1]).random() < forgotten_claims:
            board = with_a_claim_forgotten(board, seed + i)
        scene = random_scene(board, seed + i, profile, image_size, grey, piece_shadows, realism)
        name = f"photo-{i:03d}"
        write_photo(out, name, scene, boxes)
        written.append(out / f"{name}.jpg")
        print(f"\r{i + 1}/{count} photos", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return written


def contact_sheet(photos: list[Path], out: Path, columns: int = 10, thumb: int = 192) -> None:
    tiles = []
    for path in photos:
        image = cv2.imread(str(path))
        scale = thumb / max(image.shape[:2])
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        tile = np.full((thumb, thumb, 3), 255, np.uint8)
        y, x = (thumb - small.shape[0]) // 2, (thumb - small.shape[1]) // 2
        tile[y:y + small.shape[0], x:x + small.shape[1]] = small
        tiles.append(tile)
    while len(tiles) % columns:
        tiles.append(np.full((thumb, thumb, 3), 255, np.uint8))
    rows = [np.hstack(tiles[r:r + columns]) for r in range(0, len(tiles), columns)]
    cv2.imwrite(str(out), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 80])


def _state_boards(seed: int, turns: int) -> tuple[list[Board], Scene]:
    """Successive boards of one game laid out consistently in one scene (same jitter, camera, light)."""
    game = simulate_game(seed)[:turns]
    final = random_scene(game[-1].board, seed, image_size=(1280, 720))
    placed = final.board
    towers = placed.tower_map()
    finals = {w.id: placed.wall_endpoints(w, towers) for w in placed.walls}
    boards = []
    for turn in game:
        ids = {t.id for t in turn.board.towers}
        walls = []
        for w in turn.board.walls:
            a, b = finals[w.id]
            walls.append(replace(w, start=None if w.ends[0] else a, end=None if w.ends[1] else b))
        boards.append(Board(tuple(t for t in placed.towers if t.id in ids), tuple(walls),
                            placed.keeps[:len(turn.board.keeps)]))
    return boards, final


def _video_seed(seed: int, turns: int) -> int:
    """The first seed from `seed` whose scene is an ordinary table-top (wood or cloth, not over-exposed):
    the clip tests tracking (hands, settling), so its scene need not be the hardest."""
    while True:
        game = simulate_game(seed)[:turns]
        scene = random_scene(game[-1].board, seed, image_size=(1280, 720))
        if scene.table_kind in ("wood", "cloth") and scene.effects["exposure"] < 1.1 and scene.light_kind != "flash":
            return seed
        seed += 1


def generate_video(out: Path, seed: int, turns: int = 5, fps: int = 10) -> None:
    """A short clip: the castle grows turn by turn, hands reach in between stable stretches."""
    seed = _video_seed(seed, turns)
    boards, final = _state_boards(seed, turns)
    rng = np.random.default_rng(seed)
    pose = final.pose
    effects = {**final.effects, "motion_px": 0.0, "blur": 0.0}
    frames_truth = []
    writer = cv2.VideoWriter(str(out / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, (1280, 720))
    if not writer.isOpened():
        raise RuntimeError("this OpenCV build cannot write mp4v video")
    frame_no = 0
    for state, board in enumerate(boards):
        scene = replace(final, board=board, pose=pose, effects=effects,
                        keep_angles=final.keep_angles[:len(board.keeps)])
        still = render(scene)
        for _ in range(15):  # stable stretch
            writer.write(still)
            frames_truth.append({"frame": frame_no, "state": state, "hands": False})
            frame_no += 1
        if state == len(boards) - 1:
            break
        upcoming = boards[state + 1]
        nxt = render(replace(scene, board=upcoming, keep_angles=final.keep_angles[:len(upcoming.keeps)]))
        tone = SKIN_TONES[rng.integers(len(SKIN_TONES))]
        entry = (float(rng.uniform(0, 1280)), 720.0 + 40)
        reach = (float(rng.uniform(400, 880)), float(rng.uniform(200, 480)))
        for k in range(12):  # the hand comes in, places the pieces, leaves
            phase = math.sin(math.pi * (k + 1) / 13)
            hand = (entry[0] + (reach[0] - entry[0]) * phase, entry[1] + (reach[1] - entry[1]) * phase)
            base = still if k < 6 else nxt
            writer.write(draw_arm(base, entry, hand, tone, 70.0))
            frames_truth.append({"frame": frame_no, "state": state if k < 6 else state + 1, "hands": True})
            frame_no += 1
    writer.release()
    truth = {"fps": fps, "states": [board_to_dict(b) for b in boards],
             "reports": [score_board(b).to_dict() for b in boards], "frames": frames_truth,
             "camera": {**pose.lens.to_dict(), "rvec": pose.rvec.round(6).tolist(),
                        "tvec": pose.tvec.round(4).tolist()}}
    (out / "video.truth.json").write_text(json.dumps(truth) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("samples/castellan"))
    parser.add_argument("--count", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--no-video", action="store_true")
    parser.add_argument("--forgotten-claims", type=float, default=0.0, metavar="SHARE",
                        help="share of boards with one keep taken off, its courtyard left unclaimed (C5)")
    parser.add_argument("--profile", type=Path, metavar="P.json",
                        help="a piece profile (as `tablesight calibrate pieces` writes): photos of another box's "
                             "pieces (the video keeps the nominal box)")
    parser.add_argument("--plastic-grey", type=float, nargs=2, default=(100.0, 185.0), metavar=("LOW", "HIGH"),
                        help="the grey levels (0-255) the plastic is drawn between (default 100 185)")
    parser.add_argument("--plastic-tint", type=float, default=5.0, metavar="LEVELS",
                        help="how far each colour channel of the plastic may be off its grey (default 5)")
    parser.add_argument("--piece-shadows", action="store_true",
                        help="pieces shadow one another and darken at their feet, as a path tracer draws them "
                             "(the same scenes otherwise; slower)")
    for option in fields(Realism):
        parser.add_argument("--" + option.name.replace("_", "-"), action="store_true",
                            help=option.metadata["help"] + " (the same scenes otherwise)")
    parser.add_argument("--image-size", type=int, nargs=2, metavar=("WIDTH", "HEIGHT"),
                        help="every photo this size, as a phone's 4000 3000 (default: sizes of 1 to 4 MP, bigger "
                             "where the card would be too small to read)")
    args = parser.parse_args(argv)
    if args.image_size and not all(64 <= side <= 12000 for side in args.image_size):
        parser.error("--image-size is a width and a height of 64 to 12000 pixels")
    low, high = args.plastic_grey
    if not 0 <= low <= high <= 255 or not 0 <= args.plastic_tint <= min(low, 255 - high):
        parser.error("--plastic-grey is two levels 0 <= LOW <= HIGH <= 255, and --plastic-tint keeps them in 0-255")
    if not 0.0 <= args.forgotten_claims <= 1.0:
        parser.error("--forgotten-claims is a share between 0 and 1")
    try:
        profile = PieceProfile.load(args.profile) if args.profile else NOMINAL_PROFILE
        GameSimulator(0, dims=profile.dimensions)  # refuses a box whose long wall is not two short and a tower
    except (PieceProfileError, ValueError) as exc:
        parser.error(str(exc))
    photos = generate_photos(args.out / "photos", args.count, args.seed, args.forgotten_claims, profile,
                             PlasticGrey(low, high, args.plastic_tint), args.piece_shadows,
                             tuple(args.image_size) if args.image_size else None,
                             Realism(**{option.name: getattr(args, option.name) for option in fields(Realism)}))
    contact_sheet(photos, args.out / "contact-sheet.jpg")
    if not args.no_video:
        generate_video(args.out, args.seed + 77)
    return 0


if __name__ == "__main__":
    sys.exit(main())
