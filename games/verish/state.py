"""The Believe It or Not state: deal, claims, answers, the check, going out.

See the package docstring for the rules in short and the decisions taken
where ``rules/verish.md`` is silent; rule numbers (V1..V6) are cited inline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import games.verish.view as _view
from games.base import Action
from games.cards import make_deck, parse_cards, sort_hand
from games.errors import IllegalAction, InvalidOptions
from games.verish.position import VerishPosition
from games.verish.rules import (
    CARDS_OF,
    HONEST_ONE,
    MAX_SEATS,
    OPTIONS,
    answer_actions,
    claim_actions,
    kind_table,
    kinds_for,
)
from games.words import Said, render, say, verbatim

CLAIM, ANSWER, OVER = "claim", "answer", "over"
_CLAIM_KEYS = frozenset(("type", "cards", "kind"))
_ADD_KEYS = frozenset(("type", "cards", "kind"))
_ANSWER_KEYS = frozenset(("type",))
_BELIEVE: Action = {"type": "believe"}
#: the refusal of an answer with no pile open, per answer
_NO_PILE = {
    "add": say("no pile to add: open one with a claim"),
    "believe": say("no pile to believe: open one with a claim"),
    "doubt": say("no pile to doubt: open one with a claim"),
}


class VerishState(VerishPosition):
    game_name: ClassVar[str] = "verish"
    OPTIONS = OPTIONS
    SEATS = (2, 8)
    ACTIONS: ClassVar[Mapping[str, frozenset[str]]] = {
        "claim": _CLAIM_KEYS,
        "add": _ADD_KEYS,
        "believe": _ANSWER_KEYS,
        "doubt": _ANSWER_KEYS,
    }
    RESIGNS = True

    # -- setup (V1) ------------------------------------------------------------------
    @classmethod
    def _setup_options(cls, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        opts = super()._setup_options(given, seats)
        if seats > MAX_SEATS[opts["deck"]]:
            raise InvalidOptions(f"seats: at most {MAX_SEATS[opts['deck']]} with the {opts['deck']}-card deck")
        return opts

    @classmethod
    def _full_deck(cls, options: Mapping[str, Any]) -> list[str]:
        return make_deck(options["deck"])

    @classmethod
    def _deal(cls, options: dict[str, Any], seats: int, dealer: int, deck: list[str]) -> VerishState:
        state = cls.__new__(cls)
        state.options, state.seats, state.dealer, state.deck = options, seats, dealer, deck
        state.hands = [[] for _ in range(seats)]
        state.pile = []
        state.pile_kind = None
        state.discard = []
        state.finished = []
        state.going_out = []
        state.last_check = None
        state.loser = None
        state.phase = CLAIM
        state.turn = dealer  # V1: the dealer opens
        state._derive()
        # V1: every card is dealt, one at a time, from the dealer's left
        first = dealer + 1
        for i, card in enumerate(deck):
            state.hands[(first + i) % seats].append(card)
        return state

    def _derive(self) -> None:
        options = self.options
        self._limit = options["max_cards"]
        self._kinds = kinds_for(options["deck"], options["kind"])
        self._kind_of = kind_table(options["kind"])
        self._cards_of = CARDS_OF[options["kind"]]
        self._honest = HONEST_ONE[options["kind"]]

    def _resign(self, seat: int) -> None:
        """The resigner loses (V6 as if he were the last left); those still holding cards share the place above."""
        if seat in self.finished:
            raise IllegalAction("you are out of this game already")
        self.loser = seat
        self.phase = OVER

    # -- the contract ----------------------------------------------------------------
    def to_act(self) -> list[int]:
        return [] if self.phase == OVER else [self.turn]

    def result(self) -> dict[str, Any] | None:
        if self.phase != OVER:
            return None
        return {"loser": self.loser, "finished": list(self.finished)}

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == OVER or seat != self.turn:
            return []
        if self.phase == CLAIM:  # V2
            return claim_actions(
                self.hands[seat], self._kind_of, self._cards_of, self._honest, self._kinds, self._limit
            )
        # V3: believe, doubt, or add (only with cards in hand, V5); a pile always has its kind
        return answer_actions(self.hands[seat], self._cards_of[self.pile_kind], self._limit)  # type: ignore[index]

    def _claim(self, seat: int, action: Action) -> None:
        self._place(seat, self._check_move(seat, "claim", action), True, action["kind"])

    def _add(self, seat: int, action: Action) -> None:
        cards = action.get("cards")
        # the most common move, one held card, checked here; anything else by ``_check_move``
        if (
            seat == self.turn
            and self.phase == ANSWER
            and type(cards) is list
            and len(cards) == 1
            and "kind" not in action
        ):
            try:
                self.hands[seat].remove(cards[0])  # the last check (one scan of the hand), so a refusal changes nothing
            except ValueError:
                pass
            else:
                self._place(seat, [cards[0]], False, None, removed=True)
                return
        self._place(seat, self._check_move(seat, "add", action), False, None)

    def _believe(self, seat: int, action: Action) -> None:
        self._check_move(seat, "believe", action)
        self._resolve(seat, True)

    def _doubt(self, seat: int, action: Action) -> None:
        self._check_move(seat, "doubt", action)
        self._resolve(seat, False)

    _HANDLERS: ClassVar[Mapping[str, Callable[[VerishState, int, Action], None]]] = {
        "claim": _claim,
        "add": _add,
        "believe": _believe,
        "doubt": _doubt,
    }

    def apply_described(self, seat: int, action: Action) -> str:
        """``apply`` with its words in English, the move checked once for both."""
        return render(self.apply_said(seat, action))

    def apply_said(self, seat: int, action: Action) -> Said:
        """``apply`` with its words in no language yet, the move checked once for both (the platform's path)."""
        kind = self._check(seat, action)
        cards = self._check_move(seat, kind, action)
        text = _view.describe_checked(self, seat, kind, cards, action)
        if kind == "claim":
            self._place(seat, cards, True, action["kind"])
        elif kind == "add":
            self._place(seat, cards, False, None)
        else:
            self._resolve(seat, kind == "believe")
        return text

    def view(self, seat: int | None) -> dict[str, Any]:
        return _view.build(self, seat)

    # -- validation --------------------------------------------------------------------
    def _check_move(self, seat: int, kind: str, action: Action) -> list[str]:
        """The rules' checks after the common ones; the cards placed, if any."""
        if seat != self.turn:
            raise IllegalAction(say("not your turn: seat %(n)s is to act", n=self.turn + 1))
        if kind == "claim":
            if self.phase != CLAIM:
                raise IllegalAction(say("a pile is open: believe, doubt or add to it"))
            k = action.get("kind")
            if not isinstance(k, str) or len(k) != 1 or k not in self._kinds:
                what = "a suit (S, C, D, H)" if self.options["kind"] == "suit" else "a rank of this deck"
                raise IllegalAction(f"kind: must be {what} such as {self._kinds[-1]!r}, not {k!r}")
            return self._cards(seat, action)
        if kind in ("add", "believe", "doubt"):
            if self.phase != ANSWER:
                raise IllegalAction(_NO_PILE[kind])
            if kind != "add":
                return []
            if "kind" in action and action["kind"] != self.pile_kind:
                raise IllegalAction(f"kind: an addition keeps the pile's kind {self.pile_kind!r}")
            if not self.hands[seat]:
                raise IllegalAction(say("you have no cards left: you may only believe or doubt"))  # V5
            return self._cards(seat, action)
        raise AssertionError(kind)  # the template only passes declared types

    def _cards(self, seat: int, action: Action) -> list[str]:
        cards = action.get("cards")
        hand = self.hands[seat]
        # fast path: a short list of distinct held cards (a held card is a valid code)
        if type(cards) is list and 0 < (n := len(cards)) <= self._limit:
            for c in cards:
                if c not in hand:
                    break
            else:
                if n == 1 or len(set(cards)) == n:
                    return cards[:]
        if cards == []:
            raise IllegalAction(say("Choose at least one card."))
        cards = parse_cards(cards)
        if len(cards) > self._limit:
            raise IllegalAction(
                say("cards: at most %(limit)s per placement, not %(n)s", limit=self._limit, n=len(cards))
            )
        for c in cards:
            if c not in hand:
                raise IllegalAction(say("you do not hold %(cards)s", cards=c))
        return cards

    # -- placing (V2, V3, V5) -----------------------------------------------------------
    def _place(self, seat: int, cards: list[str], new_pile: bool, announced: str | None, removed: bool = False) -> None:
        """Put ``cards`` on the pile (``removed``: they are out of the hand already)."""
        hand = self.hands[seat]
        if not removed:
            for c in cards:
                hand.remove(c)
        last = not hand
        if new_pile:
            self.pile = [(seat, cards, last)]
            self.pile_kind = announced
        else:
            self.pile.append((seat, cards, last))
        if last:  # V5: he says so, and stays in until this pile is resolved
            self.going_out.append(seat)
        self.phase = ANSWER
        # the next seat to the left that is still in the game
        n, out = self.seats, self.finished
        s = (seat + 1) % n
        while s in out:
            s = (s + 1) % n
        self.turn = s

    # -- the check (V4), going out (V5), the loser (V6) ---------------------------------
    def _resolve(self, answerer: int, believe: bool) -> None:
        true, taker, start = self.outcome(answerer, believe)
        pile = self.pile
        claimant, shown, _ = pile[-1]
        everything: list[str] = []
        for _, cards, _ in pile:
            everything += cards
        if taker is None:
            self.discard += everything
        else:
            self.hands[taker] += everything
        self.last_check = {
            "answerer": answerer,
            "answer": "believe" if believe else "doubt",
            "claimant": claimant,
            "kind": self.pile_kind,
            "cards": shown,  # the pile's own list, dropped with the pile just below
            "true": true,
            "taker": taker,
            "count": len(everything),
        }
        self.pile = []
        self.pile_kind = None
        seats, finished = self.seats, self.finished
        if self.going_out:
            # V5: whoever put down his last cards and did not take the pile leaves now
            leaving = [s for s in self.going_out if not self.hands[s]]
            self.going_out = []
            if leaving:
                finished += leaving
                left = [s for s in range(seats) if s not in finished]
                if len(left) <= 1:
                    # V6; when the last two or more go out together (a believed true pile), the one
                    # who put down his last cards latest was the last to hold cards and loses
                    self.loser = left[0] if left else finished.pop()
                    self.phase = OVER
                    return
        s = start % seats
        hands = self.hands
        while s in finished or not hands[s]:  # V5: skip those out, or without cards to open
            s = (s + 1) % seats
        self.turn = s
        self.phase = CLAIM

    # -- platform extras ----------------------------------------------------------------
    def zones(self) -> dict[str, list[str]]:
        z = {f"hand {s}": list(h) for s, h in enumerate(self.hands)}
        z["pile"] = [c for _, cards, _ in self.pile for c in cards]
        z["discard"] = list(self.discard)
        return z

    def default_action(self, seat: int) -> Action:
        """Turn timeout: open with one card under its true kind; answer by believing."""
        if self.phase == OVER or seat != self.turn:
            raise IllegalAction(f"seat {seat} is not to act")
        if self.phase == ANSWER:
            return dict(_BELIEVE)
        card = sort_hand(self.hands[seat])[0]
        return {"type": "claim", "cards": [card], "kind": self._kind_of[card]}

    def describe(self, seat: int, action: Action) -> str:
        return render(self.describe_words(seat, action))

    def describe_words(self, seat: int, action: Action) -> Said:
        """The move in public words, without the actor's name; call before ``apply``."""
        try:
            kind = self._check(seat, action)
            cards = self._check_move(seat, kind, action)
        except IllegalAction as e:
            return say("tries an illegal move (%(why)s)", why=e.said if e.said is not None else verbatim(str(e)))
        return _view.describe_checked(self, seat, kind, cards, action)

    def _next_game(self, **choices: Any) -> tuple[int, dict[str, Any]]:
        """V1: the loser deals the next game, with the same options."""
        assert self.loser is not None
        return self.loser, dict(self.options)
