"""Resigning: the framework's ``State.resign``, never an action, ends a game as each game's rules say."""

from __future__ import annotations

import random

import pytest

from games import GAMES, IllegalAction, get_game
from games.base import RESIGN_ACTION


def _played(name: str, seats: int, moves: int, seed: int = 7, **options):
    """A game after ``moves`` random legal moves, with its move log."""
    game = get_game(name)
    state = game.new(options=options, seats=seats, dealer=0, seed=seed)
    rng, log = random.Random(seed), []
    for _ in range(moves):
        if state.is_over():
            break
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        log.append((seat, action))
    assert not state.is_over()
    return game, state, log


def _cards(state) -> list[str]:
    return sorted(card for cards in state.zones().values() for card in cards)


def test_a_durak_resigner_is_the_fool_and_the_others_share_first_place() -> None:
    game, state, _ = _played("durak", 3, 4)
    before = _cards(state)
    state.resign(1)
    assert state.is_over() and state.to_act() == [] and state.legal_actions(0) == []
    assert state.result() == {"fool": 1, "draw": False, "places": [[0, 2]], "losing_team": None}
    out = game.placings(state.result(), 3, state.options)
    assert out.loser == 1 and out.placings[1].lost
    assert out.placings[0].place == out.placings[2].place == 1 and out.placings[0].won
    assert _cards(state) == before  # no card vanished
    # the next game of the match: the fool deals (D11)
    assert state.next_game()[0] == 1


def test_a_durak_team_loses_when_one_of_it_resigns() -> None:
    game, state, _ = _played("durak", 4, 3, teams=True)
    state.resign(3)
    out = game.placings(state.result(), 4, state.options)
    assert state.result()["losing_team"] == 1
    assert [out.placings[s].lost for s in range(4)] == [False, True, False, True]


def test_a_verish_resigner_loses_and_the_players_still_in_share_the_place_above() -> None:
    game, state, _ = _played("verish", 4, 2)
    state.resign(2)
    assert state.result()["loser"] == 2
    out = game.placings(state.result(), 4, state.options)
    assert out.loser == 2 and out.placings[2].place == 2
    assert {out.placings[s].place for s in (0, 1, 3)} == {1}


@pytest.mark.parametrize("name", ["durak", "verish"])
def test_a_logged_resignation_replays_to_the_same_end(name: str) -> None:
    game, state, log = _played(name, 3, 5)
    state.resign(0)
    replayed = game.replay(state.options, 3, 0, state.deck, [*log, (0, dict(RESIGN_ACTION))])
    assert replayed.to_json() == state.to_json()


@pytest.mark.parametrize("name", list(GAMES))
def test_resigning_is_never_a_legal_action_and_apply_refuses_it(name: str) -> None:
    _, state, _ = _played(name, get_game(name).min_seats + 1, 2)
    for seat in range(state.seats):
        assert all(a["type"] != "resign" for a in state.legal_actions(seat))
    with pytest.raises(IllegalAction):
        state.apply(state.to_act()[0], dict(RESIGN_ACTION))


def test_biznes_resigning_does_not_end_the_deal() -> None:
    game, state, _ = _played("biznes", 4, 2)
    assert not game.resign_ends and get_game("durak").resign_ends
    with pytest.raises(IllegalAction, match="does not end"):
        state.resign(0)
    assert not state.is_over()


def test_resigning_after_the_end_or_from_no_seat_is_refused() -> None:
    _, state, _ = _played("durak", 2, 1)
    with pytest.raises(IllegalAction):
        state.resign(5)
    state.resign(0)
    with pytest.raises(IllegalAction, match="over"):
        state.resign(1)
