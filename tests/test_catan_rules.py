"""Catan rules: longest road (branches, loops, broken by an opponent), the distance rule, warnings."""

import itertools

import pytest

from tablesight.scoring.catan.board import CatanFormatError, board_from_dict
from tablesight.scoring.catan.checks import TERRAIN_COUNTS, TOKENS
from tablesight.scoring.catan.geometry import LAND, crossing_key, edge_key
from tablesight.scoring.catan.longest_road import road_length
from tablesight.scoring.catan.report import catan_report


def standard_hexes():
    terrains = [t for t, n in TERRAIN_COUNTS.items() for _ in range(n)]
    numbers = sorted(TOKENS.elements())
    hexes, tokens = [], iter(numbers)
    for (q, r), terrain in zip(LAND, sorted(terrains, key=lambda t: t == "desert"), strict=True):
        hexes.append({"q": q, "r": r, "terrain": terrain, "number": None if terrain == "desert" else next(tokens)})
    return hexes


def board(roads=(), buildings=(), **extra):
    desert = next(h for h in standard_hexes() if h["terrain"] == "desert")
    doc = {"game": "catan", "hexes": standard_hexes(), "robber": {"q": desert["q"], "r": desert["r"]},
           "roads": [{"colour": c, "at": list(at)} for c, at in roads],
           "buildings": [{"colour": c, "kind": k, "at": list(at)} for c, k, at in buildings], **extra}
    return board_from_dict(doc)


RING = [(0, 0, k) for k in range(6)]  # the six edges around the centre hex: a loop


def codes(report):
    return sorted(w["code"] for w in report["warnings"])


def test_a_loop_counts_every_segment_once():
    b = board(roads=[("red", e) for e in RING], buildings=[("red", "settlement", (0, 0, 0))])
    assert road_length(b, "red") == 6


def _spur_from(hex_, corner, avoid):
    """A side of some land hex that leaves crossing (hex_, corner) and is not in `avoid`."""
    target = crossing_key(hex_, corner)
    for q, r in LAND:
        for k in range(6):
            e = edge_key((q, r), k)
            if target in e and e not in {edge_key(h[:2], h[2]) for h in avoid}:
                return (q, r, k)
    raise AssertionError("no spur")


def test_a_branch_counts_the_longer_arm_only():
    # Four sides of the centre hex (corners 0-1-2-3-4) and a spur leaving corner 2: the longest
    # trail is the arm (4); the spur joins it in the middle, giving only 1 + 2.
    arm = [(0, 0, k) for k in range(4)]
    spur = _spur_from((0, 0), 2, arm)
    b = board(roads=[("red", e) for e in [*arm, spur]])
    assert road_length(b, "red") == 4
    # Add one more segment at the arm's end and the trail grows to 5.
    assert road_length(board(roads=[("red", e) for e in [*arm, spur, (0, 0, 4)]]), "red") == 5


def test_an_opponents_settlement_breaks_the_road():
    roads = [("red", e) for e in RING[:5]]
    whole = board(roads=roads, buildings=[("red", "settlement", (0, 0, 0))])
    assert road_length(whole, "red") == 5
    # Blue settles on corner 3 of the centre hex, which red's road runs through.
    cut = board(roads=roads, buildings=[("red", "settlement", (0, 0, 0)), ("blue", "settlement", (0, 0, 3))])
    assert road_length(cut, "red") == 3  # sides 0–2 reach corner 3; sides 3–4 beyond it count 2


def test_longest_road_needs_five_and_ties_keep_the_holder():
    red = [("red", e) for e in RING[:5]]
    blue_ring = [(1, -1, k) for k in range(6)]
    blue = [("blue", e) for e in blue_ring if e not in RING][:5]
    base = board(roads=red + blue)
    report = catan_report(base)
    assert report["longest_road"]["length"] == 5 and report["longest_road"]["colour"] is None
    assert "longest-road-tie" in codes(report)
    held = board(roads=red + blue, longest_road_holder="blue")
    assert catan_report(held)["longest_road"] == {"colour": "blue", "length": 5}
    assert catan_report(board(roads=red[:4]))["longest_road"] is None


def test_distance_rule():
    ok = board(roads=[("red", (0, 0, 0)), ("blue", (0, 0, 3))],
               buildings=[("red", "settlement", (0, 0, 0)), ("blue", "settlement", (0, 0, 3))])
    assert "distance-rule" not in codes(catan_report(ok))
    close = board(roads=[("red", (0, 0, 0))], buildings=[("red", "settlement", (0, 0, 0)),
                                                         ("blue", "settlement", (0, 0, 1))])
    assert "distance-rule" in codes(catan_report(close))


def test_scores_count_settlements_cities_road_army_and_cards():
    b = board(roads=[("red", e) for e in RING[:5]],
              buildings=[("red", "settlement", (0, 0, 0)), ("red", "city", (0, 0, 3))],
              knights={"red": 3, "blue": 1}, vp_cards={"red": 1})
    report = catan_report(b)
    assert report["scores"]["red"] == 1 + 2 + 2 + 2 + 1
    assert report["largest_army"] == "red"


def test_production_skips_the_robber():
    b = board(roads=[("red", (0, 0, 0))], buildings=[("red", "city", (0, 0, 0))])
    full = catan_report(b)["production"]["red"]
    hexes_near = [(0, 0), (1, 0), (1, -1)]
    robbed = board(roads=[("red", (0, 0, 0))], buildings=[("red", "city", (0, 0, 0))],
                   robber={"q": 0, "r": 0})
    assert sum(catan_report(robbed)["production"]["red"].values()) < sum(full.values())
    assert sum(full.values()) > 0 and len(hexes_near) == 3


@pytest.mark.parametrize("edit, code", [
    (lambda d: d["roads"].append({"colour": "red", "at": [0, 0, 0]}), "two-roads-one-edge"),
    (lambda d: d["roads"].append({"colour": "red", "at": [2, -2, 1]}), "loose-road"),
    (lambda d: d["buildings"].append({"colour": "white", "kind": "settlement", "at": [-2, 2, 3]}),
     "building-without-road"),
    (lambda d: d["buildings"].extend({"colour": "red", "kind": "city", "at": [q, r, 0]}
                                     for q, r in list(itertools.islice(LAND, 0, 19, 4))[:5]), "too-many-pieces"),
    (lambda d: d.update(robber=None), "no-robber"),
    (lambda d: d["hexes"].pop(), "missing-hexes"),
    (lambda d: d["hexes"][0].update(terrain="forest" if d["hexes"][0]["terrain"] != "forest" else "hills"),
     "unusual-terrain"),
    (lambda d: d["hexes"][0].update(number=12), "unusual-tokens"),
])
def test_each_warning(edit, code):
    desert = next(h for h in standard_hexes() if h["terrain"] == "desert")
    doc = {"game": "catan", "hexes": standard_hexes(), "robber": {"q": desert["q"], "r": desert["r"]},
           "roads": [{"colour": "red", "at": [0, 0, 0]}],
           "buildings": [{"colour": "red", "kind": "settlement", "at": [0, 0, 0]}]}
    assert codes(catan_report(board_from_dict(doc))) == []
    edit(doc)
    assert code in codes(catan_report(board_from_dict(doc)))


def test_bad_boards_name_the_problem():
    with pytest.raises(CatanFormatError, match="not on the board"):
        board_from_dict({"game": "catan", "roads": [{"colour": "red", "at": [5, 5, 0]}]})
    with pytest.raises(CatanFormatError, match="tokens are 2–6 and 8–12"):
        board_from_dict({"game": "catan", "hexes": [{"q": 0, "r": 0, "terrain": "forest", "number": 7}]})
