"""The event page's socket: "something changed" (re-read the live part) and "your table is ready".

Nothing is rendered here: the page fetches its live part over HTTP, at most
once a second however many results arrive, so 50 tables finishing at once cost
each page one request. A round's start carries each seated player's table link;
a socket forwards only its own user's link.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import UserSocketMixin
from core.outage import OutageSafeMixin, tolerate
from core.sockets import database_sync_to_async
from tournaments.models import Tournament
from tournaments.selectors import visible_to


class TournamentConsumer(OutageSafeMixin, UserSocketMixin, AsyncWebsocketConsumer):
    """Counted toward its owner's cap of open sockets like every other socket of the site."""

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        token = query.get("invite", [""])[0]
        self.user = self.scope.get("user")
        if not await database_sync_to_async(self._may_watch)(token):
            await self.close(code=4403)
            return
        if not await self.user_socket_open():
            return
        self.group = f"tournament-{self.tournament_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    def _may_watch(self, token: str) -> bool:
        tournament = Tournament.objects.filter(pk=self.tournament_id).first()
        return tournament is not None and self.user is not None and visible_to(tournament, self.user, token)

    async def disconnect(self, code: int) -> None:
        await tolerate(self.user_socket_close(), "the socket cap")
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page only listens

    async def tournament_changed(self, event: dict) -> None:
        await self.send(text_data=json.dumps({"type": "changed"}))

    async def tournament_round(self, event: dict) -> None:
        user_id = getattr(self.user, "pk", None)
        url = event.get("goto", {}).get(user_id) or event.get("goto", {}).get(str(user_id))
        await self.send(text_data=json.dumps({"type": "round", "goto": url}))
