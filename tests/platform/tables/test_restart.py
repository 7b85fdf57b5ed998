"""A server restart mid-game loses nothing: players reconnect and the game goes on."""

import json
import os
import signal

import pytest
from websockets.sync.client import connect

from measure.sessions import session_cookie_for
from tables.models import Game
from tests.platform.helpers import child_env, current_database_url, free_port, start_daphne
from tests.platform.tables.factories import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def open_socket(port, table, user):
    return connect(
        f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/?format=json",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": session_cookie_for(user)},
        open_timeout=10,
    )


def play_one(port, table, players) -> dict:
    """Whoever is to act plays his first legal move; returns the state after it."""
    states = {}
    for seat, user in enumerate(players):
        with open_socket(port, table, user) as ws:
            states[seat] = json.loads(ws.recv(timeout=10))
    mover = states[0]["view"]["to_act"][0]
    with open_socket(port, table, players[mover]) as ws:
        before = json.loads(ws.recv(timeout=10))
        ws.send(json.dumps({"move": before["move"], "action": before["legal"][0]}))
        after = json.loads(ws.recv(timeout=10))
    assert after["type"] == "state" and after["move"] == before["move"] + 1
    return after


def test_killed_server_resumes_the_game_from_the_database():
    table, players, game = started_table("durak", 2)
    env = child_env(DATABASE_URL=current_database_url())
    port = free_port()
    server = start_daphne(port, env)
    try:
        for _ in range(3):
            last = play_one(port, table, players)
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # no clean shutdown: a crash
        server.wait(10)
    server = start_daphne(port, env)
    try:
        seat = last["seat"]
        with open_socket(port, table, players[seat]) as ws:
            resumed = json.loads(ws.recv(timeout=10))
        assert resumed["move"] == 3 and resumed["view"] == last["view"]
        after = play_one(port, table, players)
        assert after["move"] == 4
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    assert Game.objects.get(pk=game.pk).move_number == 4
