"""Hypothesis properties beyond the generic contract: any placement applies, games end well."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.verish.rules import kinds_for
from games.verish.state import VerishState
from tests.games.contract import leaks

from .helpers import GAME

SETUPS = [
    (options, seats)
    for deck, top in ((36, 6), (52, 8))
    for kind in ("rank", "suit")
    for max_cards in (1, 2, 8)
    for seats in range(2, top + 1)
    for options in [{"deck": deck, "kind": kind, "max_cards": max_cards}]
]


def random_placement(state: VerishState, seat: int, rng: random.Random) -> dict[str, Any]:
    """Any legal move, not only the listed ones: a random subset under a random kind."""
    hand = state.hands[seat]
    if state.phase == "answer" and (not hand or rng.random() < 0.3):
        return {"type": rng.choice(["believe", "doubt"])}
    cards = rng.sample(hand, rng.randint(1, min(len(hand), state.options["max_cards"])))
    if state.phase == "answer":
        return {"type": "add", "cards": cards}
    kinds = kinds_for(state.options["deck"], state.options["kind"])
    return {"type": "claim", "cards": cards, "kind": rng.choice(kinds)}


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**31), unlisted=st.booleans())
def test_every_game_ends_with_one_loser_and_everyone_else_finished(
    setup: tuple[dict[str, Any], int], seed: int, unlisted: bool
) -> None:
    """V5/V6 over every option combination, with listed or arbitrary (V2/V3) placements."""
    options, seats = setup
    rng = random.Random(seed)
    state = GAME.new(options=options, seats=seats, dealer=rng.randrange(seats), seed=seed)
    assert isinstance(state, VerishState)
    moves = []
    for _ in range(5000):
        if state.is_over():
            break
        seat = state.to_act()[0]
        action = random_placement(state, seat, rng) if unlisted else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        moves.append((seat, action))
        if rng.random() < 0.1:
            assert not leaks(state)
    else:
        raise AssertionError("no end after 5000 actions")
    result = state.result()
    assert result is not None
    loser, finished = result["loser"], result["finished"]
    assert sorted([*finished, loser]) == list(range(seats))
    assert all(not state.hands[s] for s in finished)
    assert sorted(state.discard + state.hands[loser]) == sorted(state.deck)
    assert not state.pile
    replayed = GAME.replay(options, seats, state.dealer, state.deck, moves)
    assert json.dumps(replayed.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_apply_accepts_every_subset_of_the_hand_under_every_kind(data: st.DataObject) -> None:
    """The docstring's promise: legal_actions is representative, apply takes any legal placement."""
    options, seats = data.draw(st.sampled_from(SETUPS))
    state = GAME.new(options=options, seats=seats, seed=data.draw(st.integers(0, 2**31)))
    assert isinstance(state, VerishState)
    seat = state.turn
    hand = state.hands[seat]
    limit = min(len(hand), options["max_cards"])
    cards = data.draw(st.lists(st.sampled_from(hand), min_size=1, max_size=limit, unique=True))
    kind = data.draw(st.sampled_from(kinds_for(options["deck"], options["kind"])))
    opened = state.copy()
    opened.apply(seat, {"type": "claim", "cards": cards, "kind": kind})
    assert opened.view(None)["pile"]["count"] == len(cards)
    answerer = opened.turn
    other = opened.hands[answerer]
    more = data.draw(st.lists(st.sampled_from(other), min_size=1, max_size=min(len(other), limit), unique=True))
    opened.apply(answerer, {"type": "add", "cards": more})
    assert opened.view(None)["pile"]["count"] == len(cards) + len(more)
    assert opened.view(None)["kind"] == kind
