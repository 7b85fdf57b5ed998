"""The Believe It or Not state: deal, claims, answers, the check, going out.

See the package docstring for the rules in short and the decisions taken
where ``rules/verish.md`` is silent; rule numbers (V1..V6) are cited inline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import Action, State, check_action
from games.cards import check_deck_order, make_deck, parse_cards, shuffled, sort_hand
from games.errors import IllegalAction, InvalidOptions
from games.options import check_dealer, check_seats, validate
from games.verish import view as _view
from games.verish.rules import (
    MAX_SEATS,
    OPTIONS,
    answer_actions,
    as_jsonable_check,
    claim_actions,
    kind_table,
    kinds_for,
)

CLAIM, ANSWER, OVER = "claim", "answer", "over"
_CLAIM_KEYS = frozenset(("type", "cards", "kind"))
_ADD_KEYS = frozenset(("type", "cards", "kind"))
_ANSWER_KEYS = frozenset(("type",))
_BELIEVE: Action = {"type": "believe"}

#: one placement on the pile: (seat, cards, whether they were his last cards)
Placement = tuple[int, list[str], bool]


class VerishState(State):
    game_name = "verish"

    __slots__ = (
        "_kind_of",
        "_kinds",
        "_limit",
        "dealer",
        "deck",
        "discard",
        "finished",
        "going_out",
        "hands",
        "last_check",
        "loser",
        "options",
        "out",
        "phase",
        "pile",
        "pile_kind",
        "seats",
        "turn",
    )

    def __init__(self, options: dict[str, Any], seats: int, dealer: int, deck: list[str]) -> None:
        self.options = options
        self.seats = seats
        self.dealer = dealer
        self.deck = deck
        self._limit: int = options["max_cards"]
        self._kinds: str = kinds_for(options["deck"], options["kind"])
        self._kind_of: dict[str, str] = kind_table(options["kind"])
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.pile: list[Placement] = []
        self.pile_kind: str | None = None
        self.discard: list[str] = []
        #: seats that have left the game (V5), in the order they left
        self.finished: list[int] = []
        #: seats that put down their last cards and wait for the pile's check (V5), in order
        self.going_out: list[int] = []
        self.out: list[bool] = [False] * seats
        self.last_check: dict[str, Any] | None = None
        self.loser: int | None = None
        self.phase = CLAIM
        self.turn = dealer

    # -- setup (V1) ------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        options: Mapping[str, Any] | None = None,
        seats: int = 2,
        dealer: int = 0,
        deck: Sequence[str] | None = None,
        seed: int | None = None,
    ) -> VerishState:
        seats = check_seats(seats, 2, 8)
        opts = validate(OPTIONS, options, seats)
        if seats > MAX_SEATS[opts["deck"]]:
            raise InvalidOptions(f"seats: at most {MAX_SEATS[opts['deck']]} with the {opts['deck']}-card deck")
        dealer = check_dealer(dealer, seats)
        full = make_deck(opts["deck"])
        order = shuffled(full, seed) if deck is None else check_deck_order(deck, full)
        state = cls(opts, seats, dealer, order)
        # V1: every card is dealt, one at a time, from the dealer's left; the dealer opens
        first = dealer + 1
        for i, card in enumerate(order):
            state.hands[(first + i) % seats].append(card)
        return state

    # -- the contract ----------------------------------------------------------------
    def to_act(self) -> list[int]:
        return [] if self.phase == OVER else [self.turn]

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> dict[str, Any] | None:
        if self.phase != OVER:
            return None
        return {"loser": self.loser, "finished": list(self.finished)}

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == OVER or seat != self.turn:
            return []
        if self.phase == CLAIM:  # V2
            return claim_actions(self.hands[seat], self._kind_of, self._kinds, self._limit)
        # V3: believe, doubt, or add (only with cards in hand, V5)
        return answer_actions(self.hands[seat], self._kind_of, self.pile_kind or "", self._limit)

    def apply(self, seat: int, action: Action) -> None:
        kind, cards = self._check(seat, action)  # validates fully; nothing changes before this returns
        if kind == "claim":
            self._place(seat, cards, new_pile=True, announced=action["kind"])
        elif kind == "add":
            self._place(seat, cards, new_pile=False, announced=None)
        else:
            self._resolve(seat, believe=kind == "believe")

    def view(self, seat: int | None) -> dict[str, Any]:
        return _view.build(self, seat)

    # -- validation --------------------------------------------------------------------
    def _check(self, seat: int, action: Action) -> tuple[str, list[str]]:
        kind = action.get("type") if type(action) is dict else None
        if type(kind) is not str:
            kind = check_action(action)  # raises, naming what is wrong
        if type(seat) is not int or not 0 <= seat < self.seats:
            seat = self.check_seat(seat)
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        if seat != self.turn:
            raise IllegalAction(f"not your turn: seat {self.turn} is to act")
        if kind == "claim":
            if self.phase != CLAIM:
                raise IllegalAction("a pile is open: believe, doubt or add to it")
            _only_keys(action, _CLAIM_KEYS)
            k = action.get("kind")
            if not isinstance(k, str) or len(k) != 1 or k not in self._kinds:
                what = "a suit (S, C, D, H)" if self.options["kind"] == "suit" else "a rank of this deck"
                raise IllegalAction(f"kind: must be {what} such as {self._kinds[-1]!r}, not {k!r}")
            return kind, self._cards(seat, action)
        if kind in ("add", "believe", "doubt"):
            if self.phase != ANSWER:
                raise IllegalAction(f"no pile to {kind}: open one with a claim")
            if kind != "add":
                _only_keys(action, _ANSWER_KEYS)
                return kind, []
            _only_keys(action, _ADD_KEYS)
            if "kind" in action and action["kind"] != self.pile_kind:
                raise IllegalAction(f"kind: an addition keeps the pile's kind {self.pile_kind!r}")
            if not self.hands[seat]:
                raise IllegalAction("you have no cards left: you may only believe or doubt")  # V5
            return kind, self._cards(seat, action)
        raise IllegalAction(f"unknown action type {kind!r} (claim, add, believe, doubt)")

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
        cards = parse_cards(cards)
        if len(cards) > self._limit:
            raise IllegalAction(f"cards: at most {self._limit} per placement, not {len(cards)}")
        for c in cards:
            if c not in hand:
                raise IllegalAction(f"you do not hold {c}")
        return cards

    # -- placing (V2, V3, V5) -----------------------------------------------------------
    def _place(self, seat: int, cards: list[str], new_pile: bool, announced: str | None) -> None:
        hand = self.hands[seat]
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
        self.turn = self._next_in(seat)

    def _next_in(self, seat: int) -> int:
        """The next seat to the left that is still in the game."""
        n = self.seats
        out = self.out
        s = (seat + 1) % n
        while out[s]:
            s = (s + 1) % n
        return s

    # -- the check (V4), going out (V5), the loser (V6) ---------------------------------
    def claim_is_true(self) -> bool:
        """Whether every card of the latest placement is of the announced kind (V4)."""
        kind_of, k = self._kind_of, self.pile_kind
        return all(kind_of[c] == k for c in self.pile[-1][1])

    def outcome(self, answerer: int, believe: bool) -> tuple[bool, int | None, int]:
        """(claim true, who takes the pile or None, who would open next before skips)."""
        true = self.claim_is_true()
        claimant = self.pile[-1][0]
        if believe:
            return (true, None, answerer) if true else (true, answerer, answerer + 1)
        return (true, answerer, answerer + 1) if true else (true, claimant, answerer)

    def _resolve(self, answerer: int, believe: bool) -> None:
        true, taker, start = self.outcome(answerer, believe)
        everything = [c for _, cards, _ in self.pile for c in cards]
        claimant, shown, _ = self.pile[-1]
        if taker is None:
            self.discard += everything
        else:
            self.hands[taker] += everything
        self.last_check = {
            "answerer": answerer,
            "answer": "believe" if believe else "doubt",
            "claimant": claimant,
            "kind": self.pile_kind,
            "cards": list(shown),
            "true": true,
            "taker": taker,
            "count": len(everything),
        }
        self.pile = []
        self.pile_kind = None
        # V5: whoever put down his last cards and did not take the pile leaves now
        leaving = [s for s in self.going_out if not self.hands[s]]
        self.going_out = []
        for s in leaving:
            self.out[s] = True
        self.finished += leaving
        left = [s for s in range(self.seats) if not self.out[s]]
        if len(left) <= 1:
            # V6; when the last two or more go out together (a believed true pile), the one
            # who put down his last cards latest was the last to hold cards and loses
            self.loser = left[0] if left else self.finished.pop()
            if not left:
                self.out[self.loser] = False
            self.phase = OVER
            return
        s = start % self.seats
        while self.out[s] or not self.hands[s]:  # V5: skip those out, or without cards to open
            s = (s + 1) % self.seats
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
        return _view.describe(self, seat, action)

    def next_game(self, **choices: Any) -> tuple[int, dict[str, Any]]:
        """V1: the loser deals the next game, with the same options."""
        if choices:
            raise InvalidOptions(f"unknown choice {sorted(choices)[0]!r}: the next game takes none")
        if self.phase != OVER or self.loser is None:
            raise InvalidOptions("the game is not over yet")
        return self.loser, dict(self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_name,
            "options": dict(self.options),
            "seats": self.seats,
            "dealer": self.dealer,
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "pile": [{"seat": s, "cards": list(c), "last": last} for s, c, last in self.pile],
            "pile_kind": self.pile_kind,
            "discard": list(self.discard),
            "finished": list(self.finished),
            "going_out": list(self.going_out),
            "last_check": as_jsonable_check(self.last_check),
            "loser": self.loser,
            "phase": self.phase,
            "turn": self.turn,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VerishState:
        try:
            state = cls(dict(data["options"]), data["seats"], data["dealer"], list(data["deck"]))
            state.hands = [list(h) for h in data["hands"]]
            state.pile = [(p["seat"], list(p["cards"]), p["last"]) for p in data["pile"]]
            state.pile_kind = data["pile_kind"]
            state.discard = list(data["discard"])
            state.finished = list(data["finished"])
            state.going_out = list(data["going_out"])
            state.last_check = as_jsonable_check(data["last_check"])
            state.loser = data["loser"]
            state.phase = data["phase"]
            state.turn = data["turn"]
            for s in state.finished:
                state.out[s] = True
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise InvalidOptions(f"not a saved verish state: {e!r}") from e
        return state

    def copy(self) -> VerishState:
        new = VerishState.__new__(VerishState)
        new.options = self.options
        new.seats = self.seats
        new.dealer = self.dealer
        new.deck = self.deck
        new._limit = self._limit
        new._kinds = self._kinds
        new._kind_of = self._kind_of
        new.hands = [h[:] for h in self.hands]
        new.pile = [(s, c[:], last) for s, c, last in self.pile]
        new.pile_kind = self.pile_kind
        new.discard = self.discard[:]
        new.finished = self.finished[:]
        new.going_out = self.going_out[:]
        new.out = self.out[:]
        new.last_check = None if self.last_check is None else {**self.last_check}
        new.loser = self.loser
        new.phase = self.phase
        new.turn = self.turn
        return new


def _only_keys(action: Action, allowed: frozenset[str]) -> None:
    if action.keys() <= allowed:
        return
    extra = sorted(set(action) - allowed)
    if extra:
        raise IllegalAction(f"unexpected key {extra[0]!r} in a {action['type']} action")
