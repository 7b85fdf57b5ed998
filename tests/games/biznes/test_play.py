"""B5 play, B6 the trump change and role swap, B7 the caught declarer."""

from __future__ import annotations

import pytest

from games import IllegalAction

from .helpers import DEAL4, bid_and_roles, make, play, plays

#: seat 0 can win three tricks with aces and is then left with six hearts
ACES = [
    ["AS", "AD", "AC", "6H", "7H", "8H", "9H", "TH", "JH"],
    ["6S", "7S", "8S", "6C", "7C", "8C", "6D", "7D", "8D"],
    ["9S", "TS", "JS", "9C", "TC", "JC", "QH", "KH", "AH"],
    ["QS", "KS", "QC", "KC", "9D", "TD", "JD", "QD", "KD"],
]
THIEVES = ["thief", "thief", "thief"]


def test_declarer_leads_and_may_not_lead_a_trump() -> None:
    """B5: the declarer leads the first trick; never a trump."""
    state = bid_and_roles(make(DEAL4), 2, "C", THIEVES)
    assert plays(state, 0) == {"AS", "KS", "6D", "7D"}
    with pytest.raises(IllegalAction, match="may not lead a trump"):
        state.apply(0, {"type": "play", "card": "6C"})


def test_follow_suit_else_anything_and_no_need_to_trump() -> None:
    state = bid_and_roles(make(DEAL4), 2, "C", THIEVES)
    play(state, "6D")
    assert plays(state, 1) == {"8D", "9D", "TD"}
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply(1, {"type": "play", "card": "JC"})
    play(state, "8D", "AD")
    assert plays(state, 3) == set(DEAL4[3])  # no diamond: any card, trump or not
    play(state, "9H")
    assert state.view(None)["tricks"] == [0, 0, 1, 0]  # the highest diamond won
    assert state.view(None)["last_trick"]["winner"] == 2
    assert state.to_act() == [2]


def test_highest_trump_wins_and_others_may_lead_trumps() -> None:
    state = bid_and_roles(make(DEAL4), 2, "C", THIEVES)
    play(state, "6D", "8D", "JD", "KH")  # seat 3 has no diamond and throws KH: JD wins
    assert state.to_act() == [2]
    play(state, "KD", "AH", "7D", "TD")
    assert state.to_act() == [2]
    play(state, "AD")
    assert plays(state, 3) == set(DEAL4[3]) - {"KH", "AH"}
    play(state, "QH", "6C", "9D")  # seat 0, out of diamonds, trumps with the lowest club
    assert state.to_act() == [0] and state.view(None)["counted"] == 1
    # a thief leading a trump is fine; only the declarer is barred
    state2 = bid_and_roles(make(DEAL4), 2, "H", THIEVES)
    play(state2, "AS", "6S", "7S", "8S")
    play(state2, "6D", "8D", "JD", "TS")
    assert state2.to_act() == [2] and "6H" in plays(state2, 2)


def test_no_change_before_the_first_trick_then_once_by_the_declarer() -> None:
    state = bid_and_roles(make(ACES), 2, "C", THIEVES)
    assert {"type": "change"} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="first trick"):
        state.apply(0, {"type": "change"})
    play(state, "AS", "6S", "9S", "QS")
    assert {"type": "change"} in state.legal_actions(0)
    state.apply(0, {"type": "change"})
    assert state.phase == "change" and state.to_act() == [0]  # alone: the declarer names
    assert state.legal_actions(0) == [{"type": "trump", "suit": s} for s in "SDH"]
    with pytest.raises(IllegalAction, match="already trump"):
        state.apply(0, {"type": "trump", "suit": "C"})
    state.apply(0, {"type": "trump", "suit": "S"})
    view = state.view(None)
    assert (view["trump"], view["change_used"], view["declarer"], view["phase"]) == ("S", True, 0, "play")
    assert view["contract"] == {"tricks": 2, "suit": "C"}  # the contract keeps its bid suit
    assert "AC" in plays(state, 0)  # clubs are no longer trumps
    play(state, "AD", "6D", "QH", "9D")
    assert {"type": "change"} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="already used"):
        state.apply(0, {"type": "change"})


def test_change_is_called_only_by_the_declarer_about_to_lead() -> None:
    state = bid_and_roles(make(DEAL4), 2, "C", THIEVES)
    play(state, "6D", "8D", "JD", "KH")  # seat 2 wins and leads
    with pytest.raises(IllegalAction):
        state.apply(2, {"type": "change"})
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(0, {"type": "change"})


def test_change_with_banker_banker_names_and_roles_swap() -> None:
    """B6: the banker names the trump; the old declarer (now banker) leads freely, the new
    declarer may not lead trumps, and only the declarer at the time counts tricks."""
    state = bid_and_roles(make(ACES), 2, "C", ["thief", "banker", "policeman"], banker=True)
    play(state, "AS", "6S", "9S", "QS")
    state.apply(0, {"type": "change"})
    assert state.to_act() == [2]
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(0, {"type": "trump", "suit": "H"})
    state.apply(2, {"type": "trump", "suit": "H"})
    view = state.view(None)
    assert (view["declarer"], view["banker"], view["trump"]) == (2, 0, "H")
    assert view["roles"] == ["banker", "thief", "declarer", "policeman"]
    assert state.to_act() == [0] and "6H" in plays(state, 0)  # the new banker may lead a trump
    play(state, "6H", "6D", "QH", "9D")  # the new declarer wins with QH
    assert state.view(None)["counted"] == 2 and state.to_act() == [2]
    assert plays(state, 2) == {"TS", "JS", "9C", "TC", "JC"}  # no KH, AH: trumps
    with pytest.raises(IllegalAction, match="may not lead a trump"):
        state.apply(2, {"type": "play", "card": "KH"})
    assert {"type": "change"} not in state.legal_actions(2)


def test_tricks_of_the_banker_do_not_count() -> None:
    state = bid_and_roles(make(ACES), 2, "C", ["thief", "banker", "policeman"], banker=True)
    play(state, "AD", "6D", "QH", "9D")  # clubs are trumps: the declarer's ace wins
    assert state.view(None)["tricks"] == [1, 0, 0, 0]
    state = bid_and_roles(make(ACES), 2, "H", ["thief", "banker", "policeman"], banker=True)
    play(state, "AD", "6D", "QH", "9D")  # hearts are trumps: the banker trumps the ace
    assert state.view(None)["tricks"] == [0, 0, 1, 0] and state.view(None)["counted"] == 0


def test_declarer_with_only_trumps_must_change() -> None:
    """B7: after the first trick, nothing but trumps forces the change."""
    state = bid_and_roles(make(ACES), 2, "H", THIEVES)
    play(state, "AS", "6S", "9S", "QS", "AD", "6D", "JC", "9D", "AC", "6C", "9C", "QC")
    assert state.to_act() == [0] and state.view(None)["counted"] == 3
    assert state.legal_actions(0) == [{"type": "change"}]
    assert state.default_action(0) == {"type": "change"}
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "play", "card": "6H"})
    state.apply(0, {"type": "change"})
    assert state.default_action(0) == {"type": "trump", "suit": "S"}  # holds no other suit: S C D order
    state.apply(0, {"type": "trump", "suit": "D"})
    assert not state.is_over() and "6H" in plays(state, 0)


def test_caught_at_the_first_lead() -> None:
    """B7: nothing but trumps before the first trick: caught, the deal stops at once."""
    state = bid_and_roles(make(ACES), 1, "H", ["banker", "thief", "policeman"], banker=True)
    assert not state.is_over()  # AS, AD, AC are not trumps
    only_hearts = [
        ["6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
        ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
        ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
        ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
    ]
    state = bid_and_roles(make(only_hearts), 1, "H", ["banker", "thief", "policeman"], banker=True)
    assert state.is_over() and state.to_act() == []
    result = state.result()
    assert result["caught"] and not result["made"] and result["scores"] == [-3, -3, 0, 0]  # -(C + P), P = 2


def test_caught_after_the_change_was_used() -> None:
    """B7: the change used, a declarer left with nothing but trumps is caught, even if he
    had already made his contract; everyone else scores 0."""
    state = bid_and_roles(make(ACES), 2, "C", ["thief", "policeman", "mafia"])
    play(state, "AS", "6S", "9S", "QS")
    state.apply(0, {"type": "change"})
    state.apply(0, {"type": "trump", "suit": "H"})
    play(state, "AD", "6D", "JC", "9D")
    play(state, "AC", "6C", "9C", "QC")
    assert state.is_over()
    result = state.result()
    assert result["caught"] and not result["made"]
    assert result["tricks"] == [3, 0, 0, 0]
    assert result["scores"] == [-5, 0, 0, 0]  # -(C + P) = -(2 + 3)
    assert state.view(None)["hand_sizes"] == [6, 6, 6, 6]  # the deal stopped with cards in hand


def test_declarer_naming_a_suit_he_holds_only_of_is_caught_at_once() -> None:
    """B6/B7 without a banker: the declarer names the trump, then must lead at once."""
    state = bid_and_roles(make(ACES), 2, "C", THIEVES)
    play(state, "AS", "6S", "9S", "QS", "AD", "6D", "QH", "9D")
    play(state, "6H", "6C", "KH", "QC")  # seat 3 over-trumps seat 1
    play(state, "KS", "AC", "7S", "TS")  # seat 0 trumps the spade with AC
    assert state.to_act() == [0] and state.view(None)["counted"] == 3
    assert plays(state, 0) == {"7H", "8H", "9H", "TH", "JH"}
    state.apply(0, {"type": "change"})
    state.apply(0, {"type": "trump", "suit": "H"})
    assert state.is_over() and state.result()["caught"]
    assert state.result()["scores"] == [-5, 0, 0, 0]


def test_full_deal_ends_after_h_tricks_and_scores() -> None:
    state = bid_and_roles(make(ACES), 2, "C", THIEVES)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, state.default_action(seat))
    result = state.result()
    assert sum(result["tricks"]) == 9 and not result["caught"]
    assert result["made"] == (state.counted >= 2)
