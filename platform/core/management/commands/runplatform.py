"""``make run``: migrate, ensure the demo player and bots, start everything, stop on Ctrl-C."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from core.launcher import Launcher


class Command(BaseCommand):
    help = "Run daphne, a Celery worker, Celery beat and (without REDIS_URL) an embedded Redis."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes")
        parser.add_argument("--web", type=int, default=1, help="daphne processes, on PORT, PORT+1, ...")

    def handle(self, *args: Any, host: str, port: int, concurrency: int, web: int, **options: Any) -> None:
        launcher = Launcher(host, port, concurrency, out=self.stdout, web=web)

        def ready() -> None:
            self.stdout.write(self.style.SUCCESS(f"\n  The platform is running at http://{host}:{port}/"))
            self.stdout.write(f"  {login}   (Ctrl-C stops everything)\n")
            self.stdout.flush()

        Path(settings.VAR_DIR).mkdir(parents=True, exist_ok=True)  # SQLite, Redis socket, mail
        call_command("migrate", interactive=False, verbosity=0)
        # by name: the demo player and the bots are the accounts app's, which sits above core
        out = io.StringIO()
        call_command("bootstrap", stdout=out)
        login = out.getvalue().splitlines()[0]
        raise SystemExit(launcher.run(ready))
