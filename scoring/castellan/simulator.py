"""A rule-following Castellan game simulator.

It plays random legal games turn by turn — cards, pieces, placements, claims,
splits, double keeps, C7 (no building in an opponent's courtyard), C9 (pieces
that fit nowhere go to the next player) and the box's piece counts — and yields
every board at the end of each turn with its history. It generates test boards
for the rules and scenes for the camera pipeline.

Internally the castle is built on a lattice of short-wall spacing (a long wall
spans two steps), which the box's nominal sizes make exact; callers rotate and
jitter the result when they want continuous geometry. The scorer never assumes
the lattice.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.courtyards import Face, find_faces, smallest_face_containing
from tablesight.scoring.castellan.pieces import (
    BOX_CONTENTS,
    EDITIONS,
    NOMINAL_DIMENSIONS,
    PieceDimensions,
)

Node = tuple[int, int]
DIRECTIONS: tuple[Node, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
PIECE_KINDS = ("tower", "short", "long")


@dataclass(frozen=True)
class Card:
    towers: int
    short_walls: int
    long_walls: int
    extra: bool = False

    def pieces(self) -> list[str]:
        return ["tower"] * self.towers + ["short"] * self.short_walls + ["long"] * self.long_walls


@dataclass(frozen=True)
class TurnRecord:
    turn: int
    player: str
    cards: tuple[Card, ...]
    placed: tuple[str, ...]  # ids of the towers and walls placed this turn
    passed_on: tuple[str, ...]  # piece kinds that fit nowhere and go to the next player (C9)
    claims: tuple[tuple[str, bool], ...]  # (colour, double) per keep placed this turn


@dataclass(frozen=True)
class SimulatedTurn:
    board: Board
    history: tuple[TurnRecord, ...]
    boxes: int


@dataclass
class _Castle:
    """Lattice bookkeeping of the castle being built."""

    spacing: float
    towers: dict[Node, str] = field(default_factory=dict)
    sockets: set[tuple[Node, Node]] = field(default_factory=set)
    edges: set[frozenset[Node]] = field(default_factory=set)
    long_middles: set[Node] = field(default_factory=set)
    open_spots: Counter[Node] = field(default_factory=Counter)
    walls: list[dict] = field(default_factory=list)
    keeps: list[Keep] = field(default_factory=list)

    def point(self, node: Node | tuple[float, float]) -> tuple[float, float]:
        return (node[0] * self.spacing, node[1] * self.spacing)

    def board(self) -> Board:
        towers = tuple(Tower(tid, *self.point(n)) for n, tid in self.towers.items())
        walls = []
        for w in self.walls:
            ends = (self.towers.get(w["a"]), self.towers.get(w["b"]))
            start = self.point(w["a"]) if ends[0] is None else None
            end = self.point(w["b"]) if ends[1] is None else None
            walls.append(Wall(w["id"], w["kind"], ends, start, end))
        return Board(towers, tuple(walls), tuple(self.keeps))


class GameSimulator:
    """Plays one random legal game; iterate `turns()` for the board after each turn."""

    def __init__(self, seed: int, players: int = 2, dims: PieceDimensions = NOMINAL_DIMENSIONS,
                 double_keep_chance: float = 0.35) -> None:
        if not 2 <= players <= 4:
            raise ValueError("Castellan is played by 2 to 4 players")
        if abs(dims.centre_spacing("long") - 2 * dims.centre_spacing("short")) > 1e-6:
            raise ValueError("the simulator's lattice needs a long wall equal to short + tower + short")
        self.rng = random.Random(seed)
        self.boxes = 1 if players == 2 else 2
        self.colours = self._pick_colours(players)
        self.decks = {c: self._deal(players) for c in self.colours}
        self.pending: dict[str, list[str]] = {c: [] for c in self.colours}
        self.double_used: set[str] = set()
        self.double_keep_chance = double_keep_chance
        self.castle = _Castle(dims.centre_spacing("short"))
        self._next_id = Counter[str]()
        # How strongly this game prefers closing walls: low gives big courtyards, high small ones.
        self.closing_weight = self.rng.uniform(0.5, 8.0)

    def _pick_colours(self, players: int) -> list[str]:
        if players == 2:
            return list(self.rng.choice(EDITIONS))
        colours = [c for edition in EDITIONS for c in edition]
        self.rng.shuffle(colours)
        return colours[:players]

    def _deal(self, players: int) -> list[Card]:
        """One player's 14 cards, sharing out the boxes' pieces evenly between players."""
        totals = {k: BOX_CONTENTS[k] * self.boxes // players for k in BOX_CONTENTS}
        cards = [[0, 0, 0] for _ in range(14)]
        for column, name in enumerate(("towers", "short_walls", "long_walls")):
            for _ in range(totals[name]):
                cards[self.rng.randrange(14)][column] += 1
        deck = [Card(t, s, lw, extra=self.rng.random() < 0.2) for t, s, lw in cards if t + s + lw]
        self.rng.shuffle(deck)
        return deck

    def turns(self) -> Iterator[SimulatedTurn]:
        history: list[TurnRecord] = []
        turn = 0
        while any(self.decks.values()) or any(self.pending.values()):
            player = self.colours[turn % len(self.colours)]
            turn += 1
            record = self._play_turn(turn, player)
            if record is None:
                continue
            history.append(record)
            yield SimulatedTurn(self.castle.board(), tuple(history), self.boxes)

    def _play_turn(self, turn: int, player: str) -> TurnRecord | None:
        deck = self.decks[player]
        cards = tuple(deck.pop() for _ in range(min(len(deck), self.rng.choice((1, 1, 2)))))
        pieces = self.pending[player] + [p for card in cards for p in card.pieces()]
        self.pending[player] = []
        if not pieces:
            return None
        claimed = self._claimed_faces()
        placed, leftover = self._place_all(pieces, player, claimed)
        nxt = self.colours[(self.colours.index(player) + 1) % len(self.colours)]
        self.pending[nxt].extend(leftover)
        claims = self._claim(player, claimed)
        return TurnRecord(turn, player, cards, tuple(placed), tuple(leftover), tuple(claims))

    # --- placing pieces -------------------------------------------------------------------

    def _place_all(self, pieces: list[str], player: str,
                   claimed: list[tuple[Face, str]]) -> tuple[list[str], list[str]]:
        todo, placed = list(pieces), []
        self.rng.shuffle(todo)
        progress = True
        while todo and progress:
            progress = False
            for kind in list(todo):
                move = self._choose_move(kind, player, claimed)
                if move is not None:
                    placed.append(self._apply(kind, move))
                    todo.remove(kind)
                    progress = True
                    if kind == "tower":
                        claimed = self._claimed_faces()
        return placed, todo

    def _choose_move(self, kind: str, player: str, claimed: list[tuple[Face, str]]):
        castle = self.castle
        if kind == "tower":
            if not castle.towers:
                return (0, 0)
            options = [(n, 1 + self.closing_weight * (c - 1)) for n, c in castle.open_spots.items()
                       if n not in castle.towers]
        else:
            options = self._wall_options(1 if kind == "short" else 2)
        options = self._outside_opponent_yards(kind, options, player, claimed)
        if not options:
            return None
        moves, weights = zip(*options, strict=True)
        return self.rng.choices(moves, weights=weights)[0]

    def _wall_options(self, steps: int) -> list[tuple[tuple[Node, Node], int]]:
        castle, options = self.castle, []
        for node in castle.towers:
            for d in DIRECTIONS:
                if (node, d) in castle.sockets:
                    continue
                path = [(node[0] + d[0] * k, node[1] + d[1] * k) for k in range(steps + 1)]
                if any(frozenset(pair) in castle.edges for pair in zip(path, path[1:], strict=False)):
                    continue
                if steps == 2 and not self._free_middle(path[1]):
                    continue
                target = path[-1]
                if target in castle.towers:
                    if (target, (-d[0], -d[1])) not in castle.sockets:
                        options.append(((node, target), self.closing_weight))
                elif target not in castle.long_middles:
                    options.append(((node, target), 1))
        return options

    def _free_middle(self, node: Node) -> bool:
        castle = self.castle
        return (node not in castle.towers and node not in castle.long_middles
                and castle.open_spots[node] == 0)

    def _outside_opponent_yards(self, kind: str, options: list, player: str,
                                claimed: list[tuple[Face, str]]) -> list:
        """The options that do not put a piece inside an opponent's courtyard (C7)."""
        if not options or not claimed:
            return options
        if kind == "tower":
            spots = [self.castle.point(m) for m, _ in options]
        else:
            spots = [self.castle.point(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)) for (a, b), _ in options]
        points = np.array(spots)
        blocked = np.zeros(len(points), dtype=bool)
        for face, owner in claimed:
            if owner != player:
                blocked |= face.contains(points)
        return [option for option, bad in zip(options, blocked, strict=True) if not bad]

    def _new_id(self, prefix: str) -> str:
        self._next_id[prefix] += 1
        return f"{prefix}{self._next_id[prefix]}"

    def _apply(self, kind: str, move) -> str:
        castle = self.castle
        if kind == "tower":
            tid = self._new_id("t")
            castle.towers[move] = tid
            castle.open_spots.pop(move, None)
            return tid
        a, b = move
        d = ((b[0] - a[0]) // max(abs(b[0] - a[0]), 1), (b[1] - a[1]) // max(abs(b[1] - a[1]), 1))
        steps = abs(b[0] - a[0]) + abs(b[1] - a[1])
        path = [(a[0] + d[0] * k, a[1] + d[1] * k) for k in range(steps + 1)]
        castle.edges.update(frozenset(p) for p in zip(path, path[1:], strict=False))
        if steps == 2:
            castle.long_middles.add(path[1])
        castle.sockets.add((a, d))
        castle.sockets.add((b, (-d[0], -d[1])))
        if b not in castle.towers:
            castle.open_spots[b] += 1
        wid = self._new_id("w")
        castle.walls.append({"id": wid, "kind": "short" if steps == 1 else "long", "a": a, "b": b})
        return wid

    # --- claiming ---------------------------------------------------------------------------

    def _claimed_faces(self) -> list[tuple[Face, str]]:
        faces = find_faces(self.castle.board())
        keeps = self.castle.keeps
        homes = smallest_face_containing(faces, np.array([k.position for k in keeps]).reshape(-1, 2))
        owner = {home: keep.color for keep, home in zip(keeps, homes, strict=True) if home is not None}
        return [(face, owner[i]) for i, face in enumerate(faces) if i in owner]

    def _claim(self, player: str, claimed_before: list[tuple[Face, str]]) -> list[tuple[str, bool]]:
        """Put a keep of the player's colour in every enclosed area that has none (C5, C6, C8)."""
        castle = self.castle
        faces = find_faces(castle.board())
        keeps = np.array([k.position for k in castle.keeps]).reshape(-1, 2)
        homes = set(smallest_face_containing(faces, keeps))
        claims = []
        for index, face in enumerate(faces):
            if index in homes:
                continue
            spot = self._keep_spot(face, faces)
            split_from_own = any(f.contains(np.array([spot]))[0] for f, _ in claimed_before)
            double = (not split_from_own and player not in self.double_used
                      and self.rng.random() < self.double_keep_chance)
            if double:
                self.double_used.add(player)
            castle.keeps.append(Keep(player, spot[0], spot[1], double))
            claims.append((player, double))
        return claims

    def _keep_spot(self, face: Face, faces: list[Face]) -> tuple[float, float]:
        """The centre of a lattice cell inside this face (and in no smaller face)."""
        s = self.castle.spacing
        x0, y0, x1, y1 = face.bounds
        cells = [((i + 0.5) * s, (j + 0.5) * s)
                 for i in range(int(np.floor(x0 / s)), int(np.ceil(x1 / s)))
                 for j in range(int(np.floor(y0 / s)), int(np.ceil(y1 / s)))]
        points = np.array(cells)
        homes = smallest_face_containing(faces, points)
        inside = [cells[k] for k, home in enumerate(homes) if home is not None and faces[home] is face]
        return self.rng.choice(inside)


def simulate_game(seed: int, players: int = 2, dims: PieceDimensions = NOMINAL_DIMENSIONS) -> list[SimulatedTurn]:
    """Every end-of-turn board of one random legal game, built with pieces of `dims`."""
    return list(GameSimulator(seed, players, dims).turns())
