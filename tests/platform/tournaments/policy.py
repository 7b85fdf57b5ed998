"""Players' choices that make a Biznes deal score a half point (B8): the first bidder names the suit he holds
fewest of and plays alone (``P`` odd at four players), the first player to choose a role takes the policeman
(``N - C - P/2``), and the declarer discards trumps so that he is never caught (B7). The deck is the engine's."""

from __future__ import annotations

from typing import Any

from games.cards import SUIT_OF, SUITS


def choose(state: Any, seat: int) -> dict[str, Any]:
    actions = state.legal_actions(seat)
    if state.phase == "bidding":
        if any(state.has_bid):
            return {"type": "pass"}
        fewest = min(SUITS, key=lambda s: sum(1 for c in state.hands[seat] if SUIT_OF.get(c) == s))
        return next(a for a in actions if a["type"] == "bid" and a["suit"] == fewest)
    if state.phase == "discard":
        return max(actions, key=lambda a: sum(1 for c in a["cards"] if SUIT_OF.get(c) == state.trump))
    if state.phase == "declare":
        return {"type": "declare", "banker": False}
    if state.phase == "roles":
        return next((a for a in actions if a["role"] == "policeman"), actions[0])
    return actions[0]


def play_out(table_id: int) -> None:
    """Make every move at the table by ``choose`` through the real move service until its match ends."""
    from tables.models import Game
    from tables.services import load_state, table_apply_action

    for _ in range(1000):
        game = Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).first()
        if game is None:
            return
        state = load_state(game)
        seat = state.to_act()[0]
        table_apply_action(game.pk, seat, game.move_number, choose(state, seat))
    raise AssertionError("the match never ended")
