"""Who acted on whom, and what else he could have done: a game's public record as interactions.

A fair-play detector compares how a player treats one opponent with how he treats
everyone else in the same situation. Each game module says, from the public move
record alone (``[(seat, public_action), ...]``, what every seat saw; no hidden
card), where a player had a choice that touched another seat:

- ``actor`` chose, ``target`` was the seat his choice touched;
- ``kind`` names the choice ("throw_in", "doubt", ...), ``situation`` the
  circumstances it is compared within ("taking", "count2", ...);
- ``spared``: he took the option kinder to the target (said *done* instead of
  throwing in on him, believed instead of doubting him, let his card win the
  trick); collusion shows as a player sparing one seat more often than the others;
- ``chose`` and ``alternatives``: what he did, among what the record shows he could do;
- ``move``: the index of the move in the record (0 for the first move).

An opportunity the record cannot show (a throw-in the actor had no card for) is
counted like any other: it blurs every target alike, so it dilutes, never fakes, a
difference between one target and the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: a public move record: (seat, public action) in the order the moves were made
Record = Sequence[tuple[int, Mapping[str, Any]]]


@dataclass(frozen=True)
class Interaction:
    move: int
    actor: int
    target: int
    kind: str
    situation: str
    spared: bool
    chose: str
    alternatives: tuple[str, ...]


def still_playing(record: Record, seats: int) -> list[int]:
    """Per seat, the index of his last move in the record (-1: none): after it he is out, or the game ends."""
    last = [-1] * seats
    for i, (seat, _action) in enumerate(record):
        if 0 <= seat < seats:
            last[seat] = i
    return last


def next_in_game(seat: int, at: int, last: Sequence[int]) -> int | None:
    """The next seat clockwise from ``seat`` that still moves after move ``at`` (public: it moves again)."""
    seats = len(last)
    for step in range(1, seats):
        other = (seat + step) % seats
        if last[other] > at:
            return other
    return None
