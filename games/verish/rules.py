"""Believe It or Not: options, kinds, the representative legal actions, wording.

Everything here is a pure function of a hand or a count; the state lives in
``games.verish.state``.
"""

from __future__ import annotations

from typing import Any

from games.cards import RANK_OF, RANK_WORDS, RANKS, SUIT_OF, SUIT_WORDS, SUITS, make_deck, number_word
from games.options import Option

OPTIONS: tuple[Option, ...] = (
    Option(
        name="deck",
        label="Deck",
        default=36,
        choices=(36, 52),
        kind="int",
        help="36 cards run from six to ace, for up to 6 players; 52 cards from two to ace, for up to 8.",
        choice_labels=("36 cards", "52 cards"),
    ),
    Option(
        name="kind",
        label="Claims name",
        default="rank",
        choices=("rank", "suit"),
        kind="str",
        help='What a player says his cards are: a rank ("three kings") or a suit ("three hearts").',
        choice_labels=("a rank", "a suit"),
    ),
    Option(
        name="max_cards",
        label="Cards per placement",
        default=8,
        low=1,
        high=8,
        kind="int",
        help="The most cards a player may put down at once, opening a pile or adding to it.",
    ),
)

#: most seats for each deck size (rules: 2..6 with 36 cards, 2..8 with 52)
MAX_SEATS = {36: 6, 52: 8}


def kinds_for(deck: int, kind: str) -> str:
    """The kinds a claim may name: the deck's ranks, or the four suits."""
    if kind == "suit":
        return SUITS
    return RANKS[RANKS.index("6") :] if deck == 36 else RANKS


def kind_table(kind: str) -> dict[str, str]:
    """Card code -> its kind (rank letter or suit letter)."""
    return SUIT_OF if kind == "suit" else RANK_OF


# -- representative legal placements ----------------------------------------------
#
# A hand of n cards has 2**n - 1 placements times every kind that could be
# announced, far too many to list. ``legal_actions`` lists (see the package
# docstring): every card alone with its true kind; for every kind one lone
# bluff (the first card of the hand that is not of that kind); every honest
# group (all cards of a kind one holds, at most ``max_cards``); and every honest
# group of fewer than ``max_cards`` cards padded with one bluff card.
#
# Every one-card action and believe/doubt is built once, here, and listed by
# every state (most of a list is those): like every engine's listed actions they
# are read-only (``State.legal_actions``), so sharing them cannot leak a change.

#: shared, read-only: ``{"type": "believe"}`` and ``{"type": "doubt"}``
BELIEVE: dict[str, Any] = {"type": "believe"}
DOUBT: dict[str, Any] = {"type": "doubt"}
_CODES = make_deck(52)
#: card -> the shared ``{"type": "add", "cards": [card]}``
ADD_ONE: dict[str, dict[str, Any]] = {c: {"type": "add", "cards": [c]} for c in _CODES}
#: card -> kind -> the shared ``{"type": "claim", "cards": [card], "kind": kind}``
CLAIM_ONE: dict[str, dict[str, dict[str, Any]]] = {
    c: {k: {"type": "claim", "cards": [c], "kind": k} for k in RANKS + SUITS} for c in _CODES
}
#: "rank" or "suit" -> card -> its shared claim under its true kind
HONEST_ONE: dict[str, dict[str, dict[str, Any]]] = {
    kind: {c: CLAIM_ONE[c][table[c]] for c in _CODES} for kind, table in (("rank", RANK_OF), ("suit", SUIT_OF))
}


def claim_actions(
    hand: list[str], kind_of: dict[str, str], honest: dict[str, dict[str, Any]], kinds: str, limit: int
) -> list[dict[str, Any]]:
    """The representative opening claims (V2) of ``hand``, as actions (``honest``: ``HONEST_ONE[kind]``)."""
    if not hand:
        return []
    out: list[dict[str, Any]] = [honest[c] for c in hand]
    groups: dict[str, list[str]] = {}
    for c in hand:
        k = kind_of[c]
        if k in groups:
            groups[k].append(c)
        else:
            groups[k] = [c]
    # the first card of the hand is the bluff card for every kind but its own; for its own
    # kind, the first card of another kind: the first of the second group (None when the
    # whole hand is of one kind)
    first = hand[0]
    first_kind = kind_of[first]
    first_claims = CLAIM_ONE[first]
    own_other = None
    if len(groups) > 1:
        it = iter(groups.values())
        next(it)
        own_other = next(it)[0]
    for k in kinds:
        if k != first_kind:
            other: str | None = first
            out.append(first_claims[k])
        else:
            other = own_other
            if other is not None:
                out.append(CLAIM_ONE[other][k])
        g = groups.get(k)
        if g is not None:
            n = len(g)
            if n >= 2 and limit >= 2:
                out.append({"type": "claim", "cards": g[:limit], "kind": k})
            if other is not None and n < limit:
                out.append({"type": "claim", "cards": [*g, other], "kind": k})
    return out


def answer_actions(hand: list[str], kind_of: dict[str, str], k: str, limit: int) -> list[dict[str, Any]]:
    """Believe, doubt and the representative additions (V3) to a pile of kind ``k``."""
    if not hand:
        return [BELIEVE, DOUBT]  # V5: with no cards one may only believe or doubt
    out: list[dict[str, Any]] = [BELIEVE, DOUBT]
    out += [ADD_ONE[c] for c in hand]
    g = [c for c in hand if kind_of[c] == k]
    if not g:
        return out
    if len(g) >= 2 and limit >= 2:
        out.append({"type": "add", "cards": g[:limit]})
    if len(g) < limit:
        for c in hand:  # the first card of another kind: the bluff card
            if kind_of[c] != k:
                out.append({"type": "add", "cards": [*g, c]})
                break
    return out


# -- wording (describe, the move log) -----------------------------------------------

#: what a claim names, in words: a rank or a suit
KIND_WORDS: dict[str, tuple[str, str]] = {**RANK_WORDS, **SUIT_WORDS}


def cards_word(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def claim_words(n: int, k: str, more: bool = False) -> str:
    """``«three kings»``, ``«one more heart»``."""
    one, many = KIND_WORDS.get(k, (k, k))
    extra = " more" if more else ""
    return f"«{number_word(n)}{extra} {one if n == 1 else many}»"


def as_jsonable_check(check: dict[str, Any] | None) -> dict[str, Any] | None:
    if check is None:
        return None
    return {**check, "cards": list(check["cards"])}
