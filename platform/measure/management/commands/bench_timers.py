"""Benchmark: what turn timers cost per move, and what many pending turns cost the worker.

    python manage.py bench_timers --tables 20 --moves 400 --pending 10000

1. Plays ``--moves`` moves on ``--tables`` started two-seat tables (humans, so
   every turn gets a deadline) through the move service, with turn timers on,
   and counts the Celery messages published per move (``before_task_publish``).
2. Starts a Celery worker (solo pool) on the configured broker, schedules
   ``--pending`` turns an hour ahead (for games that do not exist, so none
   ever acts), waits until the broker holds no message the worker has not
   taken, and prints the worker's resident memory before and after, and the
   Redis memory the pending turns take; then schedules turns due at once for
   games that moved on and prints the worker CPU they cost.
3. Times the sweeper through ``--pending`` due turns of games that are gone.

Run it with the platform's environment (``DATABASE_URL``, ``REDIS_URL``), on a
Redis database no running platform uses: it purges the Celery queue. The
tables and players it creates are deleted at the end.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import redis
from celery.signals import before_task_publish
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.models import User
from core.redis_client import redis_client
from games import GAMES
from tables import deadlines, turns
from tables.models import Game, Seat, Table
from tables.selectors import seat_view
from tables.services import match_start, table_apply_action

#: fake game ids for the pending turns: far above any real one, so no timer ever acts
FAKE_GAME_BASE = 2_000_000_000


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Command(BaseCommand):
    help = "Count Celery messages per move and the worker's memory with many pending turns."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=20)
        parser.add_argument("--moves", type=int, default=400)
        parser.add_argument("--pending", type=int, default=10000)
        parser.add_argument("--no-worker", action="store_true", help="skip the worker memory part")

    def handle(self, *args: Any, **o: Any) -> None:
        self.stdout.ending = "\n"
        if settings.REDIS_EMBEDDED:
            from core.embedded import redis_alive, start_redis

            if not redis_alive(settings.REDIS_SOCKET):
                Path(settings.VAR_DIR).mkdir(parents=True, exist_ok=True)
                start_redis(settings.REDIS_SOCKET, persist=False, start_new_session=True)
        from config.celery import app

        app.control.purge()
        try:
            self._moves(o["tables"], o["moves"])
        finally:
            app.control.purge()  # the timers of the benchmark's moves: their games are gone
        if not o["no_worker"]:
            self._pending(o["pending"])
        self._sweep(o["pending"])

    def _moves(self, tables: int, moves: int) -> None:
        run = secrets.token_hex(3)
        game_name = next(iter(GAMES))
        games = []
        for t in range(tables):
            users = [User.objects.create_user(f"bt-{run}-{t}-{s}", password=None) for s in range(2)]
            table = Table.objects.create(
                game=game_name, seats_count=2, created_by=users[0], rated=False, turn_seconds=600, match_length=1000
            )
            for s, user in enumerate(users):
                Seat.objects.create(table=table, index=s, user=user)
            games.append(match_start(table).pk)
        published: list[str] = []

        def count(sender: object = None, **kwargs: object) -> None:
            published.append(str(sender))

        before_task_publish.connect(count, weak=False)
        # the timers' own share of a move: what runs after its commit (the sockets' notify aside)
        schedule, spent, cpu = turns.schedule_turn, [0.0], [0.0]

        def timed(*args: Any, **kwargs: Any) -> None:
            t0, c0 = time.perf_counter(), time.process_time()
            schedule(*args, **kwargs)
            spent[0] += time.perf_counter() - t0
            cpu[0] += time.process_time() - c0

        turns.schedule_turn = timed
        try:
            started = time.perf_counter()
            for i in range(moves):
                game = Game.objects.filter(table__game=game_name, pk=games[i % tables]).select_related("table").get()
                if game.status != Game.Status.PLAYING:
                    game = Game.objects.filter(table_id=game.table_id).latest("pk")
                    games[i % tables] = game.pk
                mover = seat_view(game, None)["view"]["to_act"][0]
                table_apply_action(game.pk, mover, game.move_number, seat_view(game, mover)["legal"][0])
            elapsed = time.perf_counter() - started
        finally:
            turns.schedule_turn = schedule
            before_task_publish.disconnect(count)
            Table.objects.filter(created_by__username__startswith=f"bt-{run}-").delete()
            User.objects.filter(username__startswith=f"bt-{run}-").delete()
        kinds = {name: published.count(name) for name in sorted(set(published))}
        self.stdout.write(
            f"{moves} moves on {tables} tables: {len(published)} Celery messages, "
            f"{len(published) / moves:.2f} per move {kinds}; {elapsed / moves * 1000:.2f} ms per move, "
            f"of which scheduling the turn {spent[0] / moves * 1000:.2f} ms ({cpu[0] / moves * 1000:.2f} ms CPU)"
        )

    def _pending(self, count: int) -> None:
        from config.celery import app
        from core.selectors import celery_workers

        client = redis_client()
        root = Path(settings.BASE_DIR)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(root / "platform"), str(root)])
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-l", "WARNING"]
        worker = subprocess.Popen(
            [*command, "-n", f"bench-timers-{os.getpid()}@%h", "--without-gossip", "--without-mingle"],
            env=env,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=sys.stderr,
        )
        try:
            deadline = time.monotonic() + 60
            while not celery_workers(timeout=0.5):
                if worker.poll() is not None or time.monotonic() > deadline:
                    raise CommandError("the Celery worker did not start")
            idle = rss_kib(worker.pid)
            due = timezone.now() + timedelta(hours=1)
            started = time.perf_counter()
            for i in range(count):
                turns.schedule_turn(FAKE_GAME_BASE + i, 0, due, False)
            scheduling = time.perf_counter() - started
            # the worker takes every ETA message off the queue and holds it until it is due
            deadline = time.monotonic() + 300
            while client.llen("celery") and time.monotonic() < deadline:
                time.sleep(0.2)
            # redis-py types each reply for its sync and async clients at once (Awaitable | Any)
            taken = cast(int, client.hlen("unacked"))
            loaded = rss_kib(worker.pid)
            # where each design keeps pending turns: the broker's queue and unacked messages, or the set
            held = sum(
                cast(int, client.memory_usage(key) or 0)
                for key in ("celery", "unacked", "unacked_index", deadlines.KEY)
            )
            self.stdout.write(
                f"{count} pending turns: scheduled in {scheduling * 1000:.0f} ms; "
                f"worker RSS {idle / 1024:.1f} MiB idle, {loaded / 1024:.1f} MiB with them "
                f"(+{(loaded - idle) / 1024:.1f} MiB, {taken} messages held); "
                f"Redis keys holding them {held / 1024 / 1024:.1f} MiB"
            )
            self._fire(client, worker.pid, taken, min(count, 2000))
        finally:
            worker.terminate()
            try:
                worker.wait(60)
            except subprocess.TimeoutExpired:
                worker.kill()
            app.control.purge()  # the held ETA messages went back to the queue on the warm shutdown
            self._forget_fake(client, count)

    def _fire(self, client: redis.Redis, pid: int, held: int, count: int) -> None:
        """Turns due now whose games moved on: what the worker spends on timers that find nothing to do."""
        before = cpu_seconds(pid)
        now = timezone.now()
        for i in range(count):
            turns.schedule_turn(FAKE_GAME_BASE + 500_000 + i, 0, now, False)
        deadline = time.monotonic() + 300
        while (client.llen("celery") or cast(int, client.hlen("unacked")) > held) and time.monotonic() < deadline:
            time.sleep(0.2)
        spent = cpu_seconds(pid) - before
        self.stdout.write(
            f"{count} turns due now, already played: worker CPU {spent * 1000:.0f} ms "
            f"({spent / count * 1e6:.0f} us per turn; the set's sweep cost is below)"
        )
        deadlines.deadlines_drop([(FAKE_GAME_BASE + 500_000 + i, 0) for i in range(count)])

    def _forget_fake(self, client: redis.Redis, count: int) -> None:
        deadlines.deadlines_drop([(FAKE_GAME_BASE + i, 0) for i in range(count)])

    def _sweep(self, count: int) -> None:
        """Time the sweeper through ``count`` due turns whose games are gone (what a played turn costs it)."""
        now = time.time()
        redis_client().zadd(deadlines.KEY, {deadlines.member(FAKE_GAME_BASE + i, 0): now for i in range(count)})
        size = cast(int, redis_client().memory_usage(deadlines.KEY) or 0)
        started, sweeps = time.perf_counter(), 0
        while redis_client().zcount(deadlines.KEY, "-inf", now):
            deadlines.deadlines_sweep()
            sweeps += 1
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"the set with {count} turns: {size / 1024 / 1024:.2f} MiB in Redis; {sweeps} sweeps took them all "
            f"in {elapsed * 1000:.0f} ms ({elapsed / count * 1e6:.0f} us per turn)"
        )
