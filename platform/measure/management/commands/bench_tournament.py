"""Benchmark: seat 1,000 players, then run a 200-player Durak event with bots through a real Celery worker.

    python manage.py bench_tournament --players 200 --table-size 4 --rounds 3 --concurrency 2 [--game durak]

Creates an organizer and ``--players`` players in the configured database,
registers them, times the pure seating of ``--seat-players`` players (round 1
at random, then by standing with two rounds of history), starts a Celery
worker with embedded beat on the configured broker (``--no-worker`` uses one
already running), starts the event and marks every seated human away as each
round begins, so stand-in bots play every seat at once (the players of a
benchmark do not click). Rounds follow each other through the worker exactly
as in production: the last table's match ends, the worker seats the next round.
Prints the seating times, then per round its tables, games, moves and wall time.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.models import User
from games import GAMES
from tables.models import Game, Move, Seat
from tables.services import seat_set_away
from tournaments import seating, services
from tournaments.models import ORGANIZERS_GROUP, Board, Registration, Round, Tournament
from tournaments.selectors import standing_rows


def time_seating(players: int, size: int) -> tuple[float, float, int]:
    """(ms for a random round, ms for a round by standing with two rounds of history, repeats left)."""
    ids = list(range(1, players + 1))
    t0 = time.perf_counter()
    first = seating.seat_random(ids, size, "bots")
    t1 = time.perf_counter()
    second = seating.seat_random(ids, size, "bots")
    mates = seating.mates_of(first.tables + second.tables)
    ranking = ids[:]
    secrets.SystemRandom().shuffle(ranking)
    t2 = time.perf_counter()
    third = seating.seat_by_standing(ranking, size, mates, "bots")
    t3 = time.perf_counter()
    return (t1 - t0) * 1000, (t3 - t2) * 1000, seating.repeats(third.tables, mates)


class Command(BaseCommand):
    help = "Time seating 1,000 players and a 200-player event (Durak unless --game) with bots through the worker."

    def add_arguments(self, parser: CommandParser) -> None:
        # the registry's first game (Durak) unless told: the benchmark is a Durak event
        parser.add_argument("--game", choices=list(GAMES), default=next(iter(GAMES)))
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--table-size", type=int, default=4)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--seat-players", type=int, default=1000)
        parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
        parser.add_argument("--no-worker", action="store_true", help="use a worker that is already running")
        parser.add_argument("--timeout", type=float, default=1800.0, help="give up after this many seconds")

    def handle(self, *args: Any, **o: Any) -> None:
        out = self.stdout
        out.ending = "\n"
        random_ms, standing_ms, left = time_seating(o["seat_players"], o["table_size"])
        out.write(
            f"seating {o['seat_players']} players at tables of {o['table_size']}: "
            f"round 1 (random) {random_ms:.1f} ms, round 3 by standing {standing_ms:.1f} ms, {left} repeat pairs"
        )
        if settings.REDIS_EMBEDDED:
            from core.embedded import redis_alive, start_redis

            if not redis_alive(settings.REDIS_SOCKET):
                Path(settings.VAR_DIR).mkdir(parents=True, exist_ok=True)
                start_redis(settings.REDIS_SOCKET, persist=False, start_new_session=True)
        worker = None if o["no_worker"] else self._worker(o["concurrency"])
        try:
            self._event(o)
        finally:
            if worker is not None:
                worker.terminate()
                try:
                    worker.wait(30)
                except subprocess.TimeoutExpired:
                    worker.kill()

    def _worker(self, concurrency: int) -> subprocess.Popen:
        from config.celery import app
        from core.selectors import celery_workers

        app.control.purge()
        var = Path(settings.VAR_DIR)
        var.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, BOT_DELAY_SECONDS="0", BOT_STRONG_BUDGET="0.05")
        root = Path(__file__).resolve().parents[4]
        env["PYTHONPATH"] = os.pathsep.join([str(root / "platform"), str(root)])
        name = f"bench-{os.getpid()}@%h"
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-B", "-l", "WARNING"]
        command += ["--concurrency", str(concurrency), "-n", name, "-s", str(var / "bench-beat-schedule")]
        # its own output goes to stderr: sharing stdout would interleave with (or overwrite) the figures
        proc = subprocess.Popen(command, env=env, cwd=root, stdin=subprocess.DEVNULL, stdout=sys.stderr)
        deadline = time.monotonic() + 60
        while not celery_workers(timeout=0.5):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise CommandError("the Celery worker did not start")
        return proc

    def _event(self, o: dict[str, Any]) -> None:
        out = self.stdout
        run = secrets.token_hex(3)
        organizer = User.objects.create_user(f"bench-org-{run}", password=None)
        from django.contrib.auth.models import Group

        organizer.groups.add(Group.objects.get_or_create(name=ORGANIZERS_GROUP)[0])
        now = timezone.now()
        t = services.tournament_create(
            organizer=organizer,
            name=f"Benchmark {run}",
            game=o["game"],
            options={},
            match_options={},  # the game's defaults
            table_size=o["table_size"],
            format=Tournament.Format.SWISS,
            fill=Tournament.Fill.BOTS,
            advance=2,
            rounds=o["rounds"],
            games_per_round=1,
            turn_seconds=600,  # the humans never move: stand-ins play for them
            registration_opens=now - timedelta(minutes=1),
            registration_closes=now + timedelta(hours=1),
            starts_at=now + timedelta(hours=1),
            min_players=2,
            max_players=o["players"],
        )
        users = User.objects.bulk_create(
            User(username=f"bench-{run}-{i}", display_name=f"Bench {i}") for i in range(o["players"])
        )
        Registration.objects.bulk_create(Registration(tournament=t, user=u) for u in users)
        t0 = time.perf_counter()
        services.tournament_start(t.pk, early_by=organizer)
        out.write(
            f"round 1 seated and {Board.objects.filter(round__tournament=t).count()} tables started "
            f"in {(time.perf_counter() - t0) * 1000:.0f} ms"
        )
        start = time.monotonic()
        done_rounds: set[int] = set()
        away_rounds: set[int] = set()
        while True:
            if time.monotonic() - start > o["timeout"]:
                raise CommandError("timed out")
            t.refresh_from_db()
            current = t.current_round
            if current and current not in away_rounds:
                self._all_away(t, current)
                away_rounds.add(current)
            for rnd in Round.objects.filter(tournament=t, finished_at__isnull=False).exclude(number__in=done_rounds):
                done_rounds.add(rnd.number)
                self._report(t, rnd)
            if t.status == Tournament.Status.FINISHED and len(done_rounds) == t.current_round:
                break
            time.sleep(0.2)
        total = time.monotonic() - start
        moves = Move.objects.filter(game__table__board__round__tournament=t).count()
        out.write(
            f"event finished: {t.current_round} rounds, {moves} moves in {total:.1f} s ({moves / total:.0f} moves/s)"
        )
        t1 = time.perf_counter()
        rows = standing_rows(t)
        out.write(f"standings of {len(rows)} players read in {(time.perf_counter() - t1) * 1000:.0f} ms; top 3:")
        for row in rows[:3]:
            out.write(f"  {row.place}. {row.name} {row.points} (mates {row.mates}, won {row.won}, fool {row.fools})")

    def _all_away(self, t: Tournament, number: int) -> None:
        seats = Seat.objects.filter(table__board__round__tournament=t, table__board__round__number=number)
        for table_id, user in seats.filter(user__isnull=False).select_related("user").values_list("table_id", "user"):
            seat_set_away(table_id, User(pk=user), True)

    def _report(self, t: Tournament, rnd: Round) -> None:
        games = Game.objects.filter(table__board__round=rnd)
        moves = Move.objects.filter(game__table__board__round=rnd).count()
        if rnd.started_at is None or rnd.finished_at is None:
            raise CommandError(f"round {rnd.number} has not run to its end")
        wall = (rnd.finished_at - rnd.started_at).total_seconds()
        self.stdout.write(
            f"round {rnd.number}: {rnd.boards.count()} tables, {games.count()} games, {moves} moves, "
            f"{wall:.1f} s from seating to the last table's end ({moves / max(wall, 0.001):.0f} moves/s)"
        )
