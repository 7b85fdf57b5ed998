"""Biznes: bidding, widow, roles, trump change, cumulative scoring (rules B1-B10).

The deal engine is ``BiznesState`` (``state.py``), scoring is the pure
``score_deal`` (``scoring.py``, B8) and the match of many deals is ``Match``
(``match.py``, B10). Rules: ``shared/rules/biznes.md``.
"""

from __future__ import annotations

from games.base import Game
from games.biznes.match import Match
from games.biznes.rules import OPTIONS
from games.biznes.state import BiznesState

GAME = Game(
    name="biznes",
    title="Biznes",
    state_class=BiznesState,
    options=OPTIONS,
    seats=(4, 6),
    summary="Bid for tricks and trumps, take the widow, then play alone or with a banker against thieves, "
    "mafia and the policeman.",
)

__all__ = ["GAME", "OPTIONS", "BiznesState", "Match"]
