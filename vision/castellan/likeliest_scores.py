"""Single or double keeps in doubt, called for the likeliest score rather than the likeliest board.

`double_keeps.decide_doubles` weighs, for each colour, "no double" against "this keep is the double" (C8) and calls
the likeliest. What a player reads off the photo is the score, and several of those calls give the same one: a
double keep in any of a colour's courtyards of four towers adds four. So where a colour's call is in doubt, its
hypotheses are grouped by the score each gives that colour (scored on the board as read), and the likeliest keep of
the likeliest group is called double (or none, if "no double" is in that group and likelier than any of its keeps).
Only a call in doubt changes, and it stays listed to check: the board read is no surer, the score is.
"""

from __future__ import annotations

from dataclasses import replace

from tablesight.calibration.pieces import PieceDimensions
from tablesight.scoring.castellan.board import Board, Keep
from tablesight.scoring.castellan.report import Courtyard, score_board
from tablesight.vision.castellan.double_keeps import placed_as_double, placed_as_single
from tablesight.vision.castellan.keeps import KeepReading
from tablesight.vision.castellan.reading import PhotoReading, board_of

NO_DOUBLE = -1  # the hypothesis that none of a colour's keeps is its double


def doubles_for_the_likeliest_scores(reading: PhotoReading, dims: PieceDimensions) -> None:
    """Each colour's single/double call in doubt made the one giving that colour its likeliest score (see the module
    docstring), the board made again and the change named in the notes."""
    if reading.board is None or len(reading.board.keeps) != len(reading.keeps):
        return
    in_doubt = [c for c in sorted({k.color for k in reading.keeps})
                if _weighed_in_doubt([k for k in reading.keeps if k.color == c])]
    if not in_doubt:
        return
    courtyards = score_board(reading.board, dims).courtyards  # where each keep stands: doubles do not move them
    called_anew = False
    for colour in in_doubt:
        members = [i for i, k in enumerate(reading.keeps) if k.color == colour]
        chances = _hypotheses(reading.keeps, members)
        scores = {h: _colour_score(courtyards, reading.board, h, members, colour) for h in chances}
        by_score: dict[int, float] = {}
        for h, chance in chances.items():
            by_score[scores[h]] = by_score.get(scores[h], 0.0) + chance
        called = next((i for i in members if reading.keeps[i].double), NO_DOUBLE)
        likeliest = max(by_score, key=by_score.get)
        if by_score[scores[called]] >= by_score[likeliest]:  # a tie keeps the call as read
            continue
        chosen = max((h for h in chances if scores[h] == likeliest), key=chances.get)
        reading.keeps, called_anew = _called(reading.keeps, members, chosen), True
        reading.notes.append(f"the {colour} keeps' single or double calls in doubt give {colour} {likeliest} at "
                             f"{by_score[likeliest]:.0%}, against {scores[called]} at {by_score[scores[called]]:.0%} "
                             f"for the likeliest call alone: called so — check them")
    if called_anew:
        reading.board = board_of(reading)


def _weighed_in_doubt(keeps: list[KeepReading]) -> bool:
    """Whether a colour's keeps were all weighed together (none inferred, each with its chance) and one is in doubt."""
    return (all(k.double_chance is not None and not k.inferred for k in keeps)
            and any(not k.double_certain for k in keeps))


def _hypotheses(keeps: list[KeepReading], members: list[int]) -> dict[int, float]:
    """The chance of each hypothesis for a colour's keeps (`members`): each keep its double, or none is."""
    chances = {i: keeps[i].double_chance for i in members}
    chances[NO_DOUBLE] = max(0.0, 1.0 - sum(chances.values()))
    return chances


def _colour_score(courtyards: tuple[Courtyard, ...], board: Board, double: int, members: list[int],
                  colour: str) -> int:
    """The colour's score on `board` (scored into `courtyards`) with keep `double` of `members` its double
    (NO_DOUBLE: none): each courtyard it owns counts its towers, twice where one of its keeps is double."""
    index = {id(k): i for i, k in enumerate(board.keeps)}

    def doubled(keep: Keep) -> bool:
        i = index[id(keep)]
        return i == double if i in members else keep.double

    return sum(len(yard.tower_ids) * (2 if any(doubled(k) for k in yard.keeps) else 1)
               for yard in courtyards if yard.owner == colour)


def _called(keeps: list[KeepReading], members: list[int], double: int) -> list[KeepReading]:
    """The keeps with `double` of `members` called double and the rest single, each placed as what it is called."""
    called = list(keeps)
    for i in members:
        keep = keeps[i]
        if keep.double and i != double:
            called[i] = replace(placed_as_single(keep), double=False)
        elif i == double and not keep.double:
            called[i] = replace(placed_as_double(keep), double=True)
    return called
