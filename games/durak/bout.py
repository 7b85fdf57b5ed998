"""The bout's structure: who defends (D4), the throw-in order (D6), the last
turns of D7, the end of the bout with its draw order (D9), and leaving and the
end of the game (D10). Plain functions of a ``DurakPosition``.
"""

from __future__ import annotations

from functools import cache

from games.durak.deal import HAND
from games.durak.position import DurakPosition


def cap(st: DurakPosition) -> int:
    """D4: first_bout_limit until the first discard, bout_limit after."""
    return st.later_limit if st.discarded else st.first_limit


def next_defender(st: DurakPosition, seat: int) -> int:
    """D4: the next player still in the game to the left (in teams: the next opponent)."""
    n, out, teams = st.seats, st.out, st.teams
    for j in range(1, n):
        s = (seat + j) % n
        if not out[s] and (not teams or (s - seat) % 2):
            return s
    raise AssertionError("no defender: the game should be over")


def throw_order(st: DurakPosition) -> list[int]:
    """D6: the attacker, then the eligible seats clockwise from the defender's left.

    ``neighbors``: only the nearest such seat on each side of the defender;
    teams: only the defender's opponents. The attacker always keeps his
    right (he led). Seats without cards are skipped when the right moves.
    """
    n, a, d = st.seats, st.attacker, st.defender
    if n == 2:
        return [a]
    out, teams = st.out, st.teams
    cand = [s for s in ((d + j) % n for j in range(1, n)) if not out[s] and (not teams or (s - d) % 2)]
    if st.neighbors and len(cand) > 2:
        cand = [cand[0], cand[-1]]
    return [a, *(s for s in cand if s != a)]


def holders(st: DurakPosition) -> int:
    """D6: how many seats of the throw-in order still hold cards (a loop: cheaper than sum over a generator)."""
    hands = st.hands
    count = 0
    for s in st.order:
        if hands[s]:
            count += 1
    return count


def next_thrower(st: DurakPosition, seat: int) -> int | None:
    """D6: the next seat in throw-in order that still holds cards."""
    order, hands = st.order, st.hands
    m = len(order)
    i = order.index(seat)
    for j in range(1, m + 1):
        s = order[(i + j) % m]
        if hands[s]:
            return s
    return None


def next_taker(st: DurakPosition) -> None:
    """D7: give the next thrower his last turn, or let the defender pick up."""
    takers = st.takers
    if takers and len(st.attacks) < st.limit:
        hands = st.hands
        while takers:
            s = takers.pop(0)
            if hands[s]:
                st.throw_right = s
                return
    end_bout(st, True)


def start_bout(st: DurakPosition, attacker: int) -> None:
    st.phase = "attack"
    st.attacker = st.leader = attacker
    if st.seats == 2:  # both still play (else the game is over): the other seat defends and nobody throws in
        st.defender = defender = 1 - attacker
        st.order = [attacker]
    else:
        st.defender = defender = next_defender(st, attacker)
        st.order = throw_order(st)
    limit = st.later_limit if st.discarded else st.first_limit
    held = len(st.hands[defender])
    st.limit = limit if limit < held else held  # D4
    st.attacks = []
    st.covers = []
    st.open = 0
    st.ranks = set()
    st.throw_right = None
    st.passes = 0
    st.takers = []


def end_bout(st: DurakPosition, taken: bool) -> None:
    """D9 then D10: clear the table, draw, leave, and start the next bout."""
    d, n = st.defender, st.seats
    hands = st.hands
    if taken:
        hand = hands[d]
        hand += st.attacks
        for c in st.covers:  # the covers laid, not the gaps
            if c is not None:
                hand.append(c)
    else:  # beaten: every attack card is covered
        discard = st.discard
        discard += st.attacks
        discard += st.covers  # type: ignore[arg-type]
        st.discarded = True
    stock = st.stock
    if stock:
        for s in DRAW_ORDER[n][st.leader][d]:
            hand = hands[s]
            need = HAND - len(hand)
            if need > 0:
                hand += stock[:need]
                del stock[:need]
                if not stock:
                    if st.trump_card is not None:
                        st.trump_card, st.trump_drawn_by = None, s
                    break
    if not stock and not all(hands):
        # D10: once the stock is empty, players without cards leave together
        out = st.out
        group = [s for s in range(n) if not out[s] and not hands[s]]
        if group:
            for s in group:
                out[s] = True
            st.finished.append(group)
            if game_ended(st):
                return
    # D9: beaten -> the defender attacks; taken -> the player to his left;
    # if he has left, the next one still in the game (in teams: of his team)
    start = (d + 1) % n if taken else d
    out = st.out
    s = start
    if out[s]:
        for j in range(0, n, 2 if st.teams else 1):
            s = (start + j) % n
            if not out[s]:
                break
    start_bout(st, s)


def game_ended(st: DurakPosition) -> bool:
    """D10: at most one player holds cards; in teams, one team is all out."""
    alive = [s for s in range(st.seats) if not st.out[s]]
    if st.teams:
        left = {s % 2 for s in alive}
        if len(left) == 2:
            return False
        st.draw = not left
        st.losing_team = next(iter(left)) if left else None
    elif len(alive) > 1:
        return False
    else:
        st.draw = not alive
    st.fool = alive[0] if len(alive) == 1 else None
    st.phase = "over"
    st.throw_right = None
    st.attacks, st.covers, st.open, st.ranks, st.takers = [], [], 0, set(), []
    return True


@cache
def draw_sequence(n: int, leader: int, defender: int) -> tuple[int, ...]:
    """D9: who draws, in order: the leader first, then the others clockwise
    starting from the player to the defender's left, the defender last.

    Without a transfer the leader sits right of the defender, so this is
    simply clockwise from the leader; after a transfer the players between
    the leader and the defender draw after those to the defender's left.
    Seats that left hold no cards and the stock is empty by then: they never draw.
    """
    others = [s for s in ((defender + j) % n for j in range(1, n)) if s != leader]
    return (*([leader] if leader != defender else []), *others, defender)


#: seats -> leader -> defender -> ``draw_sequence``, looked up once a bout instead of called
DRAW_ORDER: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(tuple(draw_sequence(n, leader, defender) for defender in range(n)) for leader in range(n)) for n in range(9)
)
