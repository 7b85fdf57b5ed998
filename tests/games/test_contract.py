"""Properties every engine must have, over random options, seats and deals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAMES, InvalidOptions, get_game
from tests.games.contract import play_checked, setups


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
