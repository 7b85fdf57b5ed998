"""Who placed where, and the OpenSkill update it leads to, per game type (ties and teams included)."""

import pytest

from games.outcome import by_points
from leaderboards import ratings


def test_durak_groups_that_left_together_share_a_place_and_the_fool_is_last():
    out = ratings.outcome("durak", 4, {}, {"fool": 2, "draw": False, "places": [[1, 3], [0]]})
    assert out.teams == [[0], [1], [2], [3]]
    assert out.ranks == [2, 1, 3, 1]
    assert out.placings[1].won and out.placings[3].won and not out.placings[0].won
    assert out.placings[2].lost and out.placings[2].place == 3


def test_durak_draw_shares_the_last_place_and_nobody_is_the_fool():
    out = ratings.outcome("durak", 3, {}, {"fool": None, "draw": True, "places": [[0], [1, 2]]})
    assert out.ranks == [1, 2, 2]
    assert not any(p.lost for p in out.placings.values())


def test_durak_teams_are_rated_as_teams():
    result = {"fool": 3, "draw": False, "places": [[0], [2]], "losing_team": 1}
    out = ratings.outcome("durak", 4, {"teams": True}, result)
    assert out.teams == [[0, 2], [1, 3]] and out.ranks == [1, 2]
    assert [out.placings[s].won for s in range(4)] == [True, False, True, False]
    assert [out.placings[s].lost for s in range(4)] == [False, True, False, True]
    new = ratings.rate([[(25, 25 / 3)] * 2] * 2, out.ranks)
    assert new[0][0] == new[0][1] and new[0][0][0] > 25 > new[1][0][0]
    drawn = ratings.outcome("durak", 4, {"teams": True}, {"draw": True, "places": [[0, 1, 2, 3]], "losing_team": None})
    assert drawn.ranks == [1, 1]


def test_believe_by_finishing_order_the_loser_last():
    out = ratings.outcome("verish", 4, {}, {"loser": 1, "finished": [2, 0, 3]})
    assert out.ranks == [2, 4, 1, 3]
    assert out.placings[2].won and out.placings[1].lost


def test_biznes_by_match_standings_with_shared_places_and_half_points():
    # a Biznes match is rated by its sheet's final totals (in halves): 2.5, 7.5, 2.5 after 6 deals
    out = by_points([5, 15, 5], deals=6)
    assert out.ranks == [2, 1, 2]
    assert out.placings[0].points_halves == 5 and out.placings[1].points_halves == 15
    assert out.placings[1].deals == 6 and out.placings[1].won
    new = ratings.rate([[(25, 25 / 3)]] * 3, out.ranks)
    assert new[0] == new[2]  # a shared place is a tie
    assert new[1][0][0] > new[0][0][0]


def test_the_update_is_openskills_plackett_luce():
    new = ratings.rate([[(30.0, 5.0)], [(20.0, 7.0)]], [2, 1])
    a, b = ratings.MODEL.rating(mu=30.0, sigma=5.0), ratings.MODEL.rating(mu=20.0, sigma=7.0)
    expected = ratings.MODEL.rate([[a], [b]], ranks=[2, 1])
    assert new == [[(expected[0][0].mu, expected[0][0].sigma)], [(expected[1][0].mu, expected[1][0].sigma)]]
    assert new[0][0][0] < 30 and new[0][0][1] < 5


@pytest.mark.parametrize(("sigma", "shown"), [(8.3, True), (6.0, True), (5.99, False)])
def test_provisional_until_sigma_below_the_threshold(sigma, shown):
    assert ratings.provisional(sigma) is shown


def test_a_new_player_shows_1000():
    assert ratings.display(25.0, 25 / 3) == pytest.approx(1000.0)
