"""A socket's user and session come from its cookie, and what it sends goes straight to the server."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import ApplicationCommunicator

from accounts.models import User
from core.sockets import SocketAuthMiddlewareStack
from measure.sessions import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_a_socket_gets_its_user_and_session_and_sends_unwrapped():
    seen: dict[str, Any] = {}

    async def app(scope: dict, receive: Any, send: Any) -> None:
        seen["user"] = await sync_to_async(lambda: scope["user"].username)()
        seen["session_key"] = scope["session"].session_key
        seen["send"] = send
        await send({"type": "websocket.accept"})

    user = await sync_to_async(User.objects.create_user)("cookie-reader", password=None)
    cookie = await sync_to_async(session_cookie_for)(user)
    scope = {"type": "websocket", "path": "/ws/x/", "headers": [(b"cookie", cookie.encode())]}
    comm = ApplicationCommunicator(SocketAuthMiddlewareStack(app), scope)
    await comm.send_input({"type": "websocket.connect"})
    assert (await comm.receive_output(timeout=2))["type"] == "websocket.accept"
    assert seen["user"] == "cookie-reader"
    assert seen["session_key"] == cookie.split("=", 1)[1]
    # the communicator's own send: no session wrapper between the socket and the server on each frame
    assert seen["send"] == comm.output_queue.put
