"""How far a reading can be trusted, said in one line before the scores.

A castle is built by the rules: walls only join towers, along two axes, every wall end a tower or
room for one. A reading that breaks them in many places (and leaves many pieces off its castle) is far
more likely misread than the castle illegal: its scores are not to be relied on, and the player should
take the photo again rather than check piece by piece. A courtyard left unclaimed and a second double
keep are mistakes players make; they are the game's warnings, not the reading's, and do not count as
misread pieces. Several courtyards left unclaimed at once, though, are more likely keeps the reading
missed (of nearly the table's colour, or in deep shade) than claims forgotten: such a reading is to be
checked by eye, never called clean. So is one with a single courtyard unclaimed on a table of a keep colour,
where that colour's keeps hide best (fresh 9797-018: red's two keeps on a red patterned cloth missed, a wall
between their courtyards too, one courtyard read unclaimed, "read cleanly" and red's 13 points lost). Nor is
a reading of a tower or two: the first moves of a game, or a castle the photo lost but for a speck, which
breaks no rule for having nothing to break them with. Keeps read beside it say which: a claim needs a courtyard,
four towers at least, so keeps with a tower or two are a castle lost (grey pieces of a pale table's own shade,
under soft light seen only by their faint outlines: fresh 13600-008, 32 towers, 0 read and 11 keeps seen) or,
less often, spare keeps beside the game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tablesight.scoring.castellan.report import Report
from tablesight.vision.castellan.looks import MAX_SPECK_TOWERS, rules_broken
from tablesight.vision.castellan.reading import PhotoReading

PLAYERS_MISTAKES = frozenset({"unclaimed-courtyard", "several-double-keeps"})
# A reading is taken for misread from this many misread pieces on, and this share of its towers: a castle
# read right breaks no rule, and a player's slip (a wall nudged off its axis) is one or two.
MISREAD_PIECES, MISREAD_SHARE_OF_TOWERS = 4, 0.1
# Claims a player forgets in one game, at most, before unclaimed courtyards speak against the reading (fresh
# 9393-004: four yellow keeps of a wooden table's hue missed, their courtyards read unclaimed, "read cleanly").
MAX_FORGOTTEN_CLAIMS = 1
# A look kept that reads this many towers fewer than the first look did may have lost part of the castle (fresh
# 10800-014, 38°: a group of 4 towers at the far end seen by the first look, 32 towers and one rule broken, not
# by the look kept, 29 and none — "read cleanly", scores wrong). Of 96 photos (samples, 10800) 6 kept a look 3
# or more towers short, 3 of them scored wrong; 10800-014 was the one trusted.
LOOK_LOST_TOWERS = 3


@dataclass(frozen=True)
class Trust:
    """`level`: "read" (nothing speaks against the reading), "check" (a few pieces to look at: the doubts
    listed, a rule or two broken) or "misread" (the scores are not to be relied on: take the photo again)."""

    level: str
    misread_pieces: int  # the fewest pieces misread that the rules broken and the pieces left apart take
    towers: int
    doubts: int
    unclaimed: int = 0  # courtyards read unclaimed, counted only beyond MAX_FORGOTTEN_CLAIMS or on `table_colours`
    table_colours: tuple[str, ...] = ()  # the keep colours the table has
    first_look_towers: int = 0  # towers the first look read, where clearly more than this look's (else 0)
    keeps: int = 0  # keeps read
    stranded: int = 0  # of `misread_pieces`, those read apart from the castle (named in the notes, not the warnings)
    # Where the rules the reading broke when its look was kept (`PhotoReading.look_misread`) make it misread, though the
    # pieces inferred after mended them: those misread pieces and the towers then read (else 0).
    look_misread: int = 0
    look_towers: int = 0

    @property
    def few_towers(self) -> bool:
        """MAX_SPECK_TOWERS towers read or fewer: a game's start, or a castle mostly missed."""
        return self.towers <= MAX_SPECK_TOWERS

    @property
    def castle_unseen(self) -> bool:
        """Keeps read with a tower or two: a claim needs a courtyard, so a castle is likely there, unseen."""
        return self.few_towers and self.keeps > 0

    @property
    def rule_breaking_pieces(self) -> int:
        """The misread pieces the board's broken rules take (the rest were read apart from the castle)."""
        return self.misread_pieces - self.stranded

    def _castle_unseen_advice(self) -> str:
        return (f"only {self.towers} tower(s) read, yet {self.keeps} keep(s): keeps stand in courtyards, so a castle "
                f"is likely there but its grey pieces hardly stand out from this table — take the photo again with "
                f"a lamp low to one side, or with the castle on a cloth of another shade (spare keeps lying beside "
                f"the game read so too)")

    def sentence(self) -> str:
        if self.level == "misread" and self.castle_unseen:
            return f"likely misread (do not rely on these scores): {self._castle_unseen_advice()}"
        if self.level == "misread" and self.look_misread:
            return (f"likely misread: before pieces hidden from view were inferred, the board read broke the rules at "
                    f"{self.look_misread} piece(s) over {self.look_towers} tower(s), and what was inferred to mend "
                    f"them may be wrong too; do not rely on these scores — take the photo again (the card beside the "
                    f"castle, all of it in view, under even light) or correct the board by hand")
        if self.level == "misread":
            faults = []  # pieces read apart from the castle break no rule: the notes name them, not the warnings
            if self.rule_breaking_pieces > 0:
                faults.append(f"the board read breaks the rules at {self.rule_breaking_pieces} piece(s)")
            if self.stranded:
                faults.append(f"{self.stranded} piece(s) were read apart from the castle (named in the notes)")
            return (f"likely misread: {' and '.join(faults)} over {self.towers} tower(s); do not rely on these scores "
                    f"— take the photo again (the card beside the castle, all of it in view, under even light) or "
                    f"correct the board by hand")
        if self.level == "check":
            listed = []  # what the report lists below it: the warnings and the pieces in doubt
            if self.rule_breaking_pieces > 0:
                listed.append(f"{self.rule_breaking_pieces} piece(s) breaking the rules")
            if self.doubts:
                listed.append(f"{self.doubts} piece(s) in doubt")
            if self.unclaimed:
                hidden = (f"a {' or '.join(self.table_colours)} keep, of the table's colour," if self.table_colours
                          else "a keep")
                listed.append(f"{self.unclaimed} courtyard(s) read unclaimed ({hidden} may have been missed in one)")
            parts = [f"{' and '.join(listed)}, listed below"] if listed else []
            if self.stranded:  # a keep-coloured die or a reserve beside the castle, say: the notes name them
                parts.append(f"{self.stranded} piece(s) read apart from the castle, named in the notes")
            if self.first_look_towers:
                parts.append(f"{self.towers} tower(s) read where the colours seen the usual way showed "
                             f"{self.first_look_towers}: part of the castle may be missing")
            if self.castle_unseen:
                parts.append(self._castle_unseen_advice())
            elif self.few_towers:
                parts.append(f"only {self.towers} tower(s) read (if the castle has more, take the photo again)")
            return f"check by eye: {'; '.join(parts)}"
        return "read cleanly: the board read breaks no rule and leaves no piece in doubt"

    def to_dict(self) -> dict:
        return {"level": self.level, "misread_pieces": self.misread_pieces, "castle_unseen": self.castle_unseen,
                "sentence": self.sentence()}


def reading_trust(reading: PhotoReading, report: Report, doubts: int) -> Trust:
    """The trust a reading and its board's report deserve; `doubts`: the pieces it leaves in doubt."""
    towers = len(reading.towers)
    reading_faults = replace(report, warnings=tuple(w for w in report.warnings if w.code not in PLAYERS_MISTAKES))
    broken = rules_broken(reading_faults)
    misread = broken + reading.stranded
    unclaimed = sum(w.code == "unclaimed-courtyard" for w in report.warnings)
    colours = reading.table_keep_colours
    unclaimed = unclaimed if unclaimed > MAX_FORGOTTEN_CLAIMS or (unclaimed and colours) else 0
    first_look = reading.first_look_towers if reading.first_look_towers - towers >= LOOK_LOST_TOWERS else 0
    trust = Trust("read", misread, towers, doubts, unclaimed, colours if unclaimed else (), first_look,
                  len(reading.keeps), reading.stranded)
    # Of the pieces left apart, only the towers (set apart as specks, `reading.apart`) count towards a new photo: the
    # keep-coloured ones (a die, a reserve, the table's own colour seen between the walls) ask for a check, none a
    # castle piece misread (fresh 16900-029: 30 such patches on a green check, the board exact, was "likely misread").
    if _misread(broken + len(reading.apart.towers), towers):
        return replace(trust, level="misread")
    if _misread(reading.look_misread, reading.look_towers):
        return replace(trust, level="misread", look_misread=reading.look_misread, look_towers=reading.look_towers)
    if misread or doubts or unclaimed or trust.few_towers or first_look:
        return replace(trust, level="check")
    return trust


def look_misread(reading: PhotoReading, report: Report) -> int:
    """The castle's pieces misread at least in a reading as its look was kept: those its board's broken rules take,
    and the towers set apart from it, as `reading_trust` counts them — but with every warning counted: a courtyard
    left unclaimed there is a keep more likely missed than a claim forgotten (the keeps inferred after to claim them
    are guesses, listed to check); a second double keep counts too."""
    return rules_broken(report) + len(reading.apart.towers)


def _misread(pieces: int, towers: int) -> bool:
    """Whether so many pieces misread over so many towers make a reading misread (`MISREAD_PIECES` and a share)."""
    return pieces >= max(MISREAD_PIECES, MISREAD_SHARE_OF_TOWERS * towers)
