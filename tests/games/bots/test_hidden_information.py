"""A bot's decision uses no hidden information.

Bots get only a view dict, the legal actions and the public log: never a State.
Two positions that differ only in cards the seat cannot see (another seat's
hand, the stock, the face-down pile) give identical views, logs and legal
actions for that seat, so every level must choose the same action in both with
the same rng seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import get_game
from games.base import State
from games.bots import get_bot, public_action

LEVELS = ["random", "heuristic", "strong"]


def _bot(level: str):
    return get_bot(level, budget_seconds=30, max_iterations=4) if level == "strong" else get_bot(level)


def _twin(game: str, state: State, data: dict[str, Any]) -> State:
    twin = get_game(game).from_json(data)
    assert twin.to_json() != state.to_json()
    return twin


def _same_choice(game: str, a: State, b: State, seat: int, level: str) -> None:
    va, vb = a.view(seat), b.view(seat)
    assert va == vb, "the two positions must look the same to the seat"
    la, lb = a.legal_actions(seat), b.legal_actions(seat)
    bot = _bot(level)
    pick_a = bot.choose(game, va, la, [], random.Random(42))
    pick_b = bot.choose(game, vb, lb, [], random.Random(42))
    assert pick_a == pick_b


@pytest.mark.parametrize("level", LEVELS)
def test_durak_opponent_hand_and_stock_are_invisible(level: str) -> None:
    state = get_game("durak").new(seats=2, seed=3)
    seat = state.to_act()[0]
    other = 1 - seat
    data = state.to_json()
    # swap the opponent's whole hand with six stock cards (the turned trump stays last)
    hand, stock = data["hands"][other], data["stock"]
    data["hands"][other], data["stock"] = stock[:6], hand + stock[6:]
    _same_choice("durak", state, _twin("durak", state, data), seat, level)


@pytest.mark.parametrize("level", LEVELS)
def test_biznes_other_hands_are_invisible(level: str) -> None:
    state = get_game("biznes").new(seats=4, seed=8)
    state.apply(1, {"type": "bid", "tricks": 1, "suit": "H"})
    seat = state.to_act()[0]
    data = state.to_json()
    a, b = [s for s in range(4) if s != seat][:2]
    data["hands"][a], data["hands"][b] = data["hands"][b], data["hands"][a]
    _same_choice("biznes", state, _twin("biznes", state, data), seat, level)


@pytest.mark.parametrize("level", LEVELS)
def test_verish_pile_and_hands_are_invisible(level: str) -> None:
    state = get_game("verish").new(seats=3, seed=4)
    opener = state.to_act()[0]
    card = state.hands[opener][0]
    state.apply(opener, {"type": "claim", "cards": [card], "kind": card[0]})
    seat = state.to_act()[0]
    data = state.to_json()
    other = next(s for s in range(3) if s not in (seat, opener))
    # the face-down card and one card of a third hand trade places
    pile_card = data["pile"][0]["cards"][0]
    data["pile"][0]["cards"][0] = data["hands"][other][0]
    data["hands"][other][0] = pile_card
    _same_choice("verish", state, _twin("verish", state, data), seat, level)


def test_a_bot_refuses_a_state() -> None:
    state = get_game("durak").new(seats=2, seed=1)
    seat = state.to_act()[0]
    for level in LEVELS:
        with pytest.raises(TypeError):
            _bot(level).choose("durak", state, state.legal_actions(seat), [], random.Random(1))  # type: ignore[arg-type]


def test_public_log_hides_face_down_cards() -> None:
    assert public_action("biznes", {"type": "discard", "cards": ["6C", "7D"]}) == {"type": "discard", "count": 2}
    assert public_action("verish", {"type": "claim", "cards": ["KS", "7H"], "kind": "K"}) == {
        "type": "claim",
        "count": 2,
        "kind": "K",
    }
    assert public_action("verish", {"type": "add", "cards": ["9D"]}) == {"type": "add", "count": 1}
    cover = {"type": "cover", "attack": "6H", "card": "7H"}
    assert public_action("durak", cover) == cover
    assert public_action("biznes", {"type": "play", "card": "X1", "as": "AH"}) == {
        "type": "play",
        "card": "X1",
        "as": "AH",
    }


def test_public_history_rebuilds_the_live_log() -> None:
    """The platform can rebuild a bot's history from the stored full move log."""
    from games.bots import public_record
    from games.bots.public import public_history

    state = get_game("verish").new(seats=3, seed=6)
    bot, rng = get_bot("heuristic"), random.Random(6)
    moves, live = [], []
    while not state.is_over():
        seat = state.to_act()[0]
        action = bot.choose("verish", state.view(seat), state.legal_actions(seat), live, rng)
        state.apply(seat, action)
        moves.append((seat, action))
        live.append((seat, public_record("verish", action, state.view(None))))
    assert public_history("verish", state.options, 3, state.dealer, state.deck, moves) == live
    assert any("check" in a for _, a in live)
    assert all("cards" not in a for _, a in live if a["type"] in ("claim", "add"))
