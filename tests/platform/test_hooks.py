"""Hooks: a lower app asks, a higher app answers from its ready(); unanswered, the lower app's default holds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import blocks, standing
from accounts.models import User
from core.hooks import Hook, HookError, Registry
from lobbies.services import LobbyRefused, seat_join, table_create
from moderation import services as moderation
from moderation.selectors import standing_forget
from social import services as social
from tests.platform.tables.factories import make_players


def twice(x: int) -> int:
    return 2 * x


def thrice(x: int) -> int:
    return 3 * x


def test_a_hook_answers_with_its_default_until_plugged_and_refuses_a_second_answer():
    hook: Hook[[int], int] = Hook("test.hook", lambda x: x)
    assert hook(5) == 5 and not hook.plugged
    hook.plug(twice)
    assert hook(5) == 10
    hook.plug(twice)  # a ready() run again plugs the same answer: harmless
    with pytest.raises(HookError, match="twice"):
        hook.plug(thrice)
    with hook.replaced(thrice):
        assert hook(5) == 15
    assert hook(5) == 10
    hook.unplug()
    assert hook(5) == 5


def test_a_registry_keeps_the_order_entries_came_in_and_replaces_by_key():
    registry: Registry[str] = Registry("test.registry")
    registry.add("chat", "chat panel")
    registry.add("report", "report panel")
    registry.add("chat", "chat panel, again")
    assert list(registry) == ["chat panel, again", "report panel"]
    assert "report" in registry and len(registry) == 2
    registry.remove("report")
    assert list(registry) == ["chat panel, again"]


@pytest.fixture
def fresh_standing():
    yield
    for uid in User.objects.values_list("pk", flat=True):
        standing_forget(uid)


@pytest.mark.django_db
def test_unanswered_standing_and_blocks_refuse_nobody(fresh_standing):
    mod, player = make_players(2, prefix="un")
    moderation.moderator_add(mod)
    moderation.user_ban(player, by=mod, reason="spam")
    social.block_add(mod, player)
    hooks = (standing.ban_message, standing.mute_message, standing.play_refusal, blocks.blocks, blocks.blocked_either)
    answers = [h._impl for h in hooks]
    try:
        for hook in hooks:
            hook.unplug()
        assert standing.talk_refusal(player.pk) is None and standing.play_refusal(player) is None
        assert not blocks.blocks(mod, player) and not blocks.blocked_either(player, mod)
    finally:
        for hook, answer in zip(hooks, answers, strict=True):
            hook.plug(answer)
    assert standing.ban_message(player.pk) and blocks.blocks(mod, player)


@pytest.mark.django_db
def test_moderation_answers_the_standing_a_lower_app_asks(fresh_standing):
    mod, player, other = make_players(3, prefix="hk")
    moderation.moderator_add(mod)
    assert standing.talk_refusal(player.pk) is None and standing.play_refusal(player) is None
    moderation.user_mute(player, by=mod, reason="spam", minutes=10)
    assert "muted" in standing.mute_message(player.pk) and standing.ban_message(player.pk) is None
    assert standing.play_refusal(player) is None  # a mute keeps him out of the chat, not off the tables
    moderation.user_ban(other, by=mod, reason="cheating", until=timezone.now() + timedelta(days=1))
    assert "banned" in standing.ban_message(other.pk)
    assert "banned" in standing.play_refusal(other)
    with pytest.raises(LobbyRefused, match="banned"):
        table_create(user=other, game="durak", options={}, seats=2)


@pytest.mark.django_db
def test_social_answers_blocks_and_the_lobby_honours_them():
    host, guest = make_players(2, prefix="bk")
    assert not blocks.blocks(host, guest) and not blocks.blocked_either(guest, host)
    social.block_add(host, guest)
    assert blocks.blocks(host, guest) and not blocks.blocks(guest, host)
    assert blocks.blocked_either(guest, host)
    table = table_create(user=host, game="durak", options={}, seats=2, private=True)
    with pytest.raises(LobbyRefused, match="cannot join this private table"):
        seat_join(table_id=table.pk, user=guest, token=table.invite_token)
    social.block_remove(host, guest)
    assert seat_join(table_id=table.pk, user=guest, token=table.invite_token).user == guest


def test_what_tables_asks_is_answered_by_the_ratings_and_the_tournaments():
    from leaderboards.selectors import rating_changes_of_match
    from tables import hooks
    from tournaments.receivers import board_is_played_out

    assert hooks.match_rating_changes._impl is rating_changes_of_match
    assert hooks.table_played_out._impl is board_is_played_out
    with pytest.raises(HookError):  # a second app answering the same question is a wiring mistake
        hooks.table_played_out.plug(lambda table_id: True)
