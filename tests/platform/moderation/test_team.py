"""What a moderation team relies on: nobody locks colleagues out, acting closes reports and tells reporters,
abusive lines come down, the history names the players, and the forms do what they say."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from chat.models import ChatMessage
from chat.selectors import game_chat, last_lines
from moderation import services
from moderation.models import AuditEntry, Report, Sanction
from notifications.models import Notification
from tables.models import Game, Table
from tests.platform.tables.factories import make_players, started_table

pytestmark = pytest.mark.django_db

ACT = "admin:moderation_player_act"


def make_moderator(name: str) -> User:
    user = User.objects.create_user(name, f"{name}@example.com", "pw-cards-123")
    services.moderator_add(user)
    return user


def test_a_moderator_sanctions_neither_a_colleague_nor_himself(client):
    first, second = make_moderator("mod1"), make_moderator("mod2")
    (player,) = make_players(1, prefix="p")
    for act in (
        lambda: services.user_ban(second, by=first, reason="x"),
        lambda: services.user_mute(second, by=first, reason="x", minutes=10),
        lambda: services.user_warn(second, by=first, reason="x"),
        lambda: services.user_playban(second, by=first, reason="x", minutes=10),
        lambda: services.user_warn(first, by=first, reason="x"),
    ):
        with pytest.raises(services.ModerationRefused):
            act()
    # the bulk ban with a colleague among the selected changes nobody, and says why
    client.force_login(first)
    page = client.post(
        reverse(ACT),
        {"ids": [second.pk, player.pk], "confirm": "1", "action": "ban", "ban_for": "7", "reason": "spree"},
        follow=True,
    )
    assert "Only a superuser may act on a staff account." in page.content.decode()
    assert not Sanction.objects.exists()
    client.post(reverse(ACT), {"ids": [first.pk], "confirm": "1", "action": "ban", "ban_for": "1", "reason": "me"})
    assert not Sanction.objects.exists()
    # a superuser may
    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-cards-123")
    services.user_mute(second, by=boss, reason="rude to a player", minutes=10)
    assert Sanction.objects.filter(user=second, kind="mute").count() == 1


def test_acting_on_a_player_resolves_his_reports_and_tells_each_reporter(client):
    moderator = make_moderator("mod")
    table, players, _game = started_table("durak", 3)
    accused = players[2]
    reports = [
        services.report_create(reporter=p, reported=accused, reason="abuse", table_id=table.pk) for p in players[:2]
    ]
    services.user_mute(accused, by=moderator, reason="insults", minutes=60)
    for report in reports:
        report.refresh_from_db()
        assert report.status == Report.Status.RESOLVED and report.sanction.kind == "mute"
        assert "insults" in report.resolution
        assert AuditEntry.objects.filter(action="report_resolve", details__report=report.pk, actor=moderator).exists()
    for reporter in players[:2]:
        note = Notification.objects.get(user=reporter)
        assert accused.name in note.message and "muted" in note.message
        client.force_login(reporter)
        page = client.get(reverse("my_reports")).content.decode()
        assert "a moderator muted the player" in page
    # a later ban finds nothing open: no second notice
    services.user_ban(accused, by=moderator, reason="again", until=timezone.now() + timedelta(days=1))
    assert Notification.objects.filter(user__in=players[:2]).count() == 2


def test_hidden_lines_leave_reloads_and_replays_and_stay_in_the_audit_trail():
    moderator = make_moderator("mod")
    table, players, _game = started_table("durak", 2)
    rude = ChatMessage.objects.create(channel="players", table=table, user=players[1], text="you idiot")
    fine = ChatMessage.objects.create(channel="players", table=table, user=players[0], text="hello")
    old = ChatMessage.objects.create(channel="lobby", user=players[1], text="old news")
    ChatMessage.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=2))
    services.user_mute(players[1], by=moderator, reason="insults", minutes=10, hide="hour")
    shown = [line["text"] for line in last_lines("players", table.pk)]
    assert shown == ["hello"]
    assert [line["text"] for line in last_lines("lobby")] == ["old news"]  # older than the hour: kept
    game = Game.objects.get(table=table)
    assert "you idiot" not in [line["text"] for line in game_chat(game)]
    rude.refresh_from_db()
    assert rude.hidden_at is not None and rude.hidden_by == moderator
    row = AuditEntry.objects.get(action="chat_hide")
    assert row.target == players[1] and row.actor == moderator and row.details["lines"][0]["text"] == "you idiot"
    # one line at a time too; a line already hidden is not hidden twice
    services.chat_hide(players[1], by=moderator, reason="old insult", lines=[old.pk])
    with pytest.raises(services.ModerationRefused):
        services.chat_hide(players[1], by=moderator, reason="again", lines=[old.pk, rude.pk])
    fine.refresh_from_db()
    assert fine.hidden_at is None


def test_the_chat_lines_list_hides_the_selected_lines(client):
    moderator = make_moderator("mod")
    (player,) = make_players(1, prefix="p")
    line = ChatMessage.objects.create(channel="lobby", user=player, text="spam spam")
    client.force_login(moderator)
    url = reverse("admin:chat_chatmessage_changelist")
    step = client.post(url, {"action": "hide_lines", "_selected_action": [line.pk]})
    assert step.status_code == 200 and "spam spam" in step.content.decode()
    client.post(url, {"action": "hide_lines", "_selected_action": [line.pk], "confirm": "1", "reason": "spam"})
    line.refresh_from_db()
    assert line.hidden_at is not None
    assert AuditEntry.objects.filter(action="chat_hide", target=player, reason="spam").exists()


def test_the_ban_form_defaults_to_a_short_ban(client):
    moderator = make_moderator("mod")
    (player,) = make_players(1, prefix="p")
    client.force_login(moderator)
    page = client.get(reverse("admin:moderation_player_change", args=[player.pk])).content.decode()
    select = re.search(r'<select name="ban_for">(.*?)</select>', page, re.S).group(1)
    assert re.search(r'<option value="1" selected>', select)
    assert "selected" not in select.split('value="permanent"')[1].split(">")[0]
    # the form as it posts by default: one day, not forever
    client.post(reverse(ACT), {"ids": player.pk, "confirm": "1", "action": "ban", "ban_for": "1", "reason": "x"})
    ban = Sanction.objects.get(user=player, kind="ban")
    assert ban.until is not None and ban.until < timezone.now() + timedelta(days=1, minutes=1)
    # a length left out is refused, not taken as permanent
    services.sanction_lift(ban, by=moderator, reason="test")
    client.post(reverse(ACT), {"ids": player.pk, "confirm": "1", "action": "ban", "reason": "x"})
    assert Sanction.objects.filter(user=player, kind="ban").count() == 1
    client.post(
        reverse(ACT), {"ids": player.pk, "confirm": "1", "action": "ban", "ban_for": "permanent", "reason": "y"}
    )
    assert Sanction.objects.get(user=player, kind="ban", lifted_at__isnull=True).until is None


def test_reversing_ratings_asks_for_confirmation_first(client):
    moderator = make_moderator("mod")
    (player,) = make_players(1, prefix="p")
    client.force_login(moderator)
    # the player page's button: a confirmation page, nothing done yet
    page = client.post(reverse(ACT), {"ids": player.pk, "action": "reverse", "reason": "engine use"})
    assert page.status_code == 200 and "confirm-reverse" in page.content.decode()
    assert not AuditEntry.objects.filter(action="ratings_reverse").exists()
    client.post(reverse(ACT), {"ids": player.pk, "confirm": "1", "action": "reverse", "reason": "engine use"})
    assert AuditEntry.objects.filter(action="ratings_reverse", target=player).exists()


def test_a_game_stopped_by_a_deadline_is_not_shown_as_a_moderators_abort(client):
    from tables.services import table_stop

    moderator = make_moderator("mod")
    table, players, game = started_table("durak", 2)
    table_stop(Table.objects.get(pk=table.pk), Game.objects.get(pk=game.pk), by=None, reason="deadline")
    other, _p, _g = started_table("durak", 2, players=players)
    services.table_abort(other.pk, by=moderator, reason="collusion")
    client.force_login(moderator)
    page = client.get(reverse("admin:moderation_player_change", args=[players[0].pk])).content.decode()
    states = re.findall(r'<td class="game-state">(.*?)</td>', page)
    assert "Aborted by a moderator" in states
    assert any("deadline" in s for s in states)
    assert not any("annulled" in s for s in states)


def test_the_bulk_mute_page_offers_only_mute(client):
    moderator = make_moderator("mod")
    players = make_players(2, prefix="p")
    client.force_login(moderator)
    changelist = reverse("admin:moderation_player_changelist")
    step = client.post(changelist, {"action": "act_mute", "_selected_action": [p.pk for p in players]})
    page = client.get(step["Location"]).content.decode()
    assert 'value="mute"' in page
    for other in ('value="ban"', 'value="warn"', 'value="playban"'):
        assert other not in page


def test_a_reporter_is_told_when_his_report_is_dismissed(client):
    moderator = make_moderator("mod")
    reporter, reported = make_players(2, prefix="d")
    report = services.report_create(reporter=reporter, reported=reported, reason="name")
    services.report_dismiss(report, by=moderator, resolution="the name is fine")
    assert "no action was needed" in Notification.objects.get(user=reporter).message
    client.force_login(reporter)
    assert "Reviewed: no action was needed." in client.get(reverse("my_reports")).content.decode()


def test_a_mute_or_ban_with_line_hiding_stands_when_he_said_nothing_lately():
    moderator = make_moderator("mod")
    table, players, _game = started_table("durak", 2)
    services.user_mute(players[1], by=moderator, reason="insults", minutes=10, hide="hour")
    assert Sanction.objects.filter(user=players[1], kind="mute").exists()
    line = ChatMessage.objects.create(channel="players", table=table, user=players[1], text="still rude")
    services.user_ban(players[1], by=moderator, reason="again", until=timezone.now() + timedelta(days=1), hide="hour")
    line.refresh_from_db()
    assert line.hidden_at is not None and Sanction.objects.filter(user=players[1], kind="ban").exists()
