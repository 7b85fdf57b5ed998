"""Who of the players waiting in one queue sit down together: a pure function of the waiting list and the clock.

Rated queues pair within a rating window that widens the longer a player waits: ``WINDOW_START`` points around
his rating at first, ``WINDOW_STEP`` more every ``WINDOW_EVERY`` seconds, and after ``WINDOW_OPEN_AFTER`` seconds
anyone. Two players fit when their ratings differ by no more than the wider of their two windows (the longer
waiter's patience counts), neither has blocked the other (``blocked`` answers), and neither asked for reliable
players only while the other is not one. The longest waiter is served
first; a group is filled in order of waiting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

WINDOW_START = 100.0
WINDOW_STEP = 50.0
WINDOW_EVERY = 10.0
WINDOW_OPEN_AFTER = 60.0


@dataclass(frozen=True)
class Waiting:
    user_id: int
    rating: float
    #: seconds waited so far
    waited: float
    #: seconds after which he accepts bots on the empty seats, or None
    bots_after: float | None = None
    #: he finishes enough of his games to count as reliable (or is new)
    reliable: bool = True
    #: he asked to be paired with reliable players only
    reliable_only: bool = False


def window(waited: float) -> float:
    """How far from his rating a rated player is paired after waiting ``waited`` seconds (inf: anyone)."""
    if waited >= WINDOW_OPEN_AFTER:
        return float("inf")
    return WINDOW_START + WINDOW_STEP * int(max(0.0, waited) // WINDOW_EVERY)


def fit(a: Waiting, b: Waiting, rated: bool, blocked: Callable[[int, int], bool]) -> bool:
    if (a.reliable_only and not b.reliable) or (b.reliable_only and not a.reliable):
        return False
    if rated and abs(a.rating - b.rating) > max(window(a.waited), window(b.waited)):
        return False
    return not blocked(a.user_id, b.user_id)


def _group_from(
    first: int, waiting: Sequence[Waiting], rated: bool, blocked: Callable[[int, int], bool], want: int
) -> list[Waiting]:
    group = [waiting[first]]
    for other in waiting[first + 1 :]:
        if len(group) == want:
            break
        if all(fit(member, other, rated, blocked) for member in group):
            group.append(other)
    return group


def full_group(
    waiting: Sequence[Waiting], seats: int, rated: bool, blocked: Callable[[int, int], bool]
) -> list[Waiting] | None:
    """The first group of ``seats`` players who all fit each other, longest waiter first; None if there is none."""
    for first in range(len(waiting)):
        group = _group_from(first, waiting, rated, blocked, seats)
        if len(group) == seats:
            return group
    return None


def group_with_bots(
    waiting: Sequence[Waiting], seats: int, rated: bool, blocked: Callable[[int, int], bool]
) -> list[Waiting] | None:
    """A player whose wait for bots is over, with every waiting player who fits and also accepts bots; None if
    nobody's wait is over."""
    for first, seek in enumerate(waiting):
        if seek.bots_after is None or seek.waited < seek.bots_after:
            continue
        willing = [seek, *(w for w in waiting[first + 1 :] if w.bots_after is not None)]
        willing += [w for w in waiting[:first] if w.bots_after is not None]
        return _group_from(0, willing, rated, blocked, seats)
    return None
