"""What each seat may see (``build_view``) and the public move log (``describe``).

Every view comes out of ``build_view``. Hidden from other seats: the hands,
the closed widow cards until the bidding ends (B2 then shows the whole widow
to everyone, so from then on those cards are public), and the declarer's
discard, which only the declarer's own view lists (``"discard"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.base import Action
from games.biznes.rules import bid_words
from games.cards import JOKER_SET, SUIT_NAMES, sort_hand

if TYPE_CHECKING:
    from games.biznes.state import BiznesState


def _trick(entries: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    out = []
    for seat, card, eff in entries:
        item: dict[str, Any] = {"seat": seat, "card": card}
        if card in JOKER_SET:
            item["as"] = eff  # B9: what the joker became
        out.append(item)
    return out


def _bids(state: BiznesState) -> list[dict[str, Any]]:
    return [
        {"seat": s, "type": "pass"} if t is None else {"seat": s, "type": "bid", "tricks": t, "suit": suit}
        for s, t, suit in state.bids
    ]


def _bid_winner(state: BiznesState) -> int:
    """The seat that won the bidding (the first declarer, who took the widow)."""
    return next(seat for seat, tricks, _ in reversed(state.bids) if tricks is not None)


def build_view(state: BiznesState, seat: int | None) -> dict[str, Any]:
    """The one place a view is built; ``seat=None`` is a spectator."""
    over = state.phase == "over"
    # B2: the whole widow is shown to everyone when taken; before that only the face-up part
    widow = list(state.widow) if state.widow_shown else list(state.widow[: state.options["widow_open"]])
    view: dict[str, Any] = {
        "phase": state.phase,
        "over": over,
        "result": state.result(),
        "to_act": state.to_act(),
        "turn": state.turn,
        "dealer": state.dealer,
        "hand_sizes": [len(h) for h in state.hands],
        "tricks_per_deal": state.n_tricks,
        "widow_size": state.widow_n,
        "widow": widow,
        "bids": _bids(state),
        "contract": None if state.contract is None else {"tricks": state.contract, "suit": state.contract_suit},
        "declarer": state.declarer,
        "asked_banker": state.asked_banker,
        "banker": state.banker,
        "roles": list(state.roles),
        "trump": state.trump,
        "change_used": state.change_used,
        "leader": state.leader,
        "trick": _trick(state.trick),
        "last_trick": None
        if state.last_winner is None
        else {"cards": _trick(state.last_trick), "winner": state.last_winner},
        "tricks": list(state.tricks),
        "counted": state.counted,
    }
    if seat is not None:
        view["seat"] = seat
        view["hand"] = sort_hand(state.hands[seat], state.trump)
        if state.discard and seat == _bid_winner(state):
            # B2: the secret of whoever won the bidding and discarded, even after a B6 role swap
            view["discard"] = list(state.discard)
    return view


ROLE_WORDS = {"banker": "is the banker", "thief": "is a thief", "policeman": "is the policeman"}


def describe(state: BiznesState, seat: int, action: Action) -> str:
    """An action in public words, without the actor's name; call before ``apply``."""
    if not isinstance(action, dict):
        return "does something unexpected"
    kind = action.get("type")
    try:
        if kind == "pass":
            return "passes"
        if kind == "bid":
            return f"bids {bid_words(action['tricks'], action['suit'])}"
        if kind == "discard":
            n = len(action["cards"])
            return f"discards {n} card{'s' if n != 1 else ''}"
        if kind == "declare":
            return "plays with a banker" if action["banker"] else "plays alone"
        if kind == "role":
            role = action["role"]
            if role == "mafia":
                return "joins the mafia" if "mafia" in state.roles else "says mafia"
            return ROLE_WORDS[role]
        if kind == "change":
            return "calls a change"
        if kind == "trump":
            return f"names {SUIT_NAMES[action['suit']]} trump"
        if kind == "play":
            card = action["card"]
            if card in JOKER_SET:
                return f"plays {card} (joker as {action['as']})"
            return f"plays {card}"
    except (KeyError, TypeError, IndexError):
        pass
    return f"tries {kind!r}" if isinstance(kind, str) else "does something unexpected"
