"""The two rules amended after the first engines, as scenarios.

- D6 with ``lead: "single"`` (seeds 003 and 004): a card is thrown in only
  while every card on the table is covered, and one card at a time.
- D9: after a bout the leader draws first, then the others clockwise starting
  from the player to the defender's left, the defender last (seed 004); this
  differs from "clockwise from the leader" only after a transfer.
"""

from __future__ import annotations

from games.durak.bout import draw_sequence
from tests.games.durak.helpers import DONE, TAKE, attack, cover, play, position, refused, table, throw, transfer

HANDS3 = {
    0: ["7C", "9D", "TD", "7S", "QD", "KD"],
    1: ["TC", "JC", "QC", "AC", "6S", "8S"],
    2: ["7D", "AS", "KS", "QS", "JS", "TS"],
}
STOCK = ["6C", "8C", "6D", "8D", "6H", "8H", "9H"]


def single(hands=HANDS3, **options):
    return position(hands, attacker=0, stock=STOCK, lead="single", **options)


def throws(state, seat):
    return [a["cards"] for a in state.legal_actions(seat) if a["type"] == "throw"]


def test_d6_single_no_throw_in_while_a_card_is_uncovered() -> None:
    state = play(single(), (0, attack("7C")))
    assert state.to_act() == [1]
    assert throws(state, 0) == [] and throws(state, 2) == []
    refused(state, 0, throw("7S"), "uncovered")
    assert table(state) == [("7C", None)]


def test_d6_single_once_covered_the_right_holder_throws_one_card_at_a_time() -> None:
    state = play(single(), (0, attack("7C")), (1, cover("7C", "TC")))
    assert state.to_act() == [0]
    assert sorted(throws(state, 0)) == [["7S"], ["TD"]]  # ranks 7 and T on the table; one card per throw
    refused(state, 0, throw("7S", "TD"), "one card at a time")
    state.apply(0, throw("7S"))
    assert table(state) == [("7C", "TC"), ("7S", None)]
    assert state.to_act() == [1]  # the defender covers before anything more is thrown
    assert throws(state, 0) == []
    refused(state, 0, throw("TD"), "uncovered")
    state.apply(1, cover("7S", "8S"))
    assert state.to_act() == [0] and throws(state, 0) == [["TD"]]
    state.apply(0, DONE)
    assert state.to_act() == [2] and sorted(throws(state, 2)) == [["7D"], ["TS"]]


def test_d6_same_rank_keeps_the_old_right_to_throw_while_the_defender_covers() -> None:
    state = play(position(HANDS3, attacker=0, stock=STOCK), (0, attack("7C")))
    assert ["7S"] in throws(state, 0)
    state.apply(0, throw("7S"))
    assert table(state) == [("7C", None), ("7S", None)]


def test_d7_single_last_turns_add_one_card_per_action() -> None:
    state = play(single(), (0, attack("7C")), (1, TAKE))
    assert state.view(None)["phase"] == "taking" and state.to_act() == [0]
    assert throws(state, 0) == [["7S"]]
    state.discard.remove("7H")  # give the attacker a second seven
    state.hands[0].append("7H")
    refused(state, 0, throw("7S", "7H"), "one card at a time")
    state.apply(0, throw("7S"))
    assert state.to_act() == [0]  # his last turn goes on until he says done
    state.apply(0, throw("7H"))
    state.apply(0, DONE)
    assert state.to_act() == [2]
    state.apply(2, throw("7D"))
    state.apply(2, DONE)
    assert {"7C", "7S", "7H", "7D"} <= set(state.hands[1])  # D7: the defender picked everything up


HANDS4 = {
    0: ["7C", "9D", "QD", "KD", "6S", "7S"],
    1: ["7D", "TC", "JC", "QC", "AC", "KC"],
    2: ["AS", "KS", "QS", "JS", "TS", "9S"],
    3: ["8S", "6D", "8D", "TD", "JD"],
}


def test_d9_after_a_transfer_the_players_left_of_the_defender_draw_before_the_transferrer() -> None:
    # 0 leads to 1, 1 transfers to 2, 2 takes. 0 (leader) and 1 (transferrer) and 3 each need a
    # card, and the stock holds two: the leader draws first, then 3 (the defender's left), and 1
    # (before the defender, but after 3) gets nothing. "Clockwise from the leader" would serve 1.
    state = position(HANDS4, attacker=0, stock=["6C", "9H"], mode="transfer", trump_show=False)
    play(state, (0, attack("7C")), (1, transfer("7D")), (2, TAKE), (1, DONE), (3, DONE), (0, DONE))
    assert [len(h) for h in state.hands] == [6, 5, 8, 6]
    assert "6C" in state.hands[0] and "9H" in state.hands[3]
    v = state.view(None)
    assert v["trump_drawn_by"] == 3 and v["stock"] == 0
    assert v["attacker"] == 3  # D9: taken, so the player to the defender's left attacks


def test_d9_without_a_transfer_the_order_is_clockwise_from_the_leader() -> None:
    hands = {0: ["7C", "9D", "QD", "KD", "6S", "7S"], 1: ["9C", "TC", "JC", "QC", "AC"], 2: HANDS4[2], 3: HANDS4[3]}
    state = position(hands, attacker=0, stock=["6C", "9H"])
    play(state, (0, attack("7C")), (1, cover("7C", "9C")), (0, DONE), (2, DONE), (3, DONE))
    # beaten: leader 0 draws first, then 2 (full), 3, then the defender 1 last: the stock is gone
    assert "6C" in state.hands[0] and "9H" in state.hands[3]
    assert [len(h) for h in state.hands] == [6, 4, 6, 6]


def test_d9_draw_sequences() -> None:
    assert draw_sequence(4, 0, 1) == (0, 2, 3, 1)  # no transfer: same as clockwise from the leader
    assert draw_sequence(4, 0, 2) == (0, 3, 1, 2)  # one transfer: 3 (the defender's left) before 1
    assert draw_sequence(5, 1, 4) == (1, 0, 2, 3, 4)
    assert draw_sequence(2, 0, 0) == (1, 0)  # transferred back to the leader: he is the defender
