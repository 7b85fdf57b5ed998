"""Properties every engine must have, over random options, seats and deals."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAMES, InvalidOptions, State, get_game
from tests.games.contract import (
    copies_are_independent,
    describes_while_applying,
    play_checked,
    refuses_bad_moves,
    refuses_bad_setups,
    refuses_moves_once_over,
    setups,
)


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_random_games_keep_the_contract(name: str, data: st.DataObject) -> None:
    """Conservation, no leaks, listed actions apply, to_act can move, ends, replays."""
    options, seats, dealer, seed = data.draw(setups(name))
    play_checked(name, options, seats, dealer, seed)


@pytest.mark.parametrize("name", list(GAMES))
def test_bad_setup_is_refused_with_the_option_named(name: str) -> None:
    game = get_game(name)
    with pytest.raises(InvalidOptions, match="no_such_option"):
        game.new(options={"no_such_option": 1}, seats=game.min_seats)
    with pytest.raises(InvalidOptions, match="seats"):
        game.new(seats=game.max_seats + 1)
    with pytest.raises(InvalidOptions, match="dealer"):
        game.new(seats=game.min_seats, dealer=game.min_seats)
    deck = game.new(seats=game.min_seats, seed=3).deck
    with pytest.raises(InvalidOptions, match="deck"):
        game.new(seats=game.min_seats, deck=deck[:-1])
    with pytest.raises(InvalidOptions, match="deck"):
        game.new(seats=game.min_seats, deck=[deck[0], *deck[:-1]])


@pytest.mark.parametrize("name", list(GAMES))
def test_same_seed_same_deal_and_secure_shuffle_otherwise(name: str) -> None:
    game = get_game(name)
    assert game.new(seats=game.min_seats, seed=7).deck == game.new(seats=game.min_seats, seed=7).deck
    decks = {tuple(game.new(seats=game.min_seats).deck) for _ in range(5)}
    assert len(decks) == 5


def _midgame(name: str, seats: int, moves: int, seed: int = 11) -> State:
    game = get_game(name)
    state = game.new(seats=seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert not state.is_over()
    return state


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_refuses_the_same_bad_setup_with_invalid_options(name: str) -> None:
    refuses_bad_setups(name)


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("moves", [0, 3, 9])
def test_every_game_refuses_the_same_bad_move_with_illegal_action(name: str, moves: int) -> None:
    game = get_game(name)
    seats = (game.min_seats + game.max_seats) // 2 if moves == 9 else game.min_seats
    refuses_bad_moves(_midgame(name, seats, moves))


@pytest.mark.parametrize("name", list(GAMES))
def test_a_finished_game_refuses_every_move_and_gives_the_next_one(name: str) -> None:
    game = get_game(name)
    state = game.new(seats=game.min_seats, seed=5)
    rng = random.Random(5)
    tried: list[tuple[int, dict]] = []
    while not state.is_over():
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        tried.append((seat, action))
        state.apply(seat, action)
    refuses_moves_once_over(state, tried[-5:])


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("moves", [0, 7])
def test_copies_and_snapshots_share_nothing(name: str, moves: int) -> None:
    copies_are_independent(_midgame(name, get_game(name).min_seats, moves))


@pytest.mark.parametrize("name", list(GAMES))
def test_apply_described_gives_the_words_of_the_move(name: str) -> None:
    describes_while_applying(_midgame(name, get_game(name).min_seats, 4))


SNAPSHOTS = sorted((Path(__file__).parent / "snapshots").glob("*.json"))


@pytest.mark.parametrize("path", SNAPSHOTS, ids=[p.stem for p in SNAPSHOTS])
def test_snapshots_saved_by_the_first_engines_still_load(path: Path) -> None:
    """Games in progress survive a deploy: a snapshot stored by the first engines restores
    to the same views and legal actions, saves back unchanged, and plays on like a replay."""
    saved = json.loads(path.read_text())
    name = saved["snapshot"]["game"]
    game = get_game(name)
    state = game.from_json(saved["snapshot"])
    assert state.to_json() == saved["snapshot"]
    assert [state.view(s) for s in range(state.seats)] + [state.view(None)] == saved["views"]
    assert [state.legal_actions(s) for s in range(state.seats)] == saved["legal"]
    setup = saved["setup"]
    replayed = game.replay(setup.get("options"), setup["seats"], setup["dealer"], setup["deck"], saved["moves"])
    assert replayed.to_json() == state.to_json()
