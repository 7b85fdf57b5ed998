"""Seating: every player once per round, bots/byes as chosen, Swiss avoids repeats when it can."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    knockout_advance,
    mates_of,
    repeats,
    seat_by_standing,
    seat_random,
)

sizes = st.integers(min_value=2, max_value=8)
counts = st.integers(min_value=1, max_value=120)
fills = st.sampled_from(["bots", "byes"])


def check_shape(seating, players, size, fill):
    seated = seating.players()
    assert sorted(seated + seating.byes) == sorted(players), "every player seated or given a bye, exactly once"
    assert all(len(t) == size for t in seating.tables)
    humans = [sum(p is not None for p in t) for t in seating.tables]
    assert max(humans) - min(humans) <= 1, "bots spread evenly"
    assert min(humans) >= 1
    if fill == "bots" or len(players) < size:
        assert not seating.byes
    else:
        assert len(seating.byes) == len(players) % size
        assert all(None not in t for t in seating.tables), "with byes no table has a bot"


@given(counts, sizes, fills)
def test_random_round_seats_everyone_once(n, size, fill):
    players = list(range(100, 100 + n))
    check_shape(seat_random(players, size, fill), players, size, fill)


@given(counts, sizes, fills, st.randoms(use_true_random=False), st.integers(0, 3))
@settings(max_examples=60, deadline=None)
def test_later_rounds_seat_everyone_once(n, size, fill, rnd, rounds):
    players = list(range(n))
    history = []
    for _ in range(rounds):
        history.extend(seat_random(players, size, fill).tables)
    ranking = players[:]
    rnd.shuffle(ranking)
    seating = seat_by_standing(ranking, size, mates_of(history), fill)
    check_shape(seating, players, size, fill)


@given(st.integers(2, 6), st.integers(0, 4), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_swiss_round_two_has_no_repeats_when_possible(size, extra_tables, rnd):
    # with at least `size` full tables in round 1, a repeat-free round 2 exists (one from each table)
    n = size * (size + extra_tables)
    players = list(range(n))
    first = seat_random(players, size, "bots")
    ranking = players[:]
    rnd.shuffle(ranking)
    second = seat_by_standing(ranking, size, mates_of(first.tables), "bots")
    assert repeats(second.tables, mates_of(first.tables)) == 0


@given(counts, sizes, st.randoms(use_true_random=False))
@settings(max_examples=50, deadline=None)
def test_swiss_never_worse_than_plain_standing_order(n, size, rnd):
    players = list(range(n))
    mates = mates_of(seat_random(players, size, "bots").tables + seat_random(players, size, "bots").tables)
    ranking = players[:]
    rnd.shuffle(ranking)
    naive = seat_by_standing(ranking, size, {}, "bots")  # no history: top players simply together
    assert repeats(seat_by_standing(ranking, size, mates, "bots").tables, mates) <= repeats(naive.tables, mates)


def test_top_players_sit_together():
    ranking = list(range(16))
    seating = seat_by_standing(ranking, 4, {}, "bots")
    assert [sorted(t) for t in seating.tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]


@given(st.integers(5, 60), st.integers(2, 6))
def test_byes_go_to_the_lowest_without_one(n, size):
    ranking = list(range(n))
    if n % size == 0 or n < size:
        return
    seating = seat_by_standing(ranking, size, {}, "byes", had_bye=[n - 1])
    expected = [p for p in reversed(ranking) if p != n - 1][: n % size]
    assert sorted(seating.byes) == sorted(expected)


def test_knockout_takes_the_best_of_each_table():
    tables = [[(1, 2), (2, 1), (3, 4), (4, 3)], [(5, 1), (6, 1), (7, 3), (8, 4)]]
    assert knockout_advance(tables, 2) == [2, 1, 5, 6]


def test_random_round_is_random():
    players = list(range(40))
    seen = {tuple(tuple(t) for t in seat_random(players, 4).tables) for _ in range(5)}
    assert len(seen) > 1


def test_many_rounds_of_mixed_history_stay_valid():
    rnd = random.Random(7)
    players = list(range(97))
    history = []
    for _ in range(6):
        ranking = players[:]
        rnd.shuffle(ranking)
        seating = seat_by_standing(ranking, 6, mates_of(history), "bots")
        check_shape(seating, players, 6, "bots")
        history.extend(seating.tables)
