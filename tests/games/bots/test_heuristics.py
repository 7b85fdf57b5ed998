"""The heuristic bots follow their rules of thumb in hand-made positions."""

from __future__ import annotations

import random
from typing import Any

from games import get_game
from games.bots import get_bot
from games.cards import make_deck


def _durak(hands: list[list[str]], phase: str = "attack", table: list[tuple[str, str | None]] = (), **kw: Any):
    """A two-player Durak position: trump diamonds, empty stock and discard, seat 0 attacks."""
    deck = make_deck(36)
    on_table = [c for pair in table for c in pair if c]
    rest = [c for c in deck if c not in hands[0] + hands[1] + on_table]
    data = get_game("durak").new(seats=2, seed=1).to_json()
    data.update(
        hands=hands,
        stock=[],
        discard=rest,
        discarded=True,
        trump="D",
        trump_card=None,
        trump_drawn_by=0,
        phase=phase,
        attacker=0,
        defender=1,
        leader=0,
        limit=min(6, len(hands[1])),
        attacks=[a for a, _ in table],
        covers=[c for _, c in table],
        open=sum(1 for _, c in table if c is None),
        ranks=sorted({c[0] for c in on_table}),
        throw_right=None if phase == "attack" else 0,
        order=[0],
        passes=0,
    )
    data.update(kw)
    return get_game("durak").from_json(data)


def _choose(state, seat: int, history=()) -> dict:
    return get_bot("heuristic").choose(
        "durak", state.view(seat), state.legal_actions(seat), list(history), random.Random(0)
    )


def test_durak_leads_the_lowest_plain_card() -> None:
    state = _durak([["6H", "9S", "AD", "KC"], ["7H", "QS", "8D"]])
    assert _choose(state, 0) == {"type": "attack", "cards": ["6H"]}


def test_durak_leads_what_the_defender_cannot_beat() -> None:
    """No stock, no discard: the defender's hand (7D, 8S) is every card the attacker does not hold.

    Only trumps above 7D get past him, so the attacker leads the cheapest of them
    instead of his low plain cards.
    """
    theirs = ["7D", "8S"]
    mine = [c for c in make_deck(36) if c not in theirs]
    state = _durak([mine, theirs], discard=[], discarded=False)
    assert _choose(state, 0) == {"type": "attack", "cards": ["8D"]}


def test_durak_covers_cheaply_and_keeps_trumps() -> None:
    state = _durak([["9S"], ["7H", "KH", "6D", "AD"]], phase="defense", table=[("6H", None)])
    assert _choose(state, 1) == {"type": "cover", "attack": "6H", "card": "7H"}


def test_durak_takes_rather_than_spend_high_trumps_early() -> None:
    table = [("6H", None), ("6S", None)]
    hands = [["9S"], ["AD", "KD", "7C"]]
    held = {c for h in hands for c in h} | {"6H", "6S"}
    rest = [c for c in make_deck(36) if c not in held]
    state = _durak(hands, phase="defense", table=table, stock=rest[:20], discard=rest[20:])
    assert _choose(state, 1) == {"type": "take"}


def test_verish_doubts_an_impossible_claim() -> None:
    """Seat 1 holds three kings, so a claim of two kings by seat 0 cannot be true."""
    state = get_game("verish").new(seats=2, seed=3)
    data = state.to_json()
    deck = make_deck(36)
    mine = ["KS", "KC", "KD", "6H", "7H"]
    others = [c for c in deck if c not in mine]
    data["hands"] = [others[2:20], mine]
    data["pile"] = [{"seat": 0, "cards": others[:2], "last": False}]
    data["pile_kind"] = "K"
    data["discard"] = others[20:]
    data["phase"], data["turn"] = "answer", 1
    st = get_game("verish").from_json(data)
    bot = get_bot("heuristic")
    assert bot.choose("verish", st.view(1), st.legal_actions(1), [], random.Random(0)) == {"type": "doubt"}


def _biznes_bidding(hand: list[str]):
    """Seat 1 (first to bid, dealer 0) holds ``hand`` in a 4-player 36-card deal."""
    state = get_game("biznes").new(seats=4, seed=2)
    data = state.to_json()
    rest = [c for c in make_deck(36) if c not in hand]
    data["hands"] = [rest[0:9], hand, rest[9:18], rest[18:27]]
    return get_game("biznes").from_json(data)


def test_biznes_bids_its_long_strong_suit() -> None:
    state = _biznes_bidding(["AH", "KH", "QH", "JH", "9H", "AS", "KS", "6C", "7D"])
    action = get_bot("heuristic").choose("biznes", state.view(1), state.legal_actions(1), [], random.Random(0))
    assert action == {"type": "bid", "tricks": 1, "suit": "H"}


def test_biznes_passes_a_weak_hand() -> None:
    state = _biznes_bidding(["6H", "7H", "8S", "9S", "6C", "7C", "8D", "9D", "TD"])
    action = get_bot("heuristic").choose("biznes", state.view(1), state.legal_actions(1), [], random.Random(0))
    assert action == {"type": "pass"}
