"""The bout's structure: who defends (D4), the throw-in order (D6), the last
turns of D7, the end of the bout with its draw order (D9), and leaving and the
end of the game (D10). Mixed into ``DurakState``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.durak.deal import HAND

if TYPE_CHECKING:
    from games.durak.state import DurakState


class BoutMixin:
    def _cap(self: DurakState) -> int:
        """D4: first_bout_limit until the first discard, bout_limit after."""
        return self.later_limit if self.discarded else self.first_limit

    def _next_defender(self: DurakState, seat: int) -> int:
        """D4: the next player still in the game to the left (in teams: the next opponent)."""
        n = self.seats
        for j in range(1, n):
            s = (seat + j) % n
            if not self.out[s] and (not self.teams or (s - seat) % 2):
                return s
        raise AssertionError("no defender: the game should be over")

    def _throw_order(self: DurakState) -> list[int]:
        """D6: the attacker, then the eligible seats clockwise from the defender's left.

        ``neighbors``: only the nearest such seat on each side of the defender;
        teams: only the defender's opponents. The attacker always keeps his
        right (he led). Seats without cards are skipped when the right moves.
        """
        n, a, d = self.seats, self.attacker, self.defender
        if n == 2:
            return [a]
        out, teams = self.out, self.teams
        cand = [s for s in ((d + j) % n for j in range(1, n)) if not out[s] and (not teams or (s - d) % 2)]
        if self.neighbors and len(cand) > 2:
            cand = [cand[0], cand[-1]]
        return [a, *(s for s in cand if s != a)]

    def _next_thrower(self: DurakState, seat: int) -> int | None:
        """D6: the next seat in throw-in order that still holds cards."""
        order = self.order
        m = len(order)
        i = order.index(seat)
        hands = self.hands
        for j in range(1, m + 1):
            s = order[(i + j) % m]
            if hands[s]:
                return s
        return None

    def _next_taker(self: DurakState) -> None:
        """D7: give the next thrower his last turn, or let the defender pick up."""
        takers = self.takers
        if len(self.attacks) < self.limit:
            while takers:
                s = takers.pop(0)
                if self.hands[s]:
                    self.throw_right = s
                    return
        self._end_bout(taken=True)

    def _start_bout(self: DurakState, attacker: int) -> None:
        self.phase = "attack"
        self.attacker = self.leader = attacker
        self.defender = self._next_defender(attacker)
        self.limit = min(self._cap(), len(self.hands[self.defender]))  # D4
        self.order = self._throw_order()
        self.attacks, self.covers, self.open, self.ranks = [], [], 0, set()
        self.throw_right = None
        self.passes = 0
        self.takers = []

    def _end_bout(self: DurakState, taken: bool) -> None:
        """D9 then D10: clear the table, draw, leave, and start the next bout."""
        covers = self.covers
        table = self.attacks
        table.extend(c for c in covers if c is not None)
        d, n = self.defender, self.seats
        if taken:
            self.hands[d].extend(table)
        else:
            self.discard.extend(table)
            self.discarded = True
        stock = self.stock
        if stock:
            # D9: the leader draws first, then clockwise, the defender last
            hands = self.hands
            for s in _draw_sequence(n, self.leader, d):
                hand = hands[s]
                need = HAND - len(hand)
                if need > 0:
                    hand.extend(stock[:need])
                    del stock[:need]
                    if not stock:
                        if self.trump_card is not None:
                            self.trump_card, self.trump_drawn_by = None, s
                        break
        if not stock:
            # D10: once the stock is empty, players without cards leave together
            out, hands = self.out, self.hands
            group = [s for s in range(n) if not out[s] and not hands[s]]
            if group:
                for s in group:
                    out[s] = True
                self.finished.append(group)
                if self._game_ended():
                    return
        # D9: beaten -> the defender attacks; taken -> the player to his left;
        # if he has left, the next one still in the game (in teams: of his team)
        start = (d + 1) % n if taken else d
        out, teams = self.out, self.teams
        for j in range(0, n, 2 if teams else 1):
            s = (start + j) % n
            if not out[s]:
                break
        self._start_bout(s)

    def _game_ended(self: DurakState) -> bool:
        """D10: at most one player holds cards; in teams, one team is all out."""
        alive = [s for s in range(self.seats) if not self.out[s]]
        if self.teams:
            left = {s % 2 for s in alive}
            if len(left) == 2:
                return False
            self.draw = not left
            self.losing_team = next(iter(left)) if left else None
        elif len(alive) > 1:
            return False
        else:
            self.draw = not alive
        self.fool = alive[0] if len(alive) == 1 else None
        self.phase = "over"
        self.throw_right = None
        self.attacks, self.covers, self.open, self.ranks, self.takers = [], [], 0, set(), []
        return True


_DRAW_SEQUENCES: dict[tuple[int, int, int], tuple[int, ...]] = {}


def _draw_sequence(n: int, leader: int, defender: int) -> tuple[int, ...]:
    """D9: who draws, in order: the leader, the others clockwise from him, the defender last."""
    key = (n, leader, defender)
    seq = _DRAW_SEQUENCES.get(key)
    if seq is None:
        others = [s for s in ((leader + j) % n for j in range(1, n)) if s != defender]
        seq = (*([leader] if leader != defender else []), *others, defender)
        _DRAW_SEQUENCES[key] = seq
    return seq
