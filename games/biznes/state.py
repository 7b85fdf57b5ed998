"""The Biznes deal state: one mutable object driven by ``apply``.

Rules: ``shared/rules/biznes.md`` (B1-B10); this docstring only records how the
engine reads them where they are silent.

Phases: ``bidding`` (B1) -> ``discard`` (B2, only with a widow) -> ``declare``
(B3) -> ``roles`` (B4) -> ``play`` (B5, with ``change`` B6 in between) ->
``over``. Exactly one seat is ever to act.

Decisions where the rules are silent:

- Options: with 6 seats and no ``deck`` given the deck is 52 (36 is not
  allowed with 6); an explicit ``deck: 36`` with 6 seats is refused.
  ``widow_open`` is checked against the real widow size in ``new``.
- B1: the contract is the last bid made; it is always the highest bid and its
  bidder is the one player left. A lone player left who has not yet bid still
  bids or passes (passing makes the deal void).
- B2: any cards may be discarded, widow cards, trumps and jokers included. The
  widow stays listed in every view once shown (it was shown to everyone); only
  the view of the seat that won the bidding and discarded has ``discard``,
  also after a B6 swap makes someone else declarer. A joker may still be
  named as a discarded card (B9 allows any card); that reveals nothing. "No one
  else ever sees it" holds while the deal runs; once it is over, the replay
  reveals the deck for the fairness check, so the discard is revealed then
  (stated on the replay page, ``GAME.replay_note``).
- B4: if the declarer asked for a banker and nobody took the role the
  contract drops by one even from 1 to 0 (literally "by one"). The "at least
  one criminal" rule needs no check: with 3+ choosers and only two
  non-criminal roles it always holds. A lone mafioso shows as "mafia" until
  the last role is chosen, then as "thief".
- B5/B9 with jokers: a joker becomes the card it is named as (``"as"``), so a
  led joker sets the suit led to the named suit. "Having a card of the suit
  led" means an ordinary card; a player who has one must play one (never a
  joker); otherwise any card, and a joker then may be named as any of the 52
  cards (the suit led and trumps included). A joker is led only as the last
  card or with exactly two jokers left, by anyone; the declarer leading it
  must name a non-trump. Equal effective cards: the earlier one wins.
- B6/B7: the change is called before the lead, only by the declarer, from the
  second trick on. With a banker, the roles swap when the trump is named; the
  caller (now banker) then leads. Without a banker the declarer then leads and
  is caught at once if he holds nothing but (new) trumps. The declarer "holds
  nothing but trumps" when he has no legal lead: at least one ordinary card and
  all ordinary cards trumps (so lone jokers never catch him). Then his only
  legal action is ``change`` when the change is still allowed, else he is
  caught at once (no action needed) and the deal ends.
- The contract shown keeps the bid suit after a change; ``trump`` shows the
  current trump.
- ``legal_actions`` lists every legal action: every discard combination (at
  most C(14, 4) = 1001) and every joker naming (up to 52 per joker).
- Timeouts: discard the lowest cards (by rank, jokers last); name the suit the
  namer holds most of, ties in the order S C D H; play the lowest legal card
  (a joker as the lowest allowed card), or ``change`` when it is forced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import games.biznes.moves as moves
from games.base import Action
from games.biznes.position import BiznesPosition
from games.biznes.rules import (
    DECK_SEATS,
    OPTIONS,
    can_lead_joker,
    hand_size,
    has_legal_lead,
    trick_winner,
    widow_size,
)
from games.biznes.scoring import score_deal, settle_roles, to_number
from games.biznes.view import build_view
from games.biznes.view import describe as describe_action
from games.cards import JOKER_SET, SUIT_OF, SUITS, deal, make_deck, parse_card, parse_cards
from games.errors import IllegalAction, InvalidOptions
from games.ui import SUIT_SYMBOL
from games.words import Said, render, say, says

ROLE_CHOICES = moves.ROLE_CHOICES
SUIT_LETTERS = frozenset(SUITS)  # "SC" in SUITS is True, so never test membership in the string
KEYS = {
    "bid": frozenset(("type", "tricks", "suit")),
    "pass": frozenset(("type",)),
    "discard": frozenset(("type", "cards")),
    "declare": frozenset(("type", "banker")),
    "role": frozenset(("type", "role")),
    "change": frozenset(("type",)),
    "trump": frozenset(("type", "suit")),
    "play": frozenset(("type", "card", "as")),
}
PHASE_ACTIONS = {
    "bidding": ("bid", "pass"),
    "discard": ("discard",),
    "declare": ("declare",),
    "roles": ("role",),
    "play": ("play", "change"),
    "change": ("trump",),
}


class BiznesState(BiznesPosition):
    game_name: ClassVar[str] = "biznes"
    OPTIONS = OPTIONS
    SEATS = (4, 6)
    ACTIONS: ClassVar[Mapping[str, frozenset[str]]] = KEYS

    # -- setup ----------------------------------------------------------------
    @classmethod
    def _setup_options(cls, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        if given is None:
            given = {}
        if isinstance(given, Mapping) and seats == 6 and "deck" not in given:
            given = {**given, "deck": 52}  # 36 cards are not allowed with 6 players
        opts = super()._setup_options(given, seats)
        size = opts["deck"]
        if seats not in DECK_SEATS[size]:
            raise InvalidOptions(f"deck: {size} cards only with {' or '.join(map(str, DECK_SEATS[size]))} seats")
        widow_n = widow_size(size, seats)
        if opts["widow_open"] > widow_n:
            raise InvalidOptions(
                f"widow_open: at most {widow_n} (the widow) with {size} cards and {seats} seats, "
                f"not {opts['widow_open']}"
            )
        return opts

    @classmethod
    def _full_deck(cls, options: Mapping[str, Any]) -> list[str]:
        return make_deck(options["deck"])

    @classmethod
    def _deal(cls, options: dict[str, Any], seats: int, dealer: int, deck: list[str]) -> BiznesState:
        self = cls.__new__(cls)
        self.options, self.seats, self.dealer, self.deck = options, seats, dealer, deck
        self._derive()
        h = self.n_tricks
        self.hands = deal(deck, seats, dealer, h)
        self.widow = deck[h * seats :]
        self.widow_shown = False
        self.discard = []
        self.phase = "bidding"
        self.turn = (dealer + 1) % seats  # B1: the dealer's left bids first
        self.bids = []
        self.passed = [False] * seats
        self.has_bid = [False] * seats
        self.level, self.level_suits = 0, []
        self.declarer = self.banker = self.asked_banker = None
        self.roles = [None] * seats
        self.contract = self.contract_suit = self.trump = None
        self.change_used = False
        self.trick, self.leader, self.last_trick, self.last_winner = [], None, [], None
        self.tricks = [0] * seats
        self.counted = self.tricks_played = 0
        self.played = []
        self.caught = self.void = False
        self.scores = None
        return self

    def _derive(self) -> None:
        size = self.options["deck"]
        self.n_tricks = hand_size(size, self.seats)
        self.widow_n = widow_size(size, self.seats)

    # -- the contract ---------------------------------------------------------
    def to_act(self) -> list[int]:
        return [] if self.turn is None else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat == self.turn and self.phase == "play":  # the most common case, one call less
            return moves.legal_plays(self, seat)
        return moves.legal_actions(self, seat)

    # -- apply ------------------------------------------------------------------
    def _apply(self, seat: int, kind: str, action: Action) -> None:
        if kind not in PHASE_ACTIONS[self.phase]:
            raise IllegalAction(f"no {kind!r} now: the deal is in the {self.phase} phase")
        if self.turn is None:
            raise IllegalAction(say("nobody is to act"))
        if seat != self.turn:
            raise IllegalAction(say("not your turn: seat %(n)s is to act", n=self.turn + 1))
        _DO[kind](self, seat, action)

    def _do_bid(self, seat: int, action: Action) -> None:
        tricks, suit = action.get("tricks"), action.get("suit")
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 1 <= tricks <= self.n_tricks:
            raise IllegalAction(f"tricks: a bid is 1..{self.n_tricks} tricks, not {tricks!r}")
        if not isinstance(suit, str) or suit not in SUIT_LETTERS:
            raise IllegalAction(f"suit: one of S, C, D, H, not {suit!r}")
        # B1: more tricks than the highest bid, or the same number in a suit not yet named at it
        if tricks < self.level:
            raise IllegalAction(say("the bidding is at %(n)s tricks: bid at least that", n=self.level))
        if tricks == self.level and suit in self.level_suits:
            raise IllegalAction(f"{tricks} in suit {suit} was already bid: name a new suit or more tricks")
        if tricks > self.level:
            self.level, self.level_suits = tricks, []
        self.level_suits.append(suit)
        self.bids.append((seat, tricks, suit))
        self.has_bid[seat] = True
        self._next_bidder(seat)

    def _do_pass(self, seat: int, action: Action) -> None:
        self.bids.append((seat, None, None))
        self.passed[seat] = True
        self._next_bidder(seat)

    def _next_bidder(self, seat: int) -> None:
        active = [s for s in range(self.seats) if not self.passed[s]]
        if not active:  # B1: everyone passed, the deal is void
            self.void = True
            self._finish()
        elif len(active) == 1 and self.has_bid[active[0]]:
            self._end_bidding(active[0])
        else:
            nxt = (seat + 1) % self.seats
            while self.passed[nxt]:
                nxt = (nxt + 1) % self.seats
            self.turn = nxt

    def _end_bidding(self, declarer: int) -> None:
        _, tricks, suit = next(b for b in reversed(self.bids) if b[1] is not None)  # the last bid made
        self.declarer, self.contract, self.contract_suit, self.trump = declarer, tricks, suit, suit
        self.roles[declarer] = "declarer"
        self.turn = declarer
        if self.widow_n:  # B2: the widow is shown to everyone and taken
            self.widow_shown = True
            self.hands[declarer] = self.hands[declarer] + self.widow
            self.phase = "discard"
        else:
            self.phase = "declare"

    def _do_discard(self, seat: int, action: Action) -> None:
        cards = parse_cards(action.get("cards"))
        if len(cards) != self.widow_n:
            raise IllegalAction(
                says(
                    "discard exactly %(n)s card, as many as the widow, not %(given)s",
                    "discard exactly %(n)s cards, as many as the widow, not %(given)s",
                    self.widow_n,
                    given=len(cards),
                )
            )
        hand = self.hands[seat]
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalAction(say("you do not hold %(cards)s", cards=", ".join(missing)))
        self.hands[seat] = [c for c in hand if c not in cards]
        self.discard = cards
        self.phase = "declare"

    def _do_declare(self, seat: int, action: Action) -> None:
        banker = action.get("banker")
        if not isinstance(banker, bool):
            raise IllegalAction(f"banker: true (with a banker) or false (alone), not {banker!r}")
        self.asked_banker = banker  # B3
        self.phase = "roles"
        self.turn = (seat + 1) % self.seats  # B4: clockwise from the declarer's left

    def _do_role(self, seat: int, action: Action) -> None:
        role = action.get("role")
        if role not in ROLE_CHOICES:
            raise IllegalAction(f"role: one of {', '.join(ROLE_CHOICES)}, not {role!r}")
        if not moves.role_open(self, role):
            if role == "banker" and not self.asked_banker:
                raise IllegalAction(say("the declarer plays alone: there is no banker"))
            raise IllegalAction(f"there is already a {role}")
        self.roles[seat] = role
        if role == "banker":
            self.banker = seat
        nxt = (seat + 1) % self.seats
        if nxt != self.declarer:
            self.turn = nxt
            return
        self.roles = settle_roles(self.roles)  # B4: a lone mafioso is a thief
        if self.asked_banker and self.banker is None:
            assert self.contract is not None
            self.contract -= 1  # B4: no banker came forward, the contract drops by one
        self.phase = "play"
        self.leader = self.turn = self.declarer  # B5: the declarer leads first
        self._declarer_leads()

    def _declarer_leads(self) -> None:
        """B7: a declarer about to lead with nothing but trumps must change, or is caught."""
        assert self.declarer is not None and self.trump is not None
        if has_legal_lead(self.hands[self.declarer], self.trump):
            return
        if self.tricks_played and not self.change_used:
            return  # legal_actions now offers only "change"
        self.caught = True
        self._finish()

    def _do_change(self, seat: int, action: Action) -> None:
        if seat != self.declarer or self.trick:
            raise IllegalAction(say("only the declarer calls a change, before he leads"))
        if not self.tricks_played:
            raise IllegalAction(say("no change before the first trick (B6)"))
        if self.change_used:
            raise IllegalAction(say("the change was already used in this deal (B6)"))
        self.change_used = True
        self.phase = "change"
        self.turn = self.banker if self.banker is not None else self.declarer  # B6: the banker names

    def _do_trump(self, seat: int, action: Action) -> None:
        suit = action.get("suit")
        if not isinstance(suit, str) or suit not in SUIT_LETTERS:
            raise IllegalAction(f"suit: one of S, C, D, H, not {suit!r}")
        if suit == self.trump:
            raise IllegalAction(say("%(suit)s is already trump: name another suit", suit=SUIT_SYMBOL.get(suit, suit)))
        self.trump = suit
        self.phase = "play"
        self.turn = self.leader
        if self.banker is not None:  # B6: declarer and banker swap roles; the old declarer leads freely
            old, new = self.declarer, self.banker
            assert old is not None
            self.declarer, self.banker = new, old
            self.roles[new], self.roles[old] = "declarer", "banker"
        else:
            self._declarer_leads()

    def _do_play(self, seat: int, action: Action) -> None:
        card = action.get("card")
        hand = self.hands[seat]
        if card not in hand:  # a held card is a valid code; otherwise say what is wrong
            raise IllegalAction(say("you do not hold %(cards)s", cards=parse_card(card)))
        if card in JOKER_SET:  # B9: a joker names the card it becomes
            if "as" not in action:
                raise IllegalAction("a joker needs 'as': the card it becomes, such as 'AH'")
            eff = parse_card(action["as"], "as")
            if eff in JOKER_SET:
                raise IllegalAction("as: a joker becomes one of the 52 ordinary cards")
        else:
            if "as" in action:
                raise IllegalAction("as: only a joker is named as another card")
            eff = card
        trick = self.trick
        if not trick:
            if card in JOKER_SET:
                if not can_lead_joker(hand):
                    raise IllegalAction(say("a joker may be led only as your last card or with two jokers left (B9)"))
                if seat == self.declarer and SUIT_OF[eff] == self.trump:
                    raise IllegalAction(say("the declarer may not name a trump when leading (B9)"))
            elif seat == self.declarer and SUIT_OF[card] == self.trump:
                raise IllegalAction(say("the declarer may not lead a trump (%(card)s) (B5)", card=card))
        else:
            led = SUIT_OF[trick[0][2]]
            if SUIT_OF[card] != led and any(SUIT_OF[c] == led for c in hand):
                if card in JOKER_SET:
                    raise IllegalAction(
                        say(
                            "a joker may be played only without a card of the suit led (%(suit)s)",
                            suit=SUIT_SYMBOL[led],
                        )
                    )
                raise IllegalAction(
                    say("you must follow suit: you hold a card of the suit led (%(suit)s)", suit=SUIT_SYMBOL[led])
                )
        hand.remove(card)
        trick.append((seat, card, eff))
        if len(trick) < self.seats:
            self.turn = (seat + 1) % self.seats
            return
        winner = trick_winner(trick, self.trump)
        self.tricks[winner] += 1
        if winner == self.declarer:
            self.counted += 1  # B6: only the declarer at the time counts for the contract
        self.played += [c for _, c, _ in trick]
        self.last_trick, self.last_winner, self.trick = trick, winner, []
        self.tricks_played += 1
        self.leader = self.turn = winner
        if self.tricks_played == self.n_tricks:
            self._finish()
        elif winner == self.declarer:
            self._declarer_leads()

    def _finish(self) -> None:
        self.phase = "over"
        self.turn = None
        if self.void:
            self.scores = [0] * self.seats
        else:
            size = self.options["deck"]
            assert self.contract is not None
            self.scores = score_deal(size, self.roles, self.tricks, self.contract, self.counted, self.caught)

    # -- results, views, extras ---------------------------------------------------
    def result(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        assert self.scores is not None
        contract = None if self.void else {"tricks": self.contract, "suit": self.contract_suit}
        return {
            "void": self.void,
            "caught": self.caught,
            "scores": [to_number(h) for h in self.scores],
            "tricks": list(self.tricks),
            "roles": list(self.roles),
            "contract": contract,
            "made": not self.void and not self.caught and self.counted >= (self.contract or 0),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def describe(self, seat: int, action: Action) -> str:
        return render(describe_action(self, seat, action))

    def describe_words(self, seat: int, action: Action) -> Said:
        return describe_action(self, seat, action)

    def zones(self) -> dict[str, list[str]]:
        out = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        out["widow"] = [] if self.widow_shown else list(self.widow)
        out["discard"] = list(self.discard)
        out["trick"] = [c for _, c, _ in self.trick]
        out["played"] = list(self.played)
        return out

    def default_action(self, seat: int) -> Action:
        return moves.default_action(self, seat)

    def _next_game(self, **choices: Any) -> tuple[int, dict[str, Any]]:
        """B10: the next dealer is the one to the left; after a void deal the same."""
        dealer = self.dealer if self.void else (self.dealer + 1) % self.seats
        return dealer, dict(self.options)


_DO: dict[str, Callable[[BiznesState, int, Action], None]] = {
    kind: getattr(BiznesState, "_do_" + kind) for kind in KEYS
}
