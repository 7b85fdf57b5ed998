"""Points per game and standings: sums of the game results, exact halves, tiebreaks in order."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from games import get_game
from games.outcome import by_order
from tournaments.standings import GameRecord, place_points, standings, to_number


def points(game: str, result: dict, seats: int, options: dict | None = None) -> list[int]:
    """Halves per seat as a tournament scores one game: by the places the game module gives."""
    return place_points(get_game(game).placings(result, seats, options or {}).placings)


def test_durak_first_out_scores_most_and_the_fool_none():
    assert points("durak", {"fool": 2, "places": [[1], [3], [0]]}, 4) == [2, 6, 0, 4]  # halves: 1, 3, 0, 2


def test_shared_places_share_in_halves():
    halves = points("durak", {"fool": 3, "places": [[0, 1], [2]]}, 4)
    assert [to_number(p) for p in halves] == [2.5, 2.5, 1, 0]


def test_a_draw_shares_the_places_left():
    halves = points("durak", {"fool": None, "draw": True, "places": [[0]]}, 4)
    assert [to_number(p) for p in halves] == [3, 1, 1, 1]


def test_durak_teams_share_their_team_places():
    result = {"fool": 1, "losing_team": 1, "places": [[0], [2], [3]]}
    assert [to_number(p) for p in points("durak", result, 4, {"teams": True})] == [2.5, 0.5, 2.5, 0.5]


def test_believe_by_place():
    assert [to_number(p) for p in points("verish", {"loser": 0, "finished": [2, 1]}, 3)] == [0, 1, 2]


@st.composite
def finishes(draw):
    seats = draw(st.integers(2, 8))
    order = draw(st.permutations(range(seats)))
    cuts = sorted(draw(st.sets(st.integers(1, seats - 1), max_size=seats - 1)))
    groups, start = [], 0
    for cut in [*cuts, seats]:
        groups.append(list(order[start:cut]))
        start = cut
    return seats, groups


@given(finishes())
def test_place_points_add_up_to_every_place_once(finish):
    seats, groups = finish
    *left, last = groups
    points = place_points(by_order(seats, left, last[0] if len(last) == 1 else None).placings)
    # every place's points are handed out once (the fool's place is worth none): 0..n-1 in halves
    assert sum(points) == seats * (seats - 1)
    # better finish, never fewer points
    flat = [s for g in groups for s in g]
    assert all(points[a] >= points[b] for a, b in itertools.pairwise(flat))


records = st.lists(
    st.tuples(
        st.integers(1, 5),
        st.lists(st.sampled_from([1, 2, 3, 4, 5, 6, None]), min_size=2, max_size=6, unique=True),
        st.lists(st.integers(-40, 40), min_size=6, max_size=6),
    ),
    max_size=30,
)


@given(records)
def test_standings_are_the_sum_of_the_game_results(raw):
    recs = [
        GameRecord(round=r, table=i, players=tuple(ps), points=tuple(pts[: len(ps)]), fool=0)
        for i, (r, ps, pts) in enumerate(raw)
    ]
    rows = standings([1, 2, 3, 4, 5, 6], recs)
    assert sorted(r.player for r in rows) == [1, 2, 3, 4, 5, 6]
    for row in rows:
        expected = sum(rec.points[rec.players.index(row.player)] for rec in recs if row.player in rec.players)
        assert row.points == expected
        assert row.fools == sum(1 for rec in recs if rec.players and rec.players[0] == row.player)
    keys = [r.key() for r in rows]
    assert keys == sorted(keys)
    for a, b in itertools.pairwise(rows):
        assert b.place == (a.place if a.key() == b.key() else rows.index(b) + 1)


def test_tiebreaks_mates_then_wins_then_fewest_fools():
    recs = [
        # round 1: 1 and 2 tie on points; 1 sat with 3 (strong), 2 with 4 (weak)
        GameRecord(1, 1, (1, 3), (4, 6), fool=None),
        GameRecord(1, 2, (2, 4), (4, 0), fool=1),
    ]
    rows = standings([1, 2, 3, 4], recs)
    assert [r.player for r in rows] == [3, 1, 2, 4]
    assert rows[1].mates == 6 and rows[2].mates == 0
    games = [GameRecord(1, 1, (1, 2), (2, 2)), GameRecord(2, 1, (1, 2), (4, 0)), GameRecord(3, 1, (1, 2), (0, 4))]
    wins = standings([1, 2], games)
    assert [r.place for r in wins] == [1, 1]
    fools = standings([1, 2], [GameRecord(1, 1, (1, 2), (2, 2), fool=0)])
    assert [r.player for r in fools] == [2, 1] and fools[1].fools == 1


def test_biznes_half_points_stay_exact():
    recs = [GameRecord(1, 1, (1, 2, 3, None), (7, -3, 0, -4)), GameRecord(2, 1, (1, 2, 3, None), (1, 5, 2, -8))]
    rows = {r.player: to_number(r.points) for r in standings([1, 2, 3], recs)}
    assert rows == {1: 4, 2: 1, 3: 1}
