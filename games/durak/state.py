"""The Durak state: setup (D1-D3), legal actions and ``apply`` for leading (D4),
covering (D5), throwing in (D6), taking (D7) and transferring (D8).

The bout's structure (who defends, throw-in order, the end of the bout, D9
and D10) is in ``bout.py``; views in ``view.py``; snapshots come from the field list.

Fields a newcomer needs first: ``phase`` ("attack", "defense", "taking",
"over"), ``attacker``/``defender``, the table as two parallel lists
``attacks``/``covers`` (``None`` = uncovered) with ``open`` uncovered cards,
``ranks`` (ranks on the table, for throw-ins), ``limit`` (L of D4),
``throw_right`` and ``passes`` (consecutive *done*s, D6), ``order`` (the
throw-in order of this bout), ``out`` (seats that left, D10).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import games.durak.bout as bout
import games.durak.deal as dealing
import games.durak.view as views
from games.base import Action
from games.cards import DUMMY, RANK_OF, SUIT_OF, make_deck, parse_card
from games.durak.options import MAX_SEATS, OPTIONS
from games.durak.position import DurakPosition
from games.durak.tables import ATTACK_ONE, COVER, DONE, LEADS, SHOW, TAKE, THROW_ONE, THROWS, TRANSFER, beats_table
from games.errors import IllegalAction, InvalidOptions
from games.words import Said, render, say, says

#: a move out of turn, in words a player reads (``_not_you``)
_NOT_NOW: dict[str, dict[str, Any]] = {
    "cover": say("you cannot cover now"),
    "throw in": say("you cannot throw in now"),
    "say done": say("you cannot say done now"),
    "take": say("you cannot take now"),
    "transfer": say("you cannot transfer now"),
    "show": say("you cannot show a trump now"),
}


class DurakState(DurakPosition):
    game_name: ClassVar[str] = "durak"
    OPTIONS = OPTIONS
    SEATS = (2, 8)
    ACTIONS: ClassVar[Mapping[str, frozenset[str]]] = {
        "attack": frozenset(("type", "cards")),
        "cover": frozenset(("type", "attack", "card")),
        "throw": frozenset(("type", "cards")),
        "done": frozenset(("type",)),
        "take": frozenset(("type",)),
        "transfer": frozenset(("type", "card")),
        "show": frozenset(("type", "card")),
    }
    NEXT_GAME_CHOICES = frozenset(("fool_rule",))
    RESIGNS = True

    # -- setup: D1 D2 D3 ------------------------------------------------------
    @classmethod
    def _setup_options(cls, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        opts = super()._setup_options(given, seats)
        if seats > MAX_SEATS[opts["deck"]]:
            raise InvalidOptions(
                f"seats: at most {MAX_SEATS[opts['deck']]} with the {opts['deck']}-card deck, not {seats}"
            )
        if opts["teams"] and seats not in (4, 6):
            raise InvalidOptions(f"teams: needs 4 or 6 seats, not {seats}")
        return opts

    @classmethod
    def _full_deck(cls, options: Mapping[str, Any]) -> list[str]:
        return make_deck(options["deck"], dummy=options["dummy"])

    @classmethod
    def _deal(cls, options: dict[str, Any], seats: int, dealer: int, deck: list[str]) -> DurakState:
        self = cls.__new__(cls)
        self.options, self.seats, self.dealer, self.deck = options, seats, dealer, deck
        dealt, self.redeals = dealing.dealt_order(deck, seats, dealer, options["redeal_five_of_suit"])  # D2
        self.hands, self.stock, self.turned = dealing.split(dealt, seats, dealer)  # D1
        self.trump = dealing.trump_of(self.turned, options["spades_by_spades"])
        self.trump_card = self.turned  # public until drawn (or for good when it was dealt)
        self.trump_drawn_by = None
        self.discard = []
        self.discarded = False
        self.out = [False] * seats
        self.finished = []
        self.shows = [None] * seats
        self.fool = None
        self.draw = False
        self.losing_team = None
        self._derive()
        first = options["first_attacker"]
        self._start_bout(dealing.first_attacker(self.hands, self.trump, dealer) if first is None else first)  # D3
        return self

    def _derive(self) -> None:
        """Flags derived from the options, looked up on every action."""
        o = self.options
        self.transfer_mode = o["mode"] == "transfer"
        self.lead_single = o["lead"] == "single"
        self.neighbors = o["throw_in"] == "neighbors"
        self.teams = o["teams"]
        self.trump_show = o["trump_show"] and self.transfer_mode
        self.first_limit = o["first_bout_limit"]
        self.later_limit = o["bout_limit"]
        self.beats = beats_table(self.trump, o["spades_by_spades"])

    def _start_bout(self, attacker: int) -> None:
        bout.start_bout(self, attacker)

    def _throw_order(self) -> list[int]:
        return bout.throw_order(self)

    # -- what a seat sees, and the platform's extras (view.py) ------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return views.build(self, seat)

    def result(self) -> dict[str, Any] | None:
        return views.result(self)

    def zones(self) -> dict[str, list[str]]:
        return views.zones(self)

    def default_action(self, seat: int) -> Action:
        return views.default_action(self, seat)

    def describe(self, seat: int, action: Action) -> str:
        return render(views.describe(self, seat, action))

    def describe_words(self, seat: int, action: Action) -> Said:
        return views.describe(self, seat, action)

    def _next_game(self, fool_rule: str = "under", **choices: Any) -> tuple[int, dict[str, Any]]:
        return views.next_game(self, fool_rule)

    def _resign(self, seat: int) -> None:
        """The resigner is the fool (in teams his team loses); the others still holding cards share the next place.

        The cards stay where they lie, so every card is still in exactly one zone.
        """
        if self.out[seat]:
            raise IllegalAction("you are out of this game already")
        rest = [s for s in range(self.seats) if not self.out[s] and s != seat]
        if rest:
            self.finished.append(rest)
            for s in rest:
                self.out[s] = True
        self.fool, self.draw = seat, False
        self.losing_team = seat % 2 if self.teams else None
        self.phase = "over"
        self.throw_right = None

    # -- the contract -------------------------------------------------------
    # ``to_act`` and ``legal_actions`` run once per move of every bot, search and benchmark:
    # the phases are tested most common first and each list is built in the one method
    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == "defense":
            return [self.defender] if self.open else [self.throw_right]  # type: ignore[list-item]
        if phase == "attack":
            return [self.attacker]
        if phase == "taking":
            return [self.throw_right]  # type: ignore[list-item]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == "attack":
            return self._leads() if seat == self.attacker else []
        if seat == self.throw_right:
            # D6: throwing in is optional while the defender still covers; D7: a last turn
            acts = self._throws(seat)
            if phase == "taking" or not self.open:
                acts.append(DONE)
            return acts
        if seat != self.defender or not self.open or phase != "defense":
            return []
        # D5 covers, D7 take, D8 transfers of the defender
        # plain loops and an index: a comprehension's frame, map/filter's bound methods and
        # zip(strict=True)'s keyword each cost more than the few cards and attacks they would walk
        hand = self.hands[seat]
        beats = self.beats
        covers = self.covers
        out: list[Action] = []
        i = 0
        for a in self.attacks:
            if covers[i] is None:
                bs = beats[a]
                cover = COVER[a]
                for h in hand:
                    if h in bs:
                        out.append(cover[h])
            i += 1  # noqa: SIM113 (an index is cheaper than enumerate here: see above)
        out.append(TAKE)
        if self.transfer_mode:
            self._transfers(hand, out)
        return out

    def _leads(self) -> list[Action]:
        """D4: one card, or (``same_rank``) any non-empty set of one rank up to L; the dummy alone."""
        hand = self.hands[self.attacker]
        if self.lead_single:
            return [*map(ATTACK_ONE.__getitem__, hand)]
        # the cards of each rank, ranks in the order the hand first holds them (the dummy's
        # "X" is a group of its own); a lone card is its own lead, a group's leads come from a shared table
        by_rank: dict[str, list[str]] = {}
        for c in hand:
            by_rank.setdefault(c[0], []).append(c)  # fewer steps a card than testing for the rank first
        if len(by_rank) == len(hand):
            return [*map(ATTACK_ONE.__getitem__, hand)]
        table = LEADS[self.limit]
        out: list[Action] = []
        for group in by_rank.values():
            if len(group) == 1:
                out.append(ATTACK_ONE[group[0]])
            else:
                out += table[tuple(group)]
        return out

    def _throws(self, seat: int) -> list[Action]:
        """D6/D7: cards matching a rank on the table, up to L attack cards.

        Listed: every single card, plus every larger set when at most four cards
        match; ``apply`` accepts any legal set. With ``lead: "single"`` one
        card at a time, and while defending only once every card is covered.
        """
        room = self.limit - len(self.attacks)
        if room <= 0 or (self.lead_single and self.open and self.phase == "defense"):
            return []
        ranks = self.ranks
        # a plain loop: cheaper than a comprehension's frame for a hand of a few cards
        match: list[str] = []
        for c in self.hands[seat]:
            if c[0] in ranks:  # the dummy's "X" is never a rank on the table
                match.append(c)
        if not match:
            return []
        if len(match) < 2 or len(match) > 4 or room == 1 or self.lead_single:
            return [THROW_ONE[c] for c in match]
        return THROWS[room][tuple(match)][:]  # a list of its own: the caller may add "done"

    def _transfers(self, hand: list[str], out: list[Action]) -> None:
        """D8: the defender's transfers (by a card, by showing a trump), added to ``out``."""
        if self.open == len(self.attacks) and len(self.ranks) == 1:
            (rank,) = self.ranks
            room = self._transfer_room()
            if room > len(self.attacks):
                for h in hand:
                    if h[0] == rank:
                        out.append(TRANSFER[h])
            if self.trump_show and room >= len(self.attacks) and self.shows[self.defender] is None:
                trump = self.trump
                for h in hand:
                    if h[0] == rank and SUIT_OF[h] == trump:
                        out.append(SHOW[h])

    # -- apply ----------------------------------------------------------------
    def _held(self, seat: int, card: object, field: str = "card") -> str:
        if card in self.hands[seat]:
            return card
        raise IllegalAction(say("you do not hold %(cards)s", cards=parse_card(card, field)))

    def _held_set(self, seat: int, cards: object) -> list[str]:
        if cards is None or cards == []:
            raise IllegalAction(say("Choose at least one card."))
        if type(cards) is not list:
            raise IllegalAction(f"cards: expected a non-empty list of card codes, got {cards!r}")
        hand = self.hands[seat]
        for c in cards:
            if c not in hand:
                raise IllegalAction(say("you do not hold %(cards)s", cards=parse_card(c, "cards")))
        if len(set(cards)) != len(cards):
            raise IllegalAction("cards: a card is named twice")
        return cards

    def _attack(self, seat: int, action: Action) -> None:
        """D4: the lead."""
        if self.phase != "attack":
            raise IllegalAction(say("the bout has been led already: throw in, cover or take"))
        if seat != self.attacker:
            raise IllegalAction(say("not your turn: seat %(n)s leads", n=self.attacker + 1))
        cards = action.get("cards")
        hand = self.hands[seat]
        if type(cards) is list and len(cards) == 1 and (card := cards[0]) in hand:  # one held card: no more checks
            hand.remove(card)
            self.attacks = [card]
            self.covers = [None]
            self.open = 1
            self.ranks = set() if card == DUMMY else {card[0]}
        else:
            cards = self._held_set(seat, cards)
            if len(cards) > 1:
                if self.lead_single:
                    raise IllegalAction(say("lead one card only"))
                if DUMMY in cards:
                    raise IllegalAction(say("the dummy may only be led on its own"))
                rank = RANK_OF[cards[0]]
                for c in cards:
                    if RANK_OF[c] != rank:
                        raise IllegalAction(say("a lead must be cards of one rank"))
                if len(cards) > self.limit:
                    raise IllegalAction(say("the bout limit is %(n)s cards", n=self.limit))
            for c in cards:
                hand.remove(c)
            self.attacks = list(cards)
            self.covers = [None] * len(cards)
            self.open = len(cards)
            self.ranks = {RANK_OF[c] for c in cards if c != DUMMY}
        self.phase = "defense"
        self.passes = 0
        self.throw_right = seat if hand else bout.next_thrower(self, seat)  # D6: the right starts with the attacker

    def _cover(self, seat: int, action: Action) -> None:
        """D5: cover one attack card."""
        if self.phase != "defense" or seat != self.defender:
            raise IllegalAction(self._not_you(seat, "cover"))
        if not self.open:
            raise IllegalAction(say("every card is covered"))
        card: str = action.get("card")  # type: ignore[assignment]  # a held card: checked first
        hand = self.hands[seat]
        try:
            at = hand.index(card)  # found once, for the check and the move
        except ValueError:
            raise IllegalAction(say("you do not hold %(cards)s", cards=parse_card(card, "card"))) from None
        attack = action.get("attack")
        attacks = self.attacks
        if type(attack) is not str or attack not in attacks:
            raise IllegalAction(f"{parse_card(attack, 'attack')} is not an attack card on the table")
        i = attacks.index(attack)
        covers = self.covers
        if covers[i] is not None:
            raise IllegalAction(say("%(card)s is covered already", card=attack))
        if card not in self.beats[attack]:
            raise IllegalAction(say("%(card)s does not beat %(attack)s", card=card, attack=attack))
        del hand[at]
        covers[i] = card
        self.open -= 1
        if card != DUMMY:
            self.ranks.add(card[0])
        if not self.open and (len(attacks) >= self.limit or not hand or self.throw_right is None):
            bout.end_bout(self, False)  # D6: nothing more may be added

    def _throw(self, seat: int, action: Action) -> None:
        """D6 (and D7's last turns): add cards matching a rank on the table."""
        if self.phase == "attack" or seat != self.throw_right:
            raise IllegalAction(self._not_you(seat, "throw in"))
        cards = action.get("cards")
        hand = self.hands[seat]
        if type(cards) is not list or len(cards) != 1 or cards[0] not in hand:  # one held card needs no more checks
            cards = self._held_set(seat, cards)
        ranks = self.ranks
        for c in cards:
            if c == DUMMY:
                raise IllegalAction(say("the dummy cannot be thrown in"))
            if RANK_OF[c] not in ranks:
                raise IllegalAction(say("%(card)s matches no rank on the table", card=c))
        if self.lead_single:  # D6 (003, 004): one card at a time, once the defender has covered
            if len(cards) > 1:
                raise IllegalAction(say("throw in one card at a time"))
            if self.open and self.phase == "defense":
                raise IllegalAction(
                    says(
                        "%(n)s card is still uncovered: throw in once every card is covered",
                        "%(n)s cards are still uncovered: throw in once every card is covered",
                        self.open,
                    )
                )
        if len(self.attacks) + len(cards) > self.limit:
            room = self.limit - len(self.attacks)
            raise IllegalAction(
                say("the bout limit is %(limit)s attack cards: room for %(room)s more", limit=self.limit, room=room)
            )
        for c in cards:
            hand.remove(c)
        self.attacks.extend(cards)
        self.covers.extend([None] * len(cards))
        self.open += len(cards)
        self.passes = 0
        if self.phase == "taking":
            if len(self.attacks) >= self.limit or not hand:
                bout.next_taker(self)
        elif not hand:
            self.throw_right = bout.next_thrower(self, seat)

    def _done(self, seat: int, action: Action) -> None:
        """D6: pass the throw-in right on; D7: end one's last turn."""
        if self.phase == "attack" or seat != self.throw_right:
            raise IllegalAction(self._not_you(seat, "say done"))
        if self.phase == "taking":
            bout.next_taker(self)
            return
        if self.open:
            raise IllegalAction(says("%(n)s card is still uncovered", "%(n)s cards are still uncovered", self.open))
        self.passes += 1
        if len(self.order) == 1 or self.passes >= bout.holders(self):
            bout.end_bout(self, False)  # D6: every eligible thrower said done: beaten
        else:
            self.throw_right = bout.next_thrower(self, seat)

    def _take(self, seat: int, action: Action) -> None:
        """D7: the defender gives up; the throwers get one last turn each."""
        if self.phase != "defense" or seat != self.defender:
            raise IllegalAction(self._not_you(seat, "take"))
        if not self.open:
            raise IllegalAction(say("every card is covered: nothing to take"))
        self.phase = "taking"
        hands = self.hands
        takers = self.takers = []  # throw-in order, from the attacker; a loop: cheaper than a comprehension
        for s in self.order:
            if hands[s]:
                takers.append(s)
        self.throw_right = None
        bout.next_taker(self)

    def _transfer(self, seat: int, action: Action) -> None:
        """D8: add a card of the attack's rank and pass the bout on."""
        card = self._check_transfer(seat, action, "transfer")
        self.hands[seat].remove(card)
        self.attacks.append(card)
        self.covers.append(None)
        self.open += 1
        self._pass_bout(seat)

    def _show(self, seat: int, action: Action) -> None:
        """D8 with ``trump_show``: show a trump of the rank, keep it, pass the bout on."""
        card = self._check_transfer(seat, action, "show")
        self.shows[seat] = card
        self._pass_bout(seat)

    def _check_transfer(self, seat: int, action: Action, kind: str) -> str:
        if not self.transfer_mode:
            raise IllegalAction("transfers are played only in transfer mode")
        if self.phase != "defense" or seat != self.defender:
            raise IllegalAction(self._not_you(seat, kind))
        card = self._held(seat, action.get("card"))
        if self.open != len(self.attacks):
            raise IllegalAction(say("a card is covered already: no transfer"))
        if len(self.ranks) != 1:
            raise IllegalAction(say("the attack cards do not share one rank: no transfer"))
        if card == DUMMY or RANK_OF[card] not in self.ranks:
            raise IllegalAction(say("%(card)s is not of the attack's rank", card=card))
        need = len(self.attacks) + (kind == "transfer")
        if self._transfer_room() < need:
            raise IllegalAction(say("the next defender cannot take %(n)s attack cards", n=need))
        if kind == "show":
            if not self.trump_show:
                raise IllegalAction("transfer by showing a trump is not played")
            if card[1] != self.trump or self.trump is None:
                raise IllegalAction(say("%(card)s is not a trump", card=card))
            if self.shows[seat] is not None:
                raise IllegalAction(say("you showed a trump already (%(card)s)", card=self.shows[seat]))
        return card

    def _transfer_room(self) -> int:
        """D8: how many attack cards the next defender may face (his L)."""
        return min(bout.cap(self), len(self.hands[bout.next_defender(self, self.defender)]))

    def _pass_bout(self, seat: int) -> None:
        """D8: the transferring defender becomes the attacker for throw-in order."""
        self.attacker = seat
        self.defender = bout.next_defender(self, seat)
        self.limit = min(bout.cap(self), len(self.hands[self.defender]))
        self.order = bout.throw_order(self)
        self.passes = 0
        self.throw_right = seat if self.hands[seat] else bout.next_thrower(self, seat)

    def _not_you(self, seat: int, what: str) -> Said:
        """A move out of turn: what the player tried, and whose turn it is (the phase in English, for logs)."""
        waiting = self.to_act()
        tried = _NOT_NOW.get(what) or say("you cannot %(what)s now", what=what)
        if waiting:
            return [tried, say("seat %(n)s is to act", n=waiting[0] + 1)]
        return [tried, say("nobody is to act")]

    _HANDLERS: ClassVar[Mapping[str, Callable[[DurakState, int, Action], None]]] = {
        "attack": _attack,
        "cover": _cover,
        "throw": _throw,
        "done": _done,
        "take": _take,
        "transfer": _transfer,
        "show": _show,
    }
