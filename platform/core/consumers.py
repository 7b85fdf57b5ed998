"""A WebSocket health probe: proves the socket, session auth and the channel layer work."""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from core.outage import OutageSafeMixin
from core.sockets import CLOSE_SIGNED_OUT, user_group


class HealthConsumer(OutageSafeMixin, AsyncJsonWebsocketConsumer):
    """Turned away with 1013 while Redis is gone (``core.outage``): the probe then says so by failing."""

    async def connect(self) -> None:
        await self.accept()
        # a round trip through the channel layer (Redis), not just this process
        self.group = f"health.{self.channel_name.rsplit('!', 1)[-1]}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.user_group = user_group(user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.channel_layer.group_send(self.group, {"type": "health.echo"})

    async def user_disconnect(self, event: dict) -> None:
        await self.close(code=event.get("code") or CLOSE_SIGNED_OUT)

    async def health_echo(self, event: dict) -> None:
        user = self.scope.get("user")
        await self.send_json(
            {
                "type": "health",
                "channel_layer": "up",
                "user": user.username if user is not None and user.is_authenticated else None,
            }
        )

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if hasattr(self, "user_group"):
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
