"""core.http: a request's sync work in one hop to a pooled thread, answered as Django's own ASGI handler answers."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core import signals
from django.http import FileResponse, HttpResponse
from django.urls import path

from core.http import OneHopASGIHandler

pytestmark = pytest.mark.asyncio

seen: dict[str, list[int]] = {}


def _where(name: str) -> None:
    seen.setdefault(name, []).append(threading.get_ident())


def page(request):
    _where("view")
    return HttpResponse("<p>hello, Привіт</p>", headers={"X-Seen": "1"})


def broken(request):
    raise RuntimeError("a bug in a view")


def download(request):
    response = FileResponse(open(request.GET["file"], "rb"))  # noqa: SIM115 (FileResponse closes it)
    response._resource_closers.append(lambda: _where("file closed"))
    return response


urlpatterns = [path("page/", page), path("broken/", broken), path("download/", download)]


@pytest.fixture
def app(settings):
    settings.ROOT_URLCONF = __name__
    seen.clear()

    def started(**kwargs):
        _where("started")

    def finished(**kwargs):
        _where("finished")

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    handler = OneHopASGIHandler(threads=2)
    yield handler
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)
    handler._pool.shutdown()


async def call(app, url: str, host: bytes = b"testserver") -> tuple[int, dict, bytes]:
    path_, _, query = url.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path_,
        "raw_path": path_.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", host)],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    talk = ApplicationCommunicator(app, scope)
    await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await talk.receive_output(10)
    body = b""
    while True:
        message = await talk.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await talk.wait(10)
    return start["status"], {k.decode().lower(): v.decode() for k, v in start["headers"]}, body


async def test_a_request_is_answered_and_its_signals_and_view_run_on_one_thread_off_the_loop(app):
    status, headers, body = await call(app, "/page/")
    assert status == 200 and headers["x-seen"] == "1"
    assert body.decode() == "<p>hello, Привіт</p>"
    # the database connection a view used is handed back by request_finished on the thread that used it
    assert seen["started"] == seen["view"] == seen["finished"]
    assert seen["view"][0] != threading.get_ident()


async def test_requests_share_the_pools_few_threads(app):
    await asyncio.gather(*(call(app, "/page/") for _ in range(12)))
    assert len(seen["view"]) == 12 and len(set(seen["view"])) <= 2
    assert len(seen["finished"]) == 12


async def test_a_streamed_file_arrives_whole_and_is_closed_after_it_was_sent(app, tmp_path):
    data = bytes(range(256)) * 1000  # several of the handler's chunks
    (tmp_path / "f.bin").write_bytes(data)
    status, headers, body = await call(app, f"/download/?file={tmp_path / 'f.bin'}")
    assert status == 200 and body == data and headers["content-length"] == str(len(data))
    assert len(seen["file closed"]) == 1 and len(seen["finished"]) == 1


async def test_a_failing_view_is_a_500_and_the_next_request_is_served(app):
    status, _, _ = await call(app, "/broken/")
    assert status == 500
    assert (await call(app, "/page/"))[0] == 200
    assert len(seen["finished"]) == 2


async def test_a_forged_host_is_refused_with_a_400(app):
    status, _, _ = await call(app, "/page/", host=b"evil.example")
    assert status == 400 and "view" not in seen
