"""D5: covering, with the dummy and spades-by-spades variants."""

from __future__ import annotations

import pytest

from tests.games.durak.helpers import attack, cover, position, refused, table

DEFENDER = ["7C", "9C", "6H", "AH", "7S", "QS"]


def defend(lead: str, trump: str | None = "H", **options: object):
    state = position({0: [lead, "KD"], 1: DEFENDER}, attacker=0, trump=trump, **options)
    state.apply(0, attack(lead))
    return state


@pytest.mark.parametrize("card", ["9C", "6H", "AH"])
def test_d5_a_higher_card_of_the_suit_or_any_trump_covers_a_plain_card(card: str) -> None:
    state = defend("8C")
    state.apply(1, cover("8C", card))
    assert table(state) == [("8C", card)]


@pytest.mark.parametrize("card", ["7C", "7S", "QS"])
def test_d5_a_lower_card_or_another_plain_suit_does_not_cover(card: str) -> None:
    state = defend("8C")
    assert "does not beat" in refused(state, 1, cover("8C", card))
    assert {"type": "cover", "attack": "8C", "card": card} not in state.legal_actions(1)


def test_d5_a_trump_is_covered_only_by_a_higher_trump() -> None:
    state = defend("TH")
    covers = {a["card"] for a in state.legal_actions(1) if a["type"] == "cover"}
    assert covers == {"AH"}
    refused(state, 1, cover("TH", "6H"), "does not beat")


def test_d5_the_dummy_covers_any_card_and_any_card_covers_the_dummy() -> None:
    state = position({0: ["AH", "KD"], 1: ["X1", "6C"]}, attacker=0, dummy=True)
    state.apply(0, attack("AH"))
    state.apply(1, cover("AH", "X1"))
    assert table(state) == [("AH", "X1")]
    state = position({0: ["X1", "KD"], 1: ["6C", "7C"]}, attacker=0, dummy=True)
    state.apply(0, attack("X1"))
    state.apply(1, cover("X1", "6C"))
    assert table(state) == [("X1", "6C")]


def test_d5_spades_by_spades_only_a_higher_spade_covers_a_spade() -> None:
    state = defend("6S", spades_by_spades=True)
    covers = {a["card"] for a in state.legal_actions(1) if a["type"] == "cover"}
    assert covers == {"7S", "QS"}  # not the trumps 6H and AH
    refused(state, 1, cover("6S", "AH"), "does not beat")


def test_d5_spades_by_spades_a_spade_never_covers_another_suit() -> None:
    state = defend("8D", spades_by_spades=True)
    covers = {a["card"] for a in state.legal_actions(1) if a["type"] == "cover"}
    assert covers == {"6H", "AH"}


def test_d5_spades_by_spades_the_queen_covers_every_spade_and_none_covers_her() -> None:
    state = position({0: ["AS", "KD"], 1: DEFENDER}, attacker=0, spades_by_spades=True)
    state.apply(0, attack("AS"))
    state.apply(1, cover("AS", "QS"))
    state = position({0: ["QS", "KD"], 1: ["KS", "AS", "AH", "6C"]}, attacker=0, spades_by_spades=True)
    state.apply(0, attack("QS"))
    assert [a["type"] for a in state.legal_actions(1)] == ["take"]


def test_d5_covering_errors_name_the_problem() -> None:
    state = defend("8C")
    refused(state, 1, cover("8C", "KD"), "you do not hold KD")
    refused(state, 1, cover("9D", "9C"), "not an attack card")
    refused(state, 1, cover("8C", "Z9"), "not a card code")
    refused(state, 0, cover("8C", "KD"), "cannot cover")
    state.apply(1, cover("8C", "9C"))
    refused(state, 1, cover("8C", "AH"), "every card is covered")
