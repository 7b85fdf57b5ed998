"""core.concurrency: a web process runs at most so many HTTP requests at once; the rest wait, sockets do not."""

import asyncio

import pytest

from core.concurrency import HttpConcurrency

pytestmark = pytest.mark.asyncio


class _App:
    def __init__(self) -> None:
        self.running = self.most = 0
        self.release = asyncio.Event()

    async def __call__(self, scope, receive, send) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        await self.release.wait()
        self.running -= 1
        await send({"type": scope["type"], "done": True})


async def test_requests_beyond_the_bound_wait_and_then_all_are_answered():
    app, sent = _App(), []

    async def send(message):
        sent.append(message)

    bounded = HttpConcurrency(app, 3)
    calls = [asyncio.create_task(bounded({"type": "http"}, None, send)) for _ in range(10)]
    socket = asyncio.create_task(bounded({"type": "websocket"}, None, send))
    while app.running < 4:  # three requests and the socket
        await asyncio.sleep(0)
    for _ in range(20):
        await asyncio.sleep(0)
    assert app.running == 4 and app.most == 4  # the other seven requests wait; the socket never did
    app.release.set()
    await asyncio.gather(*calls, socket)
    assert len(sent) == 11


async def test_zero_means_no_bound():
    app = _App()
    unbounded = HttpConcurrency(app, 0)
    calls = [asyncio.create_task(unbounded({"type": "http"}, None, lambda m: asyncio.sleep(0))) for _ in range(10)]
    while app.running < 10:
        await asyncio.sleep(0)
    app.release.set()
    await asyncio.gather(*calls)
    assert app.most == 10
