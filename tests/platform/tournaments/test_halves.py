"""Half points, end to end through the real services: a Biznes deal whose policeman scores a half (B8:
``N - C - P/2`` with the declarer alone, ``P`` odd) shows on the event's standings exactly as on the table's
score sheet.

The players' choices (``policy.choose``) are made move by move through ``table_apply_action``; the
deck is the engine's own shuffle.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer
from tests.platform.tournaments.policy import play_out
from tournaments import services
from tournaments.models import Board, Tournament

pytestmark = pytest.mark.django_db


def cells(html: str, pattern: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(pattern, html, re.S)]


def test_half_points_show_on_the_standings_as_on_the_score_sheet(client):
    owner = organizer()
    t = event(owner, game="biznes", format=Tournament.Format.CUMULATIVE, rounds=1, games_per_round=1)
    players = make_players(4, prefix="half")  # four humans: every total on the sheet is someone's standing
    for user in players:
        services.registration_join(tournament_id=t.pk, user=user)
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    board = Board.objects.get(round__tournament=t)
    play_out(board.table_id)
    assert services.tournament_advance(t.pk) == "finished"

    client.force_login(players[0])
    table_page = client.get(reverse("table", args=[board.table_id])).content.decode()
    sheet_html = table_page[table_page.index('class="score-sheet"') :]
    names = cells(sheet_html.split("</thead>")[0], r"<th[^>]*>(.*?)</th>")[1:]
    totals = cells(sheet_html.split("<tfoot>")[1].split("</tfoot>")[0], r"<th[^>]*>(.*?)</th>")[1:]
    sheet = dict(zip(names, totals, strict=True))
    assert any("½" in total for total in totals), sheet  # the policeman's half is on the sheet

    event_page = client.get(t.get_absolute_url()).content.decode()
    row = r'<tr data-player="([^"]+)"[^>]*>.*?<td class="points num">(.*?)</td>'
    standings = dict(re.findall(row, event_page, re.S))
    assert sorted(standings) == sorted(sheet) == sorted(u.display_name for u in players)
    for name, total in sheet.items():
        assert standings[name] == total, (standings, sheet)
