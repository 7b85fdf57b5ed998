"""Benchmark: many players clicking "Play now" within a few seconds, through the queue's service.

    python manage.py bench_playnow --players 1000 --seconds 10 --threads 16

Creates ``--players`` throw-away players and has them join four unrated queues (the first registered game at its
three smallest seat counts, the last at its fewest), one every ``seconds / players`` seconds, from ``--threads``
threads with their own database connections (as several web processes would: on PostgreSQL the queue's row lock
decides). A table is made inside the join that completes its group, so "seated after the queue filled" is that
join's time from its start to its commit; the notifications that send the players' pages there go out after that
commit (not timed here). Prints the joins' and the completing joins' p50/p99/max, the tables made, who is still
waiting, and how many players sit twice (must be 0). Everything it creates is deleted at the end. Run it with the
platform's environment (``DATABASE_URL``); on SQLite the joins are serialized by the database's write lock.
"""

from __future__ import annotations

import secrets
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from accounts.models import User
from games import GAMES, get_game
from lobbies.models import Seek, SeekQueue
from lobbies.services import seek_join
from tables.models import Seat, Table


def _queues() -> tuple[tuple[str, int], ...]:
    """Four queues from the registry: the first game at its three smallest seat counts, the last at its fewest."""
    first, last = get_game(next(iter(GAMES))), get_game(list(GAMES)[-1])
    return (*((first.name, n) for n in first.seat_counts()[:3]), (last.name, last.min_seats))


QUEUES = _queues()


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class Command(BaseCommand):
    help = "Times N players joining four Play now queues within a few seconds; checks nobody sits twice."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--seconds", type=float, default=10.0)
        parser.add_argument("--threads", type=int, default=16)

    def handle(self, *args: Any, **options: Any) -> None:
        count, seconds = options["players"], options["seconds"]
        prefix = f"pnb{secrets.token_hex(3)}"
        User.objects.bulk_create(
            User(username=f"{prefix}{i}", display_name=f"{prefix}{i}", password="!") for i in range(count)
        )
        players = list(User.objects.filter(username__startswith=prefix).order_by("pk"))
        results: list[tuple[float, float, int | None]] = [(0.0, 0.0, None)] * count
        start = time.perf_counter() + 0.5

        def run(i: int) -> None:
            game, seats = QUEUES[i % len(QUEUES)]
            time.sleep(max(0.0, start + i * seconds / count - time.perf_counter()))
            began = time.perf_counter()
            try:
                table = seek_join(user=players[i], game=game, seats=seats, rated=False)
                results[i] = (began, time.perf_counter(), table.pk if table is not None else None)
            finally:
                connection.close()

        with ThreadPoolExecutor(options["threads"]) as pool:
            list(pool.map(run, range(count)))
        wall = max(end for _, end, _ in results) - start
        joins = [end - began for began, end, _ in results]
        completing = [end - began for began, end, table in results if table is not None]
        ids = [p.pk for p in players]
        seated = Counter(Seat.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
        waiting = Seek.objects.filter(user_id__in=ids).count()
        tables = Table.objects.filter(seats__user_id__in=ids).distinct()
        self.stdout.write(
            f"{count} players, {len(QUEUES)} queues, joins spread over {seconds:.0f} s, {options['threads']} threads, "
            f"{connection.vendor}; all done {wall:.1f} s after the first"
        )
        self.stdout.write(
            f"join p50 {_quantile(joins, 0.5) * 1000:.0f} ms  p99 {_quantile(joins, 0.99) * 1000:.0f} ms  "
            f"max {max(joins) * 1000:.0f} ms"
        )
        self.stdout.write(
            f"seated after the queue filled (the completing join): p50 {_quantile(completing, 0.5) * 1000:.0f} ms  "
            f"p99 {_quantile(completing, 0.99) * 1000:.0f} ms  max {max(completing, default=0) * 1000:.0f} ms"
        )
        twice = sum(1 for n in seated.values() if n > 1)
        self.stdout.write(
            f"tables {tables.count()}, seated {len(seated)}, still waiting {waiting}, seated twice {twice}"
        )
        Table.objects.filter(pk__in=list(tables.values_list("pk", flat=True))).delete()
        SeekQueue.objects.filter(seeks__isnull=True).delete()
        User.objects.filter(pk__in=ids).delete()
