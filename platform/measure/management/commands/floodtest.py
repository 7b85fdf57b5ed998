"""One user floods the platform with stale moves; measure an unrelated table's move latency.

    MEASURE_TOOLS=1 python manage.py floodtest --sockets 150 --seconds 20 --url http://127.0.0.1:8000

Against a running platform (same environment as the server, like ``loadtest``):
first the quiet baseline, then while one seated user opens ``--sockets`` sockets
to his own table, each sending a stale move at ``--rate`` frames per second (inside
the per-socket budget). Prints p50/p99 of the unrelated table's move latency
(move sent -> both seats have the new state) for both phases, and how many of
the flooder's sockets the server accepted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import time
from collections.abc import Callable, Coroutine
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

from measure.loadclient import TableStats, socket, table_ws_url
from measure.management.commands.loadtest import create_tables, remove_tables
from tables.models import Game
from tables.selectors import seat_view
from tables.services import table_apply_action


async def flooder(url: str, table_id: int, cookie: str, deadline: float, rate: float, counts: dict) -> None:
    ws_url = table_ws_url(url, table_id, "json")
    try:
        async with connect(ws_url, origin=Origin(url), additional_headers={"Cookie": cookie}, open_timeout=30) as ws:
            first = json.loads(await ws.recv())
            if first.get("type") != "state":
                counts["refused"] += 1
                return
            counts["open"] += 1

            async def drain() -> None:
                with contextlib.suppress(ConnectionClosed):
                    async for _ in ws:
                        counts["replies"] += 1

            reader = asyncio.create_task(drain())
            try:
                while time.monotonic() < deadline:
                    await ws.send(json.dumps({"move": 0, "action": {"type": "pass"}}))
                    counts["sent"] += 1
                    await asyncio.sleep(1 / rate)
            except ConnectionClosed:
                counts["closed"] += 1  # the server closed a socket that kept flooding
            reader.cancel()
    except (ConnectionClosed, InvalidHandshake):
        counts["refused"] += 1  # refused at once (over the socket cap)
    except (OSError, TimeoutError):
        counts["failed"] += 1


def percentiles(latencies: list[float]) -> str:
    if not latencies:
        return "no move completed"
    values = sorted(latencies)
    p50 = statistics.median(values) * 1000
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))] * 1000
    return f"moves={len(values)} p50={p50:.1f} ms p99={p99:.1f} ms"


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sockets", type=int, default=150)
        parser.add_argument("--rate", type=float, default=3.5, help="frames per second per flooding socket")
        parser.add_argument("--seconds", type=float, default=20)
        parser.add_argument("--think", type=float, default=0.2, help="the unrelated table's players' pause")
        parser.add_argument("--url", default="http://127.0.0.1:8000")

    def handle(
        self, *args: Any, sockets: int, rate: float, seconds: float, think: float, url: str, **options: Any
    ) -> None:
        url = url.rstrip("/")
        run = f"flood-{int(time.time())}-{os.getpid()}"
        try:
            quiet_table, flood_table = create_tables(2, run, spectators=0)
            # one move on the flooder's table, so the move 0 he keeps sending is stale
            game = Game.objects.get(table_id=flood_table.table_id)
            seat = seat_view(game, None)["view"]["to_act"][0]
            table_apply_action(game.pk, seat, 0, seat_view(game, seat)["legal"][0])
            quiet = self.measure(url, quiet_table.table_id, quiet_table.players, think, seconds)
            self.stdout.write(f"quiet:    {percentiles(quiet)}")
            counts = {"open": 0, "refused": 0, "closed": 0, "failed": 0, "sent": 0, "replies": 0}

            def floods(deadline: float) -> list[Coroutine[Any, Any, None]]:
                cookie = flood_table.players[0]
                return [flooder(url, flood_table.table_id, cookie, deadline, rate, counts) for _ in range(sockets)]

            flooded = self.measure(url, quiet_table.table_id, quiet_table.players, think, seconds, floods)
            self.stdout.write(f"flooded:  {percentiles(flooded)}")
        finally:
            remove_tables(run)  # left behind, their turn timers would play them later
        self.stdout.write(
            f"flooder: {sockets} sockets asked, {counts['open']} accepted ({counts['closed']} of them closed later "
            f"for flooding), {counts['refused']} refused, {counts['failed']} failed to connect; "
            f"{counts['sent']} frames sent, {counts['replies']} replies"
        )

    def measure(
        self,
        url: str,
        table_id: int,
        cookies: list[str],
        think: float,
        seconds: float,
        floods: Callable[[float], list[Coroutine[Any, Any, None]]] | None = None,
    ) -> list[float]:
        """The quiet table's players play for ``seconds`` (beside the floods, if any): their moves' latencies."""
        stats = TableStats()

        async def main() -> None:
            ready, go, gate = asyncio.Barrier(len(cookies) + 1), asyncio.Event(), asyncio.Semaphore(50)
            deadline = [0.0]
            players = [
                asyncio.ensure_future(
                    socket(url, table_id, s, cookie, stats, gate, ready, go, deadline, random.Random(s), think, "json")
                )
                for s, cookie in enumerate(cookies)
            ]
            await asyncio.wait_for(ready.wait(), timeout=60)
            deadline[0] = time.monotonic() + seconds
            go.set()
            await asyncio.gather(*players, *(floods(deadline[0]) if floods else []))

        asyncio.run(main())
        return stats.seat_latencies
