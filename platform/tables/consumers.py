"""One WebSocket per table page: the seat's own view in, JSON actions out.

Frames from the browser come from htmx's WebSocket extension (a form's fields
as JSON: ``move``, ``action`` and the rest of the form, of which an action takes only the
fields its game's ``ui.fields_of`` names: ``cards``/``kind``/``as``)
or from a script (``{"move": 3, "action": {...}}``). Replies are HTML fragments
swapped by id; with ``?format=json`` a script gets the same view as JSON.
Errors go back to the sender only and change nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import get_language, gettext

from accounts import standing
from accounts.sockets import UserSocketMixin
from core import jsontext, outbox
from core.outage import REDIS_DOWN, UNAVAILABLE, OutageSafeMixin, tolerate
from core.sockets import CLOSE_TOO_MANY, database_sync_to_async
from core.throttle import TokenBucket
from games import get_game
from tables import live, parts, relay
from tables.hooks import table_context_html
from tables.models import Table
from tables.presence import presence_add, presence_remove, presence_seen_into
from tables.rendering import render_announcement, render_error
from tables.selectors import table_visible_to
from tables.services import ActionRefused, refuse_if_older, table_player_action, turn_clock_release

log = logging.getLogger(__name__)

MAX_FRAME = 4096
#: refusals for rate in a row after which the socket is closed (a script ignoring the errors)
MAX_RATE_REFUSALS = 40
#: token bucket per socket: a burst of 8 frames, refilled at 4 per second
BURST, RATE = 8.0, 4.0


#: a whole number as a form sends it: ASCII digits only (str.isdigit() also takes "²", which int() refuses)
WHOLE = re.compile(r"[0-9]{1,9}")


def _read_field(kind: str, value: Any) -> Any:
    if kind == "cards" and isinstance(value, str):
        return [value]  # one ticked checkbox arrives as a string
    if kind == "int" and isinstance(value, str) and WHOLE.fullmatch(value):
        return int(value)
    if kind == "bool" and isinstance(value, str):
        return value == "true"
    return value


def action_from_frame(
    frame: Any, fields_of: Callable[[str], Mapping[str, str]] | None = None
) -> tuple[Any, dict[str, Any]]:
    """(move number, action) from a frame, or ``ActionRefused('malformed')``.

    ``fields_of`` names, for an action type, the form fields that complete the
    action a button carries (cards ticked in the hand, an announced kind), with
    how each is read: the game's ``ui.fields_of``. Every other field of the form
    is ignored: a page sends its whole form with any click, so "Done" arrives
    beside the cards still ticked for a throw-in, and must not be refused for them.
    """
    if not isinstance(frame, dict):
        raise ActionRefused("malformed", "a frame must be a JSON object")
    action = frame.get("action")
    if isinstance(action, str):
        try:
            action = jsontext.loads(action)
        except (ValueError, RecursionError):
            raise ActionRefused("malformed", "the action is not valid JSON") from None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionRefused("malformed", "a frame needs an 'action' object with a 'type'")
    action = dict(action)
    fields = fields_of(action["type"]) if fields_of is not None else {}
    for field, kind in fields.items():
        if field in action:
            continue
        if field in frame:
            action[field] = _read_field(kind, frame[field])
        elif kind == "cards":
            # a button made of ticked cards, clicked with none ticked
            raise ActionRefused("illegal", gettext("Choose at least one card."))
    move = frame.get("move")
    if isinstance(move, str) and WHOLE.fullmatch(move):
        move = int(move)
    return move, action


class TableConsumer(OutageSafeMixin, UserSocketMixin, AsyncWebsocketConsumer):
    #: a seated player's socket hears the table's events before its watchers' (``tables.relay``)
    relay_first = False

    async def dispatch(self, message: dict) -> None:
        # Channels' own dispatch first hops to its one shared thread to close stale database
        # connections, for every message of every socket (each move, each frame). Every query
        # here runs through DatabaseSyncToAsync, which does that on its own thread around the call
        # and uses no connection on the event loop, so the hop is skipped.
        handler = getattr(self, get_handler_name(message), None)
        if handler is not None:
            await handler(message)
            return
        # another app's event (a chat line): its part of the socket handles it (``tables.parts``)
        part_handler = parts.socket_event_handler(message["type"])
        if part_handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await part_handler(self, message)

    async def connect(self) -> None:
        #: the page's language (``core.locale``), read in the socket's own context: the table's events reach it on
        #: the relay's task, which runs in the context of the page that opened the table in this process
        self.lang = get_language()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("utf-8", "replace"))
        self.json_mode = query.get("format", [""])[0] == "json"
        token = query.get("invite", [""])[0]
        self.user = self.scope.get("user")
        #: resolved once: the scope's user is a lazy object, and the seat is looked up for every state sent
        self.user_id: int | None = self.user.pk if self.user is not None and self.user.is_authenticated else None
        if not await database_sync_to_async(self._may_watch)(token):
            await self.close(code=4403)
            return
        #: the invite link this page came by: a part of the socket (the chat) checks a private table with it
        self.invite_token = token
        if not await self.user_socket_open():
            return
        self.group = relay.group_name(self.table_id)
        self.frames = TokenBucket(BURST, RATE)
        self.rate_refusals = 0
        #: what this socket last sent of each fragment: only changed ones are sent again
        self.sent: dict[str, str] = {}
        #: where the log this socket was sent stands (``live.Snapshot.log_mark``)
        self.log_mark: tuple[int, int] | None = None
        #: one state sent at a time: the table's events arrive on the relay's task, not this socket's
        self.sending = asyncio.Lock()
        live.watch(self.table_id)
        self.watching = True
        if self.user is not None and self.user.is_authenticated:
            # a player with the table open: it is not abandoned to the bots
            await sync_to_async(presence_add, thread_sensitive=False)(self.table_id, self.user.pk, self.channel_name)
            # the last seated player's page to open starts a match's opening turn clock (tables.turns.clock_hold)
            await tolerate(database_sync_to_async(turn_clock_release)(self.table_id), "the opening turn's clock")
        for part in parts.socket_parts:
            await part.join(self)
        await self.accept()
        # joined before the first read, so no change made after that read is missed
        await relay.join(self.group, self)
        await self.send_state(fresh=True)

    def renew_into(self, pipe: Any, now: float) -> None:
        """Its entries renewed with every open socket's (``core.throttle.renew_with``): its owner's count, and
        for a signed-in user his presence at the table (so a table he has open is not taken for abandoned)."""
        super().renew_into(pipe, now)
        if hasattr(self, "user_group") and self.user_id is not None:
            presence_seen_into(pipe, self.table_id, self.user_id, self.channel_name, now)

    def _may_watch(self, token: str) -> bool:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None or not table_visible_to(table, self.user, token):
            return False
        if self.user is not None and self.user.is_authenticated and standing.ban_message(self.user.pk):
            return False
        self.fields_of = get_game(table.game).ui.fields_of
        return True

    async def disconnect(self, code: int) -> None:
        # this process's own bookkeeping first: the rest needs Redis, and is kept by nothing if Redis is gone
        if getattr(self, "watching", False):
            self.watching = False
            live.unwatch(self.table_id)
        if hasattr(self, "group"):
            await tolerate(relay.leave(self.group, self), "leaving the table's group")
        if hasattr(self, "user_group") and self.user_id is not None:
            remove = sync_to_async(presence_remove, thread_sensitive=False)
            await tolerate(remove(self.table_id, self.user_id, self.channel_name), "table presence")
        await tolerate(self.user_socket_close(), "the socket cap")
        for part in parts.socket_parts:
            await tolerate(part.leave(self), f"leaving the socket's {part.frame_type}")

    async def user_disconnect(self, event: dict) -> None:
        """A ban or a logout elsewhere: say why, then close."""
        if event.get("reason"):
            await self.send_error("removed", event["reason"])
        await super().user_disconnect(event)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if not self.frames.take():
                raise ActionRefused("rate", gettext("too many messages: slow down a little"))
            size = len(text_data.encode("utf-8")) if text_data is not None else len(bytes_data or b"")
            if size > MAX_FRAME:
                raise ActionRefused("malformed", f"frame too large (over {MAX_FRAME} bytes)")
            # the user's budget across all his sockets and processes, before any database work
            if not await self.user_frame_allowed():
                raise ActionRefused("rate", gettext("too many messages from your account: slow down a little"))
            self.rate_refusals = 0
            raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
            try:
                frame = jsontext.loads(raw)
            except (ValueError, RecursionError):
                raise ActionRefused("malformed", "a frame must be JSON (and not nested too deeply)") from None
            part = parts.socket_part_for_frame(frame.get("type")) if isinstance(frame, dict) else None
            if part is not None:
                await part.receive(self, frame)
                return
            move, action = action_from_frame(frame, self.fields_of)
            known = self._known()
            refuse_if_older(move, known)  # a click on an old page: no thread, no query
            try:
                # the move's events go out from this event loop once its thread returns (``core.outbox``)
                await outbox.run(table_player_action, self.table_id, self.user, move, action, known)
            except outbox.Undelivered:
                # the move stands: this process's pages of the table read it afresh, the others catch up
                # on the table's next event
                await relay.refresh(self.group)
        except ActionRefused as refused:
            if refused.code == "rate":
                self.rate_refusals += 1
                if self.rate_refusals > MAX_RATE_REFUSALS:
                    await self.close(code=CLOSE_TOO_MANY)
                    return
            await self.send_error(refused.code, str(refused))
        except REDIS_DOWN:
            await self.send_error("unavailable", str(UNAVAILABLE))
        except Exception:
            # a frame no check foresaw: the sender hears so, the socket stays open
            log.exception("table %s: frame refused by an unexpected error", self.table_id)
            await self.send_error("malformed", "that message could not be understood")

    def _known(self) -> tuple[int, int, int] | None:
        """(game, move, seat) as this process's snapshot shows them: the newest state this player was sent."""
        snap = live.latest(self.table_id)
        if snap is None or snap.data.game is None:
            return None
        seat = snap.seat_of(self.user_id)
        return None if seat is None else (*snap.key, seat)

    async def relay_event(self, event: dict) -> None:
        """One of the table group's events, handed on by this process's relay (``tables.relay``), handled in this
        page's language: the relay's task speaks that of the page that opened the table here."""
        if get_language() == self.lang:
            await TableConsumer.dispatch(self, event)
            return
        with translation.override(self.lang):
            await TableConsumer.dispatch(self, event)

    async def table_changed(self, event: dict) -> None:
        # a move names its (game, move): the first socket of this process to hear it builds (from the
        # event's delta) or reads it for all; a change without a move (a seat away, a table stopped) is
        # read afresh
        if event.get("move") is not None:
            await self.send_state(
                at_least=(event["game"], event["move"]), delta=event.get("delta"), drawn=event.get("public")
            )
        else:
            await self.send_state(fresh=True)

    async def table_context(self, event: dict) -> None:
        # what runs this table changed its note (``tables.hooks``): drawn again for this socket's reader
        if self.json_mode:
            await self.send(text_data=json.dumps({"type": "context"}))
            return
        html = await database_sync_to_async(table_context_html)(self.table_id, self.user)
        await self.send(text_data=str(html))

    async def tournament_announce(self, event: dict) -> None:
        # an event organizer's announcement to every table of his event (tournaments.services)
        if self.json_mode:
            await self.send(
                text_data=json.dumps({"type": "announcement", "event": event["event"], "text": event["text"]})
            )
        else:
            await self.send(text_data=render_announcement(event["event"], event["text"]))

    async def send_state(
        self,
        at_least: tuple[int, int] | None = None,
        fresh: bool = False,
        delta: str | None = None,
        drawn: dict[str, Any] | None = None,
    ) -> None:
        # two states built at once would each send the log's new lines against the same mark: twice
        async with self.sending:
            await self._send_state(at_least, fresh, delta, drawn)

    async def _send_state(
        self, at_least: tuple[int, int] | None, fresh: bool, delta: str | None, drawn: dict[str, Any] | None = None
    ) -> None:
        snapshot = await live.snapshot(self.table_id, at_least, fresh, delta, drawn)
        seat = snapshot.seat_of(self.user_id)
        self.relay_first = seat is not None
        if self.json_mode:
            await self.send(text_data=snapshot.json(seat))
            return
        lang = self.lang
        fragments = snapshot.fragments(seat, log=False, lang=lang)
        changed = [html for fid, html in fragments if self.sent.get(fid) != html]
        if snapshot.log_mark != self.log_mark:
            # the log: only its new lines when this page holds the lines before them
            changed.append(snapshot.log_tail(self.log_mark, lang) or snapshot.log_html(lang))
        if changed:
            self.sent.update(fragments)
            self.log_mark = snapshot.log_mark
            await self.send(text_data="\n".join(changed))

    async def send_error(self, code: str, message: str) -> None:
        if self.json_mode:
            await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))
        else:
            getattr(self, "sent", {}).pop("table-error", None)  # the next state clears the error again
            await self.send(text_data=render_error(message))
