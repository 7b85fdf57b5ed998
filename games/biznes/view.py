"""What each seat may see (``build_view``) and the public move log (``describe``).

Every view comes out of ``build_view``. Hidden from other seats: the hands,
the closed widow cards until the bidding ends (B2 then shows the whole widow
to everyone, so from then on those cards are public), and the declarer's
discard, which only the declarer's own view lists (``"discard"``).
"""

from __future__ import annotations

from typing import Any

from games.base import Action
from games.biznes.position import BiznesPosition
from games.biznes.rules import has_legal_lead
from games.cards import JOKER_SET, sort_hand
from games.ui import SUIT_SYMBOL
from games.words import Said, joined, say, says


def _trick(entries: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    out = []
    for seat, card, eff in entries:
        item: dict[str, Any] = {"seat": seat, "card": card}
        if card in JOKER_SET:
            item["as"] = eff  # B9: what the joker became
        out.append(item)
    return out


def _bids(state: BiznesPosition) -> list[dict[str, Any]]:
    return [
        {"seat": s, "type": "pass"} if t is None else {"seat": s, "type": "bid", "tricks": t, "suit": suit}
        for s, t, suit in state.bids
    ]


def _bid_winner(state: BiznesPosition) -> int:
    """The seat that won the bidding (the first declarer, who took the widow)."""
    return next(seat for seat, tricks, _ in reversed(state.bids) if tricks is not None)


def build_view(state: BiznesPosition, seat: int | None) -> dict[str, Any]:
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


ROLE_WORDS = {
    "banker": say("is the banker"),
    "thief": say("is a thief"),
    "policeman": say("is the policeman"),
}


def _bid(tricks: int, suit: str) -> str:
    """A bid as the board shows it, the same in every language: "3♥"."""
    return f"{tricks}{SUIT_SYMBOL[suit]}"


def _roles_settled(state: BiznesPosition, seat: int, role: str) -> list[Said]:
    """What the last role choice settles (B4), in words: a lone mafioso, no banker, a caught declarer."""
    if (seat + 1) % state.seats != state.declarer:
        return []  # more players still choose
    out: list[Said] = []
    mafia = sum(1 for s, r in enumerate(state.roles) if r == "mafia" and s != seat) + (role == "mafia")
    if mafia == 1:
        out.append(say("the mafia is one player alone, who plays as a thief"))
    contract = state.contract or 0
    if state.asked_banker and state.banker is None and role != "banker" and state.contract_suit:
        out.append(
            say("nobody took the banker: the contract drops to %(bid)s", bid=_bid(contract - 1, state.contract_suit))
        )
    declarer = state.declarer
    if declarer is not None and not has_legal_lead(state.hands[declarer], state.trump or ""):
        out.append(say("the declarer holds nothing but trumps and is caught (B7)"))
    return out


def _trump_named(state: BiznesPosition, suit: str) -> Said:
    """B6: the new trump is public once named; with a banker the two swap roles, alone he may be caught (B7)."""
    new = SUIT_SYMBOL[suit]
    if state.trump:
        words = say("names %(suit)s trump instead of %(old)s", suit=new, old=SUIT_SYMBOL[state.trump])
    else:
        words = say("names %(suit)s trump", suit=new)
    if state.banker is not None:
        return [words, say("becomes the declarer; the old declarer is now the banker and leads")]
    declarer = state.declarer
    if declarer is not None and not has_legal_lead(state.hands[declarer], suit):
        return [words, say("holding nothing but trumps now, the declarer is caught (B7)")]
    return words


def describe(state: BiznesPosition, seat: int, action: Action) -> Said:
    """An action in public words, without the actor's name; call before ``apply``.

    A discard is a count: the discarded cards are the declarer's secret (B2).
    """
    if not isinstance(action, dict):
        return say("does something unexpected")
    kind = action.get("type")
    try:
        if kind == "pass":
            return say("passes")
        if kind == "bid":
            return say("bids %(bid)s", bid=_bid(action["tricks"], action["suit"]))
        if kind == "discard":
            return says("discards %(n)s card", "discards %(n)s cards", len(action["cards"]))
        if kind == "declare":
            return say("asks for a banker") if action["banker"] else say("plays alone")
        if kind == "role":
            role = action["role"]
            if role == "mafia":
                words = say("joins the mafia") if "mafia" in state.roles else say("says mafia")
            else:
                words = ROLE_WORDS[role]
            return joined([words, *_roles_settled(state, seat, role)])
        if kind == "change":
            # never why (a forced change would tell that his hand is all trumps)
            if state.banker is not None:
                return say("calls a change; the banker names the new trump")
            return say("calls a change and will name the new trump")
        if kind == "trump":
            return _trump_named(state, action["suit"])
        if kind == "play":
            card = action["card"]
            if card in JOKER_SET:
                return say("plays the joker as %(card)s", card=str(action["as"]))
            return say("plays %(card)s", card=str(card))
    except (KeyError, TypeError, IndexError):
        pass
    return say("tries %(kind)s", kind=repr(kind)) if isinstance(kind, str) else say("does something unexpected")
