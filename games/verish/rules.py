"""Believe It or Not: options, kinds, the representative legal actions, wording.

Everything here is a pure function of a hand or a count; the state lives in
``games.verish.state``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import filterfalse
from typing import Any

from games.cards import RANK_OF, RANKS, SUIT_OF, SUITS, make_deck
from games.options import Option
from games.words import Said, says, verbatim

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
#: "rank" or "suit" -> kind -> every code of that kind: a hand is filtered by kind and a claim checked
#: with these sets' own (C) methods instead of a Python loop over the cards
CARDS_OF: dict[str, dict[str, frozenset[str]]] = {
    kind: {k: frozenset(c for c in _CODES if table[c] == k) for k in RANKS + SUITS}
    for kind, table in (("rank", RANK_OF), ("suit", SUIT_OF))
}
#: "rank" or "suit" -> card -> its shared claim under its true kind
HONEST_ONE: dict[str, dict[str, dict[str, Any]]] = {
    kind: {c: CLAIM_ONE[c][table[c]] for c in _CODES} for kind, table in (("rank", RANK_OF), ("suit", SUIT_OF))
}


def claim_actions(
    hand: list[str],
    kind_of: dict[str, str],
    cards_of: dict[str, frozenset[str]],
    honest: dict[str, dict[str, Any]],
    kinds: str,
    limit: int,
) -> list[dict[str, Any]]:
    """The representative opening claims (V2) of ``hand``, as actions.

    ``kind_of``, ``cards_of`` and ``honest`` are this game's ``kind_table``, ``CARDS_OF`` and ``HONEST_ONE``.
    """
    if not hand:
        return []
    out: list[dict[str, Any]] = [*map(honest.__getitem__, hand)]
    groups: dict[str, list[str]] = {}
    for c in hand:
        k = kind_of[c]
        if k in groups:
            groups[k].append(c)
        else:
            groups[k] = [c]
    # the first card of the hand is the bluff card for every kind but its own; for its own
    # kind, the first card of another kind (None when the whole hand is of one kind)
    first = hand[0]
    first_kind = kind_of[first]
    first_claims = CLAIM_ONE[first]
    own_other = next(filterfalse(cards_of[first_kind].__contains__, hand), None)
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


def answer_actions(hand: list[str], of_kind: frozenset[str], limit: int) -> list[dict[str, Any]]:
    """Believe, doubt and the representative additions (V3) to a pile whose kind's cards are ``of_kind``."""
    if not hand:
        return [BELIEVE, DOUBT]  # V5: with no cards one may only believe or doubt
    out: list[dict[str, Any]] = [BELIEVE, DOUBT, *map(ADD_ONE.__getitem__, hand)]
    g = [*filter(of_kind.__contains__, hand)]
    if not g:
        return out
    if len(g) >= 2 and limit >= 2:
        out.append({"type": "add", "cards": g[:limit]})
    if len(g) < limit:
        other = next(filterfalse(of_kind.__contains__, hand), None)  # the first card of another kind: the bluff
        if other is not None:
            out.append({"type": "add", "cards": [*g, other]})
    return out


# -- wording (describe, the move log) -----------------------------------------------
#
# Every claim is counted in the reader's language (``says``: Russian and Ukrainian have
# several plural forms); the count is written in digits, as the numbers' grammatical
# gender would otherwise follow the kind ("one king" but "одна дама").

#: what a claim names: kind -> count -> «3 kings»
CLAIM_SAID: dict[str, Callable[[int], Said]] = {
    "2": lambda n: says("%(n)s two", "%(n)s twos", n),
    "3": lambda n: says("%(n)s three", "%(n)s threes", n),
    "4": lambda n: says("%(n)s four", "%(n)s fours", n),
    "5": lambda n: says("%(n)s five", "%(n)s fives", n),
    "6": lambda n: says("%(n)s six", "%(n)s sixes", n),
    "7": lambda n: says("%(n)s seven", "%(n)s sevens", n),
    "8": lambda n: says("%(n)s eight", "%(n)s eights", n),
    "9": lambda n: says("%(n)s nine", "%(n)s nines", n),
    "T": lambda n: says("%(n)s ten", "%(n)s tens", n),
    "J": lambda n: says("%(n)s jack", "%(n)s jacks", n),
    "Q": lambda n: says("%(n)s queen", "%(n)s queens", n),
    "K": lambda n: says("%(n)s king", "%(n)s kings", n),
    "A": lambda n: says("%(n)s ace", "%(n)s aces", n),
    "S": lambda n: says("%(n)s spade", "%(n)s spades", n),
    "C": lambda n: says("%(n)s club", "%(n)s clubs", n),
    "D": lambda n: says("%(n)s diamond", "%(n)s diamonds", n),
    "H": lambda n: says("%(n)s heart", "%(n)s hearts", n),
}
#: an addition: kind -> count -> «2 more kings»
MORE_SAID: dict[str, Callable[[int], Said]] = {
    "2": lambda n: says("%(n)s more two", "%(n)s more twos", n),
    "3": lambda n: says("%(n)s more three", "%(n)s more threes", n),
    "4": lambda n: says("%(n)s more four", "%(n)s more fours", n),
    "5": lambda n: says("%(n)s more five", "%(n)s more fives", n),
    "6": lambda n: says("%(n)s more six", "%(n)s more sixes", n),
    "7": lambda n: says("%(n)s more seven", "%(n)s more sevens", n),
    "8": lambda n: says("%(n)s more eight", "%(n)s more eights", n),
    "9": lambda n: says("%(n)s more nine", "%(n)s more nines", n),
    "T": lambda n: says("%(n)s more ten", "%(n)s more tens", n),
    "J": lambda n: says("%(n)s more jack", "%(n)s more jacks", n),
    "Q": lambda n: says("%(n)s more queen", "%(n)s more queens", n),
    "K": lambda n: says("%(n)s more king", "%(n)s more kings", n),
    "A": lambda n: says("%(n)s more ace", "%(n)s more aces", n),
    "S": lambda n: says("%(n)s more spade", "%(n)s more spades", n),
    "C": lambda n: says("%(n)s more club", "%(n)s more clubs", n),
    "D": lambda n: says("%(n)s more diamond", "%(n)s more diamonds", n),
    "H": lambda n: says("%(n)s more heart", "%(n)s more hearts", n),
}


def claim_said(n: int, k: str, more: bool = False) -> Said:
    """``3 kings``, ``1 more heart`` (a kind outside the table, from a malformed record: its code)."""
    words = (MORE_SAID if more else CLAIM_SAID).get(k)
    return words(n) if words is not None else verbatim(f"{n} {k}")


def as_jsonable_check(check: dict[str, Any] | None) -> dict[str, Any] | None:
    if check is None:
        return None
    return {**check, "cards": list(check["cards"])}
