"""An event from registration to final standings, through the real services and signals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderation.models import Abandonment
from scoring.selectors import points_by_user
from tables.models import Seat, Table
from tables.sheets import sheet_view
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer, play_round_out
from tournaments import selectors, services
from tournaments.models import Board, Registration, Result, Tournament
from tournaments.services import TournamentRefused
from tournaments.standings import to_halves, to_number

pytestmark = pytest.mark.django_db


def register(tournament, users):
    for user in users:
        services.registration_join(tournament_id=tournament.pk, user=user)


def test_only_organizers_create_events():
    player = make_players(1, prefix="nobody")[0]
    with pytest.raises(TournamentRefused):
        event(player)


def test_engine_options_are_checked():
    with pytest.raises(TournamentRefused):
        event(organizer(), options={"deck": "nonsense"})
    with pytest.raises(TournamentRefused):
        event(organizer(), game="durak", format=Tournament.Format.CUMULATIVE)


def test_registration_rules():
    t = event(organizer(), max_players=2)
    a, b, c = make_players(3, prefix="reg")
    register(t, [a])
    with pytest.raises(TournamentRefused):
        register(t, [a])  # twice
    register(t, [b])
    register(t, [c])  # full: he waits
    assert t.registrations.get(user=c).waitlisted
    services.registration_withdraw(tournament_id=t.pk, user=b)
    assert not t.registrations.get(user=c).waitlisted  # the place b freed goes to c
    assert set(t.registrations.values_list("user__username", flat=True)) == {a.username, c.username}


def test_the_start_waits_for_its_time_and_seats_every_player_once():
    t = event(organizer())
    players = make_players(9, prefix="sw")
    register(t, players)
    services.tournaments_tick()
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.REGISTRATION
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.tournaments_tick()
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.current_round == 1
    boards = list(Board.objects.filter(round__tournament=t))
    assert len(boards) == 3  # 9 players at tables of 4 with bots: 3, 3, 3 and a bot each
    seated = [p for b in boards for p in b.players if p is not None]
    assert sorted(seated) == sorted(u.pk for u in players)
    for board in boards:
        assert board.table.status == Table.Status.PLAYING
        assert Seat.objects.filter(table=board.table, bot_level__gt="").count() == 1


def test_check_in_no_shows_are_removed():
    t = event(organizer(), check_in_minutes=10, starts_at=timezone.now() + timedelta(minutes=5))
    a, b, c = make_players(3, prefix="ci")
    register(t, [a, b, c])
    services.registration_check_in(tournament_id=t.pk, user=a)
    services.registration_check_in(tournament_id=t.pk, user=b)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    services.tournaments_tick()
    assert Registration.objects.get(tournament=t, user=c).dropped
    assert [p for b in Board.objects.filter(round__tournament=t) for p in b.players if p] != []
    assert c.pk not in Board.objects.get(round__tournament=t).players


def test_too_few_players_cancel():
    t = event(organizer(), min_players=3)
    register(t, make_players(2, prefix="few"))
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    services.tournaments_tick()
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.CANCELLED


def test_a_swiss_event_runs_to_its_final_standings():
    owner = organizer()
    t = event(owner, rounds=2)
    players = make_players(8, prefix="full")
    register(t, players)
    services.tournament_next_round(tournament_id=t.pk, user=owner)  # start now
    t.refresh_from_db()
    play_round_out(t)
    assert services.tournament_advance(t.pk) == "started"
    t.refresh_from_db()
    assert t.current_round == 2
    play_round_out(t)
    assert services.tournament_advance(t.pk) == "finished"
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rows = selectors.standing_rows(t)
    # standings are the sum of the stored results: 2 rounds of one Durak game each
    assert len(rows) == 8 and all(r.games == 2 for r in rows)
    total = sum(to_halves(r.points) for r in rows)
    stored = 0
    for result in Result.objects.filter(board__round__tournament=t):
        stored += sum(p for p, u in zip(result.points, result.board.players, strict=True) if u is not None)
    assert total == stored
    assert [r.place for r in rows] == sorted(r.place for r in rows)
    csv = selectors.export_csv(t)
    assert csv.splitlines()[0].startswith("place,player,points")
    assert len(csv.splitlines()) == 9


def test_disqualified_player_is_played_out_and_keeps_results():
    owner = organizer()
    t = event(owner, rounds=2)
    players = make_players(4, prefix="dq")
    register(t, players)
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    board = Board.objects.get(round__tournament=t)
    services.player_disqualify(tournament_id=t.pk, user=owner, player_id=players[0].pk)
    seat = Seat.objects.get(table=board.table, user=players[0])
    assert seat.bot_level and seat.away
    assert not Abandonment.objects.filter(user=players[0]).exists()  # disqualified, not a walk-out
    t.refresh_from_db()
    play_round_out(t)
    services.tournament_advance(t.pk)
    t.refresh_from_db()
    assert players[0].pk not in Board.objects.get(round__tournament=t, round__number=2).players
    row = next(r for r in selectors.standing_rows(t) if r.user_id == players[0].pk)
    assert row.games == 1 and row.status == "disqualified"


def test_only_the_organizer_runs_his_event():
    owner = organizer()
    t = event(owner)
    other = organizer("other")
    with pytest.raises(TournamentRefused):
        services.tournament_next_round(tournament_id=t.pk, user=other)
    with pytest.raises(TournamentRefused):
        services.announcement_post(tournament_id=t.pk, user=other, text="hi")


def test_biznes_cumulative_totals_come_from_the_score_sheets():
    owner = organizer()
    t = event(
        owner,
        name="Biznes night",
        game="biznes",
        format=Tournament.Format.CUMULATIVE,
        rounds=1,
        games_per_round=2,
        match_options={},
    )
    players = make_players(3, prefix="bz")
    register(t, players)
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    t.refresh_from_db()
    play_round_out(t)
    assert services.tournament_advance(t.pk) == "finished"
    board = Board.objects.get(round__tournament=t)
    match = board.table.matches.get()
    # what the table page's score sheet shows, and the scoring app's sum over the event's matches
    totals = sheet_view("biznes", match.sheet)["totals"]
    summed = points_by_user([match.pk])
    rows = {r.user_id: r.points for r in selectors.standing_rows(t)}
    for seat, user_id in enumerate(board.players):
        if user_id is not None:
            assert rows[user_id] == totals[seat] == to_number(summed[user_id])


def test_knockout_ends_at_a_final_table():
    owner = organizer()
    t = event(owner, format=Tournament.Format.KNOCKOUT, advance=2, rounds=1)
    register(t, make_players(8, prefix="ko"))
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    t.refresh_from_db()
    play_round_out(t)
    assert services.tournament_advance(t.pk) == "started"
    t.refresh_from_db()
    assert Board.objects.filter(round__tournament=t, round__number=2).count() == 1
    assert Registration.objects.filter(tournament=t, eliminated_in=1).count() == 4
    play_round_out(t)
    assert services.tournament_advance(t.pk) == "finished"
    rows = selectors.standing_rows(t)
    assert all(r.status == "" for r in rows[:4]) and all(r.status == "out-1" for r in rows[4:])


def test_pause_holds_the_next_round_until_resumed():
    owner = organizer()
    t = event(owner, rounds=2)
    register(t, make_players(4, prefix="pz"))
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    t.refresh_from_db()
    play_round_out(t)
    services.tournament_pause(tournament_id=t.pk, user=owner, paused=True)
    services.tournaments_tick()
    assert Tournament.objects.get(pk=t.pk).current_round == 1
    services.tournament_pause(tournament_id=t.pk, user=owner, paused=False)
    services.tournaments_tick()
    assert Tournament.objects.get(pk=t.pk).current_round == 2


def test_at_the_round_deadline_bots_play_out_the_unfinished_tables():
    owner = organizer()
    t = event(owner, rounds=1, round_minutes=30)
    players = make_players(4, prefix="dl")
    register(t, players)
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    board = Board.objects.get(round__tournament=t)
    services.tournaments_tick()
    assert not Seat.objects.filter(table=board.table, away=True).exists()  # still within its time
    board.round.__class__.objects.filter(pk=board.round_id).update(deadline=timezone.now())
    services.tournaments_tick()
    assert Seat.objects.filter(table=board.table, user__isnull=False, away=True).count() == 4
    # the organizer's clock sent them away, not the players: no one is counted as having abandoned a game
    assert not Abandonment.objects.filter(table_id=board.table_id).exists()


def test_no_shows_replaced_by_bots_keep_the_tables_full():
    t = event(
        organizer(),
        check_in_minutes=10,
        no_show=Tournament.NoShow.BOT,
        starts_at=timezone.now() + timedelta(minutes=5),
    )
    players = make_players(8, prefix="nsb")
    register(t, players)
    for p in players[:5]:
        services.registration_check_in(tournament_id=t.pk, user=p)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    services.tournaments_tick()
    boards = list(Board.objects.filter(round__tournament=t))
    assert len(boards) == 2  # 5 present + 3 bots in the no-shows' places: two tables, as planned
    seated = sorted(p for b in boards for p in b.players if p is not None)
    assert seated == sorted(p.pk for p in players[:5])
    assert Registration.objects.filter(tournament=t, dropped=True).count() == 3


def test_the_organizer_edits_before_the_start_only():
    owner = organizer()
    t = event(owner)
    services.tournament_update(tournament_id=t.pk, user=owner, name="Renamed", rounds=5)
    t.refresh_from_db()
    assert (t.name, t.rounds) == ("Renamed", 5)
    with pytest.raises(TournamentRefused):
        services.tournament_update(tournament_id=t.pk, user=organizer("x"), name="Stolen")
    register(t, make_players(2, prefix="ed"))
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    with pytest.raises(TournamentRefused):
        services.tournament_update(tournament_id=t.pk, user=owner, name="Too late")
