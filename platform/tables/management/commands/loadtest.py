"""Drive K live Durak tables with scripted WebSocket players against a running platform.

    python manage.py loadtest --tables 50 --seconds 60 --think 1 --url http://127.0.0.1:8000

Creates 2·K players and K started two-seat Durak tables in the platform's
database (so run it with the same environment as the server), logs each
player in with a real session, then every player connects with the
``websockets`` library and plays random legal moves. Prints moves per second
and the move-to-every-seat latency: from sending a move to the moment the last
seat of that table has received the new state. ``--think`` is each player's
mean pause before a move (a human takes seconds); 0 drives the server flat out.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time

from django.core.management.base import BaseCommand
from websockets.asyncio.client import connect

from accounts.models import User
from accounts.services import session_cookie_for
from games import GAMES
from tables.models import Seat, Table
from tables.services import match_start

#: the game the load test plays: the first registered one (its bots and move shapes are all it needs)
LOAD_GAME = next(iter(GAMES))


def create_tables(count: int, run: str) -> list[tuple[int, list[str]]]:
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
        tables.append((table.pk, [session_cookie_for(u) for u in users]))
    return tables


class Table_:
    def __init__(self) -> None:
        self.sent: dict[int, float] = {}  # move number -> when the move that made it was sent
        self.seen: dict[int, int] = {}  # move number -> how many seats have received it
        self.latencies: list[float] = []
        self.moves = 0


async def player(
    url: str, table_id: int, cookie: str, stats: Table_, deadline: float, rng: random.Random, think: float
) -> None:
    ws_url = url.replace("http", "ws", 1) + f"/ws/tables/{table_id}/?format=json"
    async with connect(
        ws_url, origin=url, additional_headers={"Cookie": cookie}, open_timeout=30, max_size=2**22
    ) as ws:
        while time.monotonic() < deadline:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic())))
            except TimeoutError:
                break
            if frame.get("type") != "state":
                continue
            move = frame["move"]
            stats.seen[move] = stats.seen.get(move, 0) + 1
            if stats.seen[move] == 2 and move in stats.sent:
                stats.latencies.append(time.monotonic() - stats.sent.pop(move))
            view = frame.get("view") or {}
            if frame["seat"] in view.get("to_act", []) and frame.get("legal") and not view.get("over"):
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                stats.sent[move + 1] = time.monotonic()
                stats.moves += 1
                await ws.send(json.dumps({"move": move, "action": rng.choice(frame["legal"])}))


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tables", type=int, default=50)
        parser.add_argument("--seconds", type=float, default=60)
        parser.add_argument(
            "--url",
            action="append",
            dest="urls",
            help="a web process; give several to spread the players (the seats of one table "
            "then sit on different processes, so every move crosses Redis)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--think",
            type=float,
            default=1.0,
            help="mean seconds a player thinks before moving (0: as fast as the server allows)",
        )

    def handle(self, *args, tables: int, seconds: float, urls: list[str], seed: int, think: float, **options) -> None:
        urls = urls or ["http://127.0.0.1:8000"]
        run = str(int(time.time()))
        setup = create_tables(tables, run)
        self.stdout.write(f"{tables} Durak tables ready; playing for {seconds:.0f} s against {', '.join(urls)}")
        stats = [Table_() for _ in setup]
        rng = random.Random(seed)

        async def main() -> float:
            deadline = time.monotonic() + seconds
            start = time.monotonic()
            await asyncio.gather(
                *(
                    player(
                        urls[(t + s) % len(urls)].rstrip("/"),
                        table_id,
                        cookie,
                        st,
                        deadline,
                        random.Random(rng.random()),
                        think,
                    )
                    for t, ((table_id, cookies), st) in enumerate(zip(setup, stats, strict=True))
                    for s, cookie in enumerate(cookies)
                )
            )
            return time.monotonic() - start

        elapsed = asyncio.run(main())
        latencies = sorted(x for st in stats for x in st.latencies)
        moves = sum(st.moves for st in stats)
        if not latencies:
            self.stdout.write("no move completed")
            return
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
        self.stdout.write(
            f"tables={tables} think={think}s moves={moves} moves/s={moves / elapsed:.1f} "
            f"latency p50={p50:.1f} ms p99={p99:.1f} ms (move sent -> both seats have the new state)"
        )
