"""The presence socket: one per open tab, on every page.

It keeps its user "online" (a heartbeat frame every ``presence.heartbeat()``
seconds), says where the tab is (``?at=`` the page's path), and carries the
user's notifications: the unread ones on (re)connect, new ones as they are made,
and "your turn" at a table. Frames from the page are ``{"type": "ping"}``; anything
else gets an error frame and changes nothing.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.models import User
from accounts.sockets import UserSocketMixin, recheck
from core.outage import OutageSafeMixin, tolerate
from core.sockets import CLOSE_SIGNED_OUT, LoopDispatchMixin, database_sync_to_async
from core.throttle import TokenBucket
from notifications.selectors import (
    notification_from_event,
    notification_of,
    notification_payload,
    notifications_group,
    unread_count,
)
from social import presence
from social.selectors import socket_hello
from social.services import social_group
from tables.models import Seat, Table

MAX_FRAME = 512
#: token bucket per socket: heartbeats need one frame per 20 seconds
BURST, RATE = 5.0, 0.5
TABLE_PATH = re.compile(r"^/tables/(\d+)/")


def place_of(user: User, path: str) -> str:
    """Where a tab at ``path`` is: ``table:<id>`` (seated), ``watching:<id>``, ``lobby`` or ""."""
    match = TABLE_PATH.match(path)
    if match:
        table = int(match.group(1))
        private = Table.objects.filter(pk=table).values_list("private", flat=True).first()
        if private is None:
            return ""
        if private:
            return "private"  # friends see that he is at a table, but not which private one
        seated = Seat.objects.filter(table_id=table, user=user).exists()
        return f"{'table' if seated else 'watching'}:{table}"
    if path.startswith("/play/"):
        return "lobby"
    return ""


class PresenceConsumer(OutageSafeMixin, LoopDispatchMixin, UserSocketMixin, AsyncWebsocketConsumer):
    """One per tab; it counts toward its user's cap of open sockets (``UserSocketMixin``) like every other."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or user.is_bot:
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.user = user
        if not await self.user_socket_open():  # joins the user's group: a logout or a ban closes it
            return
        query = parse_qs(self.scope.get("query_string", b"").decode("utf-8", "replace"))
        path = (query.get("at") or [""])[0][:200]
        self.where = await database_sync_to_async(place_of)(user, path)
        #: the page this tab shows (its ``location.pathname``: the site changes pages by loading them)
        self.at = path
        self.frames = TokenBucket(BURST, RATE)
        self.groups_joined = [social_group(user.pk), notifications_group(user.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await database_sync_to_async(presence.presence_touch)(user.pk, self.channel_name, self.where)
        await self.send(text_data=json.dumps(await database_sync_to_async(socket_hello)(user)))

    async def user_recheck(self) -> None:
        """Redis is back: closed if a logout or a ban came meanwhile, else the notifications made meanwhile."""
        if await recheck(self):
            await tolerate(
                database_sync_to_async(presence.presence_touch)(self.user.pk, self.channel_name, self.where), "presence"
            )
            await self.send(text_data=json.dumps(await database_sync_to_async(socket_hello)(self.user)))

    async def disconnect(self, code: int) -> None:
        await tolerate(self.user_socket_close(), "the socket cap")
        if not hasattr(self, "groups_joined"):
            return
        for group in self.groups_joined:
            await tolerate(self.channel_layer.group_discard(group, self.channel_name), "leaving a group")
        await self._go_offline()

    async def _go_offline(self) -> None:
        # a heartbeat still to be written would bring the closed tab back: dropped, or waited for, first
        await presence.presence_heard_settle(self.user.pk, self.channel_name)
        await tolerate(
            database_sync_to_async(presence.presence_leave)(self.user.pk, self.channel_name), "going offline"
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.frames.take():
            await self._error("rate", "too many messages: slow down a little")
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        try:
            frame = json.loads(raw) if len(raw) <= MAX_FRAME else None
        except ValueError:
            frame = None
        if not isinstance(frame, dict) or frame.get("type") != "ping":
            await self._error("malformed", 'expected {"type": "ping"}')
            return
        presence.presence_heard(self.user.pk, self.channel_name, self.where)
        await self.send(text_data=json.dumps({"type": "pong"}))

    async def _error(self, code: str, message: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))

    # -- channel layer events ---------------------------------------------------------

    async def user_disconnect(self, event: dict) -> None:
        # offline at once, not when the closing handshake completes
        await self._go_offline()
        await self.close(code=event.get("code") or CLOSE_SIGNED_OUT)

    async def notifications_new(self, event: dict) -> None:
        if "note" in event:
            # a summons to a table: sent at once, without the unread count (the page is leaving)
            await self.send(
                text_data=json.dumps(notification_payload(notification_from_event(event["id"], event["note"])))
            )
            return
        payload = await database_sync_to_async(self._notification)(event["id"])
        if payload is not None:
            await self.send(text_data=json.dumps(payload))

    def _notification(self, note_id: int) -> dict | None:
        note = notification_of(self.user, note_id)
        if note is None:
            return None
        return {**notification_payload(note), "unread": unread_count(self.user)}

    async def notifications_read(self, event: dict) -> None:
        count = await database_sync_to_async(unread_count)(self.user)
        await self.send(text_data=json.dumps({"type": "unread", "unread": count}))

    async def social_turn(self, event: dict) -> None:
        if event["url"] == self.at:
            # the tab is that table's page, which shows the turn itself: its script drops this push
            # (``static/js/presence.js``), so it is not sent (a frame after every move to the next player's table page)
            return
        await self.send(
            text_data=json.dumps({"type": "turn", "table": event["table"], "url": event["url"], "game": event["game"]})
        )
