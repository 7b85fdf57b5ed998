"""A club's series: events made one from another, standings summed over them exactly, the page and its CSV."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import Match
from tables.sheets import match_sheet
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import organizer, play_round_out, post_event_form
from tournaments import services
from tournaments.models import Board, Series, Tournament
from tournaments.selectors import computed_standings
from tournaments.series import series_standings
from tournaments.standings import to_number

pytestmark = pytest.mark.django_db

FIRST = {
    "table_size": 4,
    "format": Tournament.Format.CUMULATIVE,
    "fill": Tournament.Fill.BOTS,
    "advance": 2,
    "rounds": 1,
    "games_per_round": 1,
    "min_players": 2,
    "max_players": 16,
    "options": {},
    "match_options": {},
}


def first_event_form(client, series, players_at):
    """The organizer creates the series' first event from the form, as the series page links to it."""
    response = post_event_form(
        client,
        series.game,
        players_at,
        f"&series={series.pk}",
        name="Biznes Friday #1",
        format="cumulative",
        fill="bots",
        rounds=1,
        games_per_round=1,
        max_players=16,
    )
    assert response.status_code == 302, response.context["form"].errors
    return Tournament.objects.get(series=series)


def run(event, owner, players):
    for p in players:
        services.registration_join(tournament_id=event.pk, user=p)
    services.tournament_next_round(tournament_id=event.pk, user=owner)
    event.refresh_from_db()
    play_round_out(event)
    assert services.tournament_advance(event.pk) == "finished"


def sheet_points(event) -> dict[int, int]:
    """Each player's points in halves as the event's tables' own score sheets give them."""
    out: dict[int, int] = {}
    for board in Board.objects.filter(round__tournament=event):
        match = Match.objects.get(table_id=board.table_id)
        standing = match_sheet(match).standings()  # the sheet the table page shows
        for seat, user_id in enumerate(board.players):
            if user_id is not None:
                out[user_id] = out.get(user_id, 0) + (standing[seat].points_halves or 0)
    return out


def test_three_biznes_events_add_up_on_the_series_page_exactly_as_their_sheets(client):
    owner = organizer()
    client.force_login(owner)
    response = client.post(
        reverse("series_new"), {"name": "Friday pulka", "game": "biznes", "schedule": "weekly", "tz": "UTC"}
    )
    series = Series.objects.get(name="Friday pulka")
    assert response["Location"] == series.get_absolute_url()
    soon = (timezone.now() + timedelta(hours=1)).replace(second=0, microsecond=0)
    first = first_event_form(client, series, soon)
    players = make_players(6, prefix="pulka")
    players[0].display_name = "=HYPERLINK(1)"  # a name a spreadsheet would run
    players[0].save()
    run(first, owner, players[:4])
    client.post(reverse("series_next", args=[series.pk]))
    second = Tournament.objects.filter(series=series).exclude(pk=first.pk).get()
    assert second.starts_at == first.starts_at + timedelta(days=7)
    assert (second.table_size, second.format, second.games_per_round) == (4, "cumulative", 1)
    run(second, owner, players[1:5])
    client.post(reverse("series_next", args=[series.pk]))
    third = Tournament.objects.filter(series=series).order_by("-starts_at").first()
    run(third, owner, [players[0], players[2], players[4], players[5]])

    expected: dict[int, int] = {}
    for event in (first, second, third):
        for user_id, halves in sheet_points(event).items():
            expected[user_id] = expected.get(user_id, 0) + halves
    events, rows = series_standings(series)
    assert [e.pk for e in events] == [first.pk, second.pk, third.pk]
    assert {r.user_id: r.total for r in rows} == expected
    assert [r.total for r in rows] == sorted(expected.values(), reverse=True)

    page = client.get(series.get_absolute_url()).content.decode()
    for row in rows:
        assert f'data-player="{row.name}"' in page.replace("&#x3D;", "=")
    assert page.count('class="event-cell num"') == len(rows) * 3
    body = client.get(reverse("series_export", args=[series.pk])).content.decode()
    table = list(csv.reader(io.StringIO(body)))
    assert table[0][:4] == ["place", "player", "total", "events"] and len(table[0]) == 7
    by_name = {line[1]: line for line in table[1:]}
    assert "'=HYPERLINK(1)" in by_name and "=HYPERLINK(1)" not in by_name  # escaped, not a formula
    for row in rows:
        name = "'" + row.name if row.name.startswith("=") else row.name
        assert float(by_name[name][2]) == float(to_number(row.total))


def test_durak_series_sum_place_points_and_listed_dates_run_out(client):
    owner = organizer()
    now = timezone.now()
    client.force_login(owner)
    client.post(
        reverse("series_new"),
        {
            "name": "Durak ladder",
            "game": "durak",
            "schedule": "dates",
            "dates": (now + timedelta(days=3)).strftime("%Y-%m-%d %H:%M"),
            "tz": "UTC",
        },
    )
    series = Series.objects.get(name="Durak ladder")
    assert not series.weekly and len(series.dates) == 1
    first = services.tournament_create(
        organizer=owner,
        game="durak",
        series=series,
        name="Ladder 1",
        registration_opens=now - timedelta(hours=1),
        registration_closes=now + timedelta(hours=1),
        starts_at=now + timedelta(hours=1),
        **{**FIRST, "format": Tournament.Format.SWISS},
    )
    players = make_players(4, prefix="ladder")
    run(first, owner, players)
    _events, rows = series_standings(series)
    standings = {s.player: s.place for s in computed_standings(first)}
    for row in rows:
        assert row.total == 2 * (4 - standings[row.user_id])  # one point per player below him
    client.post(reverse("series_next", args=[series.pk]))
    assert series.events.count() == 2
    response = client.post(reverse("series_next", args=[series.pk]), follow=True)
    assert "listed dates are all used" in response.content.decode() and series.events.count() == 2


def test_only_organizers_make_series_and_only_its_organizer_adds_events(client):
    client.force_login(make_players(1, prefix="plain-s")[0])
    client.post(reverse("series_new"), {"name": "Mine", "game": "durak", "schedule": "weekly"})
    assert not Series.objects.exists()
    owner, other = organizer(), organizer("other")
    series = Series.objects.create(name="Club", organizer=owner, game="durak")
    client.force_login(other)
    client.post(reverse("series_next", args=[series.pk]))
    assert not series.events.exists()
