"""Biznes: bidding, widow, roles, trump change, cumulative scoring (rules B1-B10).

The deal engine is ``BiznesState`` (``state.py``), scoring is the pure
``score_deal`` (``scoring.py``, B8) and the match of many deals is ``Match``
(``match.py``, B10). Rules: ``shared/rules/biznes.md``.
"""

from __future__ import annotations

from games.base import GameSpec
from games.biznes import fairplay, meta
from games.biznes.match import Match
from games.biznes.rules import OPTIONS
from games.biznes.state import BiznesState

GAME = GameSpec(
    name="biznes",
    title="Biznes",
    state_class=BiznesState,
    options=OPTIONS,
    seats=(4, 6),
    summary="Bid for tricks and trumps, take the widow, then play alone or with a banker against thieves, "
    "mafia and the policeman.",
    placings=meta.placings,
    score_position=meta.score_position,
    public_action=meta.public_action,
    match_length=meta.match_length,
    sheet=meta.new_sheet,
    load_sheet=meta.load_sheet,
    unit=("deal", "deals"),
    loss_words=None,
    rated_by="match",
    bots={
        "heuristic": "games.bots.biznes",
        "worlds": "games.bots.worlds_biznes",
        "colluding": "games.bots.collude_biznes",
    },
    ui=meta.UI_META,
    interactions=fairplay.interactions,
    interaction_kinds={
        "banker": "Asked to be his banker",
        "mafia": "Could join his mafia",
        "trick": "Could beat his winning card",
    },
    replay_note="The declarer's discard stays secret while the deal is played (rule B2): no view, log or "
    "message shows it. Once the deal is over this replay shows every hand and the whole deck, so that "
    "anyone can check the shuffle against its commitment, and the discard can be read from it.",
)

__all__ = ["GAME", "OPTIONS", "BiznesState", "Match"]
