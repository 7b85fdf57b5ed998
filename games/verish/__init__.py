"""Believe It or Not (Verish): the bluffing game of ``rules/verish.md``.

Rules in short (numbers as in the rules file):

- V1: the whole deck (36 or 52 cards) is dealt one at a time from the dealer's
  left; the dealer opens. In a match the loser deals next (``next_game``).
- V2: the player to move opens a pile: 1..``max_cards`` cards face down,
  announced as their true count and a kind (a rank, or a suit with
  ``kind: "suit"``) that may be a lie: ``{"type": "claim", "cards": [...], "kind": "K"}``.
- V3: the next player still in the game, to the left, believes, doubts, or
  adds 1..``max_cards`` cards "of the same kind" (``{"type": "add", ...}``),
  passing the same choice on to the next player.
- V4: on believe/doubt only the latest placement is turned up (it is public:
  ``last_check``). Believe+true: the pile is discarded, the answerer opens.
  Believe+false: the answerer takes the pile, his left neighbour opens.
  Doubt+false: the claimant takes it, the answerer opens. Doubt+true: the
  answerer takes it, his left neighbour opens.
- V5: a player who put down his last cards stays in (answering only with
  believe/doubt) until that pile is resolved; then, unless he took it, he
  leaves. Seats out of the game are skipped.
- V6: the last player in the game loses: ``result() == {"loser": seat,
  "finished": [seats in the order they left]}``.

``legal_actions`` is representative, not exhaustive (a hand has 2**n subsets
times every kind): for an opening it lists every card alone under its true
kind; for every kind one lone bluff (the first card of the hand not of that
kind); every honest group (all held cards of a kind, at most ``max_cards``);
and every honest group shorter than ``max_cards`` padded with one bluff card.
Additions likewise (every single card, the honest group of the pile's kind,
that group plus one other card), then believe and doubt. ``apply`` accepts
*every* legal placement: any 1..``max_cards`` distinct held cards under any
kind of the deck.

Decisions where the rules are silent:

- The rank kinds are those of the deck in play (no "twos" with 36 cards).
- An ``add`` may repeat the pile's ``kind``; any other kind is refused.
- "Going out" happens at the check of the pile holding one's last cards: every
  empty-handed seat still in the game leaves then, unless he took the pile;
  several leaving at once are listed in the order they emptied their hands.
- If every remaining player goes out at the same check (a believed true pile
  with all of them empty-handed), the one who put down his last cards latest was
  the last to hold cards and loses (V6 "the last player left holding cards").
- "The player to the answerer's left" and "the answerer" skip seats that left
  the game at that very check.
- The last check stays in the view until the next check, so a seat may see a
  card turned up publicly that another player then took into his hand.
- ``describe`` of believe/doubt tells the outcome, which the check makes public
  at once ("doubts — the claim was false; seat 2 takes 7 cards").
"""

from __future__ import annotations

from games.base import GameSpec
from games.verish import fairplay, meta
from games.verish.rules import OPTIONS
from games.verish.state import VerishState

GAME = GameSpec(
    name="verish",
    title="Believe It or Not",
    state_class=VerishState,
    options=OPTIONS,
    seats=(2, 8),
    summary="Put cards down face down and say what they are; the others believe, doubt, or add more.",
    placings=meta.placings,
    score_position=meta.score_position,
    public_action=meta.public_action,
    public_check=meta.public_check,
    bots={
        "heuristic": "games.bots.verish",
        "worlds": "games.bots.worlds_verish",
        "colluding": "games.bots.collude_verish",
    },
    ui=meta.UI_META,
    interactions=fairplay.interactions,
    interaction_kinds={"doubt": "Could doubt his claim"},
)

__all__ = ["GAME", "VerishState"]
