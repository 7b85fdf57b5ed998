"""Durak from the public record: throw-ins aimed at a defender and what came of them, transfers, takes.

Every Durak move is public, so the record shows each bout: who led, who
defended (the first seat to cover, take or transfer after the lead), who threw
in or said *done*, and what the defender did. Three choices touch another seat:

- ``throw_in``: a seat with the throw-in right threw cards at the defender, or
  said *done* (spared him); compared within the bout's phase (``bout``, or
  ``taking``: the last throws onto a defender who took), attacker and side throwers apart;
- ``covered``: a throw-in while the defender was still fighting either was beaten
  (spared: it cost him nothing) or lay unbeaten when he took; compared within the
  defender's hand size, attacker and side throwers apart. A player who sees his
  partner's hand throws in on him only what he can beat: he need not say *done* more
  often than anyone, but his throw-ins are beaten more often than other players' are;
- ``transfer``: with transfers on, the defender's first answer to a lead either
  passed the bout on to the next seat in the game or kept it (spared him);
- ``take``: a defender who took instead of beating the bout off spared the seat
  to his left the attack he would have led next.

Hand sizes are public: six each, the cards each move lays, the table taken by a
defender who took, and the draw after each bout (D9: the leader first, then
clockwise from the defender's left, the defender last, up to six while the stock lasts).

Partners in team play act for each other by the rules: their choices towards each
other are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.durak.bout import DRAW_ORDER
from games.fairplay import Interaction, Record, next_in_game, still_playing

DEFENCE = frozenset(("cover", "take", "transfer", "show"))
HAND = 6


class Hands:
    """Each seat's number of cards, followed from the public record."""

    def __init__(self, seats: int, options: Mapping[str, Any]) -> None:
        self.sizes = [HAND] * seats
        self.stock = max(int(options.get("deck") or 36) - HAND * seats, 0)
        self.table = 0

    def lay(self, seat: int, cards: int) -> None:
        if 0 <= seat < len(self.sizes):
            self.sizes[seat] -= cards
        self.table += cards

    def end_bout(self, leader: int, defender: int, taken: bool) -> None:
        seats = len(self.sizes)
        if taken:
            self.sizes[defender] += self.table
        self.table = 0
        if not (0 <= leader < seats and 0 <= defender < seats and seats < len(DRAW_ORDER)):
            return
        for s in DRAW_ORDER[seats][leader][defender]:
            need = min(max(HAND - self.sizes[s], 0), self.stock)
            self.sizes[s] += need
            self.stock -= need

    def bucket(self, seat: int) -> str:
        cards = self.sizes[seat] if 0 <= seat < len(self.sizes) else HAND
        return "S" if cards <= 2 else "M" if cards <= 6 else "L"


def interactions(record: Record, seats: int, options: Mapping[str, Any]) -> list[Interaction]:
    last = still_playing(record, seats)
    teams = bool(options.get("teams")) and seats % 2 == 0
    transfers = options.get("mode") == "transfer"
    out: list[Interaction] = []
    hands = Hands(seats, options)
    leader: int | None = None
    attacker: int | None = None
    defender: int | None = None
    taking = False
    answered = False  # the defender answered the current lead (or transfer) already
    pending: list[tuple[int, int, str, str]] = []  # throw decisions before the defender showed himself
    # this bout's throw-ins onto a fighting defender: (move, thrower, defender, cards not yet beaten, situation)
    open_throws: list[tuple[int, int, int, set[str], str]] = []

    def add(
        i: int, actor: int, target: int, kind: str, situation: str, spared: bool, chose: str, alts: tuple[str, ...]
    ) -> None:
        if actor != target and not (teams and actor % 2 == target % 2):
            out.append(Interaction(i, actor, target, kind, situation, spared, chose, alts))

    def throw_decision(i: int, seat: int, chose: str, hand: str) -> None:
        assert defender is not None
        role = "lead" if seat == attacker else "side"
        situation = f"{'taking' if taking else 'bout'}:{role}:hand{hand}"
        add(i, seat, defender, "throw_in", situation, chose == "done", chose, ("throw", "done"))

    def close_bout(at: int) -> None:
        for j, thrower, target, unbeaten, where in open_throws:
            outcome = "taken" if unbeaten else "beaten"
            add(j, thrower, target, "covered", where, not unbeaten, outcome, ("beaten", "taken"))
        open_throws.clear()
        if defender is None:
            return
        if leader is not None:
            hands.end_bout(leader, defender, taking)
        spared = next_in_game(defender, at, last)
        if spared is not None:
            add(at, defender, spared, "take", "bout", taking, "take" if taking else "beat off", ("take", "beat off"))

    for i, (seat, action) in enumerate(record):
        kind = action.get("type")
        if kind == "attack":
            close_bout(i - 1)
            attacker, defender, taking, answered, pending = seat, None, False, False, []
            leader = seat
            hands.lay(seat, len(action.get("cards") or ()))
        elif kind in DEFENCE and attacker is not None:
            if kind in ("transfer", "show"):
                open_throws.clear()  # the cards pass to another defender: no throw-in of this bout is judged
            if kind in ("cover", "transfer"):
                hands.lay(seat, 1)
            if defender != seat:
                defender, answered = seat, False
                for j, thrower, chose, hand in pending:
                    throw_decision(j, thrower, chose, hand)
                pending = []
            if not answered and transfers:
                target = next_in_game(seat, i, last)
                if target is not None:
                    passed = kind in ("transfer", "show")
                    add(i, seat, target, "transfer", "first", not passed, kind, ("transfer", "cover", "take"))
            answered = True
            if kind == "cover":
                for *_x, unbeaten, _where in open_throws:
                    unbeaten.discard(str(action.get("attack")))
            if kind == "take":
                taking = True
            elif kind in ("transfer", "show"):
                # the next seat to defend shows himself by his answer
                defender, answered, attacker = None, False, seat
        elif kind in ("throw", "done") and attacker is not None:
            hand = hands.bucket(seat)  # before the throw: what he held when he chose
            if kind == "throw" and defender is not None and seat != defender and not taking:
                where = f"{'lead' if seat == attacker else 'side'}:hand{hands.bucket(defender)}"
                open_throws.append((i, seat, defender, set(action.get("cards") or ()), where))
            if kind == "throw":
                hands.lay(seat, len(action.get("cards") or ()))
            if defender is None:
                pending.append((i, seat, kind, hand))
            elif seat != defender:
                throw_decision(i, seat, kind, hand)
    close_bout(len(record) - 1)
    return out
