"""Django's HTTP side under daphne, each request's sync work done in one hop to a thread.

Django's own ASGI handler runs the middleware chain in its async mode: every middleware method
(``process_request``, ``process_response``, ...) of the ordinary sync middleware is a ``sync_to_async`` hop
from the event loop to a thread and back, the view one more, the request signals two more, and each request
gets a new thread of its own (``ThreadSensitiveContext``). With this project's twelve middlewares that is about
twenty-five hops a request: most of the CPU of a small request (a redirect cost 5.2 ms of a web process's CPU
on a 2-core host, for a millisecond of Django's own work). Here the chain is built in its sync mode, as under
WSGI, and a request's whole sync part (the ``request_started`` signal, the middlewares, the view and the
response's close with ``request_finished``) runs in one hop on a thread of a small fixed pool, whose threads
keep their database connections as a WSGI server's do. A response streamed from a sync iterator (a static file)
is read there whole, as Django's handler reads it; one streamed from an async iterator is sent as Django sends
it and closed in a second hop.

A view that is a coroutine still works (Django adapts it with ``async_to_sync``, as under WSGI), at the cost of
that adaptation; this project has none. The client hanging up does not cancel a request (a sync view cannot be
interrupted anyway): its answer is dropped by daphne.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.urls import set_script_prefix


class OneHopASGIHandler(ASGIHandler):
    def __init__(self, threads: int) -> None:
        super().__init__()
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response, done = await self._in_thread(self._serve, scope, body_file)
            await self.send_response(response if done is None else done, send)
            if done is None:
                await self._in_thread(response.close)
        finally:
            body_file.close()

    def _in_thread(self, func: Any, *args: Any) -> Any:
        return sync_to_async(func, thread_sensitive=False, executor=self._pool)(*args)

    def _serve(self, scope: dict[str, Any], body_file: Any) -> tuple[HttpResponseBase, HttpResponse | None]:
        """The request's sync part, on one of the pool's threads: the response and, unless it streams from an
        async iterator, the same answer with its body in memory, already closed."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response: HttpResponseBase
        if request is None:
            assert error_response is not None  # Django makes one whenever it could not make the request
            response = error_response
        else:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
        done: HttpResponse | None = None
        if isinstance(response, HttpResponse):
            done = response
        elif isinstance(response, StreamingHttpResponse) and not response.is_async:
            # Django's handler would read a sync iterator whole anyway (static files: whitenoise's), from
            # another thread: read here, on the thread it was made on
            done = HttpResponse(b"".join(response.streaming_content), status=response.status_code)  # type: ignore[arg-type]
            done.headers, done.cookies = response.headers, response.cookies
        else:
            return response, None
        # what closing it does (request_finished: the thread's database connection handed back) happens now, on
        # this thread, rather than in another hop after the send
        response.close()
        return response, done
