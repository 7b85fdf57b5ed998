"""Helpers for tests that start real processes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# what pytest's own settings put into the environment; a developer's shell has none of it
TEST_ONLY = {
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "VAR_DIR",
    "DEBUG",
    "MEASURE_TOOLS",
}


def developer_env(**extra: str) -> dict[str, str]:
    """The environment of a developer typing ``make run``: this one without pytest's settings."""
    env = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
    env.update(extra)
    return env


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "platform"), str(ROOT)])
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    env.update(extra)
    return env


def manage(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        capture_output=True,
        text=True,
        env=env or child_env(),
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, stack = set(), [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(predicate, timeout: float, interval: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def current_database_url() -> str:
    """The database pytest-django is using right now, as a DATABASE_URL for child processes."""
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def start_daphne(port: int, env: dict[str, str]) -> subprocess.Popen:
    """daphne serving the platform on ``port``; returns once it accepts connections."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "core.daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )

    def listening() -> bool:
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", port)) == 0

    if not wait_until(lambda: listening() or proc.poll() is not None, 30) or proc.poll() is not None:
        proc.kill()
        raise RuntimeError(f"daphne did not start on port {port}")
    return proc
