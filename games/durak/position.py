"""A Durak game's fields, declared once (``games.fields`` derives its snapshot and copy from them).

``DurakState`` (``state.py``) is this class with the rules. The modules that help it (``bout``: the bout's
turns and its end; ``view``: what a seat sees, a move in words) read a game through this class, which imports
none of them, so the package imports one way: ``options``, ``tables``, ``deal`` < ``position`` < ``bout``,
``view`` < ``state`` < the registry entry in ``__init__`` (beside ``meta``).
"""

from __future__ import annotations

from typing import Annotated

from games.base import State
from games.fields import DERIVED


class DurakPosition(State):
    """Every field of a game; the rules are ``DurakState``'s."""

    # the deal (D1 D2); ``trump_card`` is null once drawn, by ``trump_drawn_by``
    redeals: int
    turned: str
    trump: str | None
    trump_card: str | None
    trump_drawn_by: int | None
    hands: list[list[str]]
    stock: list[str]
    discard: list[str]
    #: D4: first_bout_limit until the first discard
    discarded: bool
    #: D8: the trump each seat showed, once per game
    shows: list[str | None]
    # leaving and the end (D10)
    out: list[bool]
    finished: list[list[int]]
    fool: int | None
    draw: bool
    losing_team: int | None
    # the bout (D4-D9)
    attacker: int
    defender: int
    leader: int
    limit: int
    attacks: list[str]
    covers: list[str | None]
    open: int
    ranks: set[str]
    order: list[int]
    throw_right: int | None
    passes: int
    takers: list[int]
    # derived from the options and trump by ``_derive``; never saved
    beats: Annotated[dict[str, frozenset[str]], DERIVED]
    transfer_mode: Annotated[bool, DERIVED]
    lead_single: Annotated[bool, DERIVED]
    neighbors: Annotated[bool, DERIVED]
    teams: Annotated[bool, DERIVED]
    trump_show: Annotated[bool, DERIVED]
    first_limit: Annotated[int, DERIVED]
    later_limit: Annotated[int, DERIVED]
