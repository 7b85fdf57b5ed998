"""One user floods the platform with stale moves; measure an unrelated table's move latency.

    python manage.py floodtest --sockets 150 --seconds 20 --url http://127.0.0.1:8000

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
import random
import statistics
import time

from django.core.management.base import BaseCommand
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tables.management.commands.loadtest import Table_, create_tables, player
from tables.management.loadclient import table_ws_url
from tables.models import Game
from tables.selectors import seat_view
from tables.services import table_apply_action


async def flooder(url: str, table_id: int, cookie: str, deadline: float, rate: float, counts: dict) -> None:
    ws_url = table_ws_url(url, table_id, "json")
    try:
        async with connect(ws_url, origin=url, additional_headers={"Cookie": cookie}, open_timeout=30) as ws:
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

    def add_arguments(self, parser) -> None:
        parser.add_argument("--sockets", type=int, default=150)
        parser.add_argument("--rate", type=float, default=3.5, help="frames per second per flooding socket")
        parser.add_argument("--seconds", type=float, default=20)
        parser.add_argument("--think", type=float, default=0.2, help="the unrelated table's players' pause")
        parser.add_argument("--url", default="http://127.0.0.1:8000")

    def handle(self, *args, sockets: int, rate: float, seconds: float, think: float, url: str, **options) -> None:
        url = url.rstrip("/")
        run = str(int(time.time()))
        (quiet_id, quiet_cookies), (flood_id, flood_cookies) = create_tables(2, f"flood-{run}")
        # one move on the flooder's table, so the move 0 he keeps sending is stale
        game = Game.objects.get(table_id=flood_id)
        seat = seat_view(game, None)["view"]["to_act"][0]
        table_apply_action(game.pk, seat, 0, seat_view(game, seat)["legal"][0])

        async def measure(flood: bool) -> tuple[list[float], dict]:
            stats, counts = Table_(), {"open": 0, "refused": 0, "closed": 0, "failed": 0, "sent": 0, "replies": 0}
            deadline = time.monotonic() + seconds
            players = [
                player(url, quiet_id, cookie, stats, deadline, random.Random(s), think)
                for s, cookie in enumerate(quiet_cookies)
            ]
            floods = [
                flooder(url, flood_id, flood_cookies[0], deadline, rate, counts) for _ in range(sockets if flood else 0)
            ]
            await asyncio.gather(*players, *floods)
            return stats.latencies, counts

        quiet, _ = asyncio.run(measure(False))
        self.stdout.write(f"quiet:    {percentiles(quiet)}")
        flooded, counts = asyncio.run(measure(True))
        self.stdout.write(f"flooded:  {percentiles(flooded)}")
        self.stdout.write(
            f"flooder: {sockets} sockets asked, {counts['open']} accepted ({counts['closed']} of them closed later "
            f"for flooding), {counts['refused']} refused, {counts['failed']} failed to connect; "
            f"{counts['sent']} frames sent, {counts['replies']} replies"
        )
