"""What hangs on each piece a photo leaves uncertain: the board scored the other way round."""

from dataclasses import replace

from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS
from tablesight.vision.castellan.doubts import WITH_HIDDEN_TOWER, find_doubts, still_in_doubt, with_tower_at_open_end
from tablesight.vision.castellan.keeps import KeepReading
from tablesight.vision.castellan.reader import PhotoReading
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

SPAN = 64.0
CORNERS = [(0.0, 0.0), (SPAN, 0.0), (SPAN, SPAN), (0.0, SPAN), (2 * SPAN, 0.0), (2 * SPAN, SPAN)]
SIDES = [(0, 1), (1, 2), (2, 3), (3, 0), (1, 4), (4, 5), (5, 2)]  # two square courtyards side by side


def _reading(keeps: list[KeepReading], inferred_tower: int | None = None,
             inferred_wall: int | None = None) -> tuple[PhotoReading, Board]:
    """A reading of two courtyards (towers 0–3 and 1, 4, 5, 2) and its board."""
    towers = [TowerReading(x, y, 12.0, inferred=i == inferred_tower) for i, (x, y) in enumerate(CORNERS)]
    walls = [WallReading("short", a, b, None, 1.0, inferred=n == inferred_wall) for n, (a, b) in enumerate(SIDES)]
    reading = PhotoReading(None, None, towers=towers, walls=walls, keeps=keeps)
    board = Board(tuple(Tower(f"t{i + 1}", x, y) for i, (x, y) in enumerate(CORNERS)),
                  tuple(Wall(f"w{n + 1}", "short", (f"t{a + 1}", f"t{b + 1}")) for n, (a, b) in enumerate(SIDES)),
                  tuple(Keep(k.color, k.x, k.y, k.double) for k in keeps))
    return reading, board


def _keep(x: float, double: bool = False, certain: bool = True, colour: str = "red") -> KeepReading:
    return KeepReading(colour, x, SPAN / 2, double, certain, None)


def test_an_uncertain_single_keep_would_double_its_courtyard():
    reading, board = _reading([_keep(SPAN / 2, certain=False), _keep(1.5 * SPAN, colour="blue")])
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.piece, doubt.id, doubt.otherwise) == ("keep", "k0", "double")
    assert doubt.changed == {"red": (4, 8)}
    assert "red 8 (not 4)" in doubt.sentence()


def test_a_keep_read_double_may_be_single_and_a_player_has_one_double_keep():
    # Red's double is the left courtyard's; if the uncertain right one is double instead, the left is single.
    reading, board = _reading([_keep(SPAN / 2, double=True), _keep(1.5 * SPAN, certain=False)])
    (doubt,) = find_doubts(reading, board, DIMS)
    assert doubt.changed == {}  # 8 + 4 either way
    assert doubt.scores_otherwise == {"red": 12}
    assert "no score changes" in doubt.sentence()


def test_a_tower_inferred_behind_a_keep_may_be_absent_and_open_both_courtyards():
    reading, board = _reading([_keep(SPAN / 2), _keep(1.5 * SPAN, colour="blue")], inferred_tower=1)
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.piece, doubt.id, doubt.where) == ("tower", "t2", (SPAN, 0.0))
    assert doubt.changed == {"red": (4, 0), "blue": (4, 0)}
    assert doubt.read == "tower hidden behind a keep"


def test_a_tower_inferred_where_walls_end_with_no_keep_in_front_says_so():
    reading, board = _reading([_keep(SPAN / 2), _keep(1.5 * SPAN, colour="blue")], inferred_tower=1)
    reading.towers[1] = replace(reading.towers[1], behind_keep=False)
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.id, doubt.read, doubt.otherwise) == ("t2", "tower inferred where walls end", "absent")
    assert doubt.changed == {"red": (4, 0), "blue": (4, 0)}


def test_a_wall_inferred_behind_a_keep_may_be_absent():
    reading, board = _reading([_keep(SPAN / 2), _keep(1.5 * SPAN, colour="blue")], inferred_wall=1)
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.piece, doubt.id, doubt.where) == ("wall", "w2", (SPAN, SPAN / 2))
    # Without the wall between them the two courtyards are one, holding keeps of both colours.
    assert doubt.scores_otherwise == {"red": 0, "blue": 0}


def test_a_wall_read_from_an_open_run_through_a_tower_may_be_absent():
    reading, board = _reading([_keep(SPAN / 2), _keep(1.5 * SPAN, colour="blue")])
    reading.walls[1] = WallReading("short", 1, 2, None, 1.0, through_tower=True)
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.piece, doubt.id, doubt.otherwise) == ("wall", "w2", "absent")
    assert "open wall's run through a tower" in doubt.read
    assert doubt.scores_otherwise == {"red": 0, "blue": 0}


def test_doubts_that_change_a_score_come_first_and_certain_pieces_are_no_doubt():
    keeps = [_keep(SPAN / 2), _keep(300.0, certain=False, colour="blue"), _keep(1.5 * SPAN, certain=False)]
    reading, board = _reading(keeps)
    doubts = find_doubts(reading, board, DIMS)
    # The red keep on the right doubles its courtyard if double; the blue one, in no courtyard, changes nothing.
    assert [d.id for d in doubts] == ["k2", "k1"]
    assert doubts[0].changed == {"red": (8, 12)} and doubts[1].changed == {}


def test_settling_the_doubts_by_eye_takes_each_doubtful_piece_as_it_stands():
    from tablesight.vision.castellan.evaluate import settled

    reading, board = _reading([_keep(SPAN / 2, certain=False), _keep(1.5 * SPAN, certain=False)], inferred_tower=1)
    truth = replace(board, keeps=(Keep("red", SPAN / 2, SPAN / 2, True), board.keeps[1]))
    checked = settled(board, find_doubts(reading, board, DIMS), truth)
    assert [k.double for k in checked.keeps] == [True, False]  # as the truth's keeps there
    assert len(checked.towers) == 6  # the inferred tower is there in the truth: kept


def test_a_correction_settles_its_piece_and_the_other_doubts_are_scored_again():
    keeps = [_keep(SPAN / 2, certain=False), _keep(1.5 * SPAN, certain=False, colour="blue")]
    reading, board = _reading(keeps)
    stored = [d.to_dict() for d in find_doubts(reading, board, DIMS)]
    # The player looks: the red keep is double, and sets it so by hand.
    corrected = replace(board, keeps=(replace(board.keeps[0], double=True), board.keeps[1]))
    (left,) = still_in_doubt(stored, corrected, DIMS)
    assert (left.piece, left.id, left.read) == ("keep", "k1", "single blue keep")
    assert left.scores == {"red": 8, "blue": 4} and left.changed == {"blue": (4, 8)}
    # Deleting the blue keep settles its doubt too (ids shift: the red keep is still k0).
    assert still_in_doubt(stored, replace(board, keeps=board.keeps[:1]), DIMS)[0].id == "k0"
    assert still_in_doubt(stored, replace(corrected, keeps=corrected.keeps[:1]), DIMS) == []


def test_a_tower_read_in_a_long_walls_run_may_be_its_middle_and_is_settled_as_that_wall():
    from tablesight.vision.castellan.doubts import still_in_doubt
    from tablesight.vision.castellan.evaluate import settled

    # One courtyard two spans long: tower 1 stands between two short walls in line (read by its height).
    sides = [s for s in SIDES if s != (1, 2)]
    towers = [TowerReading(x, y, 12.0, in_run=i == 1) for i, (x, y) in enumerate(CORNERS)]
    reading = PhotoReading(None, None, towers=towers, walls=[WallReading("short", a, b, None, 1.0) for a, b in sides],
                           keeps=[_keep(SPAN)])
    board = Board(tuple(Tower(f"t{i + 1}", x, y) for i, (x, y) in enumerate(CORNERS)),
                  tuple(Wall(f"w{n + 1}", "short", (f"t{a + 1}", f"t{b + 1}")) for n, (a, b) in enumerate(sides)),
                  (Keep("red", SPAN, SPAN / 2),))
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.piece, doubt.id, doubt.otherwise) == ("tower", "t2", "the middle of a long wall")
    assert doubt.changed == {"red": (6, 5)}  # a long wall in its place: one tower fewer round the courtyard
    # Checked on the table: no tower there, the run is that long wall.
    truth = replace(board, towers=tuple(t for t in board.towers if t.id != "t2"))
    checked = settled(board, [doubt], truth)
    assert len(checked.towers) == 5 and [w.kind for w in checked.walls].count("long") == 1
    # Stored with a game, the doubt stands on the board as read, and is settled once the run is corrected.
    stored = [doubt.to_dict()]
    assert still_in_doubt(stored, board, DIMS)[0].id == "t2"
    assert still_in_doubt(stored, checked, DIMS) == []


def _run_of_two_short_walls(middle_radius: float) -> tuple[PhotoReading, Board]:
    """One courtyard two spans long whose tower 1 stands seen between two short walls in line."""
    sides = [s for s in SIDES if s != (1, 2)]
    towers = [TowerReading(x, y, middle_radius if i == 1 else 12.0) for i, (x, y) in enumerate(CORNERS)]
    reading = PhotoReading(None, None, towers=towers, walls=[WallReading("short", a, b, None, 1.0) for a, b in sides],
                           keeps=[_keep(SPAN)])
    board = Board(tuple(Tower(f"t{i + 1}", x, y) for i, (x, y) in enumerate(CORNERS)),
                  tuple(Wall(f"w{n + 1}", "short", (f"t{a + 1}", f"t{b + 1}")) for n, (a, b) in enumerate(sides)),
                  (Keep("red", SPAN, SPAN / 2),))
    return reading, board


def test_a_thin_tower_between_two_short_walls_in_line_may_be_a_long_walls_middle():
    reading, board = _run_of_two_short_walls(middle_radius=9.5)  # under 0.85 of the others' 12 mm
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.piece, doubt.id, doubt.otherwise) == ("tower", "t2", "the middle of a long wall")
    assert doubt.read.startswith("tower between two short walls in line, thinner")
    assert doubt.changed == {"red": (6, 5)}
    # As wide as the castle's other towers (to the slack a hand-built castle and the reading have): no doubt.
    assert find_doubts(*_run_of_two_short_walls(middle_radius=10.8), DIMS) == []


def test_a_tower_only_the_first_look_saw_is_a_doubt_as_a_long_walls_middle_or_as_absent():
    # In a long wall's run: the look kept read the run as one long wall.
    reading, board = _run_of_two_short_walls(middle_radius=12.0)
    assert find_doubts(reading, board, DIMS) == []
    reading.towers[1] = replace(reading.towers[1], one_look=True)
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.id, doubt.otherwise) == ("t2", "the middle of a long wall")
    assert doubt.read.startswith("tower read the usual way, not with the colours seen as kept")
    assert doubt.changed == {"red": (6, 5)}
    # At a corner of two courtyards: the look kept saw table there.
    reading, board = _reading([_keep(SPAN / 2), _keep(1.5 * SPAN, colour="blue")])
    reading.towers[1] = replace(reading.towers[1], one_look=True)
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.id, doubt.otherwise) == ("t2", "absent")
    assert doubt.changed == {"red": (4, 0), "blue": (4, 0)}


def test_a_keep_read_where_the_castle_needs_one_may_be_absent_and_is_settled_by_the_truth():
    from tablesight.vision.castellan.doubts import still_in_doubt
    from tablesight.vision.castellan.evaluate import settled

    # Its single or double was not measured: still one line, not two (whoever looks sees both).
    inferred = replace(_keep(1.5 * SPAN), inferred=True, double_certain=False)
    reading, board = _reading([_keep(SPAN / 2), inferred])
    (doubt,) = find_doubts(reading, board, DIMS)
    assert doubt.sentence().startswith("single red keep read where the castle needs one")
    assert (doubt.piece, doubt.id, doubt.otherwise) == ("keep", "k1", "absent")
    assert doubt.changed == {"red": (8, 4)} and "red keep read where the castle needs one" in doubt.sentence()
    # Still in doubt on the same board, settled once the keep is deleted by hand.
    assert [d.id for d in still_in_doubt([doubt.to_dict()], board, DIMS)] == ["k1"]
    assert still_in_doubt([doubt.to_dict()], replace(board, keeps=board.keeps[:1]), DIMS) == []
    # Looked at on the table: kept where the truth has a keep, dropped where it has none.
    assert len(settled(board, [doubt], board).keeps) == 2
    assert len(settled(board, [doubt], replace(board, keeps=board.keeps[:1])).keeps) == 1


def test_a_long_wall_read_where_a_thin_tower_stood_may_be_that_tower_and_two_short_walls():
    from tablesight.vision.castellan.doubts import still_in_doubt

    reading, board = _long_wall_through_a_thin_towers_place()
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.piece, doubt.where, doubt.otherwise) == ("wall", (SPAN, 0.0), "a tower and two short walls")
    assert doubt.changed == {"red": (5, 6)}  # a tower there: one more round the courtyard
    stored = [doubt.to_dict()]
    assert still_in_doubt(stored, board, DIMS)[0].changed == {"red": (5, 6)}


def test_a_long_wall_whose_middle_a_keep_hides_may_be_a_tower_and_two_short_walls():
    reading, board = _long_wall_through_a_thin_towers_place()
    reading.walls[-1] = replace(reading.walls[-1], through_thin_tower=False, middle_hidden=True)
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.read, doubt.where, doubt.otherwise) == ("long wall whose middle a keep hides", (SPAN, 0.0),
                                                          "a tower and two short walls")
    assert doubt.changed == {"red": (5, 6)}
    reading.walls[-1] = replace(reading.walls[-1], middle_hidden=False)
    assert find_doubts(reading, board, DIMS) == []


def test_a_long_wall_that_may_be_a_towers_run_is_settled_by_the_tower_on_the_table():
    from tablesight.vision.castellan.evaluate import settled

    reading, board = _long_wall_through_a_thin_towers_place()
    (doubt,) = find_doubts(reading, board, DIMS)
    # Looked at on the table: a tower stands there, so the run is it and two short walls …
    truth = replace(board, towers=board.towers + (Tower("t9", SPAN, 0.0),))
    checked = settled(board, [doubt], truth)
    assert len(checked.towers) == 6 and sorted(w.kind for w in checked.walls).count("short") == 6
    # … and where none does, the long wall stays as read.
    assert settled(board, [doubt], board) == board


def test_a_long_wall_open_at_one_end_split_at_its_middle_keeps_its_open_end():
    from tablesight.vision.castellan.doubts import long_wall_split

    open_end = (2 * SPAN, 0.0)
    board = Board((Tower("t1", 0.0, 0.0),), (Wall("w1", "long", ("t1", None), None, open_end),))
    split = long_wall_split(board, 0)
    assert [w.kind for w in split.walls] == ["short", "short"]
    ends = [split.wall_endpoints(w) for w in split.walls]
    assert ends == [((0.0, 0.0), (SPAN, 0.0)), ((SPAN, 0.0), open_end)]


def _long_wall_through_a_thin_towers_place() -> tuple[PhotoReading, Board]:
    """One courtyard two spans long, its bottom side one long wall read through a thin tower's place."""
    sides = [s for s in SIDES if s not in ((1, 2), (0, 1), (1, 4))]
    corners = [c for i, c in enumerate(CORNERS) if i != 1]
    index = {old: new for new, old in enumerate(i for i in range(len(CORNERS)) if i != 1)}
    walls = [WallReading("short", index[a], index[b], None, 1.0) for a, b in sides]
    walls.append(WallReading("long", index[0], index[4], None, 1.0, through_thin_tower=True))
    reading = PhotoReading(None, None, towers=[TowerReading(x, y, 12.0) for x, y in corners], walls=walls,
                           keeps=[_keep(SPAN)])
    board = Board(tuple(Tower(f"t{i + 1}", x, y) for i, (x, y) in enumerate(corners)),
                  tuple(Wall(f"w{n + 1}", w.kind, (f"t{w.start + 1}", f"t{w.end + 1}")) for n, w in enumerate(walls)),
                  (Keep("red", SPAN, SPAN / 2),))
    return reading, board


def test_an_open_end_a_keep_hides_may_end_in_a_tower_and_stays_in_doubt_after_a_correction_elsewhere():
    reading, board = _reading([_keep(SPAN / 2), _keep(1.5 * SPAN, colour="blue")])
    reading.walls.append(WallReading("short", 0, None, (-SPAN, 0.0), 1.0, end_hidden=True))
    board = replace(board, walls=board.walls + (Wall("w8", "short", ("t1", None), (0.0, 0.0), (-SPAN, 0.0)),))
    (doubt,) = find_doubts(reading, board, DIMS)
    assert (doubt.piece, doubt.id, doubt.where, doubt.otherwise) == ("wall", "w8", (-SPAN, 0.0), WITH_HIDDEN_TOWER)
    assert doubt.changed == {}  # a tower at the end of a wall outside both courtyards
    corrected = board.without_keep(1)  # the blue keep deleted by hand: the open end is still in doubt
    (kept,) = still_in_doubt([doubt.to_dict()], corrected, DIMS)
    assert (kept.id, kept.otherwise) == ("w8", WITH_HIDDEN_TOWER)


def test_a_tower_at_an_open_end_closes_every_wall_ending_open_there():
    towers = (Tower("t1", 0.0, 0.0), Tower("t2", 2 * SPAN, 0.0))
    walls = (Wall("w1", "short", ("t1", None), (0.0, 0.0), (SPAN, 0.0)),
             Wall("w2", "short", ("t2", None), (2 * SPAN, 0.0), (SPAN + 1.0, 0.0)))
    closed = with_tower_at_open_end(Board(towers, walls, ()), (SPAN, 0.0))
    (middle,) = [t for t in closed.towers if t.id not in ("t1", "t2")]
    assert middle.position == (SPAN, 0.0)
    assert [w.ends for w in closed.walls] == [("t1", middle.id), ("t2", middle.id)]
