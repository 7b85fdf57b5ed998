"""What a Durak state shows: views, result, move-log wording, timeouts and
the match helper (D11). Snapshots come from the state's field list.

Every view is built in ``build()`` and nowhere else. All cards on the table,
the turned trump and shown trumps are public in Durak; a hand is seen only by
its owner; stock and discard are counts.
"""

from __future__ import annotations

from typing import Any

from games.base import Action
from games.cards import DUMMY, RANK_VALUE, SUIT_OF, sort_hand
from games.durak.position import DurakPosition
from games.errors import IllegalAction, InvalidOptions
from games.words import Said, say


def build(st: DurakPosition, seat: int | None) -> dict[str, Any]:
    if seat is not None:
        st.check_seat(seat)
    over = st.phase == "over"
    v: dict[str, Any] = {
        "game": "durak",
        "seats": st.seats,
        "dealer": st.dealer,
        "hand_sizes": [len(h) for h in st.hands],
        "to_act": st.to_act(),
        "phase": st.phase,
        "over": over,
        "result": st.result(),
        "trump": st.trump,
        "trump_card": st.trump_card,
        "trump_drawn_by": st.trump_drawn_by,
        "stock": len(st.stock),
        "discard": len(st.discard),
        "table": [{"attack": a, "cover": c} for a, c in zip(st.attacks, st.covers, strict=True)],
        "attacker": None if over else st.attacker,
        "defender": None if over else st.defender,
        "leader": None if over else st.leader,
        "throw_right": st.throw_right,
        "limit": st.limit,
        "finished": [s for group in st.finished for s in group],
        "in_game": [not o for o in st.out],
        "shows": list(st.shows),
        "redeals": st.redeals,
        "options": dict(st.options),
    }
    if st.teams:
        v["teams"] = [[s for s in range(st.seats) if s % 2 == t] for t in (0, 1)]
    if seat is not None:
        v["seat"] = seat
        v["hand"] = sort_hand(st.hands[seat], st.trump)
    return v


def result(st: DurakPosition) -> dict[str, Any] | None:
    if st.phase != "over":
        return None
    return {
        "fool": st.fool,
        "draw": st.draw,
        "places": [list(g) for g in st.finished],
        "losing_team": st.losing_team,
    }


def zones(st: DurakPosition) -> dict[str, list[str]]:
    z = {f"hand {s}": list(h) for s, h in enumerate(st.hands)}
    z["stock"] = list(st.stock)
    z["table"] = st.attacks + [c for c in st.covers if c is not None]
    z["discard"] = list(st.discard)
    return z


def default_action(st: DurakPosition, seat: int) -> Action:
    """Turn timeouts: lead the lowest card (non-trump first), take, or say done."""
    if seat not in st.to_act():
        raise IllegalAction(f"seat {seat} is not to act")
    if st.phase == "attack":
        trump = st.trump
        low = min(st.hands[seat], key=lambda c: (c == DUMMY, SUIT_OF[c] == trump, RANK_VALUE[c]))
        return {"type": "attack", "cards": [low]}
    if st.phase == "defense" and seat == st.defender:
        return {"type": "take"}
    return {"type": "done"}


def describe(st: DurakPosition, seat: int, action: Action) -> Said:
    """The move in public words (every Durak card is played face up); card codes stay codes in every language."""
    if not isinstance(action, dict):
        return say("makes an invalid move")
    kind = action.get("type")
    cards = action.get("cards")
    cards = [c for c in cards if isinstance(c, str) and c in RANK_VALUE] if isinstance(cards, list) else []
    card = action.get("card")
    card = card if isinstance(card, str) and card in RANK_VALUE else "?"
    if kind == "attack":
        return say("leads %(cards)s", cards=" ".join(cards))
    if kind == "throw":
        return say("throws in %(cards)s", cards=" ".join(cards))
    if kind == "cover":
        attack = action.get("attack")
        attack = attack if isinstance(attack, str) and attack in RANK_VALUE else "?"
        return say("covers %(attack)s with %(card)s", attack=attack, card=card)
    if kind == "done":
        return say("is done throwing in") if st.phase == "taking" else say("says done")
    if kind == "take":
        return say("takes the cards")
    if kind == "transfer":
        return say("transfers the attack with %(card)s", card=card)
    if kind == "show":
        return say("transfers the attack by showing %(card)s", card=card)
    return say("makes an invalid move")


# -- D11 -----------------------------------------------------------------
def next_game(st: DurakPosition, fool_rule: str = "under") -> tuple[int, dict[str, Any]]:
    """D11: (dealer, options) of the next game of a match.

    The fool deals; ``fool_rule="under"``: the player to his right attacks
    first, so the fool defends first; ``"from"``: the player to his left.
    After a draw the same dealer deals again and D3 chooses the attacker.
    In teams without a single fool, the losing team's first player still
    holding cards clockwise from the dealer's left counts as the fool.
    """
    if fool_rule not in ("under", "from"):
        raise InvalidOptions(f"fool_rule: must be 'under' or 'from', not {fool_rule!r}")
    options = dict(st.options)
    fool = st.fool
    if fool is None and st.losing_team is not None:
        n = st.seats
        fool = next(s for s in ((st.dealer + 1 + j) % n for j in range(n)) if s % 2 == st.losing_team and not st.out[s])
    if fool is None:  # a draw: D3 again
        options["first_attacker"] = None
        return st.dealer, options
    step = -1 if fool_rule == "under" else 1
    options["first_attacker"] = (fool + step) % st.seats
    return fool, options
