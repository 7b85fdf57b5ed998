"""The arena's interval math, seat rotation and per-game win definitions."""

from __future__ import annotations

import math

import pytest

from games.arena import main, parse_options, side_score, sides_for, wilson


def test_wilson_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == 1.0
    assert lo == pytest.approx(0.7225, abs=1e-4)


def test_wilson_contains_the_rate_and_narrows() -> None:
    for n in (10, 100, 1000):
        for wins in (0, n / 4, n / 2 + 0.5, n):
            lo, hi = wilson(wins, n)
            assert lo <= wins / n <= hi
    assert (lambda a, b: a[1] - a[0] > b[1] - b[0])(wilson(30, 100), wilson(300, 1000))
    assert wilson(0, 0) == (0.0, 1.0)
    assert not any(math.isnan(x) for x in wilson(7.5, 20))


def test_sides_rotate() -> None:
    assert sides_for(0, 2) == ["A", "B"]
    assert sides_for(1, 2) == ["B", "A"]
    assert sides_for(0, 4) == ["A", "B", "A", "B"]
    three = [sides_for(i, 3) for i in range(2)]
    assert three[0].count("A") + three[1].count("A") == 3  # A sits 3 of the 6 seats over a pair


def test_side_scores() -> None:
    sides = ["A", "B"]
    assert side_score("durak", {"fool": 1, "draw": False, "losing_team": None}, sides) == 1.0
    assert side_score("durak", {"fool": 0, "draw": False, "losing_team": None}, sides) == 0.0
    assert side_score("durak", {"fool": None, "draw": True, "losing_team": None}, sides) == 0.5
    teams = ["A", "B", "A", "B"]
    assert side_score("durak", {"fool": 3, "draw": False, "losing_team": 1}, teams) == 1.0
    assert side_score("verish", {"loser": 2, "finished": [0, 1]}, ["A", "B", "A"]) == 0.0
    assert side_score("biznes", {"scores": [3, -1, 0, 0]}, teams) == 1.0
    assert side_score("biznes", {"scores": [1, 1, 0, 0]}, teams) == 0.5
    assert side_score("biznes", {"scores": [1, 1, 0, 0]}, teams, side="B") == 0.5


def test_parse_options() -> None:
    assert parse_options(["mode=transfer", "dummy=true", "deck=52"]) == {"mode": "transfer", "dummy": True, "deck": 52}


def test_last_line_is_the_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--game", "durak", "--a", "heuristic", "--b", "random", "--games", "6", "--seats", "2"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("A heuristic: ")
    assert "B random: " in last
    assert "95% Wilson, 6 games" in last
