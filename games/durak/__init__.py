"""Durak (Fool), every variant of ``rules/durak.md``, behind the engine contract.

Rules in brief (numbers as in the rules file; grep the code for "D6" etc.):

- D1 deal 6 each; the next card is turned under the stock and gives trump
  (none for the dummy, or a spade with spades-by-spades) -- ``deal.py``.
- D2 redeal on five of a suit, deterministic for replays -- ``deal.py``.
- D3 lowest trump leads, else lowest card; ``first_attacker`` overrides.
- D4 a bout: lead one rank (or one card), at most L attack cards.
- D5 covering -- ``tables.py`` (one precomputed set of covers per card).
- D6 throw-in right, *done*, beaten -- ``state.py`` ``_throw``/``_done``;
  with ``lead: "single"`` one card at a time, only while every card is covered.
- D7 take; each thrower gets one last turn -- ``_take``/``_next_taker``.
- D8 transfer by a card or by showing a trump -- ``_transfer``/``_show``.
- D9/D10 end of the bout, drawing (the leader, then clockwise from the
  defender's left, the defender last), leaving, the fool -- ``bout.py``.
- D11 the next game of a match -- ``view.py`` ``next_game``.

Decisions where the rules are silent:

- Legal actions: every lead (all non-empty same-rank subsets up to L) is
  listed. Throws list every single matching card, plus every larger set when
  at most four of the thrower's cards match; ``apply`` accepts any legal set.
  Every card of a throw must match a rank already on the table.
- Throw-in order (D6): the attacker, then the eligible seats clockwise from
  the defender's left. With ``throw_in="neighbors"`` the eligible seats are
  the nearest player still in the game on each side of the defender (in
  teams: the nearest opponent of the defender on each side); the attacker
  always keeps his right, because he led. A thrower who runs out of cards
  loses the right to the next eligible one; in D7's last turns, seats without
  cards are skipped and the defender picks up as soon as L is reached.
  With ``lead: "single"`` a D7 last turn adds one card per action too (the
  thrower keeps his turn until he says done, runs out or L is reached).
- D8: the transfer target is the next player still in the game to the left
  (in teams: the next opponent); the added card counts against his new L, so
  a transfer needs ``attack cards + 1 <= min(limit, his hand)``, a show needs
  ``attack cards <= min(limit, his hand)``. The view's ``shows`` gives, per
  seat, the trump shown (public), or null.
- D9 when the beaten defender has left: the next player still in the game to
  his left attacks (in teams: the next one of his team, clockwise).
- ``trump_card`` is null once drawn (``trump_drawn_by`` tells who drew it);
  when the deal used every card it stays shown.
- Teams (D10): ``fool`` is the losing team's only player still holding
  cards, else null; ``losing_team`` is 0 or 1 (null in a draw or without teams);
  ``places`` lists only the groups that left.
- D11: after a draw the same dealer deals again and ``first_attacker`` is
  null (D3 again); in teams without a single fool, the losing team's first
  player still holding cards clockwise from the dealer's left counts as fool.
- The view gives ``attacker``/``defender``/``leader`` as null once over; in
  the ``taking`` phase ``throw_right`` is the seat whose last turn it is.
"""

from __future__ import annotations

from games.base import GameSpec
from games.durak import fairplay, meta
from games.durak.options import OPTIONS
from games.durak.state import DurakState

GAME = GameSpec(
    name="durak",
    title="Durak",
    state_class=DurakState,
    options=OPTIONS,
    seats=(2, 8),
    summary="Get rid of your cards; the last player holding cards is the fool.",
    placings=meta.placings,
    score_position=meta.score_position,
    match_options=meta.MATCH_OPTIONS,
    loss_words=("fool", "Fools", "time the fool", "times the fool"),
    bots={
        "heuristic": "games.bots.durak",
        "worlds": "games.bots.worlds_durak",
        "colluding": "games.bots.collude_durak",
    },
    ui=meta.UI_META,
    interactions=fairplay.interactions,
    interaction_kinds={
        "throw_in": "Could throw in on him",
        "covered": "Threw in on him cards he beat",
        "take": "Could take, sparing him",
        "transfer": "Could transfer to him",
    },
    teams=meta.teams_of,
)

__all__ = ["GAME", "DurakState"]
