"""Chat writes: one line, checked (mute, ban, seat, length, rate) and stored; sockets hear it after commit."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import standing
from accounts.models import User
from chat.models import MAX_LENGTH, PHRASES, ChatMessage, ChatSettings
from chat.selectors import line_payload, lobby_group, spectators_group
from core import outbox
from core.text import strip_invisible
from tables import relay
from tables.models import Table
from tables.selectors import seat_index_of, table_visible_to

#: lines per user across all his sockets and pages: a burst of LINES within WINDOW seconds
RATE_LINES, RATE_WINDOW = 5, 10


class ChatRefused(ValueError):
    """A chat line that was not posted; the message is shown to its sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _clean(text: object) -> str:
    if not isinstance(text, str):
        raise ChatRefused("malformed", _("A chat line must be text."))
    # control and format characters (bidi overrides, zero-width tricks) never reach other players
    text = strip_invisible(text)
    if not text:
        raise ChatRefused("empty", _("Type something first."))
    if len(text) > MAX_LENGTH:
        raise ChatRefused("long", _("A chat line holds at most %(max)d characters.") % {"max": MAX_LENGTH})
    return text


def _rate_check(user_id: int) -> None:
    """A fixed window in the shared cache (Redis), so every socket and process of a user counts together."""
    key = f"chat-rate:{user_id}:{int(time.time() // RATE_WINDOW)}"
    if cache.add(key, 1, RATE_WINDOW * 2):
        return
    if cache.incr(key) > RATE_LINES:
        raise ChatRefused("rate", _("You are chatting too fast; wait a few seconds."))


def chat_post(
    *,
    user: User | AnonymousUser | None,
    channel: str,
    table_id: int | None = None,
    text: object = "",
    phrase: object = "",
    token: str = "",
) -> ChatMessage:
    """Post a line to a table's players' or spectators' channel, or to the lobby.

    ``token`` is the invite link the writer's page came by: a private table is visible with it."""
    if user is None or not user.is_authenticated:
        raise ChatRefused("login", _("Log in to chat."))
    refusal = standing.talk_refusal(user.pk)
    if refusal:
        raise ChatRefused("muted", refusal)
    if phrase:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise ChatRefused("malformed", _("There is no such quick phrase."))
        text = ""
    else:
        text, phrase = _clean(text), ""
    table = None
    if channel == ChatMessage.Channel.LOBBY:
        table_id = None
    elif channel in (ChatMessage.Channel.PLAYERS, ChatMessage.Channel.SPECTATORS):
        table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
        if table is None or not table_visible_to(table, user, token):
            raise ChatRefused("malformed", _("There is no such table."))
        seated = seat_index_of(table.pk, user) is not None
        if channel == ChatMessage.Channel.PLAYERS and not seated:
            raise ChatRefused("not_seated", _("Only the players write in the players' chat."))
        if channel == ChatMessage.Channel.SPECTATORS and seated and table.status == Table.Status.PLAYING:
            raise ChatRefused("not_spectator", _("Players cannot write to spectators during the game."))
    else:
        raise ChatRefused("malformed", _("There is no such chat."))
    _rate_check(user.pk)
    with transaction.atomic():
        line = ChatMessage.objects.create(channel=channel, table=table, user=user, text=str(text), phrase=str(phrase))
        line.user = user
        payload = line_payload(line)
        transaction.on_commit(lambda: _broadcast(line, payload))
    return line


def _broadcast(line: ChatMessage, payload: dict[str, Any]) -> None:
    # the sender's id goes beside the line, not in it: each socket hides the lines of those its user blocked
    event = {"type": "chat.line", "line": payload, "sender": line.user_id}
    if line.channel == ChatMessage.Channel.LOBBY:
        outbox.group_send(lobby_group(), event)
        return
    assert line.table_id is not None  # every other channel is a table's
    if line.channel == ChatMessage.Channel.SPECTATORS:
        # only spectators' sockets join this group while a game runs: players never receive these lines
        outbox.group_send(spectators_group(line.table_id), event)
    else:
        relay.table_send(line.table_id, event)  # every socket of the table


def chat_lines_hide(lines: Iterable[ChatMessage | int], *, by: User) -> list[ChatMessage]:
    """Take lines down (a moderator's call, inside his action's transaction): reloads skip them, and every
    open page showing them is told to drop them after commit. Returns the lines newly hidden."""
    rows = list(ChatMessage.objects.select_for_update().filter(pk__in=[getattr(x, "pk", x) for x in lines]))
    rows = [r for r in rows if r.hidden_at is None]
    if not rows:
        return []
    now = timezone.now()
    ChatMessage.objects.filter(pk__in=[r.pk for r in rows]).update(hidden_at=now, hidden_by=by)
    by_place: dict[tuple[str, int | None], list[int]] = {}
    for row in rows:
        row.hidden_at, row.hidden_by = now, by
        by_place.setdefault((row.channel, row.table_id), []).append(row.pk)
    transaction.on_commit(lambda: _broadcast_removal(by_place))
    return rows


def _broadcast_removal(by_place: dict[tuple[str, int | None], list[int]]) -> None:
    for (channel, table_id), ids in by_place.items():
        event = {"type": "chat.remove", "ids": ids}
        if channel == ChatMessage.Channel.LOBBY:
            outbox.group_send(lobby_group(), event)
        elif table_id is None:
            continue  # every other channel is a table's
        elif channel == ChatMessage.Channel.SPECTATORS:
            outbox.group_send(spectators_group(table_id), event)
        else:
            relay.table_send(table_id, event)


def chat_hide(user: User, hidden: bool) -> ChatSettings:
    settings, _created = ChatSettings.objects.update_or_create(user=user, defaults={"hidden": hidden})
    return settings
