"""D6 (the throw-in right) and D4 (the bout limit L)."""

from __future__ import annotations

from tests.games.durak.helpers import DONE, attack, cover, play, position, refused, throw

HANDS3 = {
    0: ["7C", "8C", "9D", "6S", "QD", "KD"],
    1: ["TC", "JC", "QC", "AC", "TD", "JD"],
    2: ["7D", "8D", "8S", "9S", "KS", "AS"],
}


def test_d6_the_right_starts_with_the_attacker_and_only_its_holder_throws() -> None:
    state = position(HANDS3, attacker=0)
    state.apply(0, attack("7C"))
    v = state.view(None)
    assert v["throw_right"] == 0
    refused(state, 2, throw("7D"), "cannot throw in")
    # the holder may throw while the defender is still covering (listed, not to act)
    assert state.to_act() == [1]
    assert {"type": "throw", "cards": ["7D"]} not in state.legal_actions(2)


def test_d6_done_passes_the_right_clockwise_from_the_defender_and_back_to_the_attacker() -> None:
    state = play(position(HANDS3, attacker=0), (0, attack("7C")), (1, cover("7C", "TC")))
    assert state.to_act() == [0]
    refused(state, 2, DONE, "cannot say done")
    state.apply(0, DONE)
    assert state.view(None)["throw_right"] == 2
    state.apply(2, throw("7D"))  # a thrown card resets everyone's done
    state.apply(1, cover("7D", "TD"))
    assert state.to_act() == [2]
    state.apply(2, DONE)
    assert state.view(None)["throw_right"] == 0  # the attacker throws again when it comes round
    discard = state.view(None)["discard"]
    state.apply(0, DONE)
    v = state.view(None)
    assert v["phase"] == "attack" and v["discard"] == discard + 4 and v["attacker"] == 1


def test_d6_a_thrown_card_must_match_a_rank_on_the_table_attack_or_cover() -> None:
    state = play(position(HANDS3, attacker=0), (0, attack("7C")), (1, cover("7C", "TC")))
    refused(state, 0, throw("9D"), "matches no rank")
    assert state.legal_actions(0) == [{"type": "done"}]
    state.apply(0, DONE)
    acts = state.legal_actions(2)
    assert {"type": "throw", "cards": ["7D"]} in acts
    assert {"type": "throw", "cards": ["8D"]} not in acts
    state = play(position(HANDS3, attacker=0), (0, attack("8C")), (1, cover("8C", "TC")), (0, DONE))
    state.apply(2, throw("8D", "8S"))  # a set of cards in one action
    assert state.view(None)["hand_sizes"] == [5, 5, 4]


def test_d6_done_is_refused_while_a_card_is_uncovered() -> None:
    state = position(HANDS3, attacker=0)
    state.apply(0, attack("7C"))
    refused(state, 0, DONE, "uncovered")


def test_d6_the_bout_is_beaten_at_once_when_nothing_more_may_be_added() -> None:
    # L = 1: the defender holds one card
    stock = ["6C", "6D", "6S", "6H", "8C", "8D", "8S", "8H", "9C", "9D"]
    state = position({0: ["7C", "7D", "7S"], 1: ["TC"]}, attacker=0, stock=stock)
    assert state.view(None)["limit"] == 1
    state.apply(0, attack("7C"))
    refused(state, 0, throw("7D"), "limit")
    state.apply(1, cover("7C", "TC"))
    v = state.view(None)
    assert v["phase"] == "attack" and v["attacker"] == 1 and v["table"] == []


def test_d6_the_defender_covering_his_last_card_ends_the_bout() -> None:
    state = position({0: ["7C", "7D"], 1: ["TC"], 2: ["8S", "9S"]}, attacker=0, seats=3)
    state.apply(0, attack("7C"))
    state.apply(1, cover("7C", "TC"))
    assert 1 in state.view(None)["finished"]


def test_d4_first_bout_limit_until_the_first_discard_then_bout_limit() -> None:
    hands = {0: ["7C", "7D", "7S", "7H", "8C", "8D"], 1: ["9C", "9D", "9S", "9H", "TC", "TD"]}
    stock = ["JC", "JD", "JS", "QC", "QD", "QS", "KC", "KD", "KS", "AC", "AD", "AS"]
    state = position(hands, attacker=0, stock=stock, discarded=False)
    assert state.view(None)["limit"] == 5
    state.apply(0, attack("7C", "7D", "7S", "7H"))
    state.apply(1, cover("7C", "9C"))
    refused(state, 0, throw("9D"), "you do not hold")
    state.apply(1, {"type": "take"})
    state.apply(0, DONE)
    v = state.view(None)
    assert (v["phase"], v["attacker"]) == ("attack", 0)
    assert v["limit"] == 5  # taken: the first-bout limit stays until the first discard (D4)
    state.apply(0, attack("8C"))
    state.apply(1, cover("8C", "TC"))
    state.apply(0, DONE)
    assert state.view(None)["limit"] == 6


def test_d4_the_first_bout_limit_stops_throw_ins() -> None:
    hands = {0: ["7C", "7D", "7S", "7H", "8C", "8D"], 1: ["9C", "9D", "9S", "9H", "TC", "TD"]}
    state = position(hands, attacker=0, stock=["JC", "JD"], discarded=False, first_bout_limit=2, bout_limit=3)
    state.apply(0, attack("7C"))
    state.apply(1, cover("7C", "9C"))
    state.apply(0, throw("7D"))
    refused(state, 0, throw("7S"), "limit is 2")
    state.apply(1, cover("7D", "9D"))
    v = state.view(None)
    assert v["phase"] == "attack" and v["limit"] == 3 and v["attacker"] == 1


def test_d4_the_limit_is_capped_by_the_defenders_hand_when_the_bout_starts() -> None:
    state = position({0: ["7C", "7D", "7S", "7H"], 1: ["9C", "9D", "AH"]}, attacker=0)
    assert state.view(None)["limit"] == 3
    refused(state, 0, attack("7C", "7D", "7S", "7H"), "limit is 3")
    leads = state.legal_actions(0)
    assert max(len(a["cards"]) for a in leads) == 3
    assert len(leads) == 4 + 6 + 4  # every subset of the four sevens with at most 3 cards
