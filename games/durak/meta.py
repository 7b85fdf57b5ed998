"""What the platform reads about Durak: outcome, the position's score, match options (D11), button labels.

An unfinished game (a tournament round's deadline) is scored by its
position: players already out keep the places they left in, the rest rank by
fewer cards held (equal counts share a place); a single player left alone
with the most cards is the fool. In teams the team holding fewer cards in
total wins; equal totals are a draw.

Every Durak action is public (cards are played face up), so the default
public record (the action as is) applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.options import Option
from games.outcome import Outcome, Placing, by_fewest_cards, by_order
from games.ui import UI, card_text, cards_text
from games.words import Said, say

MATCH_OPTIONS = (
    Option(
        "fool_rule",
        "Next game of the match",
        "under",
        choices=("under", "from"),
        choice_labels=(
            "Under the fool: the fool deals and defends first",
            "From the fool: the fool deals and attacks first",
        ),
        help="In a match of several games the fool deals the next one; this says who starts it.",
    ),
)


def teams_of(seats: int, options: Mapping[str, Any]) -> list[list[int]]:
    """D10: partners sit opposite each other, every second seat."""
    return [[s for s in range(seats) if s % 2 == t] for t in (0, 1)] if options.get("teams") else []


def placings(result: Mapping[str, Any], seats: int, options: Mapping[str, Any]) -> Outcome:
    """By places (groups that left together share one); in teams the two teams are ranked."""
    draw = bool(result.get("draw"))
    fool = result.get("fool")
    if options.get("teams"):
        losing = None if draw else result.get("losing_team")
        teams = teams_of(seats, options)
        ranks = [2 if t == losing else 1 for t in (0, 1)]
        per_seat = {
            s: Placing(ranks[s % 2], won=losing is not None and s % 2 != losing, lost=s % 2 == losing)
            for s in range(seats)
        }
        return Outcome(teams, ranks, per_seat, fool, draw, losing)
    out = by_order(seats, result.get("places") or [], fool, draw)
    return Outcome(out.teams, out.ranks, out.placings, fool, draw, result.get("losing_team"))


def score_position(state: Any) -> Outcome:
    """An unfinished game by its position (see the module docstring)."""
    cards = [len(hand) for hand in state.hands]
    if state.teams:
        totals = [sum(n for s, n in enumerate(cards) if s % 2 == t) for t in (0, 1)]
        losing = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        result = {"draw": losing is None, "losing_team": losing, "fool": None}
        return placings(result, state.seats, {"teams": True})
    return by_fewest_cards(cards, state.finished)


def label(action: Mapping[str, Any]) -> Said | None:
    kind = action.get("type")
    if kind == "cover":
        return say("Beat %(attack)s with %(card)s", attack=card_text(action["attack"]), card=card_text(action["card"]))
    if kind == "transfer":
        return say("Transfer with %(card)s", card=card_text(action["card"]))
    if kind == "show":
        return say("Show %(card)s to transfer", card=card_text(action["card"]))
    if kind == "take":
        return say("Take the cards")
    if kind == "done":
        return say("Done")
    cards = action.get("cards")
    if kind == "attack":
        return say("Attack %(cards)s", cards=cards_text(list(cards))) if cards else say("Attack the selected cards")
    if kind == "throw":
        return say("Throw in %(cards)s", cards=cards_text(list(cards))) if cards else say("Throw in the selected cards")
    return None


#: what a plain button will do, beside it (the words on it are short)
HINTS: dict[str, Said] = {
    "done": say("Throw in no more: once every thrower is done, the bout ends."),
    "take": say("Pick up every card on the table and miss your attack."),
}


def hint(action: Mapping[str, Any]) -> Said | None:
    return HINTS.get(str(action.get("type")))


UI_META = UI(
    label=label,
    hint=hint,
    keys={"take": ("T", say("Take the cards")), "done": ("D", say("Done"))},
    composed=frozenset({"attack", "throw"}),
    every_combination=frozenset({"attack", "throw"}),
    quick=frozenset({"cover", "transfer", "show"}),
    board="tables/boards/durak.html",
    rules="rules/durak.html",
    seat_badges={"attacker": ("attack", "attacks"), "defender": ("defend", "defends")},
    phase_badges={"taking": {"defender": ("take", "takes")}},
)
