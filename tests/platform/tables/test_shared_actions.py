"""The table page's controls never modify the engines' shared, read-only legal actions."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games import GAMES, get_game
from tables.labels import action_label
from tables.rendering import play_controls
from tables.templatetags.cards import hint


@pytest.mark.parametrize("name", list(GAMES))
def test_controls_labels_and_hints_leave_listed_actions_as_they_were(name: str) -> None:
    game = get_game(name)
    rng = random.Random(9)
    seen: dict[int, tuple[dict, dict]] = {}
    for number in range(4):
        seats = game.min_seats + number % 2
        state = game.new(seats=seats, seed=number)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            for a in legal:
                seen.setdefault(id(a), (a, copy.deepcopy(a)))
            view = state.view(seat)
            controls = play_controls(name, legal, view)
            json.dumps({"legal": legal, "controls": controls})  # what the socket sends
            for a in legal:
                action_label(name, a)
                hint(a, name)
            state.apply(seat, rng.choice(legal))
    changed = [then for now, then in seen.values() if now != then]
    assert not changed, f"the page changed a listed action: {changed[0]}"
