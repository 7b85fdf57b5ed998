"""A profile's rating chart: one dated chart with axes, a line and a legend entry per game the player is rated in."""

from __future__ import annotations

import random
import re

import pytest

from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db


def test_the_profile_draws_one_line_per_game_on_dated_axes(client):
    rng = random.Random(7)
    players = make_players(3, prefix="chart")
    for game, seats in (("durak", 2), ("durak", 2), ("verish", 3), ("verish", 3)):
        _, _, g = started_table(game, seats, players=players[:seats])
        play_randomly(g, rng)
    page = client.get(f"/u/{players[0].username}/").content.decode()
    charts = re.findall(r"<svg class=\"rating-chart ratings-chart\".*?</svg>", page, re.S)
    assert len(charts) == 1, "one chart for every game, not one per game"
    chart = charts[0]
    assert chart.count("<polyline") == 2
    assert ">Durak<" in chart and ">Believe It or Not<" in chart
    assert chart.count('class="axis"') == 2
    ticks = re.findall(r'<text class="tick"[^>]*>([^<]+)</text>', chart)
    assert any(re.fullmatch(r"-?\d+", t) for t in ticks), ticks  # ratings on the y axis
    assert any(re.search(r"\d+[./-]\d+", t) for t in ticks), ticks  # dates on the x axis
    assert 'aria-label="Rating over time, one line per game"' in chart
