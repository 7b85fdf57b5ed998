"""The player's side: chat on the table and Play pages, reporting, his reports' status, bans and warnings."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from chat.services import chat_post
from moderation import services
from moderation.models import Report
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    user = User.objects.create_user("mod", "mod@example.com", "pw-cards-123")
    services.moderator_add(user)
    return user


def test_table_page_shows_chat_lines_escaped_and_hides_spectators_from_players(client):
    table, players, _game = started_table("durak", 2)
    (watcher,) = make_players(1, prefix="w")
    chat_post(user=players[0], channel="players", table_id=table.pk, text="<script>alert(1)</script>")
    chat_post(user=watcher, channel="spectators", table_id=table.pk, text="he holds the ace")
    client.force_login(players[1])
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    assert "he holds the ace" not in page and 'value="spectators"' not in page
    assert 'data-phrase="gg"' in page and "Report a player" in page
    client.force_login(watcher)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "he holds the ace" in page and 'value="spectators"' in page


def test_hiding_the_chat(client):
    table, players, _game = started_table("durak", 2)
    chat_post(user=players[0], channel="players", table_id=table.pk, text="visible line")
    client.force_login(players[1])
    client.post(reverse("chat_hide"), {"hidden": "1", "next": reverse("table", args=[table.pk])})
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "visible line" not in page and "Show chat" in page
    client.post(reverse("chat_hide"), {"hidden": "0"})
    assert "visible line" in client.get(reverse("table", args=[table.pk])).content.decode()


def test_report_from_the_table_page_and_its_status(client, moderator):
    table, players, _game = started_table("durak", 2)
    client.force_login(players[0])
    url = reverse("table", args=[table.pk])
    response = client.post(
        reverse("report_new"),
        {"reported": players[1].username, "reason": "stalling", "text": "never moves", "table": table.pk, "next": url},
        follow=True,
    )
    assert "your report was received" in response.content.decode()
    report = Report.objects.get()
    assert report.table_id == table.pk and report.reporter == players[0]
    mine = client.get(reverse("my_reports")).content.decode()
    assert "Received" in mine
    services.report_resolve(report, by=moderator, resolution="warned")
    assert "Acted on by a moderator" in client.get(reverse("my_reports")).content.decode()
    client.force_login(players[1])  # nobody else sees who reported whom
    assert players[0].name not in client.get(reverse("my_reports")).content.decode()
    # a forged next does not leave the site
    forged = client.post(
        reverse("report_new"), {"reported": players[0].username, "reason": "x", "next": "https://evil.example/"}
    )
    assert forged.url == "/"


def test_a_banned_player_is_signed_out_and_told_until_when(client, moderator):
    (player,) = make_players(1)
    client.force_login(player)
    until = timezone.now() + timedelta(days=2)
    services.user_ban(player, by=moderator, reason="cheating", until=until)
    response = client.get(reverse("play"))
    assert response.status_code == 403
    text = response.content.decode()
    assert "banned" in text and "until" in text and "cheating" in text
    assert "_auth_user_id" not in client.session  # signed out
    assert client.get(reverse("play")).status_code == 200  # now as a visitor


def test_a_warning_is_shown_once(client, moderator):
    (player,) = make_players(1)
    client.force_login(player)
    services.user_warn(player, by=moderator, reason="mind your language")
    assert "mind your language" in client.get(reverse("play")).content.decode()
    assert "mind your language" not in client.get(reverse("play")).content.decode()


def test_play_page_has_the_lobby_chat_and_says_why_a_playban_blocks(client):
    (player,) = make_players(1)
    chat_post(user=player, channel="lobby", text="anyone?")
    client.force_login(player)
    page = client.get(reverse("play")).content.decode()
    assert "anyone?" in page and 'ws-connect="/ws/chat/lobby/"' in page
    for n in range(services.PLAYBAN_ABANDONS):
        table, _, _ = started_table("durak", 2, players=[player, *make_players(1, prefix=f"x{n}")])
        from tables.services import seat_set_away

        seat_set_away(table.pk, player, True)
    page = client.get(reverse("play")).content.decode()
    assert "cannot start or join a table until" in page


def test_replay_shows_the_games_chat_to_its_players_only(client):
    table, players, game = started_table("durak", 2)
    chat_post(user=players[0], channel="players", table_id=table.pk, text="good luck both")
    play_randomly(game, random.Random(1))
    client.force_login(players[1])
    assert "good luck both" in client.get(reverse("replay", args=[game.pk])).content.decode()
    client.force_login(make_players(1, prefix="outsider")[0])
    assert "good luck both" not in client.get(reverse("replay", args=[game.pk])).content.decode()


def test_an_aborted_table_says_so(client, moderator):
    table, players, _game = started_table("durak", 2)
    services.table_abort(table.pk, by=moderator, reason="collusion")
    client.force_login(players[0])
    assert "This game was aborted by a moderator." in client.get(reverse("table", args=[table.pk])).content.decode()


def test_report_from_a_profile_keeps_his_recent_chat(client):
    reporter, reported = make_players(2, prefix="pr")
    chat_post(user=reported, channel="lobby", text="rude lobby line")
    client.force_login(reporter)
    page = client.get(reverse("profile", args=[reported.username])).content.decode()
    assert "Report a player" in page
    client.post(reverse("report_new"), {"reported": reported.username, "reason": "name", "text": "offensive name"})
    report = Report.objects.get()
    assert report.table is None and report.context["chat"][0]["text"] == "rude lobby line"


def test_a_banned_player_cannot_log_in(client, moderator):
    from allauth.account.models import EmailAddress

    (player,) = make_players(1, prefix="banned")
    EmailAddress.objects.create(user=player, email=player.email, verified=True, primary=True)
    services.user_ban(player, by=moderator, reason="cheating", until=timezone.now() + timedelta(hours=3))
    response = client.post(
        reverse("account_login"), {"login": player.username, "password": "pw-cards-123"}, follow=True
    )
    text = response.content.decode()
    assert response.status_code == 403 and "banned" in text and "until" in text
    assert "_auth_user_id" not in client.session
