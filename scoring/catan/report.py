"""The Catan report: scores, longest road, largest army, production per colour, warnings."""

from __future__ import annotations

from collections import Counter

from tablesight.scoring.catan.board import RESOURCE, CatanBoard, board_to_dict
from tablesight.scoring.catan.checks import check_board
from tablesight.scoring.catan.geometry import Hex, hexes_at
from tablesight.scoring.catan.longest_road import longest_road_holder

WAYS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def colours_in_play(board: CatanBoard) -> list[str]:
    return sorted({b.colour for b in board.buildings} | {r.colour for r in board.roads}
                  | set(board.knights) | set(board.vp_cards))


def largest_army(board: CatanBoard) -> str | None:
    best = max(board.knights.values(), default=0)
    leaders = [c for c, n in board.knights.items() if n == best]
    return leaders[0] if best >= 3 and len(leaders) == 1 else None


def production_by_hex(board: CatanBoard, colour: str) -> dict[Hex, int]:
    """Per hex, the resources a colour expects from it per 36 rolls (a city collects twice); the
    robber's hex produces nothing."""
    out: Counter[Hex] = Counter()
    for b in board.buildings:
        if b.colour != colour:
            continue
        for h in hexes_at(b.at):
            terrain, number = board.hexes.get(h, ("desert", None))
            if number is None or terrain not in RESOURCE or h == board.robber:
                continue
            out[h] += WAYS[number] * (2 if b.kind == "city" else 1)
    return dict(out)


def production(board: CatanBoard, colour: str) -> dict[str, int]:
    """Expected resources per 36 rolls, by resource; the robber's hex produces nothing."""
    out: Counter[str] = Counter()
    for h, amount in production_by_hex(board, colour).items():
        out[RESOURCE[board.hexes[h][0]]] += amount
    return dict(sorted(out.items()))


def catan_report(board: CatanBoard) -> dict:
    colours = colours_in_play(board)
    holder, length, tied = longest_road_holder(board, colours)
    army = largest_army(board)
    scores, pieces = {}, {}
    for c in colours:
        settlements = sum(b.colour == c and b.kind == "settlement" for b in board.buildings)
        cities = sum(b.colour == c and b.kind == "city" for b in board.buildings)
        roads = sum(r.colour == c for r in board.roads)
        pieces[c] = {"settlements": settlements, "cities": cities, "roads": roads}
        scores[c] = (settlements + 2 * cities + 2 * (holder == c) + 2 * (army == c) + board.vp_cards.get(c, 0))
    warnings = check_board(board)
    if holder is None and tied:
        warnings.append({"code": "longest-road-tie", "rule": None, "message": f"{' and '.join(tied)} tie for the "
                         f"longest road ({length}); it stays with whoever held it first — say who", "where": {}})
    return {
        "game": "catan",
        "hexes": [{"q": q, "r": r, "terrain": t, "number": n} for (q, r), (t, n) in sorted(board.hexes.items())],
        "robber": None if board.robber is None else {"q": board.robber[0], "r": board.robber[1]},
        "pieces": pieces,
        "longest_road": {"colour": holder, "length": length} if holder or tied else None,
        "largest_army": army,
        "production": {c: production(board, c) for c in colours},
        "scores": scores,
        "winner": _winner(scores),
        "warnings": warnings,
        "board": board_to_dict(board),
    }


def _winner(scores: dict[str, int]) -> str | None:
    reached = [c for c, s in scores.items() if s >= 10]
    return reached[0] if len(reached) == 1 else None


def format_catan(report: dict) -> str:
    lines = ["Catan"]
    hexes = [f"{h['terrain']} {h['number'] if h['number'] is not None else '-'}" for h in report["hexes"]]
    robber = report["robber"]
    lines.append("  hexes (q, r order): " + ", ".join(hexes)
                 + (f"; robber at q={robber['q']}, r={robber['r']}" if robber else "; robber not on the board"))
    for colour, p in report["pieces"].items():
        lines.append(f"  {colour:<7} {p['settlements']} settlements, {p['cities']} cities, {p['roads']} roads, "
                     f"{report['scores'][colour]} points")
    road = report["longest_road"]
    lines.append("Longest road: " + (f"{road['colour'] or 'tied'} ({road['length']})" if road else "nobody (< 5)"))
    lines.append("Largest army: " + (report["largest_army"] or "nobody"))
    for colour, prod in report["production"].items():
        lines.append(f"  {colour:<7} per 36 rolls: " + (", ".join(f"{r} {n}" for r, n in prod.items()) or "nothing"))
    lines.append(f"Warnings ({len(report['warnings'])}):" if report["warnings"] else "No warnings.")
    lines += [f"  [{w['rule'] or '--'}] {w['message']}" for w in report["warnings"]]
    return "\n".join(lines)
