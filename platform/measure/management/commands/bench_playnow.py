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

Against a running platform (``--url``, once per web process: ``runplatform --web 2`` listens on PORT and PORT+1)
each player clicks "Play now" as his browser would: a signed-in htmx POST of the Play page's form (his session
forged, ``measure.sessions``), the web processes taken in turn; the ``HX-Redirect`` to a table is the completing
join's answer, sent once the table has started. The platform's CPU over the run (web processes, worker,
PostgreSQL, this client) is printed per join: on a shared machine it says more than the latencies. Run it with
the platform's environment (the same ``DATABASE_URL``, ``REDIS_URL`` and ``REDIS_PREFIX``), e.g.

    python manage.py bench_playnow --players 1000 --seconds 10 --threads 64 \
        --url http://127.0.0.1:8000 --url http://127.0.0.1:8001
"""

from __future__ import annotations

import os
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import IntegrityError, connection, transaction

from accounts.models import User
from games import GAMES, get_game
from lobbies.forms import SeekForm
from lobbies.models import Seek, SeekQueue
from lobbies.services import seek_join
from measure.management.commands.loadtest import CpuMeter
from measure.sessions import session_cookie_for
from moderation.selectors import standing
from tables.models import Seat, Table


def _queues() -> tuple[tuple[str, int], ...]:
    """Four queues from the registry: the first game at its three smallest seat counts, the last at its fewest."""
    first, last = get_game(next(iter(GAMES))), get_game(list(GAMES)[-1])
    return (*((first.name, n) for n in first.seat_counts()[:3]), (last.name, last.min_seats))


QUEUES = _queues()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """The join's answer is its redirect (to the table, or back to the Play page): not followed, not timed."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def _form(game: str, seats: int) -> dict[str, str]:
    """The Play page's "Play now" form as a browser posts it: the game's defaults, these seats, unrated, no bots."""
    form = SeekForm(get_game(game))
    data = {name: field.initial for name, field in form.fields.items() if field.initial not in (None, False, "")}
    data = {name: "on" if value is True else str(value) for name, value in data.items()}
    data.pop("rated", None)
    return {"game": game, **data, "seats": str(seats), "bots_after": ""}


def _click_play_now(url: str, cookie: str, form: dict[str, str]) -> int | None:
    """POST the form signed in, as the Play page's htmx does; the table he was seated at (htmx is sent there by
    ``HX-Redirect``), or None (he waits: the answer is the queues' part of the page)."""
    csrf = secrets.token_hex(16)  # an unmasked secret of the cookie's length is a valid token
    body = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": csrf}).encode()
    headers = {"Cookie": f"{cookie}; csrftoken={csrf}", "HX-Request": "true"}
    request = urllib.request.Request(f"{url}/play/now/", data=body, headers=headers, method="POST")
    try:
        with _opener.open(request, timeout=60) as response:
            response.read()
            found = re.search(r"/tables/(\d+)/", response.headers.get("HX-Redirect", ""))
            if found:
                return int(found.group(1))
            if response.status != 200:
                raise RuntimeError(f"Play now answered {response.status}")
            return None
    except urllib.error.HTTPError as answer:  # a redirect: a platform answering the plain form (before htmx)
        if answer.code not in (301, 302, 303):
            raise RuntimeError(f"Play now answered {answer.code}") from None
        found = re.search(r"/tables/(\d+)/", answer.headers.get("Location", ""))
        return int(found.group(1)) if found else None


def _loadavg() -> str:
    """The 1, 5 and 15 minute load averages (the machine may be shared: the figures mean little without it)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class Command(BaseCommand):
    help = "Times N players joining four Play now queues within a few seconds; checks nobody sits twice."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--seconds", type=float, default=10.0)
        parser.add_argument("--threads", type=int, default=16)
        parser.add_argument(
            "--url", action="append", default=[], help="a running platform's web process (repeat for each)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count, seconds = options["players"], options["seconds"]
        prefix = f"pnb{secrets.token_hex(3)}"
        User.objects.bulk_create(
            User(username=f"{prefix}{i}", display_name=f"{prefix}{i}", password="!") for i in range(count)
        )
        players = list(User.objects.filter(username__startswith=prefix).order_by("pk"))
        for player in players:
            standing(player.pk)  # cached per player, as the Play page he has open read it; not timed
        urls = [u.rstrip("/") for u in options["url"]]
        cookies = [session_cookie_for(p) for p in players] if urls else []
        forms = {(game, seats): _form(game, seats) for game, seats in QUEUES}
        # per player: when his click went out and when its answer came (wall clock: tables made without a click's
        # answer, by a later pairing, are dated by the database), and the table the answer sent him to
        results: list[tuple[float, float, int | None]] = [(0.0, 0.0, None)] * count
        errors: Counter[str] = Counter()
        load_before = _loadavg()
        # the platform's CPU (web, worker, PostgreSQL, this client), robust to a shared machine's load as the
        # latencies are not
        meter = CpuMeter(urls, {os.getpid()}) if urls else None
        if meter is not None:
            meter.start()
        start = time.time() + 0.5

        def run(i: int) -> None:
            game, seats = QUEUES[i % len(QUEUES)]
            time.sleep(max(0.0, start + i * seconds / count - time.time()))
            began = time.time()
            try:
                if urls:
                    table_id = _click_play_now(urls[i % len(urls)], cookies[i], forms[game, seats])
                else:
                    table = seek_join(user=players[i], game=game, seats=seats, rated=False)
                    table_id = table.pk if table is not None else None
                results[i] = (began, time.time(), table_id)
            except (RuntimeError, OSError) as exc:  # a refused or failed click: counted, not fatal
                errors[str(exc)] += 1
                results[i] = (began, time.time(), None)
            finally:
                connection.close()

        with ThreadPoolExecutor(options["threads"]) as pool:
            list(pool.map(run, range(count)))
        if meter is not None:
            meter.stop()
        load_after = _loadavg()
        wall = max(end for _, end, _ in results) - start
        late = max(began - (start + i * seconds / count) for i, (began, _, _) in enumerate(results))
        joins = [end - began for began, end, _ in results]
        ids = [p.pk for p in players]
        index = {p.pk: i for i, p in enumerate(players)}
        seats_of = Seat.objects.filter(user_id__in=ids).values_list("user_id", "table_id", "table__created_at")
        seated = Counter(user for user, _table, _at in seats_of)
        groups: dict[int, list[int]] = {}
        made_at: dict[int, float] = {}
        for user, table_id, created in seats_of:
            groups.setdefault(table_id, []).append(index[user])
            made_at[table_id] = created.timestamp()
        answered = {table: end for _, end, table in results if table is not None}
        # a table's players are seated when the click that made it was answered (after its commit); the queue had
        # filled for them when the last of them clicked. A table no click was answered with (a later pairing made
        # it) is dated by its row.
        latency: list[float] = []
        for table_id, members in groups.items():
            filled = max(results[i][0] for i in members)
            seated_at = answered.get(table_id, made_at[table_id])
            latency += [max(0.0, seated_at - filled)] * len(members)
        by_sweep = sum(1 for table_id in groups if table_id not in answered)
        waiting = Seek.objects.filter(user_id__in=ids).count()
        tables = Table.objects.filter(pk__in=list(groups))
        where = f"over HTTP to {' '.join(urls)}" if urls else "in this process"
        self.stdout.write(
            f"{count} players, {len(QUEUES)} queues, joins spread over {seconds:.0f} s, {options['threads']} threads, "
            f"{connection.vendor}, {where}; all answered {wall:.1f} s after the first click "
            f"(clicks sent up to {late * 1000:.0f} ms late)"
        )
        self.stdout.write(
            f"join p50 {_quantile(joins, 0.5) * 1000:.0f} ms  p99 {_quantile(joins, 0.99) * 1000:.0f} ms  "
            f"max {max(joins) * 1000:.0f} ms"
        )
        self.stdout.write(
            f"seat latency (queue filled -> seated, per player): p50 {_quantile(latency, 0.5) * 1000:.0f} ms  "
            f"p99 {_quantile(latency, 0.99) * 1000:.0f} ms  max {max(latency, default=0) * 1000:.0f} ms  "
            f"over 1 s: {sum(1 for x in latency if x > 1.0)}"
        )
        twice = sum(1 for n in seated.values() if n > 1)
        self.stdout.write(
            f"tables {len(groups)} ({by_sweep} made by a later pairing, not a click), seated {len(seated)}, "
            f"still waiting {waiting}, seated twice {twice}"
        )
        for error, n in errors.most_common():
            self.stdout.write(f"failed clicks: {n} x {error}")
        if meter is not None:
            cpu = "  ".join(
                f"{name} {sec:.1f} s = {1000 * sec / count:.1f} ms/join" for name, sec in meter.used.items()
            )
            self.stdout.write(f"CPU over {meter.elapsed:.1f} s: {cpu}")
        self.stdout.write(f"machine: {os.cpu_count()} cores, load average before {load_before}, after {load_after}")
        self.stdout.flush()
        for attempt in range(5):
            # a running platform's worker may still be timing out a turn at these tables: it is tried again
            try:
                with transaction.atomic():
                    tables.delete()
                    SeekQueue.objects.filter(seeks__isnull=True).delete()
                    User.objects.filter(pk__in=ids).delete()
                break
            except IntegrityError:
                if attempt == 4:
                    self.stderr.write(f"could not delete the throw-away players ({prefix}*): delete them later")
