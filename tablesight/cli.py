"""The `tablesight` command line (shared/spec/interface.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from tablesight.errors import EXIT_INTERNAL, EXIT_USAGE, NothingRecognised, TablesightError, UnreadableInput, UsageError
from tablesight.inputs import looks_like_image, read_json, read_photo

GAMES = ("castellan", "catan")


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as one sentence with exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see `{self.prog} --help`).")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tablesight", description="Read and score physical board games.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = commands.add_parser("score", help="score a photo or a board JSON file")
    score.add_argument("input", type=Path, help="a photo (JPEG/PNG) or a board-model JSON file")
    score.add_argument("--game", choices=GAMES, default=None)
    score.add_argument("--profile", type=Path, help="piece profile JSON (tablesight calibrate pieces)")
    score.add_argument("--camera", type=Path, help="camera profile JSON (tablesight calibrate camera)")
    score.add_argument("--json", action="store_true", help="print the JSON report")
    score.add_argument("--annotate", type=Path, metavar="OUT.png",
                       help="write an image of what was recognised")
    score.add_argument("--players", type=int, choices=(2, 3, 4),
                       help="players in the game (sets the piece limits; else inferred from keeps)")
    score.set_defaults(run=run_score)

    serve = commands.add_parser("serve", help="start the web companion")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--camera", help="webcam index or video file/URL for live mode")
    serve.add_argument("--game", choices=GAMES, default="castellan")
    serve.add_argument("--data", type=Path, help="folder for the games database and photos")
    serve.add_argument("--pin", help="access PIN (required when --host is not 127.0.0.1/localhost)")
    serve.add_argument("--profile", type=Path, help="piece profile JSON (tablesight calibrate pieces)")
    serve.add_argument("--lens", type=Path, metavar="CAMERA.json",
                       help="camera profile JSON (tablesight calibrate camera); score's --camera")
    serve.set_defaults(run=run_serve)

    card = commands.add_parser("card", help="write the printable reference card")
    card.add_argument("--out", type=Path, default=Path("card.pdf"), help="card.pdf (vector, A4) or card.png")
    card.add_argument("--dpi", type=float, default=300.0, help="resolution of a PNG card")
    card.set_defaults(run=run_card)

    calibrate = commands.add_parser("calibrate", help="calibrate a camera lens or a piece set")
    what = calibrate.add_subparsers(dest="what", required=True, parser_class=_Parser)
    camera = what.add_parser("camera", help="lens calibration from several photos of the card")
    camera.add_argument("images", type=Path, nargs="+", help="photos of the card from different angles")
    camera.add_argument("--out", type=Path, default=Path("camera.json"), help="camera profile to write")
    camera.set_defaults(run=run_calibrate_camera)
    pieces = what.add_parser("pieces", help="measure a real piece set from one photo")
    pieces.add_argument("image", type=Path, help="one tower, one short wall, one long wall and keeps beside the card")
    pieces.add_argument("--game", choices=GAMES, default="castellan")
    pieces.add_argument("--out", type=Path, default=Path("pieces.json"), help="piece profile to write")
    pieces.set_defaults(run=run_calibrate_pieces)
    return parser


def run_calibrate_pieces(args: argparse.Namespace) -> int:
    from tablesight.vision.castellan.piece_measure import PieceMeasureError, measure_pieces

    photo = read_photo(args.image)
    try:
        profile = measure_pieces(photo.image)
    except PieceMeasureError as exc:
        raise NothingRecognised(f"{args.image}: {exc}.") from None
    _write_atomically(args.out, profile.save)
    d = profile.dimensions
    print(f"wrote {args.out}: tower Ø {d.tower_diameter} mm, {profile.tower_height} mm high; short wall "
          f"{d.short_wall_length} mm, long wall {d.long_wall_length} mm, walls {d.wall_thickness} mm thick and "
          f"{profile.wall_height} mm high, keeps {d.keep_side} mm, "
          f"colours for {', '.join(sorted(profile.keep_bgr))}; use it with --profile {args.out}")
    return 0


def _score_catan_board(args: argparse.Namespace, doc) -> int:
    from tablesight.scoring.catan.board import CatanFormatError, board_from_dict
    from tablesight.scoring.catan.report import catan_report, format_catan

    try:
        board = board_from_dict(doc)
    except CatanFormatError as exc:
        raise UnreadableInput(f"{args.input}: {exc}.") from None
    report = catan_report(board)
    print(json.dumps(report, indent=2) if args.json else format_catan(report))
    return 0


def _score_catan_photo(args: argparse.Namespace) -> int:
    from tablesight.scoring.catan.report import catan_report, format_catan
    from tablesight.vision.catan.reader import CatanReadError, read_catan_photo

    photo = read_photo(args.input)
    try:
        reading = read_catan_photo(photo.image)
    except CatanReadError as exc:
        raise NothingRecognised(f"{args.input}: {exc}.") from None
    report = catan_report(reading.board())
    centres = {f"{q},{r}": [round(x), round(y)] for (q, r), (x, y) in reading.centres.items()}
    report["reading"] = {"notes": reading.notes, "ms": round(reading.ms, 1), "hex_centres_px": centres}
    if args.annotate:
        from tablesight.vision.catan.annotate import annotate

        _write_atomically(args.annotate, lambda tmp: _write_image(tmp, annotate(photo.image, reading)))
    text = format_catan(report) + "\n" + "\n".join(f"Note: {n}" for n in reading.notes)
    print(json.dumps(report, indent=2) if args.json else text)
    return 0


def run_score_photo(args: argparse.Namespace) -> int:
    from tablesight.photo_scoring import load_profiles, score_photo

    if args.game == "catan":
        return _score_catan_photo(args)
    if args.annotate and args.annotate.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        raise UsageError("--annotate must name a .png or .jpg file.")
    profile, lens = load_profiles(args.profile, args.camera)
    photo = read_photo(args.input)
    boxes = None if args.players is None else (1 if args.players == 2 else 2)
    with StatusLine(sys.stderr) as status:
        result = score_photo(photo, profile, lens, boxes, progress=status.show)
    if result.report is None:
        raise NothingRecognised(f"{args.input}: {result.reading.notes[0]}.")
    if args.annotate:
        _write_atomically(args.annotate, lambda tmp: _write_image(tmp, result.annotated()))
    print(json.dumps(result.to_dict(), indent=2) if args.json else result.text())
    return 0


def _write_image(path: Path, image) -> None:
    import cv2

    if not cv2.imwrite(str(path), image):
        raise OSError(f"could not encode {path.name}")


def run_serve(args: argparse.Namespace) -> int:
    import secrets

    from waitress import serve

    from tablesight.photo_scoring import load_profiles
    from tablesight.vision.castellan.reader import CastellanReader
    from tablesight.webui import create_app
    from tablesight.webui.live import LiveSession

    local = args.host in ("127.0.0.1", "localhost", "::1")
    pin = args.pin or (None if local else f"{secrets.randbelow(10**6):06d}")
    if not 1 <= args.port <= 65535:
        raise UsageError("--port must be between 1 and 65535.")
    if args.camera is not None and args.game == "catan":
        raise UsageError("live camera mode reads Castellan castles; for Catan, serve without --camera and "
                         "upload photos on the Catan page.")
    profile, lens = load_profiles(args.profile, args.lens)  # a bad file: one sentence, exit 3, no server
    config = {"ACCESS_PIN": pin, "GAME": args.game, "PIECE_PROFILE": profile, "LENS": lens}
    if args.data:
        config["DATA_DIR"] = args.data
    try:
        app = create_app(config)
    except OSError as exc:
        raise UsageError(f"cannot use the data folder: {exc.strerror or exc}.") from None
    live = None
    if args.camera is not None:
        live = LiveSession(args.camera, app.extensions["tablesight.store"], app.extensions["tablesight.events"],
                           reader=CastellanReader(profile, lens), images=Path(app.config["IMAGES_DIR"]))
        app.extensions["tablesight.live"] = live.start()
    start = "catan" if args.game == "catan" else ""
    print(f"tablesight companion on http://{args.host}:{args.port}/{start}" + (f"  (access PIN: {pin})" if pin else ""),
          flush=True)
    try:
        serve(app, host=args.host, port=args.port, threads=32, channel_timeout=30, send_bytes=1,
              ident="tablesight")
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}.") from None
    finally:
        if live is not None:
            live.stop()
    return 0


def run_card(args: argparse.Namespace) -> int:
    from tablesight.calibration.card import write_card

    if args.out.suffix.lower() not in (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff"):
        raise UsageError(f"cannot write a card as {args.out.suffix or 'a file without extension'}; use .pdf or .png.")
    if not 50 <= args.dpi <= 1200:
        raise UsageError("--dpi must be between 50 and 1200.")
    _write_atomically(args.out, lambda tmp: write_card(tmp, args.dpi))
    print(f"wrote {args.out}: print it at 100 % (actual size) on A4; the squares must measure 36.0 mm.")
    return 0


def run_calibrate_camera(args: argparse.Namespace) -> int:
    from tablesight.calibration.lens_calibration import LensCalibrationError, calibrate_lens

    images = []
    for i, path in enumerate(args.images):
        images.append((path.name, read_photo(path).image))
        _progress("reading", i + 1, len(args.images))
    try:
        result = calibrate_lens(images, progress=lambda i, n: _progress("finding the card", i, n))
    except LensCalibrationError as exc:
        raise NothingRecognised(f"{exc}.") from None
    _write_atomically(args.out, result.lens.save)
    lens = result.lens
    print(f"wrote {args.out}: focal {lens.focal:.1f} px, principal point ({lens.principal_point[0]:.1f}, "
          f"{lens.principal_point[1]:.1f}), {result.views_used} views, RMS {result.rms_px:.2f} px")
    if result.views_rejected:
        print(f"no card found in: {', '.join(result.views_rejected)}")
    return 0


class StatusLine:
    """What a command taking seconds is doing, on one line of a terminal that each message overwrites, and
    wiped when done (the report and any error then print as usual). Silent when `stream` is not a terminal
    (a script reading our output wants the report alone)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False

    def show(self, message: str) -> None:
        if self.stream.isatty():
            print(f"\r{message}…\033[K", end="", file=self.stream, flush=True)
            self.shown = True

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(self, *exc_info) -> None:
        if self.shown:
            print("\r\033[K", end="", file=self.stream, flush=True)


def _progress(what: str, done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{what}: {done}/{total}", end="\n" if done == total else "", file=sys.stderr, flush=True)


def _write_atomically(path: Path, write) -> None:
    """Write through a temporary file in the same folder so a failure leaves nothing partial."""
    if path.parent and not path.parent.exists():
        raise UsageError(f"the folder {path.parent} does not exist.")
    tmp = path.with_name(f".{path.name}.partial{path.suffix}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}.") from None
    finally:
        tmp.unlink(missing_ok=True)


def run_score(args: argparse.Namespace) -> int:
    if looks_like_image(args.input):
        return run_score_photo(args)
    if args.input.is_dir():  # one photo or board file at a time
        raise UnreadableInput(f"{args.input} is a folder: give one photo (JPEG, PNG or HEIC) or board file in it.")
    if args.annotate:
        raise UsageError("--annotate draws on a photo; give a photo, not a board file.")
    doc = read_json(args.input)
    game = doc.get("game", "castellan") if isinstance(doc, dict) else "castellan"
    if args.game and args.game != game:
        raise UsageError(f"{args.input} is a {game} board, not {args.game}.")
    if game == "catan":
        return _score_catan_board(args, doc)
    if game != "castellan":
        raise UnreadableInput(f"{args.input} is a {game!r} board; castellan and catan boards are scored.")
    from tablesight.scoring.castellan.board_json import BoardFormatError, board_from_dict
    from tablesight.scoring.castellan.report import score_board
    from tablesight.scoring.castellan.text_report import format_report

    try:
        board = board_from_dict(doc)
    except BoardFormatError as exc:
        raise UnreadableInput(f"{args.input}: {exc}.") from None
    boxes = None if args.players is None else (1 if args.players == 2 else 2)
    report = score_board(board, boxes=boxes)
    text = json.dumps(report.to_dict(), indent=2) if args.json else format_report(report)
    print(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except TablesightError as exc:
        print(f"tablesight: {exc.sentence}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("tablesight: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`tablesight score … | head`): nothing left to say.
        sys.stderr.close()
        return 0
    except MemoryError:
        print("tablesight: out of memory; the input is too large for this machine.", file=sys.stderr)
        return 1
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - a bug of ours: one sentence, the traceback kept for the report
        print(f"tablesight: this input hit a fault in tablesight ({type(exc).__name__}: {exc}); nothing was written. "
              f"Please report it with the input; details in {_kept_traceback()}.", file=sys.stderr)
        return EXIT_INTERNAL


def _kept_traceback() -> str:
    """The current exception's traceback written to a file in the temporary folder; its path (or why there is
    none: the sentence must not end in a second traceback)."""
    try:
        with tempfile.NamedTemporaryFile("w", prefix="tablesight-fault-", suffix=".txt", delete=False) as out:
            traceback.print_exc(file=out)
            return out.name
    except OSError as exc:
        return f"no file (the temporary folder could not be written: {exc.strerror or exc})"


if __name__ == "__main__":
    sys.exit(main())
