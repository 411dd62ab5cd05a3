"""The `tablesight` command line (shared/spec/interface.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from tablesight.errors import EXIT_USAGE, TablesightError, UnreadableInput, UsageError
from tablesight.inputs import looks_like_image, read_json

GAMES = ("castellan",)


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
    return parser


def run_score(args: argparse.Namespace) -> int:
    if looks_like_image(args.input):
        raise UsageError("reading photos is not available yet; give a board JSON file.")
    doc = read_json(args.input)
    game = args.game or (doc.get("game", "castellan") if isinstance(doc, dict) else "castellan")
    if game != "castellan":
        raise UnreadableInput(f"{args.input} is a {game!r} board; only castellan boards are scored so far.")
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
    except MemoryError:
        print("tablesight: out of memory; the input is too large for this machine.", file=sys.stderr)
        return 1
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
