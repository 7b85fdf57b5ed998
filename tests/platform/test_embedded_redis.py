"""The embedded Redis persists, so a killed `make run` loses no queued task."""

import os
import signal

import pytest
import redis

from core.embedded import start_redis
from tests.platform.helpers import wait_until

pytestmark = pytest.mark.slow


def test_a_killed_embedded_redis_keeps_its_queued_tasks(tmp_path):
    sock = tmp_path / "redis.sock"
    proc = start_redis(sock, start_new_session=True)
    try:
        client = redis.Redis(unix_socket_path=str(sock))
        assert client.config_get("save")["save"] == "60 1"
        assert client.config_get("appendonly")["appendonly"] == "yes"
        client.lpush("celery", "a queued turn timer")
        client.close()
        # appendfsync everysec: the write reaches the file within about a second
        written = lambda: any(b"a queued turn timer" in p.read_bytes() for p in tmp_path.rglob("redis.aof*"))  # noqa: E731
        assert wait_until(written, 10)
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # a crash: no shutdown save
        proc.wait(10)
    proc = start_redis(sock, start_new_session=True)
    try:
        client = redis.Redis(unix_socket_path=str(sock))
        assert client.lrange("celery", 0, -1) == [b"a queued turn timer"]
        client.close()
    finally:
        proc.terminate()
        proc.wait(10)
