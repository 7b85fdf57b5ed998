"""What an organizer does through the event page's forms, and what his players are told (the client posts what the
forms post)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from leaderboards.models import PlayerRating
from notifications.models import Notification
from tables.models import Game, Seat, Table
from tables.services import ActionRefused, game_apply_timeout, seat_set_away, table_player_action
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer, play_round_out, post_event_form
from tournaments import services
from tournaments.models import ORGANIZERS_GROUP, Board, OrganizerAction, Registration, Round, Tournament

pytestmark = pytest.mark.django_db


def register(tournament, users):
    for user in users:
        services.registration_join(tournament_id=tournament.pk, user=user)


def started(owner, n=4, **fields):
    t = event(owner, **fields)
    players = make_players(n, prefix=f"p{Tournament.objects.count()}-")
    register(t, players)
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    t.refresh_from_db()
    return t, players


def post(client, name, t, data=None):
    return client.post(reverse(name, args=[t.pk]), data or {})


def told(user, words):
    return any(words in n.message for n in Notification.objects.filter(user=user))


# -- defect 1: invite-only registration --------------------------------------------------------------------------


def test_an_invited_player_registers_through_the_invite_link_s_form(client):
    t = event(organizer(), private=True)
    guest = make_players(1, prefix="guest")[0]
    client.force_login(guest)
    page = client.get(t.get_absolute_url() + f"?invite={t.invite_token}")
    assert page.status_code == 200
    assert f'name="invite" value="{t.invite_token}"'.encode() in page.content  # the form carries it on
    response = post(client, "tournament_register", t, {"invite": t.invite_token})
    assert response.status_code == 302
    assert Registration.objects.filter(tournament=t, user=guest).exists()
    assert post(client, "tournament_register", t, {"invite": "wrong"}).status_code in (302, 404)
    assert client.get(response["Location"]).status_code == 200


# -- defect 2: counts on /events/ ---------------------------------------------------------------------------------


def test_the_events_list_counts_each_player_once_for_a_registered_viewer(client):
    t = event(organizer(), max_players=4)
    players = make_players(4, prefix="cnt")
    register(t, players)
    client.force_login(players[0])
    page = client.get(reverse("tournaments"))
    assert [e.players for e in page.context["events"]["upcoming"] if e.pk == t.pk] == [4]
    assert b"4/4" in page.content


# -- defect 3: confirmations, undo ---------------------------------------------------------------------------------


def test_start_now_below_the_minimum_changes_nothing_and_says_why(client):
    owner = organizer()
    t = event(owner, min_players=3)
    register(t, make_players(2, prefix="few"))
    client.force_login(owner)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Only 2 players are ready and the event needs at least 3" in page
    post(client, "tournament_next_round", t)  # no confirmation: nothing happens
    response = client.post(reverse("tournament_next_round", args=[t.pk]), {"confirm": "yes"}, follow=True)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.REGISTRATION
    assert "Not started: 2 players are ready" in response.content.decode()


def test_start_now_asks_first_and_says_what_happens(client):
    owner = organizer()
    t = event(owner)
    register(t, make_players(4, prefix="st"))
    client.force_login(owner)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Yes, start the event now" in page and "cannot be undone" in page
    post(client, "tournament_next_round", t)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.REGISTRATION
    post(client, "tournament_next_round", t, {"confirm": "yes"})
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING
    assert OrganizerAction.objects.filter(tournament=t, action="start", actor=owner).exists()


def test_next_round_now_in_the_last_round_says_it_finishes_the_event(client):
    owner = organizer()
    t, _players = started(owner, rounds=1)
    client.force_login(owner)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "This is the last round: ending it now finishes the event." in page
    assert "Yes, end the round and finish the event" in page
    post(client, "tournament_next_round", t)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING


def test_disqualify_names_no_one_until_chosen_confirms_and_can_be_undone(client):
    owner = organizer()
    t, players = started(owner, rounds=2)
    target = players[1]
    client.force_login(owner)
    page = client.get(t.get_absolute_url()).content.decode()
    select = page[page.index('id="dq-player"') :]
    select = select[: select.index("</select>")]
    assert '<option value="">Choose a player</option>' in select and "selected" not in select
    confirm = client.get(reverse("tournament_disqualify", args=[t.pk]) + f"?player={target.pk}")
    assert confirm.status_code == 200 and str(target).encode() in confirm.content
    assert not Registration.objects.get(tournament=t, user=target).disqualified  # asking changed nothing
    post(client, "tournament_disqualify", t, {"player": target.pk})  # the page's button sends confirm=yes
    assert not Registration.objects.get(tournament=t, user=target).disqualified
    post(client, "tournament_disqualify", t, {"player": target.pk, "confirm": "yes"})
    assert Registration.objects.get(tournament=t, user=target).disqualified
    assert told(target, "the organizer disqualified you")
    # his table tells him why, and offers no "I'm back" that would do nothing
    board = Board.objects.get(round__tournament=t)
    client.force_login(target)
    table = client.get(reverse("table", args=[board.table_id])).content.decode()
    assert "The organizer disqualified you" in table and "I&#x27;m back" not in table and "I'm back" not in table
    client.force_login(owner)
    post(client, "tournament_reinstate", t, {"player": target.pk})
    assert not Registration.objects.get(tournament=t, user=target).disqualified
    assert told(target, "reinstated you")
    actions = list(OrganizerAction.objects.filter(tournament=t).values_list("action", "player_id"))
    assert ("disqualify", target.pk) in actions and ("reinstate", target.pk) in actions


def test_cancel_asks_tells_the_players_and_can_be_reopened_before_the_start(client):
    owner = organizer()
    t = event(owner)
    players = make_players(2, prefix="cx")
    register(t, players)
    client.force_login(owner)
    post(client, "tournament_cancel", t)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.REGISTRATION
    post(client, "tournament_cancel", t, {"confirm": "yes"})
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.CANCELLED
    assert all(told(p, "was cancelled by its organizer") for p in players)
    assert "Reopen the event" in client.get(t.get_absolute_url()).content.decode()
    post(client, "tournament_reopen", t)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.REGISTRATION
    assert Registration.objects.filter(tournament=t).count() == 2


def test_withdraw_a_player_before_the_start_and_restore_him_with_the_waitlist(client):
    owner = organizer()
    t = event(owner, max_players=2)
    a, b, c = make_players(3, prefix="wd")
    register(t, [a, b, c])
    assert Registration.objects.get(tournament=t, user=c).waitlisted
    client.force_login(c)
    assert "waiting list (number 1)" in client.get(t.get_absolute_url()).content.decode()
    client.force_login(owner)
    confirm = client.get(reverse("tournament_withdraw_player", args=[t.pk]) + f"?player={a.pk}")
    assert b"Yes, withdraw" in confirm.content
    post(client, "tournament_withdraw_player", t, {"player": a.pk, "confirm": "yes"})
    assert Registration.objects.get(tournament=t, user=a).withdrawn
    assert not Registration.objects.get(tournament=t, user=c).waitlisted  # moved up
    assert told(a, "withdrew your registration") and told(c, "off the waiting list")
    post(client, "tournament_restore_player", t, {"player": a.pk})
    restored = Registration.objects.get(tournament=t, user=a)
    assert not restored.withdrawn and restored.waitlisted  # the event is full again: he waits
    services.tournament_start(t.pk, early_by=owner)
    t.refresh_from_db()
    seated = {p for board in Board.objects.filter(round__tournament=t) for p in board.players}
    assert {b.pk, c.pk} <= seated and a.pk not in seated
    assert told(a, "no place came free for you")  # still waiting at the start: he hears it


def test_entry_conditions_refuse_with_what_is_missing(client):
    owner = organizer()
    t = event(owner, min_rating=1500, min_rated_games=5)
    novice, veteran = make_players(2, prefix="ent")
    now = timezone.now()
    PlayerRating.objects.create(user=veteran, game="durak", mu=30, sigma=2, rating=1600, games=9, updated_at=now)
    client.force_login(novice)
    response = client.post(reverse("tournament_register", args=[t.pk]), follow=True)
    assert "at least 5 rated games" in response.content.decode()
    assert not Registration.objects.filter(user=novice).exists()
    client.force_login(veteran)
    post(client, "tournament_register", t)
    assert Registration.objects.filter(user=veteran).exists()


# -- defect 4: pause --------------------------------------------------------------------------------------------


def test_pause_freezes_every_table_and_resume_moves_the_deadline_by_the_pause(client):
    owner = organizer()
    t, players = started(owner, rounds=2, round_minutes=30)
    board = Board.objects.get(round__tournament=t)
    game = Game.objects.get(table=board.table, status=Game.Status.PLAYING)
    deadline_before = Round.objects.get(pk=board.round_id).deadline
    turn_before = game.deadline
    client.force_login(owner)
    post(client, "tournament_pause", t)
    table = Table.objects.get(pk=board.table_id)
    assert table.paused_at is not None
    assert all(told(p, "is paused by its organizer") for p in players)
    seat = Seat.objects.get(table=table, index=0)
    with pytest.raises(ActionRefused) as refused:
        table_player_action(table.pk, seat.user, game.move_number, {"type": "pass"})
    assert refused.value.code == "paused"
    # the turn's deadline passes while paused: the timer does nothing
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert not game_apply_timeout(game.pk, game.move_number)
    Game.objects.filter(pk=game.pk).update(deadline=turn_before)
    client.force_login(seat.user)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert (
        "Paused: no moves until the game resumes" in page
        and "data-deadline" not in page.split("table-status")[1][:2000]
    )
    # ten minutes later the organizer resumes: the round and the turn both got those ten minutes back
    Tournament.objects.filter(pk=t.pk).update(paused_at=timezone.now() - timedelta(minutes=10))
    Table.objects.filter(pk=table.pk).update(paused_at=timezone.now() - timedelta(minutes=10))
    client.force_login(owner)
    post(client, "tournament_resume", t)
    assert Table.objects.get(pk=table.pk).paused_at is None
    moved = Round.objects.get(pk=board.round_id).deadline - deadline_before
    assert timedelta(minutes=10) <= moved < timedelta(minutes=10, seconds=30)
    assert (
        timedelta(minutes=10) <= Game.objects.get(pk=game.pk).deadline - turn_before < timedelta(minutes=10, seconds=30)
    )
    assert [a.action for a in OrganizerAction.objects.filter(tournament=t)][:2] == ["resume", "pause"]


# -- defect 5: the panel follows the start on schedule ----------------------------------------------------------


def test_the_organizer_panel_in_the_live_part_follows_a_start_on_schedule(client):
    owner = organizer()
    t = event(owner)
    register(t, make_players(4, prefix="sched"))
    client.force_login(owner)
    live = client.get(reverse("tournament_live", args=[t.pk])).content.decode()
    assert "Start now" in live and 'id="organizer-panel"' in live
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.tournaments_tick()
    live = client.get(reverse("tournament_live", args=[t.pk])).content.decode()
    assert "Start now" not in live and ">Edit<" not in live
    assert "Pause" in live and 'id="announce-text"' in live and 'id="dq-player"' in live


# -- defect 6: players told -------------------------------------------------------------------------------------


def test_a_tournament_table_shows_the_event_round_countdown_and_a_way_back(client):
    owner = organizer()
    t, players = started(owner, rounds=2, round_minutes=20)
    board = Board.objects.get(round__tournament=t)
    client.force_login(players[0])
    page = client.get(reverse("table", args=[board.table_id])).content.decode()
    assert 'id="table-event"' in page and t.get_absolute_url() in page and t.name in page
    assert "round 1" in page and 'class="round-clock"' in page


def test_at_the_time_limit_a_player_is_not_sent_away_again_after_i_m_back(client):
    owner = organizer()
    t, players = started(owner, rounds=1, round_minutes=30)
    board = Board.objects.get(round__tournament=t)
    Round.objects.filter(pk=board.round_id).update(deadline=timezone.now())
    services.tournaments_tick()
    me = players[0]
    client.force_login(me)
    page = client.get(reverse("table", args=[board.table_id])).content.decode()
    assert "bots play the unfinished tables to their end" in page
    assert "I&#x27;m back" not in page and "I'm back" not in page
    client.post(reverse("table_away", args=[board.table_id]), {"away": "0"})  # an old page's button
    services.tournaments_tick()
    seat = Seat.objects.get(table_id=board.table_id, user=me)
    assert seat.bot_level  # a bot keeps the seat: no flip-flop, and the page said so


def test_a_table_settled_from_the_position_tells_each_player_his_score_and_why(client):
    owner = organizer()
    t, players = started(owner, rounds=1, round_minutes=30, settle=Tournament.Settle.POSITION)
    board = Board.objects.get(round__tournament=t)
    Round.objects.filter(pk=board.round_id).update(deadline=timezone.now())
    services.tournaments_tick()
    assert all(told(p, "scored your table from its position. You scored") for p in players)
    client.force_login(players[0])
    page = client.get(reverse("table", args=[board.table_id])).content.decode()
    assert "the rules scored this table from its position: you scored" in page


def test_a_knockout_tells_who_advanced_and_shows_bracket_and_podium(client):
    owner = organizer()
    t, players = started(owner, format=Tournament.Format.KNOCKOUT, advance=2, n=8)
    play_round_out(t)
    services.tournament_advance(t.pk)
    out = list(Registration.objects.filter(tournament=t, eliminated_in=1).values_list("user_id", flat=True))
    ahead = [p for p in players if p.pk not in out]
    assert len(out) == 4
    assert all(told(p, "you advance from round 1") for p in ahead)
    t.refresh_from_db()
    play_round_out(t)
    services.tournament_advance(t.pk)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    page = client.get(t.get_absolute_url()).content.decode()
    assert 'id="podium"' in page and 'id="bracket"' in page
    assert page.count('class="went-on"') == 4
    assert all(told(p, "you placed") for p in players)


# -- defect 7: who runs an event ---------------------------------------------------------------------------------


def test_only_the_event_s_organizer_and_superusers_run_it(client):
    owner = organizer()
    t, _players = started(owner, rounds=2)
    moderator = make_players(1, prefix="mod")[0]
    moderator.is_staff = True
    moderator.save()
    other = organizer("other")
    for intruder in (moderator, other):
        client.force_login(intruder)
        post(client, "tournament_announce", t, {"text": "not mine"})
        post(client, "tournament_pause", t)
        assert "organizer-panel" not in client.get(t.get_absolute_url()).content.decode()
    assert not t.announcements.exists() and Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING
    admin = make_players(1, prefix="root")[0]
    admin.is_superuser = admin.is_staff = True
    admin.save()
    client.force_login(admin)
    post(client, "tournament_announce", t, {"text": "from the admin"})
    assert t.announcements.get().text == "from the admin"
    assert OrganizerAction.objects.filter(tournament=t, action="announce", actor=admin).exists()


def test_createorganizer_lets_a_user_create_events(client):
    user = make_players(1, prefix="future")[0]
    call_command("createorganizer", user.username)
    assert user.groups.filter(name=ORGANIZERS_GROUP).exists()
    assert Group.objects.filter(name=ORGANIZERS_GROUP).count() == 1
    client.force_login(user)
    assert client.get(reverse("tournament_new")).status_code == 200


# -- defect 8: the smaller ones ----------------------------------------------------------------------------------


def test_rules_header_and_round_clock_on_the_event_page(client):
    owner = organizer()
    t, _players = started(owner, rounds=2, round_minutes=15)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "None" not in page.split("<h2>Rules</h2>")[1]
    assert "Started" in page and "early; it was due at" in page
    assert 'id="round-clock"' in page


def test_the_create_form_reads_times_in_the_organizer_s_zone(client):
    client.force_login(organizer())
    start = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    kyiv = start.astimezone(ZoneInfo("Europe/Kyiv"))
    response = post_event_form(client, "durak", kyiv.replace(tzinfo=None), name="Kyiv evening", tz="Europe/Kyiv")
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(name="Kyiv evening").starts_at == start


def test_seat_set_away_still_works_for_ordinary_tables():
    # the held-seat rule is for seats given a bot level from above only
    t, players = started(organizer(), rounds=1)
    board = Board.objects.get(round__tournament=t)
    seat_set_away(board.table_id, players[0], True)
    seat_set_away(board.table_id, players[0], False)
    assert not Seat.objects.get(table_id=board.table_id, user=players[0]).away


@pytest.mark.parametrize(
    ("lang", "cancel", "paused"),
    [("ru", "Отменить турнир", "Пауза: ходов нет"), ("uk", "Скасувати турнір", "Пауза: ходів немає")],
)
def test_the_organizer_s_panel_and_the_paused_table_speak_the_reader_s_language(client, lang, cancel, paused):
    owner = organizer()
    t = event(owner)
    client.force_login(owner)
    assert cancel in client.get(t.get_absolute_url(), headers={"accept-language": lang}).content.decode()
    t, players = started(owner, rounds=2)
    services.tournament_pause(tournament_id=t.pk, user=owner, paused=True)
    board = Board.objects.get(round__tournament=t)
    client.force_login(players[0])
    page = client.get(reverse("table", args=[board.table_id]), headers={"accept-language": lang}).content.decode()
    assert paused in page


def test_a_deal_everyone_passed_is_listed_as_a_redeal_not_as_another_replay(client):
    from tables.services import load_state, table_apply_action

    owner = organizer()
    t, _players = started(owner, game="biznes", format=Tournament.Format.CUMULATIVE, rounds=1, games_per_round=1)
    board = Board.objects.get(round__tournament=t)
    for _ in range(board.table.seats_count):  # every seat passes: the deal is void and dealt again
        game = Game.objects.get(table_id=board.table_id, status=Game.Status.PLAYING)
        seat = load_state(game).to_act()[0]
        table_apply_action(game.pk, seat, game.move_number, {"type": "pass"})
    assert Game.objects.filter(table_id=board.table_id).count() == 2
    play_round_out(t)
    services.tournament_advance(t.pk)
    page = client.get(t.get_absolute_url()).content.decode()
    assert page.count("redeal (everyone passed)") == 1 and "replay 1" in page and "replay 2" not in page
