"""The moderators' admin: the queue, a player's page and its actions; plain staff get nothing; history is read-only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from moderation import services
from moderation.models import AuditEntry, Report, Sanction
from tables.models import Table
from tests.platform.tables.factories import make_players, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    user = User.objects.create_user("mod", "mod@example.com", "pw-cards-123")
    services.moderator_add(user)
    return user


@pytest.fixture
def staff():
    return User.objects.create_user("staff", "staff@example.com", "pw-cards-123", is_staff=True)


def test_moderator_works_the_queue_and_acts_from_the_players_page(client, moderator):
    table, players, _game = started_table("durak", 2)
    report = services.report_create(reporter=players[0], reported=players[1], reason="abuse", table_id=table.pk)
    client.force_login(moderator)
    queue = client.get(reverse("admin:moderation_report_changelist"))
    assert queue.status_code == 200 and players[1].username in queue.content.decode()
    detail = client.get(reverse("admin:moderation_report_change", args=[report.pk]))
    assert detail.status_code == 200 and "decide-form" in detail.content.decode()
    page = client.get(reverse("admin:moderation_player_change", args=[players[1].pk]))
    assert page.status_code == 200 and "act-form" in page.content.decode()
    act = reverse("admin:moderation_player_act")
    base = {"ids": players[1].pk, "confirm": "1"}
    client.post(act, {**base, "action": "mute", "mute": "1h", "reason": "insults"})
    client.post(act, {**base, "action": "ban", "ban_for": "7", "reason": "kept insulting"})
    kinds = set(Sanction.objects.filter(user=players[1]).values_list("kind", flat=True))
    assert kinds == {"mute", "ban"}
    players_list = client.get(reverse("admin:moderation_player_changelist")).content.decode()
    assert "Chat mute, Ban" in players_list or "Ban, Chat mute" in players_list
    client.post(
        reverse("admin:moderation_report_decide", args=[report.pk]), {"decision": "resolve", "resolution": "banned"}
    )
    assert Report.objects.get(pk=report.pk).status == "resolved"
    log = client.get(reverse("admin:moderation_auditentry_changelist"), {"q": moderator.username})
    text = log.content.decode()
    assert log.status_code == 200 and "Muted" in text and "Banned" in text
    # an action without a reason changes nothing
    client.post(act, {**base, "action": "warn", "reason": ""})
    assert not Sanction.objects.filter(kind="warn").exists()


def test_moderator_aborts_a_table_from_the_admin(client, moderator):
    table, _players, _game = started_table("durak", 2)
    client.force_login(moderator)
    url = reverse("admin:tables_table_changelist")
    first = client.post(url, {"action": "abort", "_selected_action": [table.pk]})
    assert first.status_code == 200 and "Reason" in first.content.decode()
    client.post(url, {"action": "abort", "_selected_action": [table.pk], "confirm": "1", "reason": "collusion"})
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED
    assert AuditEntry.objects.filter(action="table_abort", actor=moderator).exists()


def test_plain_staff_without_the_group_can_do_none_of_it(client, staff):
    table, players, _game = started_table("durak", 2)
    report = services.report_create(reporter=players[0], reported=players[1], reason="abuse", table_id=table.pk)
    client.force_login(staff)
    assert client.get(reverse("admin:moderation_report_changelist")).status_code == 403
    assert client.get(reverse("admin:moderation_player_change", args=[players[1].pk])).status_code == 403
    act = client.post(
        reverse("admin:moderation_player_act"),
        {"ids": players[1].pk, "confirm": "1", "action": "ban", "reason": "x"},
    )
    assert act.status_code == 403
    decide = client.post(reverse("admin:moderation_report_decide", args=[report.pk]), {"decision": "dismiss"})
    assert decide.status_code == 403
    client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "abort", "_selected_action": [table.pk], "confirm": "1", "reason": "x"},
    )
    assert not Sanction.objects.exists() and Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_history_is_read_only_even_for_a_superuser(client):
    admin = User.objects.create_superuser("root", "root@example.com", "pw-cards-123")
    table, _players, game = started_table("durak", 2)
    client.force_login(admin)
    move_add = client.get(reverse("admin:tables_move_add"))
    assert move_add.status_code == 403
    assert client.post(reverse("admin:tables_game_delete", args=[game.pk])).status_code == 403
    change = client.get(reverse("admin:tables_table_change", args=[table.pk])).content.decode()
    assert 'name="seats_count"' not in change and 'name="game"' not in change and 'name="options"' not in change
    services.user_warn(make_players(1, prefix="w")[0], by=admin, reason="x")
    entry = AuditEntry.objects.get(action="warn")
    assert client.post(reverse("admin:moderation_auditentry_delete", args=[entry.pk])).status_code == 403
    assert client.post(reverse("admin:moderation_auditentry_change", args=[entry.pk]), {"reason": "y"}).status_code in (
        200,
        403,
    )
    assert AuditEntry.objects.get(pk=entry.pk).reason == "x"


def test_changelist_action_mutes_several_players_after_asking_why(client, moderator):
    players = make_players(2, prefix="spam")
    client.force_login(moderator)
    response = client.post(
        reverse("admin:moderation_player_changelist"),
        {"action": "act_mute", "_selected_action": [p.pk for p in players]},
    )
    assert response.status_code == 302 and "action=mute" in response.url
    form = client.get(response.url)
    assert form.status_code == 200 and all(p.username in form.content.decode() for p in players)
    client.post(
        reverse("admin:moderation_player_act"),
        {
            "ids": [p.pk for p in players],
            "confirm": "1",
            "action": "mute",
            "mute": "custom",
            "minutes": "45",
            "reason": "spam",
        },
    )
    mutes = Sanction.objects.filter(kind="mute", user__in=players)
    assert mutes.count() == 2 and all(40 <= (m.until - m.created_at).total_seconds() / 60 <= 46 for m in mutes)
    assert AuditEntry.objects.filter(action="mute", actor=moderator).count() == 2
