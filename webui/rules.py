"""Castellan rule texts the warnings link to (from shared/rules/castellan.md; game by Beau Beckett, SJG)."""

CASTELLAN_RULES = {
    "C1": (
        'Walls connect only to towers; never wall–wall, never tower–tower.'
    ),
    "C2": (
        'Every wall end either sits in a tower or has room for a tower to be added there; no wall may block '
        "another wall's end."
    ),
    "C3": (
        "All corners are right angles: every wall runs along one of the castle's two perpendicular axes."
    ),
    "C4": (
        'All pieces form one connected castle (no second castle). On the very first turn the first player '
        'must link everything, so plays at least one tower.'
    ),
    "C5": (
        'The player who completes a courtyard places a keep of their colour in it ("claims" it). The rules '
        'ask the opponent to point out a forgotten claim — the companion should do that pointing out.'
    ),
    "C6": (
        'Splitting your own courtyard into two or more: every new courtyard gets a keep of your colour.'
    ),
    "C7": (
        'No piece may be played inside a courtyard already claimed by an opponent. The owner may keep '
        'building inside their own courtyard.'
    ),
    "C8": (
        'Double keep: once per game per player, a courtyard may be claimed with two keeps stacked; it scores '
        'double. It can only be done at the moment of claiming, never added later. If the doubled courtyard '
        "is later split, only one of the resulting courtyards (the owner's choice) stays doubled."
    ),
    "C9": (
        'Pieces that cannot be connected anywhere go to the opponent (in 3–4 players: to the player on the '
        'left), who must place them next turn.'
    ),
}
