"""What a seat may know, built in one place, and moves in words.

A view never holds the pile's face-down cards, another seat's hand, or the
cards a player took without showing them. The only cards anyone sees besides
his own hand are those turned up by the latest check (``last_check``), which
every view, the spectator's included, shows alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.cards import sort_hand
from games.verish.position import VerishPosition
from games.verish.rules import as_jsonable_check, claim_said
from games.words import Said, say, says
from games.words import seat as seat_ref

if TYPE_CHECKING:
    from games.base import Action


def build(state: VerishPosition, seat: int | None) -> dict[str, Any]:
    if seat is not None:
        seat = state.check_seat(seat)  # IllegalAction for a seat that does not exist
    over = state.phase == "over"
    view: dict[str, Any] = {
        "game": state.game_name,
        "seats": state.seats,
        "dealer": state.dealer,
        "options": dict(state.options),
        "hand_sizes": [len(h) for h in state.hands],
        "to_act": state.to_act(),
        "turn": None if over else state.turn,
        "phase": state.phase,
        "over": over,
        "result": state.result(),
        # V2/V3: the counts are public, the cards are not
        "pile": {
            "count": sum(len(cards) for _, cards, _ in state.pile),
            "placements": [{"seat": s, "count": len(cards), "last": last} for s, cards, last in state.pile],
        },
        "kind": state.pile_kind,
        # V4: the cards turned up by the latest check are public
        "last_check": as_jsonable_check(state.last_check),
        "discard": len(state.discard),
        # V5: who put down his last cards and waits for the check, and who has left
        "going_out": list(state.going_out),
        "finished": list(state.finished),
        "loser": state.loser,
    }
    if seat is not None:
        view["seat"] = seat
        view["hand"] = sort_hand(state.hands[seat])
    return view


def describe_checked(state: VerishPosition, seat: int, kind: str, cards: list[str], action: Action) -> Said:
    """``describe`` of a move already checked: ``kind`` its type, ``cards`` the cards it puts down.

    A claim or an addition names its count and kind, never its face-down cards.
    """
    if kind in ("claim", "add"):
        n = len(cards)
        if kind == "claim":
            move = say("puts down «%(claim)s»", claim=claim_said(n, action["kind"]))
        else:
            move = say("adds «%(claim)s»", claim=claim_said(n, state.pile_kind or "", more=True))
        if n == len(state.hands[seat]):
            return say("%(move)s — the last cards in hand", move=move)
        return move
    believe = kind == "believe"
    true, taker, _ = state.outcome(seat, believe)
    count = sum(len(c) for _, c, _ in state.pile)
    verdict = say("the claim was true") if true else say("the claim was false")
    if taker is None:
        if count > 1:
            what = says("the %(n)s card is discarded", "the %(n)s cards are discarded", count)
        else:
            what = say("the card is discarded")
    elif taker == seat:
        what = says("takes %(n)s card", "takes %(n)s cards", count)
    else:
        what = says("%(seat)s takes %(n)s card", "%(seat)s takes %(n)s cards", count, seat=seat_ref(taker))
    if believe:
        return say("believes — %(verdict)s; %(what)s", verdict=verdict, what=what)
    return say("doubts — %(verdict)s; %(what)s", verdict=verdict, what=what)
