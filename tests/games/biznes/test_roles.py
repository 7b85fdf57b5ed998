"""B3 alone or with a banker; B4 roles, the lone mafioso, the contract dropping by one."""

from __future__ import annotations

import pytest

from games import IllegalAction

from .helpers import DEAL4, act, make

PASS = {"type": "pass"}


def declared(banker: bool, tricks: int = 2, seats_hands=DEAL4):
    state = act(make(seats_hands), (0, {"type": "bid", "tricks": tricks, "suit": "C"}), (1, PASS), (2, PASS), (3, PASS))
    state.apply(0, {"type": "declare", "banker": banker})
    return state


def role(r: str) -> dict:
    return {"type": "role", "role": r}


def test_roles_go_clockwise_from_the_declarers_left() -> None:
    state = declared(True)
    assert state.phase == "roles" and state.to_act() == [1]
    state.apply(1, role("thief"))
    assert state.to_act() == [2]
    state.apply(2, role("thief"))
    assert state.to_act() == [3]


def test_banker_only_when_asked_and_at_most_one() -> None:
    alone = declared(False)
    with pytest.raises(IllegalAction, match="alone"):
        alone.apply(1, role("banker"))
    assert role("banker") not in alone.legal_actions(1)
    asked = declared(True)
    assert role("banker") in asked.legal_actions(1)
    asked.apply(1, role("banker"))
    assert role("banker") not in asked.legal_actions(2)
    with pytest.raises(IllegalAction, match="banker"):
        asked.apply(2, role("banker"))
    assert asked.view(None)["banker"] == 1


def test_at_most_one_policeman_any_number_of_thieves() -> None:
    state = declared(False)
    act(state, (1, role("policeman")))
    with pytest.raises(IllegalAction, match="policeman"):
        state.apply(2, role("policeman"))
    act(state, (2, role("thief")), (3, role("thief")))
    assert state.view(None)["roles"] == ["declarer", "policeman", "thief", "thief"]


def test_mafia_of_two_stays_mafia() -> None:
    state = act(declared(False), (1, role("mafia")), (2, role("thief")), (3, role("mafia")))
    assert state.view(None)["roles"] == ["declarer", "mafia", "thief", "mafia"]


def test_lone_mafioso_is_shown_as_mafia_until_roles_are_settled_then_thief() -> None:
    state = act(declared(False), (1, role("mafia")))
    assert state.view(None)["roles"][1] == "mafia"
    act(state, (2, role("policeman")), (3, role("thief")))
    assert state.view(None)["roles"] == ["declarer", "thief", "policeman", "thief"]


def test_contract_drops_by_one_when_nobody_takes_the_banker() -> None:
    state = act(declared(True, tricks=3), (1, role("thief")), (2, role("policeman")), (3, role("mafia")))
    view = state.view(None)
    assert view["contract"] == {"tricks": 2, "suit": "C"} and view["trump"] == "C"
    assert view["banker"] is None and view["asked_banker"] is True


def test_contract_stays_when_a_banker_came_forward_or_alone() -> None:
    with_banker = act(declared(True, tricks=3), (1, role("thief")), (2, role("banker")), (3, role("thief")))
    assert with_banker.view(None)["contract"]["tricks"] == 3
    alone = act(declared(False, tricks=3), (1, role("thief")), (2, role("thief")), (3, role("thief")))
    assert alone.view(None)["contract"]["tricks"] == 3


def test_contract_of_one_drops_to_zero() -> None:
    """Decision: "drops by one" is literal; a 1-trick contract without its banker is 0."""
    state = act(declared(True, tricks=1), (1, role("thief")), (2, role("thief")), (3, role("thief")))
    assert state.view(None)["contract"]["tricks"] == 0


def test_bad_roles_are_refused() -> None:
    state = declared(True)
    before = state.to_json()
    for bad in (role("declarer"), role("king"), {"type": "role"}, {"type": "role", "role": ["thief"]}):
        with pytest.raises(IllegalAction):
            state.apply(1, bad)
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "declare", "banker": "yes"})
    assert state.to_json() == before


def test_declare_needs_a_bool() -> None:
    state = act(make(DEAL4), (0, {"type": "bid", "tricks": 2, "suit": "C"}), (1, PASS), (2, PASS), (3, PASS))
    for bad in ("yes", 1, None):
        with pytest.raises(IllegalAction, match="banker"):
            state.apply(0, {"type": "declare", "banker": bad})
    assert state.legal_actions(0) == [{"type": "declare", "banker": False}, {"type": "declare", "banker": True}]
    assert state.default_action(0) == {"type": "declare", "banker": False}


def test_play_starts_with_the_declarer_after_the_last_role() -> None:
    state = act(declared(False), (1, role("thief")), (2, role("thief")), (3, role("thief")))
    assert state.phase == "play" and state.to_act() == [0] and state.view(None)["leader"] == 0
    assert state.default_action(0) == {"type": "play", "card": "6D"}  # the lowest card that is not a trump
