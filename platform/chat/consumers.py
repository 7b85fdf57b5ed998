"""Chat over the sockets pages already hold: frames with ``"type": "chat"``.

The table socket hands them to the chat's part of it (``TABLE_SOCKET_PART``,
registered in ``tables.parts``); the Play page's lobby chat has its own small
socket. A line is stored by ``chat.services.chat_post`` and reaches sockets
through channel groups after commit: the table's group for the players'
chat, a spectators-only group (never joined by a seated player while his game
runs) for the spectators' chat, and one lobby group.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext

from accounts.models import User
from accounts.sockets import UserSocketMixin, hidden_senders_load
from chat.models import PHRASES
from chat.selectors import chat_hidden, lobby_group, sees_spectators, spectators_group, table_chat
from chat.services import ChatRefused, chat_post
from core import outbox
from core.outage import REDIS_DOWN, UNAVAILABLE, OutageSafeMixin, tolerate
from core.sockets import database_sync_to_async
from tables.models import Table
from tables.parts import SocketPart
from tables.selectors import seat_index_of


def _socket_groups(table_id: int | None, user: User | AnonymousUser | None) -> tuple[list[str], bool]:
    if table_id is None:
        return [lobby_group()], chat_hidden(user)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return [], True
    seated = seat_index_of(table_id, user) is not None
    return ([spectators_group(table_id)] if sees_spectators(table, seated) else []), chat_hidden(user)


async def chat_join(socket: Any, table_id: int | None) -> None:
    """Join the chat's groups for a socket with ``user`` (its table's spectators, or the lobby)."""
    await hidden_senders_load(socket)  # before any line can arrive
    socket.on_blocks_changed = blocks_changed
    socket.chat_groups, socket.chat_is_hidden = await database_sync_to_async(_socket_groups)(table_id, socket.user)
    for group in socket.chat_groups:
        await socket.channel_layer.group_add(group, socket.channel_name)


def _usernames(user_ids: frozenset[int]) -> list[str]:
    from accounts.models import User

    return sorted(User.objects.filter(pk__in=user_ids).values_list("username", flat=True))


async def blocks_changed(socket: Any) -> None:
    """Its user blocked or unblocked someone: later lines follow at once, and the lines the page already
    shows of the players he now blocks are hidden there too (a reload leaves them out)."""
    await hidden_senders_load(socket)
    names = await database_sync_to_async(_usernames)(socket.hidden_senders)
    if socket.json_mode:
        await socket.send(text_data=json.dumps({"type": "chat_hidden", "usernames": names}))
    else:
        await socket.send(text_data=render_to_string("chat/_hidden.html", {"usernames": names}))


async def chat_leave(socket: Any) -> None:
    for group in getattr(socket, "chat_groups", []):
        await socket.channel_layer.group_discard(group, socket.channel_name)


async def chat_receive(socket: Any, frame: dict[str, Any], table_id: int | None, token: str = "") -> None:
    channel = frame.get("channel") or ("lobby" if table_id is None else "players")
    try:
        await outbox.run(  # the line goes out from this event loop once stored
            chat_post,
            user=socket.user,
            channel=channel,
            table_id=table_id,
            text=frame.get("text", ""),
            phrase=frame.get("phrase", ""),
            token=token,
        )
    except ChatRefused as refused:
        await socket.send_error(refused.code, str(refused))
    except outbox.Undelivered:
        # stored (a reload shows it), but no one was sent it
        message = gettext("Your message was kept, but not sent out: the server is briefly unavailable.")
        await socket.send_error("unavailable", message)


async def chat_line(socket: Any, event: dict[str, Any]) -> None:
    if getattr(socket, "chat_is_hidden", False):
        return
    if event.get("sender") in getattr(socket, "hidden_senders", ()):
        return  # a player this socket's user blocked
    line = event["line"]
    if line.get("phrase") in PHRASES:  # a quick phrase reads in each reader's language, not the sender's
        line = {**line, "text": str(PHRASES[line["phrase"]])}
    if socket.json_mode:
        await socket.send(text_data=json.dumps({"type": "chat", **line}))
    else:
        await socket.send(text_data=render_to_string("chat/_line_oob.html", {"line": line}))


async def chat_remove(socket: Any, event: dict[str, Any]) -> None:
    """A moderator took these lines down: they leave every open page at once."""
    ids = [i for i in event.get("ids", []) if isinstance(i, int)]
    if not ids:
        return
    if socket.json_mode:
        await socket.send(text_data=json.dumps({"type": "chat_removed", "ids": ids}))
    else:
        await socket.send(
            text_data="".join(format_html('<p id="chat-line-{}" hx-swap-oob="delete"></p>', i) for i in ids)
        )


async def _table_join(socket: Any) -> None:
    await chat_join(socket, socket.table_id)


async def _table_receive(socket: Any, frame: dict[str, Any]) -> None:
    # the invite link the table's page came by (a private table's spectators chat with it)
    await chat_receive(socket, frame, socket.table_id, getattr(socket, "invite_token", ""))


def _spectators_box(table_id: int, user: User | AnonymousUser | None) -> dict[str, Any] | None:
    """The spectators' channel as a player's page shows it once his match is over (None: not a player here)."""
    from tables.models import Table
    from tables.selectors import seat_index_of

    table = Table.objects.filter(pk=table_id).first()
    if table is None or seat_index_of(table_id, user) is None or chat_hidden(user):
        return None
    return table_chat(table, user, seated=True)


async def spectators_open(socket: Any, event: dict[str, Any]) -> None:
    """The match is over: its players' sockets join the spectators' channel, and their pages show it."""
    group = spectators_group(socket.table_id)
    if group in getattr(socket, "chat_groups", []) or socket.user is None or not socket.user.is_authenticated:
        return
    chat = await database_sync_to_async(_spectators_box)(socket.table_id, socket.user)
    if chat is None or chat["spectators_lines"] is None:
        return
    socket.chat_groups = [*getattr(socket, "chat_groups", []), group]
    await socket.channel_layer.group_add(group, socket.channel_name)
    if not socket.json_mode:
        html = render_to_string("chat/_spectators.html", {"chat": chat, "oob": True})
        await socket.send(text_data=html)


#: the chat's share of the table socket (``tables.parts``), registered in ``ChatConfig.ready()``
TABLE_SOCKET_PART = SocketPart(
    frame_type="chat",
    join=_table_join,
    leave=chat_leave,
    receive=_table_receive,
    events={"chat.line": chat_line, "chat.remove": chat_remove, "chat.spectators_open": spectators_open},
)


class LobbyChatConsumer(OutageSafeMixin, UserSocketMixin, AsyncWebsocketConsumer):
    chat_groups: list[str]
    chat_is_hidden = False

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode("utf-8", "replace"))
        self.json_mode = query.get("format", [""])[0] == "json"
        if not await self.user_socket_open():
            return
        await chat_join(self, None)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await tolerate(self.user_socket_close(), "the socket cap")
        await tolerate(chat_leave(self), "leaving the chat")

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            allowed = await self.user_frame_allowed()
        except REDIS_DOWN:
            await self.send_error("unavailable", str(UNAVAILABLE))
            return
        if not allowed:
            await self.send_error("rate", gettext("Too many messages from your account: slow down a little."))
            return
        try:
            frame = json.loads(text_data or "")
        except (ValueError, RecursionError):
            frame = None
        if not isinstance(frame, dict) or len(text_data or "") > 2048:
            await self.send_error("malformed", "a frame must be a JSON object")
            return
        await chat_receive(self, frame, None)

    async def chat_line(self, event: dict[str, Any]) -> None:
        await chat_line(self, event)

    async def chat_remove(self, event: dict[str, Any]) -> None:
        await chat_remove(self, event)

    async def send_error(self, code: str, message: str) -> None:
        if self.json_mode:
            await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))
        else:
            await self.send(
                text_data=format_html('<div id="chat-error-lobby" class="chat-error" role="alert">{}</div>', message)
            )
