"""Benchmark: what a plain HTTP request costs the web processes.

    python manage.py bench_requests --path /favicon.ico --requests 2000 --threads 8 \
        --url http://127.0.0.1:8000 --url http://127.0.0.1:8001

Sends ``--requests`` GETs of ``--path`` (a new connection each, as a browser's first visit; redirects are answers,
not followed), spread over the ``--url`` web processes, from ``--threads`` threads, and prints the web processes'
CPU per request (read from ``/proc``, so robust to a shared machine's load as the rate is not), the rate and the
answers' status codes. A small request's cost is nearly all the web process's own path: daphne, Django's handler,
the middleware chain. No user is made: the requests are a visitor's.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from measure.management.commands.loadtest import cpu_seconds, platform_processes


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def _get(url: str) -> int:
    try:
        with _opener.open(url, timeout=30) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as answer:  # a redirect or an error page: its status is the answer
        answer.read()
        return answer.code


class Command(BaseCommand):
    help = "Times N plain GETs against a running platform: web process CPU per request."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--path", default="/favicon.ico")
        parser.add_argument("--requests", type=int, default=2000)
        parser.add_argument("--threads", type=int, default=8)
        parser.add_argument("--url", action="append", required=True, help="a web process (repeat for each)")

    def handle(self, *args: Any, **options: Any) -> None:
        urls = [u.rstrip("/") for u in options["url"]]
        count, path = options["requests"], options["path"]
        web = platform_processes(urls)["daphne"]

        def used() -> float:
            return sum(cpu_seconds(pid) or 0.0 for pid in web)

        before, began = used(), time.monotonic()
        with ThreadPoolExecutor(options["threads"]) as pool:
            statuses = Counter(pool.map(lambda i: _get(urls[i % len(urls)] + path), range(count)))
        elapsed, spent = time.monotonic() - began, used() - before
        answers = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
        self.stdout.write(
            f"{count} GET {path} over {len(urls)} web processes ({len(web)} found), {options['threads']} threads: "
            f"{count / elapsed:.0f} requests/s, web CPU {1000 * spent / count:.2f} ms a request; answers: {answers}"
        )
