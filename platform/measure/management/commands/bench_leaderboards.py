"""Time the leaderboard, season and profile pages over 1,000 players and 10,000 games.

The fixtures go into a throwaway database (the test database Django would
create for this one, created and destroyed here), never the current one.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from measure.benchdata import build


class Command(BaseCommand):
    help = "Build 1,000 players and 10,000 rated games in a throwaway database and print page render times."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--games", type=int, default=10_000)
        parser.add_argument("--repeat", type=int, default=10)

    def handle(self, *args: Any, **options: Any) -> None:
        old_name = connection.settings_dict["NAME"]
        if connection.vendor == "sqlite":  # a file like the real database, not an in-memory one
            connection.settings_dict.setdefault("TEST", {})["NAME"] = str(settings.VAR_DIR / "bench-db.sqlite3")
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            # the database session backend and plain static files: the bench needs neither Redis nor collectstatic
            with override_settings(
                SESSION_ENGINE="django.contrib.sessions.backends.db",
                ALLOWED_HOSTS=["testserver"],
                SECURE_SSL_REDIRECT=False,
                STORAGES={
                    **settings.STORAGES,
                    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
                },
            ):
                self._bench(options["players"], options["games"], options["repeat"])
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def _bench(self, players: int, games: int, repeat: int) -> None:
        started = time.perf_counter()
        users = build(players, games)
        self.stdout.write(f"fixtures: {players} players, {games} games in {time.perf_counter() - started:.1f} s")
        client = Client()
        client.force_login(users[len(users) // 2])  # someone in the middle: "your position" beyond the top 100
        pages = {
            "leaderboard durak, all time": "/leaderboards/durak/",
            "leaderboard verish, last 7 days": "/leaderboards/verish/?period=week",
            "biznes season, this month": "/leaderboards/biznes/seasons/",
            "profile": f"/u/{users[0].username}/",
        }
        for label, url in pages.items():
            assert client.get(url).status_code == 200, url  # warm up
            times = []
            for _ in range(repeat):
                with CaptureQueriesContext(connection) as queries:
                    t0 = time.perf_counter()
                    response = client.get(url)
                    times.append((time.perf_counter() - t0) * 1000)
                assert response.status_code == 200
            self.stdout.write(
                f"{label:34} median {statistics.median(times):6.1f} ms  max {max(times):6.1f} ms  "
                f"{len(queries)} queries  ({url})"
            )
