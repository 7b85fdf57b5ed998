"""At most so many HTTP requests of a web process run at once; the others wait their turn on the event loop.

Django runs each request's sync code on a thread of its own (asgiref makes one per request), so a burst of
requests became as many threads contending for the one GIL: each advanced at a fraction of the speed, and one
holding a database row lock (a Play now queue's) held it through every other thread's turns, so the requests
behind that lock waited on all of them. Bounded, the requests in progress finish at full speed and the lock is
held as briefly as its own work takes. Sockets are not counted: a socket's frames have their own threads and
limits (``core.sockets``, ``core.throttle``). A request takes its turn once its body has arrived: a client
sending one slowly (daphne waits for the whole body anyway) holds no turn meanwhile. A body larger than Django
keeps in memory (``FILE_UPLOAD_MAX_MEMORY_SIZE``) is not held here: past that size the request takes its turn and
Django reads the rest into its own file on disk, as it would without this bound. The health check is not
counted either: it waits up to a second for the workers' replies, and a load balancer asking it often would
otherwise hold a turn of every process most of the time.
"""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings


class HttpConcurrency:
    def __init__(self, app: Any, most: int, exempt: tuple[str, ...] = ()) -> None:
        """``exempt``: the paths that never wait for a turn (the health check's)."""
        self.app, self.most, self.exempt = app, most, exempt
        self._slots: asyncio.Semaphore | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.most <= 0 or scope.get("path") in self.exempt:
            return await self.app(scope, receive, send)
        if self._slots is None:  # made on the process's event loop, on its first request
            self._slots = asyncio.Semaphore(self.most)
        arrived, size = [], 0
        while size <= settings.FILE_UPLOAD_MAX_MEMORY_SIZE:
            message = await receive()
            arrived.append(message)
            size += len(message.get("body", b""))
            if message["type"] != "http.request" or not message.get("more_body"):
                break

        async def replay() -> Any:
            return arrived.pop(0) if arrived else await receive()

        async with self._slots:
            return await self.app(scope, replay, send)
