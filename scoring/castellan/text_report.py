"""The readable text form of a Castellan report (the CLI's default output)."""

from __future__ import annotations

from tablesight.scoring.castellan.report import Report


def format_report(report: Report) -> str:
    d = report.to_dict()
    pieces = d["pieces"]
    keeps = ", ".join(f"{c} {n}" for c, n in pieces["keeps"].items()) or "none"
    lines = [
        f"Castellan: {pieces['towers']} towers, {pieces['short_walls']} short walls, "
        f"{pieces['long_walls']} long walls; keep pieces: {keeps}",
        "",
    ]
    if d["courtyards"]:
        lines.append(f"{'courtyard':<10} {'owner':<8} {'towers':>6} {'double':>6} {'value':>5}")
        for y in d["courtyards"]:
            lines.append(f"{y['id']:<10} {y['owner'] or '-':<8} {y['towers']:>6} "
                         f"{'yes' if y['double'] else '':>6} {y['value']:>5}")
    else:
        lines.append("No courtyard is enclosed yet.")
    lines.append("")
    scores = sorted(d["scores"].items(), key=lambda kv: (-kv[1], kv[0]))
    lines.append("Scores: " + (", ".join(f"{c} {s}" for c, s in scores) or "none"))
    lines.append("Winner: " + _winner_text(report))
    warnings = d["warnings"]
    lines.append("")
    lines.append(f"Warnings ({len(warnings)}):" if warnings else "No warnings.")
    for w in warnings:
        where = w["where"]
        lines.append(f"  [{w['rule'] or '--'}] {w['message']} (at x={where['x']}, y={where['y']} mm)")
    return "\n".join(lines)


def _winner_text(report: Report) -> str:
    winner = report.winner
    if winner is None:
        return "nobody yet (no courtyard is owned)"
    if isinstance(winner, list):
        return "shared by " + " and ".join(winner) + " (equal scores and equal keeps)"
    if report.decided_by_tiebreak:
        keeps = report.keep_pieces
        return f"{winner}, on the tie-break: more keep pieces on the table ({keeps[winner]})"
    return winner
