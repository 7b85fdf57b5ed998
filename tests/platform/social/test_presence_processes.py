"""Presence across web processes: a tab on one daphne shows its player online on another, and a killed
process's players go offline within the presence TTL."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request

import pytest
from websockets.sync.client import connect

from measure.sessions import session_cookie_for
from social import services
from tests.platform.helpers import child_env, current_database_url, free_port, start_daphne, wait_until
from tests.platform.tables.factories import make_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
TTL = 3


def friends_page(port: int, cookie: str) -> str:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/friends/list/", headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


def shown_online(port: int, cookie: str, username: str) -> bool:
    page = friends_page(port, cookie)
    row = page.split(f'data-user="{username}"', 1)[1].split("</li>", 1)[0]
    return "offline" not in row


def tab(port: int, cookie: str, at: str = "/play/"):
    return connect(
        f"ws://127.0.0.1:{port}/ws/presence/?at={at}",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    )


def test_presence_is_shared_by_two_web_processes_and_ends_on_close_or_crash():
    a, b = make_players(2, prefix="proc")
    services.friend_request_send(a, b)
    services.friend_request_accept(b, a)
    cookie_a, cookie_b = session_cookie_for(a), session_cookie_for(b)
    env = child_env(DATABASE_URL=current_database_url(), PRESENCE_TTL=str(TTL))
    one, two = free_port(), free_port()
    first, second = start_daphne(one, env), start_daphne(two, env)
    try:
        assert not shown_online(two, cookie_a, b.username)
        with tab(one, cookie_b) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            assert shown_online(two, cookie_a, b.username)
            assert "in the lobby" in friends_page(two, cookie_a)
            # heartbeats keep him online well past the TTL (time itself is what is tested here)
            for _ in range(3):
                time.sleep(TTL / 2)
                ws.send(json.dumps({"type": "ping"}))
                assert json.loads(ws.recv(timeout=10))["type"] == "pong"
            assert shown_online(two, cookie_a, b.username)
        assert wait_until(lambda: not shown_online(two, cookie_a, b.username), 10)

        # the process holding his only tab dies without a goodbye
        with tab(one, cookie_b) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            assert shown_online(two, cookie_a, b.username)
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(10)
            assert wait_until(lambda: not shown_online(two, cookie_a, b.username), TTL + 10)
    finally:
        for proc in (first, second):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
