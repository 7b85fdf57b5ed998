"""Sampled worlds agree with everything the seat knows: the same view, and every legal action applies."""

from __future__ import annotations

import random

import pytest

from games.bots import worlds_biznes, worlds_durak, worlds_verish

from .helpers import replay_positions

SAMPLERS = {"durak": worlds_durak, "biznes": worlds_biznes, "verish": worlds_verish}
CASES = [
    ("durak", {}, 2),
    ("durak", {"mode": "transfer", "dummy": True}, 3),
    ("durak", {"teams": True, "throw_in": "neighbors"}, 4),
    ("durak", {"deck": 52, "spades_by_spades": True, "lead": "single"}, 6),
    ("biznes", {}, 4),
    ("biznes", {"deck": 54, "widow_open": 1}, 5),
    ("biznes", {"deck": 52}, 6),
    ("verish", {}, 2),
    ("verish", {"kind": "suit", "deck": 52, "max_cards": 3}, 5),
]


@pytest.mark.parametrize(("game", "options", "seats"), CASES)
def test_worlds_match_the_view(game: str, options: dict, seats: int) -> None:
    rng = random.Random(0)
    checked = 0
    for seed in range(1, 6):
        for state, seat, history in replay_positions(game, options, seats, seed, every=4):
            view = state.view(seat)
            world = SAMPLERS[game].sample(view, history, rng)
            assert world.view(seat) == view
            assert world.to_act() == state.to_act()
            for action in state.legal_actions(seat)[:20]:
                world.copy().apply(seat, action)
            checked += 1
    assert checked > 10


def test_durak_taken_cards_stay_known() -> None:
    """Cards a defender picked up (D7) are placed in his hand in every sampled world."""
    rng = random.Random(1)
    for state, seat, history in replay_positions("durak", {}, 2, seed=9, every=1):
        k = worlds_durak.knowledge(state.view(seat), history)
        other = 1 - seat
        if k.known[other] and state.phase == "attack":
            world = worlds_durak.sample(state.view(seat), history, rng)
            assert k.known[other] <= set(world.hands[other])
            assert k.known[other] <= set(state.hands[other])
            return
    pytest.fail("no position with known cards found")


def test_biznes_voids_are_respected() -> None:
    rng = random.Random(2)
    found = False
    for seed in range(1, 8):
        for state, seat, history in replay_positions("biznes", {}, 4, seed, every=1):
            voids = worlds_biznes.voids(history, 4)
            if any(voids[s] for s in range(4) if s != seat):
                world = worlds_biznes.sample(state.view(seat), history, rng)
                for s in range(4):
                    if s != seat:
                        assert not any(c[1] in voids[s] for c in world.hands[s] if c not in ("X1", "X2"))
                found = True
    assert found
