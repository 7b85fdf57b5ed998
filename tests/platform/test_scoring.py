"""The scoring app: final standings stored when a match ends, summed over matches for tournaments and seasons."""

import pytest

from scoring.models import MatchScore
from scoring.selectors import points_by_user, standings_by_user
from tables.models import Match
from tables.sheets import sheet_view
from tests.platform.leaderboards.test_services import play_table
from tests.platform.tables.factories import started_table

pytestmark = pytest.mark.django_db


def test_a_finished_biznes_match_stores_exact_half_points_per_player():
    table, players, game = started_table("biznes", 4, match_length=2)
    play_table(table, game, 1)
    match = Match.objects.get(table=table)
    assert match.finished
    totals = match.sheet["biznes"]["totals"]
    rows = {r.seat: r for r in MatchScore.objects.filter(match=match)}
    assert sorted(rows) == [0, 1, 2, 3]
    assert all(rows[s].points_halves == round(totals[s] * 2) and rows[s].deals == 2 for s in rows)
    assert {rows[s].place for s in rows if rows[s].won} == {1}
    points = points_by_user([match.pk])
    assert points == {players[s].pk: rows[s].points_halves for s in range(4)}
    assert sheet_view("biznes", match.sheet)["unit"] == "deal"


def test_a_durak_match_counts_the_fool_and_sums_nothing_as_points():
    table, players, game = started_table("durak", 2, match_length=2, match_options={"fool_rule": "under"})
    play_table(table, game, 2)
    match = Match.objects.get(table=table)
    rows = {r.seat: r for r in MatchScore.objects.filter(match=match)}
    counts = match.sheet["counts"]
    assert [rows[s].lost for s in range(2)] == [c > 0 for c in counts]
    assert points_by_user([match.pk]) == {}
    standings = standings_by_user([match.pk])
    assert set(standings) == {p.pk for p in players}
    fewest = min(counts)
    assert all(standings[players[s].pk][0].place == 1 for s in range(2) if counts[s] == fewest)


def test_an_unfinished_match_has_no_final_standings():
    table, _players, _game = started_table("durak", 2, match_length=3)
    assert not MatchScore.objects.filter(match__table=table).exists()
    assert points_by_user(Match.objects.filter(table=table).values_list("pk", flat=True)) == {}
