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
ticked cards), sending the form's fields as the extension does.
``--idle`` connects everything and makes no move: what open table pages cost.

The CPU per move of the web processes (daphne on the URLs' ports), the Celery
worker started by ``runplatform`` on the first URL's port, and this database's
PostgreSQL backends is read from /proc over the playing window.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import html
import json
import os
import random
import re
import statistics
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlparse

from django.core.management.base import BaseCommand
from django.db import OperationalError, connection
from websockets.asyncio.client import connect

from accounts.models import User
from accounts.services import session_cookie_for
from games import GAMES
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
        except OperationalError:  # a deadlock with a last move still being applied: try again
            if attempt == 4:
                raise


@dataclass
class TableStats:
    sockets: int  # how many sockets must hold a move for it to count as "everywhere"
    seats: int = 2
    sent: dict[int, float] = field(default_factory=dict)  # move number -> when the move that made it was sent
    seen_seats: dict[int, int] = field(default_factory=dict)
    seen_all: dict[int, int] = field(default_factory=dict)
    seat_latencies: list[float] = field(default_factory=list)
    #: when each of ``seat_latencies`` was measured (monotonic clock)
    seat_times: list[float] = field(default_factory=list)
    all_latencies: list[float] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    why: collections.Counter = field(default_factory=collections.Counter)  # refusals by message
    frames: int = 0
    bytes: int = 0

    def sending(self, move: int) -> None:
        self.sent[move] = time.monotonic()
        self.seen_seats[move] = self.seen_all[move] = 0
        self.moves += 1

    def received(self, move: int, seated: bool) -> None:
        if move not in self.sent:
            if self.sent and move < min(self.sent):
                # a new game began: the move that ended the last one is not measured
                self.sent.clear()
                self.seen_seats.clear()
                self.seen_all.clear()
            return
        now = time.monotonic()
        if seated:
            self.seen_seats[move] += 1
            if self.seen_seats[move] == self.seats:
                self.seat_latencies.append(now - self.sent[move])
                self.seat_times.append(now)
        self.seen_all[move] += 1
        if self.seen_all[move] == self.sockets:
            self.all_latencies.append(now - self.sent.pop(move))
            del self.seen_seats[move], self.seen_all[move]


# -- what a browser reads: the fragments htmx swaps by id, and the play form's buttons ---------------
STATUS = re.compile(r'<div id="table-status"[^>]*\sdata-move="(\d+)"')
PLAY = re.compile(r'<section id="table-play".*?</section>', re.S)
MOVE_FIELD = re.compile(r'<input type="hidden" name="move" value="(\d+)"')
BUTTON = re.compile(r"<button([^>]*)\sws-send\s[^>]*?name=\"action\" value=(?:\"([^\"]*)\"|'([^']*)')")
CHECKBOX = re.compile(r'<input type="checkbox" name="cards" value="([^"]+)"')
SELECT = re.compile(r'<select name="(\w+)"[^>]*>\s*<option value="([^"]*)"')
BOARD = re.compile(r'<section id="table-board".*?</section>', re.S)
#: the cards of the bout on the board (a throw-in must match one of their ranks)
BOUT_CARD = re.compile(
    r'<div class="pair[^"]*"><span class="pcard[^"]*" data-card="(\w+)"'
    r'|<span class="cover"><span class="pcard[^"]*" data-card="(\w+)"'
)
ERROR = re.compile(r'<div id="table-error"[^>]*>([^<]+)</div>')


def offered_clicks(play: str, board: str, rng: random.Random) -> list[dict]:
    """Every click the play form offers now, as the frame htmx-ext-ws would send for it.

    A button's own name/value, the form's hidden move number and its selects'
    current (first) options; an action composed from ticked cards gets one
    of the hand ticked, preferring (as a player would) one whose rank is already
    in the bout on the board; a card the rules refuse gets an error back, and
    the player tries another click.
    """
    move = MOVE_FIELD.search(play)
    if move is None:
        return []
    base: dict = {"move": move.group(1)}
    for name, value in SELECT.findall(play):
        base[name] = html.unescape(value)
    cards = CHECKBOX.findall(play)
    ranks = {(a or c)[0] for a, c in BOUT_CARD.findall(board)}
    matching = [c for c in cards if c[0] in ranks]
    if matching:
        cards = matching
    clicks = []
    for attrs, dq, sq in BUTTON.findall(play):
        frame = {**base, "action": html.unescape(dq or sq)}
        if "compose" in attrs:
            for card in rng.sample(cards, min(len(cards), 3)):
                clicks.append({**frame, "cards": card})
        else:
            clicks.append(frame)
    rng.shuffle(clicks)
    return clicks


def with_headers(frame: dict, ws_url: str) -> str:
    # what htmx-ext-ws adds to every frame it sends
    headers = {"HX-Request": "true", "HX-Trigger": None, "HX-Trigger-Name": "action", "HX-Target": None}
    return json.dumps({**frame, "HEADERS": {**headers, "HX-Current-URL": ws_url}})


async def socket(
    url: str,
    table_id: int,
    cookie: str,
    stats: TableStats,
    gate: asyncio.Semaphore,
    ready: asyncio.Barrier,
    go: asyncio.Event,
    deadlines: list[float],
    rng: random.Random,
    think: float,
    mode: str,
    seated: bool,
) -> None:
    query = "?format=json" if mode == "json" else ""
    ws_url = url.replace("http", "ws", 1) + f"/ws/tables/{table_id}/{query}"
    async with gate:  # connect at a pace the servers accept
        ws = await connect(ws_url, origin=url, additional_headers={"Cookie": cookie}, open_timeout=60, max_size=2**22)
        first = await ws.recv()  # the state on opening: connected
    async with ws:
        await ready.wait()
        await go.wait()
        deadline = deadlines[0]
        backlog = [first]
        clicks: list[dict] = []
        board = ""
        while time.monotonic() < deadline:
            if backlog:
                raw = backlog.pop()
            else:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
                except TimeoutError:
                    break
            stats.frames += 1
            stats.bytes += len(raw)
            move: int | None = None
            if mode == "json":
                frame = json.loads(raw)
                if frame.get("type") == "error":
                    stats.refused += 1
                    stats.why[frame.get("code")] += 1
                elif frame.get("type") == "state" and frame.get("move") is not None:
                    move = frame["move"]
                    view = frame.get("view") or {}
                    mine = frame["seat"] in view.get("to_act", []) and not view.get("over")
                    clicks = [{"move": move, "action": a} for a in frame.get("legal") or []] if mine else []
                    rng.shuffle(clicks)
            else:
                status = STATUS.search(raw)
                if status is not None:
                    move = int(status.group(1))
                    if seated:  # a watcher has nothing to click: the client spends no time reading his forms
                        play, shown = PLAY.search(raw), BOARD.search(raw)
                        board = shown.group(0) if shown else board  # a fragment not sent is unchanged
                        clicks = offered_clicks(play.group(0), board, rng) if play else []
                elif error := ERROR.search(raw):
                    stats.refused += 1  # a refused click: try another of the same form
                    stats.why[error.group(1)[:40]] += 1
            if move is not None:
                stats.received(move, seated)
            elif not (mode == "json" and frame.get("type") == "error") and not (mode == "html" and ERROR.search(raw)):
                continue
            if not seated or not clicks or think < 0:
                continue
            if move is not None and think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            click = clicks.pop()
            stats.sending(int(click["move"]) + 1)
            if mode == "json":
                await ws.send(json.dumps(click))
            else:
                await ws.send(with_headers(click, ws_url))


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

    def __init__(self, urls: list[str]) -> None:
        self.urls = urls
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

    def add_arguments(self, parser) -> None:
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
            "--latencies",
            metavar="FILE",
            help="write each move's seconds since the start and its latency to both seats (ms), a line each",
        )

    def handle(
        self,
        *args,
        tables: int,
        seconds: float,
        urls: list[str],
        seed: int,
        think: float,
        mode: str,
        spectators: int,
        idle: bool,
        latencies: str | None = None,
        **options,
    ) -> None:
        urls = [u.rstrip("/") for u in (urls or ["http://127.0.0.1:8000"])]
        run = f"{int(time.time())}-{os.getpid()}"
        setup = create_tables(tables, run, spectators)
        sockets = tables * (2 + spectators)
        self.stdout.write(
            f"{tables} Durak tables ready ({sockets} {mode} sockets); "
            f"{'idling' if idle else 'playing'} for {seconds:.0f} s against {', '.join(urls)}"
        )
        stats = [TableStats(sockets=2 + spectators) for _ in setup]
        rng = random.Random(seed)
        meter = CpuMeter(urls)

        async def main() -> None:
            ready = asyncio.Barrier(sockets + 1)
            go = asyncio.Event()
            gate = asyncio.Semaphore(50)
            deadline = [0.0]
            tasks = [
                asyncio.ensure_future(
                    socket(
                        urls[(t + i) % len(urls)],
                        s.table_id,
                        cookie,
                        st,
                        gate,
                        ready,
                        go,
                        deadline,
                        random.Random(rng.random()),
                        -1 if idle else think,
                        mode,
                        seated=i < 2,
                    )
                )
                for t, (s, st) in enumerate(zip(setup, stats, strict=True))
                for i, cookie in enumerate(s.players + s.spectators)
            ]
            await asyncio.wait_for(ready.wait(), timeout=300)
            await asyncio.to_thread(meter.start)  # reads the database: not on the event loop
            start = time.monotonic()
            deadline[0] = start + seconds
            # the measuring client itself must not pause: a full collection of its thousands of sockets'
            # objects would count as the server's latency
            gc.disable()
            go.set()
            await asyncio.sleep(seconds)
            await asyncio.to_thread(meter.stop)
            gc.enable()
            await asyncio.gather(*tasks)

        try:
            asyncio.run(main())
        finally:
            # left behind, the tables' turn timers would later play them (timeouts, stand-in bots)
            # and load the next measurement
            remove_tables(run)
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
        frames = sum(st.frames for st in stats)
        size = sum(st.bytes for st in stats) / frames if frames else 0
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
        all_lat = [x for st in stats for x in st.all_latencies]
        if not seat_lat:
            self.stdout.write("no move completed")
            return
        line = (
            f"mode={mode} tables={tables} spectators={spectators} think={think}s moves={moves} "
            f"moves/s={moves / meter.elapsed:.1f} refused={sum(st.refused for st in stats)} "
            f"frame={size / 1024:.1f} KiB; move sent -> both seats: p50={statistics.median(seat_lat) * 1000:.1f} ms "
            f"p99={percentile(seat_lat, 0.99):.1f} ms"
        )
        if spectators:
            line += (
                f"; -> every socket: p50={statistics.median(all_lat) * 1000:.1f} ms "
                f"p99={percentile(all_lat, 0.99):.1f} ms"
            )
        self.stdout.write(line)
        why = sum((st.why for st in stats), collections.Counter())
        if why:
            self.stdout.write("refusals: " + "; ".join(f"{n}x {text}" for text, n in why.most_common(4)))
