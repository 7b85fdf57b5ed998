"""One WebSocket per table page: the seat's own view in, JSON actions out.

Frames from the browser come from htmx's WebSocket extension (a form's fields
as JSON: ``move``, ``action`` and, for card choices, ``cards``/``kind``/``as``)
or from a script (``{"move": 3, "action": {...}}``). Replies are HTML fragments
swapped by id; with ``?format=json`` a script gets the same view as JSON.
Errors go back to the sender only and change nothing.
"""

from __future__ import annotations

import json
import time
from typing import Any

from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncWebsocketConsumer

from tables.models import Table
from tables.rendering import render_error, render_table
from tables.selectors import socket_state, table_visible_to
from tables.services import ActionRefused, table_player_action


# Channels' default runs every socket's database work on one shared thread, so a table
# waiting on a database round trip holds up all the others; each call here may take
# its own thread (and connection) instead. Nothing below relies on thread identity.
def database_sync_to_async(func):
    return DatabaseSyncToAsync(func, thread_sensitive=False)


MAX_FRAME = 4096
#: token bucket per socket: a burst of 8 frames, refilled at 4 per second
BURST, RATE = 8.0, 4.0
#: form fields that complete the action a button carries (cards picked in the hand)
CHOICE_FIELDS = ("cards", "kind", "as", "tricks", "suit", "banker", "role", "card", "attack")


def action_from_frame(frame: Any) -> tuple[Any, dict[str, Any]]:
    """(move number, action) from a frame, or ``ActionRefused('malformed')``."""
    if not isinstance(frame, dict):
        raise ActionRefused("malformed", "a frame must be a JSON object")
    action = frame.get("action")
    if isinstance(action, str):
        try:
            action = json.loads(action)
        except ValueError:
            raise ActionRefused("malformed", "the action is not valid JSON") from None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionRefused("malformed", "a frame needs an 'action' object with a 'type'")
    action = dict(action)
    for field in CHOICE_FIELDS:
        if field in frame and field not in action:
            value = frame[field]
            if field == "cards" and isinstance(value, str):
                value = [value]  # one ticked checkbox arrives as a string
            elif field in ("tricks",) and isinstance(value, str) and value.isdigit():
                value = int(value)
            elif field == "banker" and isinstance(value, str):
                value = value == "true"
            action[field] = value
    move = frame.get("move")
    if isinstance(move, str) and move.isdigit():
        move = int(move)
    return move, action


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        query = self.scope.get("query_string", b"").decode()
        self.json_mode = "format=json" in query
        token = next((p.split("=", 1)[1] for p in query.split("&") if p.startswith("invite=")), "")
        self.user = self.scope.get("user")
        if not await database_sync_to_async(self._may_watch)(token):
            await self.close(code=4403)
            return
        self.group = f"table-{self.table_id}"
        self.tokens, self.stamp = BURST, time.monotonic()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_state()

    def _may_watch(self, token: str) -> bool:
        table = Table.objects.filter(pk=self.table_id).first()
        return table is not None and table_visible_to(table, self.user, token)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    def _allow_frame(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if not self._allow_frame():
                raise ActionRefused("rate", "too many messages: slow down a little")
            raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
            if len(raw) > MAX_FRAME:
                raise ActionRefused("malformed", f"frame too large (over {MAX_FRAME} bytes)")
            try:
                frame = json.loads(raw)
            except ValueError:
                raise ActionRefused("malformed", "a frame must be JSON") from None
            move, action = action_from_frame(frame)
            await database_sync_to_async(table_player_action)(self.table_id, self.user, move, action)
        except ActionRefused as refused:
            await self.send_error(refused.code, str(refused))

    async def table_changed(self, event: dict) -> None:
        # a move names its (game, move): sockets after the first reuse that move's data
        hint = (event["game"], event["move"]) if event.get("move") is not None else None
        await self.send_state(hint)

    async def send_state(self, hint: tuple[int, int] | None = None) -> None:
        state = await database_sync_to_async(socket_state)(self.table_id, self.user, hint)
        if self.json_mode:
            await self.send(text_data=json.dumps({"type": "state", **state["public"]}))
        else:
            await self.send(text_data=await database_sync_to_async(render_table)(state))

    async def send_error(self, code: str, message: str) -> None:
        if self.json_mode:
            await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))
        else:
            await self.send(text_data=render_error(message))
