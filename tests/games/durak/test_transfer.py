"""D8: transferring the attack (transfer mode), by a card or by showing a trump."""

from __future__ import annotations

from tests.games.durak.helpers import DONE, TAKE, attack, cover, play, position, refused, show, table, transfer

HANDS3 = {
    0: ["7C", "8C", "9D", "6S", "QD", "KD"],
    1: ["7D", "7H", "TC", "JC", "QC", "AC"],
    2: ["7S", "8S", "9S", "TS", "KS", "AS"],
}
STOCK = ["6C", "9C", "6D", "8D", "6H", "8H", "9H", "TH", "JH", "QH"]


def transfer_game(hands=HANDS3, **options):
    return position(hands, attacker=0, stock=STOCK, mode="transfer", **options)


def test_d8_the_defender_adds_a_card_of_the_rank_and_passes_the_attack_on() -> None:
    state = play(transfer_game(), (0, attack("7C")), (1, transfer("7D")))
    v = state.view(None)
    assert (v["attacker"], v["defender"], v["throw_right"]) == (1, 2, 1)
    assert table(state) == [("7C", None), ("7D", None)]
    assert state.to_act() == [2]
    state.apply(2, TAKE)
    state.apply(1, DONE)  # the transferring player is first in throw-in order
    state.apply(0, DONE)
    assert state.view(None)["attacker"] == 0  # left of the defender 2


def test_d8_no_transfer_in_throw_in_mode_or_once_a_card_is_covered() -> None:
    state = play(position(HANDS3, attacker=0, stock=STOCK), (0, attack("7C")))
    refused(state, 1, transfer("7D"), "transfer mode")
    state = play(transfer_game(), (0, attack("7C")), (1, cover("7C", "TC")))
    refused(state, 1, transfer("7D"), "covered already")


def test_d8_the_new_defender_must_hold_enough_cards() -> None:
    hands = {0: ["7C", "8C"], 1: ["7D", "7H", "TC"], 2: ["7S"]}
    state = play(transfer_game(hands), (0, attack("7C")))
    refused(state, 1, transfer("7D"), "cannot take 2")
    assert [a for a in state.legal_actions(1) if a["type"] == "transfer"] == []
    assert {"type": "show", "card": "7H"} in state.legal_actions(1)  # one card: showing is enough


def test_d8_the_limit_is_recomputed_for_the_new_defender() -> None:
    hands = {0: ["7C", "8C", "9C"], 1: ["7D", "7H", "TC", "JC", "QC", "AC"], 2: ["7S", "8S", "9S"]}
    state = play(transfer_game(hands), (0, attack("7C")), (1, transfer("7D")))
    assert state.view(None)["limit"] == 3


def test_d8_showing_a_trump_keeps_it_and_works_once_per_player() -> None:
    state = play(transfer_game(), (0, attack("7C")), (1, show("7H")))
    v = state.view(None)
    assert v["defender"] == 2 and v["shows"] == [None, "7H", None]
    assert "7H" in state.view(1)["hand"]
    assert table(state) == [("7C", None)]
    # later in the game the same player may not show again
    state = transfer_game()
    state.shows[1] = "7H"
    state.apply(0, attack("7C"))
    refused(state, 1, show("7H"), "showed a trump already")


def test_d8_only_a_trump_can_be_shown_and_only_with_trump_show() -> None:
    state = play(transfer_game(), (0, attack("7C")))
    refused(state, 1, show("7D"), "not a trump")
    state = play(transfer_game(trump_show=False), (0, attack("7C")))
    refused(state, 1, show("7H"), "not played")
    assert all(a["type"] != "show" for a in state.legal_actions(1))


def test_d8_the_attack_cards_must_share_one_rank_and_the_dummy_cannot_transfer() -> None:
    hands = {0: ["7C", "8C", "X1"], 1: ["7D", "8D", "TC"], 2: ["7S", "8S", "9S"]}
    state = play(transfer_game(hands, dummy=True), (0, attack("X1")))
    assert [a["type"] for a in state.legal_actions(1) if a["type"] in ("transfer", "show")] == []
    refused(state, 1, transfer("7D"), "one rank")


def test_d8_transfers_chain_back_to_the_original_attacker_in_two_player_games() -> None:
    hands = {0: ["7C", "7S", "9D", "QD"], 1: ["7D", "TC", "JC", "QC"]}
    state = play(transfer_game(hands), (0, attack("7C")), (1, transfer("7D")), (0, transfer("7S")))
    v = state.view(None)
    assert (v["attacker"], v["defender"]) == (0, 1)
    assert len(table(state)) == 3


def test_d8_d9_after_a_transfer_made_the_leader_defend_the_others_draw_first() -> None:
    hands = {0: ["7C", "9D", "QD", "KD", "AD", "6D"], 1: ["7D", "TC", "JC", "QC", "AC", "KC"]}
    state = play(transfer_game(hands), (0, attack("7C")), (1, transfer("7D")))
    state.apply(0, TAKE)
    state.apply(1, DONE)
    # seat 1 (left of the leader) draws first, then the leader-defender 0
    assert sorted(state.view(1)["hand"]) == sorted(["TC", "JC", "QC", "AC", "KC", "6C"])
