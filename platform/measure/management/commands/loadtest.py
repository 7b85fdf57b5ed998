"""Drive K live Durak tables with scripted WebSocket players against a running platform.

    python manage.py loadtest --tables 50 --seconds 60 --think 1 --url http://127.0.0.1:8000
    python manage.py loadtest --mode html --tables 50 --spectators 10 --url ... --url ...
    python manage.py loadtest --idle --tables 100 --spectators 8 --seconds 60

Creates 2·K players (and ``--spectators`` signed-in watchers per table) and K
started two-seat Durak tables in the platform's database (so run it with the
same environment as the server), logs each in with a real session, connects
every socket, and only then lets the players play. Prints moves per second and
the move-to-every-seat latency: from sending a move to the moment the last seat
of that table has received the new state (and, with spectators, the last socket
of the table). ``--think`` is each player's mean pause before a move (a human
takes seconds); 0 drives the server flat out.

``--mode json`` players read ``?format=json`` states and send a random legal
action. ``--mode html`` players are what a browser is: they read the HTML
fragments htmx's WebSocket extension swaps in, and click one of the buttons
the play fragment offers (ticking a card first for the actions composed from
ticked cards), sending the form's fields as the extension does. Each of
their pages also holds the presence socket every signed-in page opens
(``--no-presence`` leaves it out). A "your turn" push goes to a player's other
tabs when a move passes him the turn, not to the one showing that table (its
page shows the turn itself), so these sockets get none; a push that does come
is timed from the table's last click before it.
``--idle`` connects everything and makes no move: what open table pages cost.

The watchers' sockets live in a process of their own, as spectators' browsers
are other people's: sharing the players' event loop, their frames (ten for
every two a move sends its players) would delay when a player's frame is read
and count the client's own queue as the server's latency. Both processes
stamp receipts with the system's monotonic clock.

The CPU per move of the web processes (daphne on the URLs' ports), the Celery
worker started by ``runplatform`` on the first URL's port, and this database's
PostgreSQL backends is read from /proc over the playing window.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import os
import random
import statistics
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from django.core.management.base import BaseCommand, CommandParser
from django.db import IntegrityError, OperationalError, connection, connections

from accounts.models import User
from games import GAMES
from measure.loadclient import (
    PresenceStats,
    TableStats,
    WatchersProcess,
    Watching,
    every_socket_latencies,
    presence_open,
    presence_read,
    socket,
    turn_push_latencies,
)
from measure.sessions import session_cookie_for
from tables.models import Seat, Table
from tables.services import match_start

#: the game the load test plays: the first registered one (its bots and move shapes are all it needs)
LOAD_GAME = next(iter(GAMES))


@dataclass
class Setup:
    table_id: int
    players: list[str]  # session cookies, by seat
    spectators: list[str]


def create_tables(count: int, run: str, spectators: int) -> list[Setup]:
    tables = []
    for t in range(count):
        users = [
            User.objects.create_user(f"load-{run}-{t}-{s}", password=None, display_name=f"Load {t}.{s}")
            for s in range(2)
        ]
        # a long turn time, so the turn timer never plays for the scripted players
        table = Table.objects.create(
            game=LOAD_GAME, seats_count=2, created_by=users[0], rated=False, turn_seconds=600, match_length=1000
        )
        for s, user in enumerate(users):
            Seat.objects.create(table=table, index=s, user=user)
        match_start(table)
        watchers = [
            User.objects.create_user(f"load-{run}-{t}-w{w}", password=None, display_name=f"Watcher {t}.{w}")
            for w in range(spectators)
        ]
        tables.append(
            Setup(table.pk, [session_cookie_for(u) for u in users], [session_cookie_for(u) for u in watchers])
        )
    return tables


def remove_tables(run: str) -> None:
    for attempt in range(5):
        try:
            Table.objects.filter(created_by__username__startswith=f"load-{run}-").delete()
            User.objects.filter(username__startswith=f"load-{run}-").delete()
            return
        except (OperationalError, IntegrityError):  # a last move still being applied (a deadlock, or its log
            # row inserted after the game's were collected for deletion): try again
            if attempt == 4:
                raise


# -- CPU of the platform's processes, from /proc -------------------------------------------------------
TICK = os.sysconf("SC_CLK_TCK")


def _cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return []


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime
    except (OSError, IndexError, ValueError):
        return None


def platform_processes(urls: list[str]) -> dict[str, set[int]]:
    """daphne processes serving the URLs' ports, and the Celery worker (with its children) of
    ``runplatform`` on the first port; another engineer's platform on other ports is left out."""
    ports = {str(urlparse(u).port or 80) for u in urls}
    worker_name = f"worker-{urlparse(urls[0]).port or 80}@"
    found: dict[str, set[int]] = {"daphne": set(), "worker": set()}
    pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    for pid in pids:
        argv = _cmdline(pid)
        if any(a.endswith("daphne") for a in argv) and "-p" in argv:
            if argv[argv.index("-p") + 1] in ports:
                found["daphne"].add(pid)
        elif "celery" in " ".join(argv) and any(a.startswith(worker_name) for a in argv):
            found["worker"].add(pid)
    for pid in pids:  # the worker's pool processes
        if _parent(pid) in found["worker"]:
            found["worker"].add(pid)
    return found


def postgres_backends() -> set[int]:
    if connection.vendor != "postgresql":
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return {row[0] for row in cursor.fetchall()}


class CpuMeter:
    """CPU seconds per group of processes over a window.

    PostgreSQL backends come and go (a connection older than ``CONN_MAX_AGE`` is
    replaced), so they are polled twice a second: one that opens during the
    window counts from its start, one that closes loses at most its last half second.
    """

    def __init__(self, urls: list[str], clients: set[int]) -> None:
        self.urls = urls
        self.clients = clients  # the load test's own processes: what the clients cost, on the same cores
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.stopping = threading.Event()

    def _sample(self, pids: set[int], new_from_zero: bool) -> None:
        for pid in pids:
            now = cpu_seconds(pid)
            if now is not None:
                self.first.setdefault(pid, 0.0 if new_from_zero else now)
                self.last[pid] = now

    def start(self) -> None:
        self.groups = platform_processes(self.urls)
        self.groups["postgres"] = postgres_backends()
        self.groups["client"] = set(self.clients)
        self._sample({pid for pids in self.groups.values() for pid in pids}, new_from_zero=False)
        self.began = time.monotonic()
        self.poller = threading.Thread(target=self._poll, daemon=True)
        self.poller.start()

    def _poll(self) -> None:
        try:
            while not self.stopping.wait(0.5):
                self.groups["postgres"] |= postgres_backends()
                self._sample(self.groups["postgres"], new_from_zero=True)
        finally:
            connection.close()

    def stop(self) -> None:
        self.elapsed = time.monotonic() - self.began
        self.stopping.set()
        self.poller.join()
        self._sample({pid for pids in self.groups.values() for pid in pids}, new_from_zero=True)
        self.used = {
            name: sum(self.last[pid] - self.first[pid] for pid in pids if pid in self.last)
            for name, pids in self.groups.items()
        }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=50)
        parser.add_argument("--seconds", type=float, default=60)
        parser.add_argument(
            "--url",
            action="append",
            dest="urls",
            help="a web process; give several to spread the sockets (the seats of one table "
            "then sit on different processes, so every move crosses Redis)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--think",
            type=float,
            default=1.0,
            help="mean seconds a player thinks before moving (0: as fast as the server allows)",
        )
        parser.add_argument("--mode", choices=["json", "html"], default="json", help="what the sockets read")
        parser.add_argument("--spectators", type=int, default=0, help="signed-in watchers per table")
        parser.add_argument("--idle", action="store_true", help="open every socket, make no move")
        parser.add_argument(
            "--presence",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="--mode html: each player's page also holds its presence socket, as a browser's does "
            "(opened at the table's page, it is sent no 'your turn' for that table)",
        )
        parser.add_argument(
            "--latencies",
            metavar="FILE",
            help="write each move's seconds since the start and its latency to both seats (ms), a line each",
        )

    def handle(
        self,
        *args: Any,
        tables: int,
        seconds: float,
        urls: list[str],
        seed: int,
        think: float,
        mode: str,
        spectators: int,
        idle: bool,
        latencies: str | None = None,
        presence: bool = True,
        **options: Any,
    ) -> None:
        urls = [u.rstrip("/") for u in (urls or ["http://127.0.0.1:8000"])]
        run = f"{int(time.time())}-{os.getpid()}"
        setup = create_tables(tables, run, spectators)
        sockets = tables * (2 + spectators)
        with_presence = presence and mode == "html"
        self.stdout.write(
            f"{tables} Durak tables ready ({sockets} {mode} sockets"
            f"{f' and {2 * tables} presence sockets' if with_presence else ''}); "
            f"{'idling' if idle else 'playing'} for {seconds:.0f} s against {', '.join(urls)}"
        )
        stats = [TableStats() for _ in setup]
        pushes = [PresenceStats() for _ in range(2 * tables)] if with_presence else []  # by table, then seat
        rng = random.Random(seed)
        # a table's sockets are spread over the URLs in turn, so its seats sit on different processes
        placed = [
            (t, i, urls[(t + i) % len(urls)], cookie)
            for t, s in enumerate(setup)
            for i, cookie in enumerate(s.players + s.spectators)
        ]
        connections.close_all()  # the watchers' process is forked: it must not share this connection
        watchers = (
            WatchersProcess([Watching(url, setup[t].table_id, c) for t, i, url, c in placed if i >= 2], seconds, mode)
            if spectators
            else None
        )
        meter = CpuMeter(
            urls, {os.getpid()} | ({watchers.process.pid} if watchers and watchers.process.pid is not None else set())
        )

        async def main() -> None:
            ready = asyncio.Barrier(2 * tables + 1)
            go = asyncio.Event()
            # sockets open a few at a time: on a busy host a burst of handshakes outlasts daphne's connect timeout
            gate = asyncio.Semaphore(16)
            deadline = [0.0]
            tasks = [
                asyncio.ensure_future(
                    socket(
                        url,
                        setup[t].table_id,
                        i,
                        cookie,
                        stats[t],
                        gate,
                        ready,
                        go,
                        deadline,
                        random.Random(rng.random()),
                        -1 if idle else think,
                        mode,
                    )
                )
                for t, i, url, cookie in placed
                if i < 2
            ]
            await asyncio.wait_for(ready.wait(), timeout=300)
            pages = (
                await asyncio.gather(
                    *(presence_open(url, setup[t].table_id, cookie, gate) for t, i, url, cookie in placed if i < 2)
                )
                if with_presence
                else []
            )
            if watchers:
                await asyncio.to_thread(watchers.wait_ready)
            await asyncio.to_thread(meter.start)  # reads the database: not on the event loop
            start = time.monotonic()
            deadline[0] = start + seconds
            # the measuring client itself must not pause: a full collection of its thousands of sockets'
            # objects would count as the server's latency
            gc.disable()
            if watchers:
                watchers.start()
            go.set()
            # a mark for profilers started alongside: from here on no socket connects
            self.stdout.write(f"every socket open; measuring {seconds:.0f} s", ending="\n")
            self.stdout.flush()
            readers = [
                asyncio.ensure_future(presence_read(ws, pst, deadline[0]))
                for ws, pst in zip(pages, pushes, strict=True)
            ]
            await asyncio.sleep(seconds)
            await asyncio.to_thread(meter.stop)
            gc.enable()
            await asyncio.gather(*tasks, *readers)

        try:
            asyncio.run(main())
            watched = watchers.collect() if watchers else []
        finally:
            # left behind, the tables' turn timers would later play them (timeouts, stand-in bots)
            # and load the next measurement
            remove_tables(run)
        self.report(meter, stats, watched, spectators, idle, mode, think, sockets, latencies)
        if with_presence:
            self.report_presence(stats, pushes, meter.elapsed)

    def report_presence(self, stats: list[TableStats], pushes: list[PresenceStats], elapsed: float) -> None:
        latencies = [
            x for t, st in enumerate(stats) for p in pushes[2 * t : 2 * t + 2] for x in turn_push_latencies(st, p.turns)
        ]
        line = f"presence: {len(pushes)} sockets, {sum(len(p.turns) for p in pushes)} 'your turn' pushes"
        if latencies:
            line += (
                f" ({len(latencies) / elapsed:.1f}/s); from the table's last click: "
                f"p50={statistics.median(latencies) * 1000:.1f} ms p99={percentile(latencies, 0.99):.1f} ms"
            )
        self.stdout.write(line)

    def report(
        self,
        meter: CpuMeter,
        stats: list[TableStats],
        watched: list[tuple[list[tuple[float, int]], int, int]],
        spectators: int,
        idle: bool,
        mode: str,
        think: float,
        sockets: int,
        latencies: str | None,
    ) -> None:
        used = meter.used
        # clicks sent, less those the server refused (an illegal pick, a stale form)
        moves = sum(st.moves - st.refused for st in stats)
        cpu = ", ".join(
            f"{name} {sec:.1f} s = {100 * sec / meter.elapsed:.1f}% of a core"
            + (f" = {1000 * sec / moves:.2f} ms/move" if moves else "")
            for name, sec in used.items()
        )
        procs = ", ".join(f"{name} x{len(pids)}" for name, pids in meter.groups.items())
        self.stdout.write(f"CPU over {meter.elapsed:.0f} s ({procs}): {cpu}")
        frames = sum(st.frames for st in stats) + sum(f for _, f, _ in watched)
        size = (sum(st.bytes for st in stats) + sum(b for _, _, b in watched)) / frames if frames else 0
        if idle:
            self.stdout.write(f"idle: {sockets} sockets, {frames} frames received")
            return
        seat_lat = [x for st in stats for x in st.seat_latencies]
        if latencies:
            pairs = (zip(st.seat_times, st.seat_latencies, strict=True) for st in stats)
            timed = sorted((t - meter.began, x) for each in pairs for t, x in each)
            with open(latencies, "w") as out:
                out.write(f"# began {time.time() - (time.monotonic() - meter.began):.3f} (Unix time)\n")
                out.writelines(f"{t:.3f} {x * 1000:.1f}\n" for t, x in timed)
        if not seat_lat:
            self.stdout.write("no move completed")
            return
        line = (
            f"mode={mode} tables={len(stats)} spectators={spectators} think={think}s moves={moves} "
            f"moves/s={moves / meter.elapsed:.1f} refused={sum(st.refused for st in stats)} "
            f"frame={size / 1024:.1f} KiB; move sent -> both seats: p50={statistics.median(seat_lat) * 1000:.1f} ms "
            f"p99={percentile(seat_lat, 0.99):.1f} ms"
        )
        if spectators:
            seen = [seen for seen, _, _ in watched]
            all_lat = [
                x
                for t, st in enumerate(stats)
                for x in every_socket_latencies(st, seen[t * spectators : (t + 1) * spectators])
            ]
            line += (
                f"; -> every socket ({len(all_lat)} moves): p50={statistics.median(all_lat) * 1000:.1f} ms "
                f"p99={percentile(all_lat, 0.99):.1f} ms"
                if all_lat
                else "; no move reached every socket"
            )
        self.stdout.write(line)
        why = sum((st.why for st in stats), collections.Counter())
        if why:
            self.stdout.write("refusals: " + "; ".join(f"{n}x {text}" for text, n in why.most_common(4)))
