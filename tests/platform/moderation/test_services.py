"""Moderation services: each action does what it says, writes its audit row, and refuses what it must."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from chat.models import ChatMessage
from chat.services import ChatRefused, chat_post
from leaderboards.models import PlayerRating, RatingChange
from lobbies.services import LobbyRefused, seat_join, table_create
from moderation import services
from moderation.models import AuditEntry, Report, Sanction
from moderation.selectors import play_refusal
from tables.models import Game, Seat, Table
from tables.services import ActionRefused, seat_set_away, table_apply_action
from tables.services import game_apply_timeout as game_timeout
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    user = User.objects.create_user("mod", "mod@example.com", "pw-cards-123")
    services.moderator_add(user)
    return User.objects.get(pk=user.pk)  # fresh permission cache


def entries(action: str, target=None):
    rows = AuditEntry.objects.filter(action=action)
    return rows.filter(target=target) if target is not None else rows


def test_the_moderators_group_exists_with_only_moderation_permissions(moderator):
    group = Group.objects.get(name="Moderators")
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"moderate_players", "abort_games", "reverse_ratings", "view_report", "change_report"} <= codenames
    assert not any(c.startswith(("delete_", "add_")) for c in codenames)
    assert moderator.is_staff and not moderator.is_superuser
    assert moderator.has_perm("moderation.moderate_players")
    assert entries("moderator_add", moderator).count() == 1


def test_createmoderator_command_adds_one():
    user = User.objects.create_user("newmod", "n@example.com", "pw-cards-123")
    call_command("createmoderator", "newmod")
    user = User.objects.get(pk=user.pk)
    assert user.is_staff and user.groups.filter(name="Moderators").exists()


def test_warn_is_logged_and_needs_a_reason(moderator):
    (player,) = make_players(1)
    with pytest.raises(services.ModerationRefused):
        services.user_warn(player, by=moderator, reason="  ")
    assert not Sanction.objects.exists() and not entries("warn").exists()
    services.user_warn(player, by=moderator, reason="be nice")
    entry = entries("warn", player).get()
    assert entry.actor == moderator and entry.reason == "be nice"
    assert services.warnings_mark_seen(player) == ["be nice"]
    assert services.warnings_mark_seen(player) == []  # shown once
    # and kept in his notifications, in his own language when read
    from django.utils import translation

    from notifications.selectors import notification_payload, notifications_of

    (note,) = notifications_of(player)
    assert note.kind == "warning"
    with translation.override("en"):
        assert "be nice" in notification_payload(note)["text"]


def test_mute_refuses_chat_until_lifted(moderator):
    table, players, _game = started_table("durak", 2)
    chat_post(user=players[0], channel="players", table_id=table.pk, text="hi")
    sanction = services.user_mute(players[0], by=moderator, reason="insults", minutes=10)
    assert sanction.until > timezone.now() + timedelta(minutes=9)
    with pytest.raises(ChatRefused) as refused:
        chat_post(user=players[0], channel="players", table_id=table.pk, text="again")
    assert refused.value.code == "muted" and "until" in str(refused.value)
    assert ChatMessage.objects.count() == 1
    assert entries("mute", players[0]).exists()
    services.sanction_lift(sanction, by=moderator, reason="appeal accepted")
    chat_post(user=players[0], channel="players", table_id=table.pk, text="sorry")
    assert ChatMessage.objects.count() == 2
    assert entries("lift", players[0]).get().details["kind"] == "mute"
    with pytest.raises(services.ModerationRefused):
        services.sanction_lift(sanction, by=moderator, reason="twice")


def test_ban_lets_a_bot_take_his_running_seat_and_frees_his_waiting_seat(moderator):
    table, players, _game = started_table("durak", 2)
    waiting = table_create(user=players[1], game="durak", options={}, seats=2)
    services.user_ban(players[1], by=moderator, reason="cheating", until=timezone.now() + timedelta(days=1))
    assert Seat.objects.get(table=table, user=players[1]).away
    assert not Table.objects.filter(pk=waiting.pk).exists()  # he was its only player: it closed
    entry = entries("ban", players[1]).get()
    assert entry.details["tables"] == [table.pk, waiting.pk] or set(entry.details["tables"]) == {table.pk, waiting.pk}
    assert "until" in play_refusal(players[1])
    with pytest.raises(LobbyRefused):
        table_create(user=players[1], game="durak", options={}, seats=2)
    with pytest.raises(ChatRefused):
        chat_post(user=players[1], channel="lobby", text="let me in")
    with pytest.raises(services.ModerationRefused):
        services.report_create(reporter=players[1], reported=players[0], reason="other")


def test_a_permanent_ban_says_so_and_lift_restores_play(moderator):
    (player,) = make_players(1)
    ban = services.user_ban(player, by=moderator, reason="spam")
    assert "permanently" in play_refusal(player)
    services.sanction_lift(ban, by=moderator, reason="mistake")
    assert play_refusal(player) is None
    table_create(user=player, game="durak", options={}, seats=2)


def test_a_rolled_back_action_leaves_no_audit_row(moderator):
    (player,) = make_players(1)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.user_warn(player, by=moderator, reason="x")
        raise RuntimeError
    assert not entries("warn").exists() and not Sanction.objects.exists()


def test_the_audit_log_cannot_be_changed_or_deleted(moderator):
    (player,) = make_players(1)
    services.user_warn(player, by=moderator, reason="x")
    entry = AuditEntry.objects.get(action="warn")
    entry.reason = "rewritten"
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="y")
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get(pk=entry.pk).reason == "x"


def test_report_freezes_its_context_and_is_rate_limited(moderator):
    table, players, game = started_table("durak", 2)
    chat_post(user=players[1], channel="players", table_id=table.pk, text="you are an idiot")
    report = services.report_create(
        reporter=players[0], reported=players[1], reason="abuse", text="insults", table_id=table.pk
    )
    ChatMessage.objects.all().delete()  # later changes do not touch the frozen context
    report.refresh_from_db()
    assert report.context["chat"][0]["text"] == "you are an idiot"
    assert report.game_id == game.pk and report.move_number == game.move_number
    with pytest.raises(services.ModerationRefused):  # one open report per pair
        services.report_create(reporter=players[0], reported=players[1], reason="abuse", table_id=table.pk)
    with pytest.raises(services.ModerationRefused):
        services.report_create(reporter=players[0], reported=players[0], reason="abuse")
    others = make_players(6, prefix="o")
    for other in others[: services.REPORTS_PER_HOUR - 1]:
        services.report_create(reporter=players[0], reported=other, reason="other")
    with pytest.raises(services.ModerationRefused):
        services.report_create(reporter=players[0], reported=others[-1], reason="other")


def test_report_assign_resolve_dismiss_are_logged(moderator):
    players = make_players(3)
    a = services.report_create(reporter=players[0], reported=players[2], reason="name")
    b = services.report_create(reporter=players[1], reported=players[2], reason="name")
    services.report_assign(a, by=moderator)
    services.report_resolve(a, by=moderator, resolution="renamed and warned")
    services.report_dismiss(b, by=moderator, resolution="no issue")
    assert Report.objects.get(pk=a.pk).status == "resolved" and Report.objects.get(pk=b.pk).status == "dismissed"
    assert [e.action for e in AuditEntry.objects.filter(target=players[2]).order_by("pk")] == [
        "report_assign",
        "report_resolve",
        "report_dismiss",
    ]
    with pytest.raises(services.ModerationRefused):
        services.report_resolve(a, by=moderator, resolution="again")


def test_abort_stops_the_game_under_the_lock_and_timers_do_nothing(moderator):
    table, players, game = started_table("durak", 2)
    services.table_abort(table.pk, by=moderator, reason="collusion")
    game.refresh_from_db()
    table.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.annulled and game.deadline is None
    assert table.status == Table.Status.ABORTED
    with pytest.raises(ActionRefused):
        table_apply_action(game.pk, 0, game.move_number, {"type": "pass"})
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    assert game_timeout(game.pk, game.move_number) is False
    # one row per player, each naming him: every player's history lists the abort
    rows = list(entries("table_abort"))
    assert {r.target_id for r in rows} == {p.pk for p in players}
    assert all(r.details["game"] == game.pk and r.actor == moderator and r.reason == "collusion" for r in rows)
    with pytest.raises(services.ModerationRefused):
        services.table_abort(table.pk, by=moderator, reason="again")


def test_annul_reverses_ratings_and_later_games_are_recomputed(moderator):
    rng = random.Random(7)
    players = make_players(2, prefix="r")
    _t1, _, g1 = started_table("durak", 2, players=players)
    play_randomly(g1, rng)
    before = dict(PlayerRating.objects.filter(game="durak").values_list("user_id", "rating"))
    assert RatingChange.objects.filter(played_game=g1).count() == 2
    services.game_annul(g1.pk, by=moderator, reason="collusion")
    assert not RatingChange.objects.filter(played_game=g1).exists()
    assert not PlayerRating.objects.filter(game="durak").exists()  # only game gone: back to unrated
    assert before  # there was something to reverse
    with pytest.raises(services.ModerationRefused):
        services.game_annul(g1.pk, by=moderator, reason="twice")
    # one row per player (none for the refused second try), each naming him
    assert sorted(entries("game_annul").values_list("target_id", flat=True)) == sorted(p.pk for p in players)


def test_reverse_ratings_of_a_cheater(moderator):
    rng = random.Random(3)
    cheat, honest, third = make_players(3, prefix="c")
    for pair in ((cheat, honest), (honest, third)):
        _, _, game = started_table("durak", 2, players=list(pair))
        play_randomly(game, rng)
    assert services.ratings_reverse(cheat, by=moderator, reason="engine use") == 1
    assert not RatingChange.objects.filter(user=cheat).exists()
    assert RatingChange.objects.filter(user=honest).count() == 1  # the honest game stays, recomputed
    assert PlayerRating.objects.get(user=honest, game="durak").games == 1
    assert entries("ratings_reverse", cheat).exists()


def test_playban_after_several_abandons_grows(monkeypatch):
    (player,) = make_players(1, prefix="quitter")
    for n in range(services.PLAYBAN_ABANDONS):
        others = make_players(1, prefix=f"q{n}-")
        table, _, _ = started_table("durak", 2, players=[player, *others])
        seat_set_away(table.pk, player, True)
    ban = Sanction.objects.get(user=player, kind="playban")
    assert ban.created_by is None
    assert timedelta(minutes=14) < ban.until - ban.created_at <= services.PLAYBAN_FIRST
    assert "until" in play_refusal(player)
    entry = entries("playban", player).get()
    assert entry.actor is None
    open_table = table_create(user=make_players(1, prefix="host")[0], game="durak", options={}, seats=2)
    with pytest.raises(LobbyRefused):
        seat_join(table_id=open_table.pk, user=player)
    assert services.playban_duration(1) == 2 * services.PLAYBAN_FIRST
    assert services.playban_duration(50) == services.PLAYBAN_MAX


def test_timing_out_twice_counts_as_an_abandon():
    from moderation.models import Abandonment
    from tables.selectors import seat_view

    table, players, game = started_table("durak", 2)
    for _ in range(60):
        if Seat.objects.get(table=table, index=0).away:
            break
        game = Game.objects.filter(table=table).order_by("-number").first()
        seat = seat_view(game, None)["view"]["to_act"][0]
        if seat == 0:
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            assert game_timeout(game.pk, game.move_number)
        else:
            table_apply_action(game.pk, seat, game.move_number, seat_view(game, seat)["legal"][0])
    assert Seat.objects.get(table=table, index=0).away
    assert list(Abandonment.objects.filter(user=players[0]).values_list("reason", flat=True)) == ["timeouts"]


def test_leaving_twice_or_leaving_bots_is_not_an_abandon():
    from moderation.models import Abandonment

    table, players, _game = started_table("durak", 2)
    seat_set_away(table.pk, players[0], True)
    seat_set_away(table.pk, players[0], True)
    assert Abandonment.objects.filter(user=players[0]).count() == 1
    bot_table = table_create(user=players[1], game="durak", options={}, seats=2)
    Seat.objects.filter(table=bot_table, index=1).update(bot_level="random")
    from tables.services import match_start

    match_start(bot_table)
    seat_set_away(bot_table.pk, players[1], True)
    assert not Abandonment.objects.filter(user=players[1]).exists()


def test_the_data_migration_creates_the_group_with_exactly_its_permissions():
    import importlib

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    Group.objects.filter(name=services.MODERATORS).delete()
    migration = importlib.import_module("moderation.migrations.0002_moderators_group")
    state = MigrationExecutor(connection).loader.project_state(("moderation", "0002_moderators_group"))
    migration.create_group(state.apps, None)
    group = Group.objects.get(name=services.MODERATORS)
    got = {(p.content_type.app_label, p.codename) for p in group.permissions.select_related("content_type")}
    wanted = {(app, code) for app, codes in migration.PERMISSIONS.items() for code in codes}
    assert got == wanted
    assert migration.PERMISSIONS == services.MODERATOR_PERMISSIONS  # the runtime fallback grants the same
