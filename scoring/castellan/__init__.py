"""Castellan: board model, courtyards, scoring, rule checks and a game simulator."""

from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS, PieceDimensions
from tablesight.scoring.castellan.report import Report, score_board

__all__ = [
    "Board", "Keep", "Tower", "Wall", "PieceDimensions", "NOMINAL_DIMENSIONS",
    "Report", "score_board",
]
