"""Scoring a Castellan board: courtyards, owners, values, totals, the winner, warnings."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablesight.scoring.castellan.board import Board, Keep, Point
from tablesight.scoring.castellan.board_json import board_to_dict
from tablesight.scoring.castellan.checks import RuleWarning, check_board
from tablesight.scoring.castellan.courtyards import (
    find_faces,
    smallest_face_containing,
    towers_touching,
)
from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS, PieceDimensions


@dataclass(frozen=True)
class Courtyard:
    id: str
    tower_ids: frozenset[str]
    polygon: np.ndarray = field(repr=False, compare=False)
    label: Point
    keeps: tuple[Keep, ...]

    @property
    def colours(self) -> set[str]:
        return {k.color for k in self.keeps}

    @property
    def owner(self) -> str | None:
        """The single colour claiming it; None when unclaimed or contested."""
        return next(iter(self.colours)) if len(self.colours) == 1 else None

    @property
    def double(self) -> bool:
        return self.owner is not None and any(k.double for k in self.keeps)

    @property
    def value(self) -> int:
        if self.owner is None:
            return 0
        return len(self.tower_ids) * (2 if self.double else 1)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "owner": self.owner, "double": self.double,
                "towers": len(self.tower_ids), "value": self.value}


@dataclass(frozen=True)
class Report:
    board: Board
    courtyards: tuple[Courtyard, ...]
    warnings: tuple[RuleWarning, ...]

    @property
    def colours(self) -> list[str]:
        return sorted({k.color for k in self.board.keeps})

    @property
    def scores(self) -> dict[str, int]:
        scores = dict.fromkeys(self.colours, 0)
        for yard in self.courtyards:
            if yard.owner is not None:
                scores[yard.owner] += yard.value
        return scores

    @property
    def keep_pieces(self) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for keep in self.board.keeps:
            counts[keep.color] += keep.pieces
        return dict(sorted(counts.items()))

    @property
    def winner(self) -> str | list[str] | None:
        """Highest score; ties go to more keep pieces on the table; then the victory is shared."""
        if not any(yard.owner for yard in self.courtyards):
            return None
        keeps = self.keep_pieces
        ranking = {c: (s, keeps.get(c, 0)) for c, s in self.scores.items()}
        best = max(ranking.values())
        leaders = sorted(c for c, rank in ranking.items() if rank == best)
        return leaders[0] if len(leaders) == 1 else leaders

    @property
    def decided_by_tiebreak(self) -> bool:
        scores = self.scores
        top = max(scores.values(), default=0)
        return self.winner is not None and sum(s == top for s in scores.values()) > 1

    def to_dict(self) -> dict[str, Any]:
        board = self.board
        return {
            "game": "castellan",
            "pieces": {
                "towers": len(board.towers),
                "short_walls": sum(w.kind == "short" for w in board.walls),
                "long_walls": sum(w.kind == "long" for w in board.walls),
                "keeps": self.keep_pieces,
            },
            "courtyards": [y.to_dict() for y in self.courtyards],
            "scores": self.scores,
            "winner": self.winner,
            "warnings": [w.to_dict() for w in self.warnings],
            "board": board_to_dict(board),
        }


def score_board(board: Board, dims: PieceDimensions = NOMINAL_DIMENSIONS,
                boxes: int | None = None) -> Report:
    """Score a board. `boxes` (1 for 2 players, 2 for 3–4) sets the piece limits when known."""
    faces = find_faces(board)
    touching = towers_touching(board, faces)
    keep_points = np.array([k.position for k in board.keeps], dtype=float).reshape(-1, 2)
    homes = smallest_face_containing(faces, keep_points)

    labels = [face.label_point() for face in faces]
    order = sorted(range(len(faces)), key=lambda i: (round(labels[i][1], 1), round(labels[i][0], 1)))
    courtyards = tuple(
        Courtyard(
            id=f"c{rank + 1}",
            tower_ids=frozenset(touching[i]),
            polygon=faces[i].polygon,
            label=labels[i],
            keeps=tuple(k for k, home in zip(board.keeps, homes, strict=True) if home == i),
        )
        for rank, i in enumerate(order)
    )
    warnings = check_board(board, dims, boxes)
    warnings += _claim_warnings(courtyards)
    warnings += [
        RuleWarning("keep-outside-courtyard", "C5",
                    f"a {k.color} keep stands outside every courtyard and scores nothing", k.position)
        for k, home in zip(board.keeps, homes, strict=True) if home is None
    ]
    return Report(board, courtyards, tuple(warnings))


def _claim_warnings(courtyards: tuple[Courtyard, ...]) -> list[RuleWarning]:
    found = []
    for yard in courtyards:
        if not yard.keeps:
            found.append(RuleWarning("unclaimed-courtyard", "C5",
                                     f"courtyard {yard.id} ({len(yard.tower_ids)} towers) is enclosed "
                                     "but has no keep; whoever completed it should claim it",
                                     yard.label))
        elif len(yard.colours) > 1:
            found.append(RuleWarning("contested-courtyard", "C7",
                                     f"courtyard {yard.id} holds keeps of {' and '.join(sorted(yard.colours))}; "
                                     "it scores for nobody until one is removed",
                                     yard.label))
    return found
