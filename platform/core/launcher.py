"""Runs the whole platform in the foreground: Redis (if embedded), daphne, a Celery worker and beat.

Each child gets its own process group, so Ctrl-C reaches only this launcher,
which then stops every group (a Celery worker's pool processes included) and
waits for them: nothing is left behind. If the launcher itself is killed, the
children get SIGTERM from the kernel (``PR_SET_PDEATHSIG``).

A child that dies (crashed, killed by pid, out of memory) is started again, so
one failure never stops the platform: after 1 s, doubling on each quick
failure up to 30 s, back to 1 s once a child has run for a minute. Every exit
and restart is logged. Games lose nothing meanwhile: the database holds them,
the embedded Redis persists its queue, and the workers and web processes
reconnect to Redis by themselves.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Protocol

from django.conf import settings

from core.embedded import start_redis


class Output(Protocol):
    """Where the launcher's lines go: a terminal, or a management command's ``stdout``."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


PR_SET_PDEATHSIG = 1
#: restart backoff: first delay, ceiling, and how long a child must run to count as healthy again
BACKOFF_FIRST, BACKOFF_MAX, BACKOFF_RESET = 1.0, 30.0, 60.0


def _die_with_parent() -> None:
    # not Linux (no libc.so.6): Ctrl-C still stops everything through the launcher
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Launcher:
    def __init__(
        self, host: str, port: int, worker_concurrency: int = 2, out: Output = sys.stdout, web: int = 1
    ) -> None:
        self.host, self.port, self.web = host, port, web
        self.concurrency = worker_concurrency
        self.out = out
        self.children: dict[str, subprocess.Popen] = {}
        self.commands: dict[str, list[str]] = {}
        self.started_at: dict[str, float] = {}
        self.backoff: dict[str, float] = {}
        #: a dead child's name -> when it is due to be started again
        self.restart_at: dict[str, float] = {}
        self.stopping = False

    def env(self, name: str = "") -> dict[str, str]:
        env = dict(os.environ)
        if name.startswith("daphne"):
            # a web process runs each socket's database work on a thread: enough threads that sockets
            # waiting on a slow commit leave others free, and a bounded pool of connections shared by
            # them (config.env.database_config); a Celery worker forks, so it keeps plain connections
            env.setdefault("ASGI_THREADS", "24")
            env.setdefault("DB_POOL_MAX", "12")
            # a burst of requests runs four at a time, each at full speed (core.concurrency)
            env.setdefault("WEB_HTTP_CONCURRENCY", "4")
        base = Path(settings.BASE_DIR)
        paths = [str(base / "platform"), str(base)]
        if env.get("PYTHONPATH"):
            paths.append(env["PYTHONPATH"])
        env["PYTHONPATH"] = os.pathsep.join(paths)
        env["VAR_DIR"] = str(settings.VAR_DIR)
        env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def spawn(self, name: str, args: list[str]) -> None:
        self.commands[name] = args
        self.started_at[name] = time.monotonic()
        self.children[name] = subprocess.Popen(
            args,
            env=self.env(name),
            cwd=settings.BASE_DIR,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )

    def start(self) -> None:
        var = Path(settings.VAR_DIR)
        var.mkdir(parents=True, exist_ok=True)
        py = sys.executable
        if settings.REDIS_EMBEDDED:
            self.start_redis()
        # several web processes (one per core) share all their state through the database and Redis
        for i in range(self.web):
            # no --proxy-headers: daphne would believe X-Forwarded-For from anybody; core.proxy trusts it
            # only from TRUSTED_PROXIES
            daphne = [py, "-m", "core.daphne", "-b", self.host, "-p", str(self.port + i)]
            self.spawn("daphne" if i == 0 else f"daphne-{i + 1}", [*daphne, "config.asgi:application"])
        self.spawn(
            "worker",
            [
                py,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-l",
                "INFO",
                "--concurrency",
                str(self.concurrency),
                "-n",
                f"worker-{self.port}@%h",
                # gossip and mingle are not used, and their shutdown on a lost broker connection is what
                # failed with "'NoneType' object has no attribute 'hostname'" (kombu #582)
                "--without-gossip",
                "--without-mingle",
            ],
        )
        self.spawn(
            "beat", [py, "-m", "celery", "-A", "config", "beat", "-l", "INFO", "-s", str(var / "celerybeat-schedule")]
        )

    def wait_healthy(self, timeout: float = 60.0) -> bool:
        url = f"http://{self.host}:{self.port}/healthz"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.stopping:
            self.check_children()
            try:
                with urllib.request.urlopen(url, timeout=3) as resp:
                    if resp.status == 200:
                        return True
            except OSError:
                pass
            time.sleep(0.5)
        return False

    def start_redis(self) -> None:
        self.started_at["redis"] = time.monotonic()
        self.children["redis"] = start_redis(settings.REDIS_SOCKET, start_new_session=True, preexec_fn=_die_with_parent)

    def log(self, message: str) -> None:
        print(f"[launcher] {message}", file=self.out, flush=True)

    def check_children(self) -> None:
        """Start again, with backoff, every child that has died."""
        now = time.monotonic()
        for name, proc in list(self.children.items()):
            if self.stopping or name in self.restart_at or proc.poll() is None:
                continue
            ran = now - self.started_at.get(name, now)
            delay = BACKOFF_FIRST if ran >= BACKOFF_RESET else self.backoff.get(name, BACKOFF_FIRST)
            self.backoff[name] = min(BACKOFF_MAX, delay * 2)
            self.restart_at[name] = now + delay
            self._signal(proc, signal.SIGKILL)  # what it left behind (a worker's pool processes)
            self.log(f"{name} (pid {proc.pid}) exited with code {proc.returncode}; restarting in {delay:.0f} s")
        for name, due in list(self.restart_at.items()):
            if self.stopping or now < due:
                continue
            del self.restart_at[name]
            try:
                if name == "redis":
                    self.start_redis()
                else:
                    self.spawn(name, self.commands[name])
            except (OSError, RuntimeError) as exc:
                self.log(f"{name} did not start again: {exc}")
                self.started_at[name] = time.monotonic()
                continue  # still dead: the next check schedules another try, later
            self.log(f"{name} restarted (pid {self.children[name].pid})")

    def stop(self, grace: float = 10.0) -> None:
        self.stopping = True
        # web and workers first, Redis last, so they can close their connections cleanly
        self._stop([n for n in self.children if n != "redis"], grace)
        self._stop([n for n in self.children if n == "redis"], grace)

    def _stop(self, names: list[str], grace: float) -> None:
        for name in names:
            self._signal(self.children[name], signal.SIGTERM)
        deadline = time.monotonic() + grace
        for name in names:
            proc = self.children[name]
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self._signal(proc, signal.SIGKILL)
                proc.wait()
            self._signal(proc, signal.SIGKILL)  # stray grandchildren left in the group

    @staticmethod
    def _signal(proc: subprocess.Popen, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)

    def run(self, on_ready: Callable[[], object]) -> int:
        def request_stop(signum: int, frame: FrameType | None) -> None:
            self.stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        code = 0
        try:
            self.start()
            if self.wait_healthy():
                on_ready()
            elif not self.stopping:
                print("The platform did not become healthy within 60 s; see the logs above.", file=self.out)
                code = 1
                self.stopping = True
            while not self.stopping:
                self.check_children()
                time.sleep(0.3)
        except RuntimeError as exc:  # the first start failed (e.g. the embedded Redis): nothing to supervise
            print(f"Stopping: {exc}", file=self.out)
            code = 1
        finally:
            print("Stopping the platform...", file=self.out, flush=True)
            self.stop()
            print("Stopped.", file=self.out, flush=True)
        return code
