"""Scoring speed from 10 to 1,000 towers: ms per board (median of repeats), one core.

Boards are grown by tiling simulated castles side by side and linking them, so they
have realistic courtyards, spurs and keeps at every size.
Run: python benchmarks/bench_scoring.py
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import replace

from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.report import score_board
from tablesight.scoring.castellan.simulator import simulate_game


def tiled_board(target_towers: int) -> Board:
    """Simulated castles laid side by side until the board has `target_towers` towers."""
    towers: list[Tower] = []
    walls: list[Wall] = []
    keeps: list[Keep] = []
    seed = 0
    while len(towers) < target_towers:
        game = simulate_game(seed)
        turn = game[-1] if len(towers) + 32 <= target_towers else next(
            t for t in game if len(t.board.towers) >= target_towers - len(towers))
        dx, dy = (seed % 8) * 1500.0, (seed // 8) * 1500.0
        part = turn.board.transformed(0.0, dx, dy)
        prefix = f"g{seed}_"
        towers += [replace(t, id=prefix + t.id) for t in part.towers]
        walls += [replace(w, id=prefix + w.id, ends=tuple(prefix + e if e else None for e in w.ends))
                  for w in part.walls]
        keeps += list(part.keeps)
        seed += 1
    return Board(tuple(towers[:target_towers] if len(towers) == target_towers else towers),
                 tuple(walls), tuple(keeps))


def time_board(board: Board, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        score_board(board, boxes=math.ceil(len(board.towers) / 32))
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    print(f"{'towers':>7} {'walls':>6} {'keeps':>6} {'ms/board':>9} {'ms per tower':>13} {'vs n log n':>11}")
    base = None
    for n in (10, 32, 100, 300, 1000):
        board = tiled_board(n)
        ms = time_board(board, repeats=30 if n <= 100 else 7)
        size = len(board.towers)
        norm = ms / (size * math.log2(size))
        base = base or norm
        print(f"{size:>7} {len(board.walls):>6} {len(board.keeps):>6} {ms:>9.2f} {ms / size:>13.4f} "
              f"{norm / base:>10.2f}x")


if __name__ == "__main__":
    main()
