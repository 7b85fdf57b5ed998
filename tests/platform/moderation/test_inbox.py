"""The report inbox, a player's moderation view, appeals and the players list's filters, as moderators use them."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from chat.models import ChatMessage
from leaderboards.models import RatingChange
from moderation import services
from moderation.models import Appeal, AuditEntry, SignIn
from moderation.selectors import APPEAL_SALT
from notifications.models import Notification
from tables.models import Game, Seat
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db

ACT = "admin:moderation_player_act"


@pytest.fixture
def moderator():
    user = User.objects.create_user("mod", "mod@example.com", "pw-cards-123")
    services.moderator_add(user)
    return User.objects.get(pk=user.pk)


def test_the_inbox_puts_open_reports_of_the_most_reported_first_and_filters(client, moderator):
    durak, players, _g = started_table("durak", 3)
    verish, others, _g2 = started_table("verish", 2)
    # players[2] reported twice, others[1] once (later): the most reported comes first
    services.report_create(reporter=players[0], reported=players[2], reason="abuse", table_id=durak.pk)
    services.report_create(reporter=players[1], reported=players[2], reason="stalling", table_id=durak.pk)
    late = services.report_create(reporter=others[0], reported=others[1], reason="cheating", table_id=verish.pk)
    closed = services.report_create(reporter=others[1], reported=others[0], reason="abuse")
    services.report_dismiss(closed, by=moderator, resolution="nothing wrong")
    client.force_login(moderator)
    url = reverse("admin:moderation_report_changelist")
    answer = client.get(url)
    page = answer.content.decode()
    rows = list(answer.context["cl"].result_list)
    assert [r.reported_id for r in rows] == [players[2].pk, players[2].pk, others[1].pk, others[0].pk]
    assert rows[0].created_at > rows[1].created_at  # the newest first within him
    assert rows[3].status == "dismissed"
    assert "Verish" in page or "verish" in page.lower()
    for query, expected in (
        ({"reason__exact": "cheating"}, [late.pk]),
        ({"game": "verish", "status__exact": "open"}, [late.pk]),
        ({"status__exact": "dismissed"}, [closed.pk]),
    ):
        listed = client.get(url, query).context["cl"].result_list
        assert [r.pk for r in listed] == expected


def test_acting_from_a_report_in_one_place(client, moderator):
    table, players, game = started_table("durak", 2)
    line = ChatMessage.objects.create(channel="players", table=table, user=players[1], text="idiot")
    report = services.report_create(
        reporter=players[0], reported=players[1], reason="abuse", text="insults", table_id=table.pk
    )
    client.force_login(moderator)
    detail = reverse("admin:moderation_report_change", args=[report.pk])
    page = client.get(detail).content.decode()
    # the reason prefilled from the report, the links onward, and every action
    assert f"Report #{report.pk} (Abusive chat): insults" in page
    assert reverse("admin:moderation_player_change", args=[players[1].pk]) in page
    assert reverse("table", args=[table.pk]) in page
    assert f"user__id__exact={players[1].pk}" in page
    ChatMessage.objects.create(channel="players", table=table, user=players[0], text="calm down")
    lines = client.get(reverse("admin:chat_chatmessage_changelist"), {"user__id__exact": players[1].pk})
    assert "idiot" in lines.content.decode() and "calm down" not in lines.content.decode()
    for action in ("warn", "mute", "ban", "playban"):
        assert f'value="{action}"' in page
    assert 'value="dismiss"' in page and f'name="line" value="{line.pk}"' in page
    # a finished game's replay opens at the reported move
    play_randomly(game, random.Random(1))
    later = services.report_create(reporter=players[1], reported=players[0], reason="cheating", table_id=table.pk)
    page = client.get(reverse("admin:moderation_report_change", args=[later.pk])).content.decode()
    assert f"{reverse('replay', args=[later.game_id])}?step={later.move_number}" in page
    # mute with his lines hidden, from the report: back on the report, closed with what was done
    answer = client.post(
        reverse(ACT),
        {
            "ids": players[1].pk,
            "confirm": "1",
            "action": "mute",
            "mute": "1h",
            "hide": "hour",
            "reason": "insults",
            "back": detail,
        },
    )
    assert answer["Location"] == detail
    report.refresh_from_db()
    line.refresh_from_db()
    assert report.status == "resolved" and report.sanction.kind == "mute" and line.hidden_at is not None
    # a hostile "back" never leaves the admin
    bounce = client.post(
        reverse(ACT),
        {"ids": players[1].pk, "confirm": "1", "action": "warn", "reason": "x", "back": "https://evil.example/"},
    )
    assert bounce["Location"].startswith("/admin/")


def test_the_players_moderation_view(client, moderator):
    table, players, game = started_table("durak", 2)
    (third,) = make_players(1, prefix="alt")
    suspect = players[1]
    services.report_create(reporter=players[0], reported=suspect, reason="abuse", table_id=table.pk)
    services.report_create(reporter=suspect, reported=players[0], reason="stalling", table_id=table.pk)
    services.abandonment_record(suspect, table.pk, "left")
    services.abandonment_record(suspect, table.pk, "timeouts")
    services.abandonment_record(suspect, table.pk, "timeouts")
    ChatMessage.objects.create(channel="players", table=table, user=suspect, text="whatever you say")
    play_randomly(game, random.Random(2))
    factory = RequestFactory()
    for user, address in ((suspect, "203.0.113.7"), (third, "203.0.113.7"), (players[0], "198.51.100.1")):
        user_logged_in.send(sender=User, request=factory.get("/", REMOTE_ADDR=address), user=user)
    client.force_login(moderator)
    url = reverse("admin:moderation_player_change", args=[suspect.pk])
    client.post(reverse(ACT), {"ids": suspect.pk, "confirm": "1", "action": "note", "note": "watch his chat"})
    page = client.get(url).content.decode()
    assert "left 1 game" in page and "timed out of 2 games" in page
    assert "whatever you say" in page and "watch his chat" in page
    assert AuditEntry.objects.filter(action="note", target=suspect, actor=moderator).exists()
    shared = page.split('id="shared-addresses"')[1].split("</table>")[0]
    assert third.username in shared and "203.0.113.7" in shared and players[0].username not in shared
    assert page.split('id="reports-by"')[1].count(players[0].username) >= 1
    history = page.split('id="player-ratings"')[1].split("</table>")[0]
    assert "→" in history and "durak" in history and "annulled" not in history  # his rating history, per game
    Game.objects.filter(pk__in=RatingChange.objects.filter(user=suspect).values("played_game")).update(annulled=True)
    history = client.get(url).content.decode().split('id="player-ratings"')[1].split("</table>")[0]
    assert "annulled" in history  # a moderator sees which rated games no longer count
    # a note is only for moderators: an empty one is refused
    client.post(reverse(ACT), {"ids": suspect.pk, "confirm": "1", "action": "note", "note": "  "})
    assert AuditEntry.objects.filter(action="note").count() == 1


def test_sign_in_addresses_are_kept_for_the_retention_period_only():
    (player,) = make_players(1, prefix="s")
    services.sign_in_record(player, "192.0.2.1")
    SignIn.objects.update(last_at=timezone.now() - timedelta(days=services.SIGN_IN_DAYS + 1))
    services.sign_in_record(player, "192.0.2.2")
    assert list(SignIn.objects.values_list("address", flat=True)) == ["192.0.2.2"]
    services.sign_in_record(player, "192.0.2.2")
    assert SignIn.objects.count() == 1


def test_a_muted_player_appeals_once_and_is_told_the_answer(client, moderator):
    (player,) = make_players(1, prefix="m")
    mute = services.user_mute(player, by=moderator, reason="insults", minutes=60)
    client.force_login(player)
    page = client.get(reverse("my_reports")).content.decode()
    assert "Appeal this decision" in page and "insults" in page
    client.post(reverse("appeal_new"), {"sanction": mute.pk, "text": "I was quoting him"})
    appeal = Appeal.objects.get(sanction=mute)
    assert appeal.audit.action == "mute" and appeal.audit.details["sanction"] == mute.pk
    again = client.post(reverse("appeal_new"), {"sanction": mute.pk, "text": "please"}, follow=True)
    assert "You already appealed this sanction." in again.content.decode()
    assert Appeal.objects.count() == 1
    # nobody appeals another's sanction
    (other,) = make_players(1, prefix="o")
    client.force_login(other)
    client.post(reverse("appeal_new"), {"sanction": mute.pk, "text": "mine"})
    assert Appeal.objects.count() == 1
    # the inbox shows it; the moderator reduces the mute to ten minutes from now
    client.force_login(moderator)
    inbox = client.get(reverse("admin:moderation_report_changelist")).content.decode()
    assert "I was quoting him" in inbox
    until = timezone.localtime(timezone.now() + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M")
    url = reverse("admin:moderation_appeal_change", args=[appeal.pk])
    client.post(url, {"decision": "reduce", "answer": "fair enough, shorter", "until": until})
    mute.refresh_from_db()
    appeal.refresh_from_db()
    assert appeal.decision == "reduce" and mute.until < timezone.now() + timedelta(minutes=11)
    assert AuditEntry.objects.filter(action="appeal_reduce", target=player, actor=moderator).exists()
    note = Notification.objects.filter(user=player).latest("pk")
    assert "reduced" in note.message and "fair enough, shorter" in note.message
    client.force_login(player)
    assert "Your appeal was answered: Reduced." in client.get(reverse("my_reports")).content.decode()
    # answered once
    client.force_login(moderator)
    client.post(url, {"decision": "lift", "answer": "changed my mind"})
    mute.refresh_from_db()
    assert mute.lifted_at is None


def test_a_banned_player_appeals_from_his_ban_page(client, moderator):
    (player,) = make_players(1, prefix="b")
    ban = services.user_ban(player, by=moderator, reason="cheating", until=timezone.now() + timedelta(days=7))
    client.force_login(player)
    page = client.get("/play/").content.decode()
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    # signed out now: the page's token is his only way in
    forged = client.post(reverse("appeal_new"), {"sanction": ban.pk, "token": signing.dumps(ban.pk), "text": "x"})
    assert forged.status_code == 400 and not Appeal.objects.exists()
    sent = client.post(reverse("appeal_new"), {"sanction": ban.pk, "token": token, "text": "it was my brother"})
    assert sent.status_code == 200 and "Your appeal was sent" in sent.content.decode()
    appeal = Appeal.objects.get()
    assert appeal.user == player and appeal.audit.action == "ban"
    client.force_login(moderator)
    client.post(
        reverse("admin:moderation_appeal_change", args=[appeal.pk]), {"decision": "lift", "answer": "benefit of doubt"}
    )
    ban.refresh_from_db()
    assert ban.lifted_at is not None
    assert AuditEntry.objects.filter(action="appeal_lift", target=player).exists()
    assert signing.loads(token, salt=APPEAL_SALT) == ban.pk


def test_a_moderator_answers_no_appeal_of_a_colleague(client):
    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-cards-123")
    mods = []
    for name in ("m1", "m2"):
        user = User.objects.create_user(name, f"{name}@example.com", "pw-cards-123")
        services.moderator_add(user)
        mods.append(user)
    warning = services.user_warn(mods[0], by=boss, reason="too harsh")
    appeal = services.appeal_create(warning, user=mods[0], text="it was fair")
    with pytest.raises(services.ModerationRefused):
        services.appeal_answer(appeal, by=mods[1], decision="lift", answer="sure")
    with pytest.raises(services.ModerationRefused):
        services.appeal_answer(appeal, by=mods[0], decision="lift", answer="sure")


def test_the_players_list_filters(client, moderator):
    table, players, _g = started_table("durak", 4)
    reported, muted, playbanned, _plain = players
    services.report_create(reporter=players[3], reported=reported, reason="abuse", table_id=table.pk)
    services.user_mute(muted, by=moderator, reason="spam", minutes=10)
    services.user_playban(playbanned, by=moderator, reason="left games", minutes=60)
    client.force_login(moderator)
    url = reverse("admin:moderation_player_changelist")

    def listed(query):
        return {u.username for u in client.get(url, query).context["cl"].result_list}

    assert listed({"reported": "yes"}) == {reported.username}
    assert listed({"sanction": "active"}) == {muted.username, playbanned.username}
    assert listed({"sanction": "playban"}) == {playbanned.username}
    assert listed({"is_staff__exact": "1"}) == {moderator.username}
    assert Seat.objects.filter(table=table).count() == 4


@pytest.mark.parametrize(
    ("lang", "appeal", "told"),
    [("ru", "Обжаловать это решение", "запретил игроку"), ("uk", "Оскаржити це рішення", "заборонив гравцеві")],
)
def test_the_players_side_speaks_his_language(client, moderator, lang, appeal, told):
    reporter, muted = make_players(2, prefix=lang)
    services.report_create(reporter=reporter, reported=muted, reason="abuse")
    services.user_mute(muted, by=moderator, reason="insults", minutes=60)
    headers = {"accept-language": lang}
    client.force_login(muted)
    assert appeal in client.get(reverse("my_reports"), headers=headers).content.decode()
    client.force_login(reporter)
    assert told in client.get(reverse("notifications"), headers=headers).content.decode()


def test_the_moderators_pages_in_russian(client, moderator):
    table, players, _game = started_table("durak", 2)
    report = services.report_create(reporter=players[0], reported=players[1], reason="abuse", table_id=table.pk)
    client.force_login(moderator)
    ru = {"accept-language": "ru"}
    detail = client.get(reverse("admin:moderation_report_change", args=[report.pk]), headers=ru).content.decode()
    assert "Меры против игрока" in detail and "Жалоба №" in detail
    player = client.get(reverse("admin:moderation_player_change", args=[players[1].pk]), headers=ru)
    assert "Заметки модераторов" in player.content.decode()


def test_a_warned_player_is_pointed_to_his_appeal_and_a_lifted_warning_is_told(client, moderator):
    (player,) = make_players(1, prefix="w")
    warning = services.user_warn(player, by=moderator, reason="spoilers in the chat")
    client.force_login(player)
    page = client.get("/play/", follow=True).content.decode()
    assert "spoilers in the chat" in page and "appeal" in page
    assert Notification.objects.get(user=player, kind="warning").url == reverse("my_reports")
    client.post(reverse("appeal_new"), {"sanction": warning.pk, "text": "it was the other table"})
    appeal = Appeal.objects.get(sanction=warning)
    client.force_login(moderator)
    client.post(reverse("admin:moderation_appeal_change", args=[appeal.pk]), {"decision": "reduce", "answer": "x"})
    appeal.refresh_from_db()
    assert appeal.is_open  # a warning has no end to reduce
    client.post(reverse("admin:moderation_appeal_change", args=[appeal.pk]), {"decision": "lift", "answer": "sorry"})
    warning.refresh_from_db()
    assert warning.lifted_at is not None
    assert "lifted the sanction: sorry" in Notification.objects.filter(user=player).latest("pk").message
