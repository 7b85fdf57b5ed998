"""B10 the match: dealer rotation, void deals, running totals, shared places, JSON."""

from __future__ import annotations

import json

import pytest

from games import InvalidOptions
from games.biznes import Match
from games.biznes.state import BiznesState


def finished(state: BiznesState) -> BiznesState:
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        # the first bidder bids one trick, everyone else takes the timeout move
        action = legal[1] if state.phase == "bidding" and not state.bids else state.default_action(seat)
        state.apply(seat, action)
    return state


def void_deal(match: Match) -> BiznesState:
    state = match.new_deal(seed=1)
    for _ in range(match.seats):
        state.apply(state.to_act()[0], {"type": "pass"})
    return state


def result(scores: list, void: bool = False) -> dict:
    return {
        "void": void,
        "caught": False,
        "made": True,
        "scores": scores,
        "tricks": [0] * len(scores),
        "roles": [None] * len(scores),
        "contract": None,
    }


def test_default_length_is_twice_round_the_table() -> None:
    assert Match(seats=4).length == 8
    assert Match(seats=6, options={"deck": 54}).length == 12
    assert Match(seats=5, length=3).length == 3


def test_bad_match_setup_is_refused() -> None:
    for kwargs, name in [
        ({"seats": 4, "length": 0}, "length"),
        ({"seats": 4, "length": "8"}, "length"),
        ({"seats": 7}, "seats"),
        ({"seats": 6, "options": {"deck": 36}}, "deck"),
        ({"seats": 4, "dealer": 4}, "dealer"),
    ]:
        with pytest.raises(InvalidOptions, match=name):
            Match(**kwargs)


def test_dealer_moves_left_and_stays_after_a_void_deal() -> None:
    match = Match(seats=4, dealer=2, length=3)
    state = finished(match.new_deal(seed=3))
    assert state.dealer == 2 and state.next_game()[0] == 3
    match.record(state)
    assert match.dealer == 3
    void = void_deal(match)
    assert void.next_game() == (3, match.options)
    match.record(void)
    assert match.dealer == 3 and match.played == 1 and len(match.deals) == 2
    assert match.deals[1]["void"] and match.deals[1]["number"] is None
    match.record(finished(match.new_deal(seed=4)))
    assert match.dealer == 0


def test_void_deals_do_not_count_towards_the_length() -> None:
    match = Match(seats=4, length=2)
    match.record(void_deal(match))
    match.record(void_deal(match))
    assert not match.is_over()
    match.record(finished(match.new_deal(seed=1)))
    match.record(finished(match.new_deal(seed=2)))
    assert match.is_over() and match.played == 2 and len(match.deals) == 4
    with pytest.raises(InvalidOptions, match="over"):
        match.new_deal()


def test_running_totals_keep_half_points_exactly() -> None:
    match = Match(seats=4, length=5)
    for scores in ([-1.5, 2, 3, 0], [1.5, -2, 0.5, 1], [0.5, 0, 0, -0.5]):
        match.record(result(scores))
    assert match.totals == [1, 0, 7, 1]  # halves
    assert match.to_json()["totals"] == [0.5, 0, 3.5, 0.5]
    assert [row["totals"] for row in match.deals][1] == [0, 0, 3.5, 1]


def test_standings_share_places_on_ties() -> None:
    match = Match(seats=5, length=1)
    match.record(result([3, 5, 3, -1.5, 5]))
    assert match.standings() == [
        {"seat": 1, "total": 5, "place": 1},
        {"seat": 4, "total": 5, "place": 1},
        {"seat": 0, "total": 3, "place": 3},
        {"seat": 2, "total": 3, "place": 3},
        {"seat": 3, "total": -1.5, "place": 5},
    ]
    assert match.winners() == [1, 4]


def test_record_checks_the_deal() -> None:
    match = Match(seats=4)
    with pytest.raises(InvalidOptions, match="not over"):
        match.record(match.new_deal(seed=1))
    other = finished(BiznesState.new(seats=4, dealer=1, seed=1))
    with pytest.raises(InvalidOptions, match="dealer"):
        match.record(other)
    with pytest.raises(InvalidOptions, match="score"):
        match.record(result([1, 2, 3]))
    with pytest.raises(ValueError):
        match.record(result([0.25, 0, 0, 0]))


def test_json_round_trip() -> None:
    match = Match(seats=5, options={"widow_open": 1}, length=4, dealer=1)
    match.record(finished(match.new_deal(seed=5)))
    match.record(void_deal(match))
    match.record(finished(match.new_deal(seed=6)))
    data = json.loads(json.dumps(match.to_json()))
    again = Match.from_json(data)
    assert again.to_json() == match.to_json()
    assert (again.dealer, again.totals, again.length, again.options) == (
        match.dealer,
        match.totals,
        4,
        {"deck": 36, "widow_open": 1},
    )
    data["dealer"] = 0
    with pytest.raises(InvalidOptions):
        Match.from_json(data)
    with pytest.raises(InvalidOptions):
        Match.from_json({"game": "durak"})
