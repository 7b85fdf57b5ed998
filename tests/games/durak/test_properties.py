"""Hypothesis properties specific to Durak, over random options, seats and deals.

The generic contract properties live in tests/games/test_contract.py; these add
the rules' own invariants (D4 limit, D6 throwers, teams), the exactness of the
listed actions, teams x transfer combinations and replays with D2 redeals.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import IllegalAction
from games.durak import GAME, DurakState
from tests.games.contract import play_checked

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def durak_setups(draw: st.DrawFn, teams: bool | None = None) -> tuple[dict[str, Any], int, int, int]:
    deck = draw(st.sampled_from([36, 52]))
    with_teams = draw(st.booleans()) if teams is None else teams
    seats = draw(st.sampled_from([4, 6] if with_teams else list(range(2, 7 if deck == 36 else 9))))
    options = {
        "deck": deck,
        "mode": draw(st.sampled_from(["throw_in", "transfer"])),
        "lead": draw(st.sampled_from(["same_rank", "single"])),
        "throw_in": draw(st.sampled_from(["all", "neighbors"])),
        "first_bout_limit": draw(st.integers(1, 6)),
        "bout_limit": draw(st.integers(1, 6)),
        "dummy": draw(st.booleans()),
        "spades_by_spades": draw(st.booleans()),
        "trump_show": draw(st.booleans()),
        "teams": with_teams,
        "redeal_five_of_suit": draw(st.booleans()),
        "first_attacker": draw(st.none() | st.integers(0, seats - 1)),
    }
    return options, seats, draw(st.integers(0, seats - 1)), draw(st.integers(0, 2**31))


def check_invariants(state: DurakState) -> None:
    v = state.view(None)
    if v["over"]:
        return
    a, d = v["attacker"], v["defender"]
    attacks = [t["attack"] for t in v["table"]]
    cap = state.options["bout_limit" if state.discarded else "first_bout_limit"]
    # D4: the bout never holds more than L attack cards, L <= limit
    assert len(attacks) <= v["limit"] <= cap
    # L never exceeds what the defender can still answer
    open_cards = sum(1 for t in v["table"] if t["cover"] is None)
    assert open_cards <= v["hand_sizes"][d]
    assert a != d and v["in_game"][d]
    if state.teams:
        assert (a - d) % 2 == 1, "teams: the attacker attacks an opponent"
    holder = v["throw_right"]
    if holder is not None:
        assert holder != d and v["hand_sizes"][holder] > 0
        if state.teams:
            assert (holder - d) % 2 == 1, "teams: only the defender's opponents throw in"
    expected = {"attack": [a], "taking": [holder]}.get(v["phase"], [d] if open_cards else [holder])
    assert v["to_act"] == expected


def play_randomly(state: DurakState, rng: random.Random, check: Any = None) -> DurakState:
    for _ in range(5000):
        if state.is_over():
            return state
        movers = {s: acts for s in range(state.seats) if (acts := state.legal_actions(s))}
        if check:
            check(state, movers)
        seat = rng.choice(list(movers))
        state.apply(seat, rng.choice(movers[seat]))
        check_invariants(state)
    raise AssertionError("no end after 5000 actions")


@SETTINGS
@given(durak_setups())
def test_random_games_keep_the_rules_invariants(setup: tuple[dict[str, Any], int, int, int]) -> None:
    options, seats, dealer, seed = setup
    state = GAME.new(options=options, seats=seats, dealer=dealer, seed=seed)
    check_invariants(state)  # type: ignore[arg-type]
    play_randomly(state, random.Random(seed))  # type: ignore[arg-type]
    result = state.result()
    assert result is not None
    if options["teams"]:
        assert result["draw"] or result["losing_team"] in (0, 1)
    else:
        assert result["draw"] == (result["fool"] is None)
        placed = [s for group in result["places"] for s in group]
        assert sorted(placed + ([result["fool"]] if result["fool"] is not None else [])) == list(range(seats))


@SETTINGS
@given(durak_setups(teams=True))
def test_teams_with_every_option_combination_keep_the_contract(setup: tuple[dict[str, Any], int, int, int]) -> None:
    options, seats, dealer, seed = setup
    play_checked("durak", options, seats, dealer, seed)


def _accepted(state: DurakState, seat: int, action: dict[str, Any]) -> bool:
    try:
        state.copy().apply(seat, action)
    except IllegalAction:
        return False
    return True


def exact_lists(state: DurakState, movers: dict[int, list[dict[str, Any]]]) -> None:
    """Listed leads and defences are exactly the legal ones; every legal throw set applies."""
    v = state.view(None)
    if v["phase"] == "attack":
        a = v["attacker"]
        hand = state.hands[a]
        legal = []
        for size in range(1, min(len(hand), 4) + 1):
            for cards in combinations(hand, size):
                if _accepted(state, a, {"type": "attack", "cards": list(cards)}):
                    legal.append(sorted(cards))
        assert sorted(legal) == sorted(sorted(x["cards"]) for x in movers[a])
    elif v["phase"] == "defense" and state.open:
        d = v["defender"]
        tries = [{"type": "take"}]
        for card in state.hands[d]:
            tries += [{"type": "transfer", "card": card}, {"type": "show", "card": card}]
            tries += [{"type": "cover", "attack": t["attack"], "card": card} for t in v["table"]]
        legal = [t for t in tries if _accepted(state, d, t)]
        assert sorted(map(str, legal)) == sorted(map(str, movers[d]))
    holder = v["throw_right"]
    if holder is not None and v["phase"] != "attack":
        room = v["limit"] - len(v["table"])
        match = [c for c in state.hands[holder] if c[0] in state.ranks]
        # D6 with lead "single": one card at a time, and while defending only once all is covered
        single = state.lead_single
        blocked = single and v["phase"] == "defense" and state.open > 0
        for size in range(1, min(room, len(match)) + 1):
            for cards in combinations(match, size):
                ok = not blocked and (size == 1 or not single)
                assert _accepted(state, holder, {"type": "throw", "cards": list(cards)}) == ok
        if len(match) > room and not single:  # D4: one card too many is refused
            assert not _accepted(state, holder, {"type": "throw", "cards": match[: room + 1]})
        for action in movers.get(holder, []):
            if action["type"] == "throw":
                assert len(action["cards"]) <= room


@settings(max_examples=25, deadline=None)
@given(durak_setups())
def test_listed_actions_are_exactly_the_legal_ones(setup: tuple[dict[str, Any], int, int, int]) -> None:
    options, seats, dealer, seed = setup
    state = GAME.new(options=options, seats=seats, dealer=dealer, seed=seed)
    play_randomly(state, random.Random(seed), exact_lists)  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([2, 3, 4, 6]))
def test_d2_redeals_replay_from_the_committed_deck(seed: int, seats: int) -> None:
    state = GAME.new(options={"redeal_five_of_suit": True}, seats=seats, seed=seed)
    hands = [state.view(s)["hand"] for s in range(seats)]
    assert all(max(sum(c[1] == suit for c in h) for suit in "SCDH") < 5 for h in hands)
    again = GAME.new(options={"redeal_five_of_suit": True}, seats=seats, deck=state.deck)
    assert again.to_json() == state.to_json()
