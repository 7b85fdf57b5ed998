"""What the platform reads about Believe It or Not: outcome (V6), the position's score, face-down placements, labels.

An unfinished game (a tournament round's deadline) is scored by its
position: players already out keep their finishing order, the rest rank by
fewer cards held (equal counts share a place); a single player left alone
with the most cards is the loser.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.outcome import Outcome, by_fewest_cards, by_order
from games.ui import UI, cards_text
from games.words import Said, say


def placings(result: Mapping[str, Any], seats: int, options: Mapping[str, Any]) -> Outcome:
    """By finishing order; the last player left loses (V6).

    A game ended by a resignation has players still holding cards: they share the place above the loser.
    """
    finished = list(result.get("finished") or [])
    loser = result.get("loser")
    rest = [s for s in range(seats) if s not in finished and s != loser]
    return by_order(seats, [[s] for s in finished] + ([rest] if rest else []), loser)


def score_position(state: Any) -> Outcome:
    """An unfinished game by its position (see the module docstring)."""
    return by_fewest_cards([len(hand) for hand in state.hands], [[s] for s in state.finished])


def public_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """The cards of a claim or an addition are face down (V2, V3): only their count (and a claim's kind)."""
    kind = action.get("type")
    if kind in ("claim", "add"):
        out: dict[str, Any] = {"type": kind, "count": len(action.get("cards") or [])}
        if kind == "claim":
            out["kind"] = action.get("kind")
        return out
    return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}


def public_check(public: Mapping[str, Any], spectator_view_after: Mapping[str, Any]) -> dict[str, Any] | None:
    """A believe/doubt turns the latest placement up for everyone (V4): the log keeps that check."""
    if public.get("type") not in ("believe", "doubt"):
        return None
    check = spectator_view_after.get("last_check")
    if check is None:
        return None
    return {
        "check": {
            "claimant": check["claimant"],
            "cards": list(check["cards"]),
            "kind": check["kind"],
            "true": check["true"],
            "taker": check["taker"],
        }
    }


def label(action: Mapping[str, Any]) -> Said | None:
    kind = action.get("type")
    cards = action.get("cards")
    if kind == "claim":
        return say("Claim %(cards)s", cards=cards_text(list(cards))) if cards else say("Claim the selected cards")
    if kind == "add":
        return say("Add %(cards)s", cards=cards_text(list(cards))) if cards else say("Add the selected cards")
    if kind == "believe":
        return say("I believe")
    if kind == "doubt":
        return say("I don't believe")
    return None


#: what each answer does (V4), beside its button
HINTS: dict[str, Said] = {
    "believe": say("The last cards are turned up: true, they are discarded; false, you take the pile."),
    "doubt": say("The last cards are turned up: true, you take the pile; false, the claimant does."),
}


def hint(action: Mapping[str, Any]) -> Said | None:
    return HINTS.get(str(action.get("type")))


UI_META = UI(
    label=label,
    hint=hint,
    keys={"believe": ("B", say("I believe")), "doubt": ("N", say("I don't believe"))},
    composed=frozenset({"claim", "add"}),
    # a claim is announced as a kind; an addition keeps the pile's, so the kind picker is not its field
    form_fields={"claim": {"cards": "cards", "kind": "str"}, "add": {"cards": "cards"}},
    board="tables/boards/verish.html",
    rules="rules/verish.html",
)
