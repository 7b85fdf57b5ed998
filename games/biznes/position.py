"""A Biznes deal's fields, declared once (``games.fields`` derives its snapshot and copy from them).

``BiznesState`` (``state.py``) is this class with the rules. The modules that help it (``moves``: the legal
actions; ``view``: what a seat sees, a move in words) read a deal through this class, which imports none of
them, so the package imports one way: ``rules``, ``scoring`` < ``position`` < ``moves``, ``view`` < ``state`` <
``match`` < ``meta`` < the registry entry in ``__init__``.
"""

from __future__ import annotations

from typing import Annotated

from games.base import State
from games.fields import DERIVED


class BiznesPosition(State):
    """Every field of a deal; the rules are ``BiznesState``'s."""

    hands: list[list[str]]
    widow: list[str]
    widow_shown: bool
    discard: list[str]
    turn: int | None
    #: (seat, tricks, suit); a pass is (seat, None, None)
    bids: list[tuple[int, int | None, str | None]]
    passed: list[bool]
    has_bid: list[bool]
    level: int
    level_suits: list[str]
    declarer: int | None
    banker: int | None
    asked_banker: bool | None
    roles: list[str | None]
    contract: int | None
    contract_suit: str | None
    trump: str | None
    change_used: bool
    #: (seat, card, the card it counts as: a joker's "as")
    trick: list[tuple[int, str, str]]
    leader: int | None
    last_trick: list[tuple[int, str, str]]
    last_winner: int | None
    tricks: list[int]
    counted: int
    tricks_played: int
    played: list[str]
    caught: bool
    void: bool
    scores: list[int] | None  # halves
    # derived from the options and seats by ``_derive``; never saved
    n_tricks: Annotated[int, DERIVED]
    widow_n: Annotated[int, DERIVED]
