"""A dead child of `make run` is started again and games go on.

One platform, started as a developer would; each child in turn is killed by pid
(SIGKILL: a crash, no clean shutdown). After each kill /healthz answers 200 again
and the game in progress keeps moving: bot moves and turn timers still happen,
including after the embedded Redis (the Celery broker) was killed and restarted.
Prints how long each recovery took.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.platform.helpers import ROOT, alive, descendants, developer_env, free_port, wait_until

pytestmark = pytest.mark.slow

SETUP = """
from accounts.services import ensure_demo_player
from lobbies.services import table_create, seat_add_bot
demo, _ = ensure_demo_player()
table = table_create(user=demo, game="durak", options={}, seats=2, turn_seconds=2, rated=False, match_length=500)
seat_add_bot(table_id=table.pk, user=demo, level="random")
print("TABLE", table.pk)
"""


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as resp:
            return resp.status == 200 and json.load(resp)["celery"] == "up"
    except (OSError, ValueError):
        return False


def child_pid(launcher_pid: int, *words: str) -> int | None:
    """The child of the launcher whose command line has all ``words`` (the process group's leader)."""
    for pid in sorted(descendants(launcher_pid)):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            leader = os.getpgid(pid) == pid
        except OSError:
            continue
        if leader and all(w in cmd for w in words):
            return pid
    return None


def watch(port: int, table_id: int):
    """The table's socket as a visitor's page opens it (JSON states), its first state read."""
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/?format=json"
    # entered by hand, not in a with block: it stays open across the kill and ``shown_move`` closes it
    # (websockets 17 warns of a connection not entered, whose call will open a reconnecting client instead)
    page = connect(url, origin=f"http://127.0.0.1:{port}", open_timeout=30).__enter__()
    page.recv(timeout=30)
    return page


def shown_move(page, past: tuple[int, int], seconds: float) -> bool:
    """Whether the page is sent a state of a (game, move) later than ``past`` within ``seconds``, on the same
    socket: a Redis restart closes none (``core.outage``)."""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            try:
                frame = json.loads(page.recv(timeout=max(0.1, deadline - time.monotonic())))
            except TimeoutError:
                return False
            if frame.get("type") == "state" and (frame.get("game") or 0, frame.get("move") or 0) > past:
                return True
        return False
    finally:
        page.close()


class Moves:
    def __init__(self, db: Path, table_id: int) -> None:
        self.db, self.table_id = db, table_id

    def query(self, sql: str, *args):
        with sqlite3.connect(self.db, timeout=20) as conn:
            return conn.execute(sql, args).fetchall()

    def latest(self) -> tuple[int, int]:
        """(game, move number) of the table's newest game."""
        sql = "SELECT id, move_number FROM tables_game WHERE table_id = ? ORDER BY number DESC LIMIT 1"
        return tuple(self.query(sql, self.table_id)[0])

    def count(self, by: str | None = None) -> int:
        sql = "SELECT count(*) FROM tables_move m JOIN tables_game g ON g.id = m.game_id WHERE g.table_id = ?"
        return self.query(sql + (" AND m.by = ?" if by else ""), self.table_id, *([by] if by else []))[0][0]


def test_killed_children_are_restarted_and_the_game_goes_on(tmp_path):
    port, var = free_port(), tmp_path / "var"
    env = developer_env(
        PORT=str(port),
        VAR_DIR=str(var),
        DEBUG="1",
        BOT_DELAY_SECONDS="0.2",
        BOT_STRONG_BUDGET="0.1",
        # the demo player never moves and is not watching: the game must outlive the kills, not be ended as
        # abandoned to the bots
        ABANDONED_TABLE_SECONDS="3600",
    )
    env.pop("REDIS_URL", None)  # the embedded Redis, as `make run` has it
    env.pop("DATABASE_URL", None)
    log = (tmp_path / "run.log").open("w+")
    run = subprocess.Popen(
        [sys.executable, "manage.py", "runplatform", "--port", str(port), "--concurrency", "1"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    recoveries = {}
    try:
        assert wait_until(lambda: healthy(port) or run.poll() is not None, 120), "never healthy"
        setup = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", SETUP],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        moves = Moves(var / "db.sqlite3", int(setup.stdout.split("TABLE")[1].split()[0]))
        # the demo player never moves: his turns time out (twice, then a stand-in bot plays for him)
        assert wait_until(lambda: moves.count("timeout") >= 1 and moves.count("bot") >= 1, 60)

        for name, words in (
            ("daphne", ("daphne",)),
            ("worker", ("celery", "worker")),
            ("beat", ("celery", "beat")),
            ("redis", ("redis-server",)),
        ):
            pid = child_pid(run.pid, *words)
            assert pid is not None, f"no {name} child"
            before, worker = moves.count(), child_pid(run.pid, "celery", "worker")
            # a page left open through Redis's restart: its table's events must reach it again afterwards
            page = watch(port, moves.table_id) if name == "redis" else None
            killed = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            assert wait_until(lambda pid=pid: not alive(pid), 10)
            restarted = lambda words=words, pid=pid: child_pid(run.pid, *words) not in (None, pid)  # noqa: E731
            assert wait_until(lambda r=restarted: r() and healthy(port), 120), f"not healthy again after killing {name}"
            recoveries[name] = time.monotonic() - killed
            assert run.poll() is None, f"the platform stopped when {name} was killed"
            if name == "redis":
                # the worker reconnected to the new Redis by itself: it was not restarted
                assert child_pid(run.pid, "celery", "worker") == worker
                # the demo player is back: his next turn runs on a timer again, through the restarted broker
                moves.query("UPDATE tables_seat SET away = 0, timeouts_in_row = 0 WHERE table_id = ?", moves.table_id)
                timeouts = moves.count("timeout")
                assert wait_until(lambda t=timeouts: moves.count("timeout") > t, 90), "no timer after Redis came back"
                assert shown_move(page, past=moves.latest(), seconds=90), "no move on the page"
            assert wait_until(lambda b=before: moves.count() >= b + 3, 90), f"the game stopped after {name} died"
            assert moves.count("bot") + moves.count("stand-in") > 0
    finally:
        os.killpg(run.pid, signal.SIGINT)  # Ctrl-C still stops everything
        family = descendants(run.pid)
        try:
            run.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            raise
        print("recovery (kill -> /healthz 200 with a worker):", {k: f"{v:.1f} s" for k, v in recoveries.items()})
    log.seek(0)
    output = log.read()
    assert output.count("restarting in") >= 4, output[-3000:]
    assert not [pid for pid in family if alive(pid)], "still running after Ctrl-C"
