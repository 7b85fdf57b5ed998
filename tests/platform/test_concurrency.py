"""core.concurrency: a web process runs at most so many HTTP requests at once; the rest wait, sockets do not."""

import asyncio

import pytest

from core.concurrency import HttpConcurrency

pytestmark = pytest.mark.asyncio


class _App:
    def __init__(self) -> None:
        self.running = self.most = 0
        self.release = asyncio.Event()
        self.bodies: list = []

    async def __call__(self, scope, receive, send) -> None:
        while scope["type"] == "http":  # the whole body first, as Django reads it
            message = await receive()
            self.bodies.append(message)
            if not message.get("more_body"):
                break
        self.running += 1
        self.most = max(self.most, self.running)
        await self.release.wait()
        self.running -= 1
        await send({"type": scope["type"], "done": True})


async def test_requests_beyond_the_bound_wait_and_then_all_are_answered():
    app, sent = _App(), []

    async def send(message):
        sent.append(message)

    async def body():
        return {"type": "http.request", "body": b"x", "more_body": False}

    bounded = HttpConcurrency(app, 3)
    calls = [asyncio.create_task(bounded({"type": "http"}, body, send)) for _ in range(10)]
    socket = asyncio.create_task(bounded({"type": "websocket"}, None, send))
    while app.running < 4:  # three requests and the socket
        await asyncio.sleep(0)
    for _ in range(20):
        await asyncio.sleep(0)
    assert app.running == 4 and app.most == 4  # the other seven requests wait; the socket never did
    app.release.set()
    await asyncio.gather(*calls, socket)
    assert len(sent) == 11
    assert app.bodies == [{"type": "http.request", "body": b"x", "more_body": False}] * 10  # each its own body


async def test_a_request_whose_body_is_still_coming_holds_no_turn():
    app = _App()
    app.release.set()
    bounded = HttpConcurrency(app, 1)
    parts = asyncio.Queue()
    slow = asyncio.create_task(bounded({"type": "http"}, parts.get, lambda m: asyncio.sleep(0)))
    await parts.put({"type": "http.request", "body": b"first ", "more_body": True})

    async def whole():
        return {"type": "http.request", "body": b"all", "more_body": False}

    # the slow upload's turn has not begun: another request is answered meanwhile
    await asyncio.wait_for(bounded({"type": "http"}, whole, lambda m: asyncio.sleep(0)), 5)
    assert app.bodies == [{"type": "http.request", "body": b"all", "more_body": False}]
    await parts.put({"type": "http.request", "body": b"end", "more_body": False})
    await asyncio.wait_for(slow, 5)
    assert [m["body"] for m in app.bodies[1:]] == [b"first ", b"end"]  # the app reads it as it came


async def test_zero_means_no_bound():
    app = _App()
    unbounded = HttpConcurrency(app, 0)

    async def body():
        return {"type": "http.request", "body": b"", "more_body": False}

    calls = [asyncio.create_task(unbounded({"type": "http"}, body, lambda m: asyncio.sleep(0))) for _ in range(10)]
    while app.running < 10:
        await asyncio.sleep(0)
    app.release.set()
    await asyncio.gather(*calls)
    assert app.most == 10


async def test_the_health_check_never_waits_for_a_turn():
    app = _App()
    bounded = HttpConcurrency(app, 1, exempt=("/healthz",))

    async def body():
        return {"type": "http.request", "body": b"", "more_body": False}

    busy = asyncio.create_task(bounded({"type": "http", "path": "/play/"}, body, lambda m: asyncio.sleep(0)))
    while app.running < 1:
        await asyncio.sleep(0)
    health = asyncio.create_task(bounded({"type": "http", "path": "/healthz"}, body, lambda m: asyncio.sleep(0)))

    async def both_running():
        while app.running < 2:
            await asyncio.sleep(0)

    await asyncio.wait_for(both_running(), 5)  # answered beside the busy request, though the bound is one
    app.release.set()
    await asyncio.wait_for(asyncio.gather(busy, health), 5)


async def test_a_body_larger_than_django_keeps_in_memory_is_not_held_in_memory_here(settings):
    """Past FILE_UPLOAD_MAX_MEMORY_SIZE the request takes its turn and the app reads the rest as it comes (Django
    spools it to disk): the bound never holds a large upload in memory whole."""
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 10
    app = _App()
    app.release.set()
    parts = asyncio.Queue()
    upload = asyncio.create_task(HttpConcurrency(app, 1)({"type": "http"}, parts.get, lambda m: asyncio.sleep(0)))
    await parts.put({"type": "http.request", "body": b"x" * 8, "more_body": True})
    await parts.put({"type": "http.request", "body": b"x" * 8, "more_body": True})

    async def app_reading():
        while len(app.bodies) < 2:
            await asyncio.sleep(0)

    await asyncio.wait_for(app_reading(), 5)  # handed on before the body's end came
    await parts.put({"type": "http.request", "body": b"end", "more_body": False})
    await asyncio.wait_for(upload, 5)
    assert [m["body"] for m in app.bodies] == [b"x" * 8, b"x" * 8, b"end"]
