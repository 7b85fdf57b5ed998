"""Hypothesis properties specific to Biznes, over every deck/seat/widow_open combination."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.biznes import BiznesState, Match
from games.biznes.rules import DECK_SEATS, widow_size
from tests.games.contract import cards_in, play_checked

COMBOS = [
    (deck, seats, open_)
    for deck, seats_ in DECK_SEATS.items()
    for seats in seats_
    for open_ in range(widow_size(deck, seats) + 1)
]


@settings(max_examples=30, deadline=None)
@given(combo=st.sampled_from(COMBOS), dealer=st.integers(0, 5), seed=st.integers(0, 2**31))
def test_contract_properties_for_every_combination(combo: tuple[int, int, int], dealer: int, seed: int) -> None:
    """Conservation, no leaks, listed actions apply, replay and snapshot reproduce (tests/games/contract.py)."""
    deck, seats, open_ = combo
    play_checked("biznes", {"deck": deck, "widow_open": open_}, seats, dealer % seats, seed)


def _without_joker_names(view: dict) -> dict:
    """A view minus the cards jokers were named as: anyone may name any card (B9), a discarded one too."""
    out = dict(view)
    for key in ("trick", "last_trick"):
        if isinstance(out[key], dict):
            out[key] = {**out[key], "cards": [{k: v for k, v in e.items() if k != "as"} for e in out[key]["cards"]]}
        elif out[key]:
            out[key] = [{k: v for k, v in e.items() if k != "as"} for e in out[key]]
    return out


def random_deal(deck: int, seats: int, seed: int, sensible: bool) -> tuple[BiznesState, list[str]]:
    """Play a deal; ``sensible`` bids low (one trick) so that deals mostly get played out.

    Returns the state and the cards of the discard that never were public.
    """
    rng = random.Random(seed)
    state = BiznesState.new(options={"deck": deck}, seats=seats, dealer=rng.randrange(seats), seed=seed)
    secret: list[str] = []
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if sensible and state.phase == "bidding":
            action = legal[1] if not state.bids else {"type": "pass"}
        else:
            action = rng.choice(legal)
        if action["type"] == "discard":
            secret = [c for c in action["cards"] if c not in state.widow]
        state.apply(seat, action)
        if secret:  # B2: the discard never shows outside the discarder's own view
            taker = next(b["seat"] for b in reversed(state.view(None)["bids"]) if b["type"] == "bid")
            for other in [None, *range(seats)]:
                if other != taker:
                    assert not set(secret) & cards_in(_without_joker_names(state.view(other)))
    return state, secret


@settings(max_examples=60, deadline=None)
@given(
    combo=st.sampled_from(sorted({(d, s) for d, s, _ in COMBOS})), seed=st.integers(0, 2**31), sensible=st.booleans()
)
def test_finished_deals_score_by_b8(combo: tuple[int, int], seed: int, sensible: bool) -> None:
    """Every played-out deal: all tricks taken unless caught, the declarer side scores alike,
    thieves score their tricks, everyone but the declarer side scores 0 when caught."""
    deck, seats = combo
    state, _ = random_deal(deck, seats, seed, sensible)
    result = state.result()
    if result["void"]:
        assert result["scores"] == [0] * seats
        return
    roles, scores, tricks = result["roles"], result["scores"], result["tricks"]
    side = {scores[s] for s, r in enumerate(roles) if r in ("declarer", "banker")}
    assert len(side) == 1
    assert roles.count("mafia") != 1
    for s, r in enumerate(roles):
        if result["caught"] and r not in ("declarer", "banker"):
            assert scores[s] == 0
        elif r == "thief":
            assert scores[s] == tricks[s]
    if not result["caught"]:
        assert sum(tricks) == deck // seats
        assert result["made"] == (state.counted >= result["contract"]["tricks"])
    for x in scores:
        assert isinstance(x, int) or (x * 2).is_integer()


@settings(max_examples=20, deadline=None)
@given(seats=st.integers(4, 6), length=st.integers(1, 6), seed=st.integers(0, 2**31))
def test_match_totals_are_the_sum_of_the_deals(seats: int, length: int, seed: int) -> None:
    rng = random.Random(seed)
    match = Match(seats=seats, options={"deck": 54}, length=length, dealer=rng.randrange(seats))
    deals = []
    while not match.is_over():
        state = match.new_deal(seed=rng.randrange(2**31))
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        expected_dealer = state.next_game()[0]
        match.record(state)
        assert match.dealer == expected_dealer
        deals.append(state.result()["scores"])
    for s in range(seats):
        assert match.totals[s] == sum(round(2 * d[s]) for d in deals)
    assert match.played == length
    assert Match.from_json(match.to_json()).to_json() == match.to_json()
    places = {row["seat"]: row["place"] for row in match.standings()}
    best = max(match.totals)
    assert {s for s, p in places.items() if p == 1} == {s for s in range(seats) if match.totals[s] == best}
