"""`make run` starts the whole platform; Ctrl-C stops all of it."""

import json
import os
import platform
import signal
import subprocess
import urllib.request

import pytest
from websockets.sync.client import connect

from tests.platform.helpers import ROOT, alive, descendants, developer_env, free_port, wait_until

pytestmark = pytest.mark.slow


def get_health(port: int) -> tuple[int, dict] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)
    except OSError:
        return None


def test_make_run_serves_and_ctrl_c_leaves_nothing(tmp_path):
    port = free_port()
    env = developer_env(PORT=str(port), VAR_DIR=str(tmp_path / "var"))
    log = (tmp_path / "run.log").open("w+")
    make = subprocess.Popen(
        ["make", "--no-print-directory", "run"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        assert wait_until(lambda: (get_health(port) or (0,))[0] == 200 or make.poll() is not None, 90), (
            "no /healthz 200 within 90 s"
        )
        assert make.poll() is None, "make run exited early"
        status, body = get_health(port)
        assert status == 200 and body["celery"] == "up" and body["redis"] == "up"
        # daphne and the Celery worker both see the standard library's platform module
        assert body["system"] == platform.system() and body["worker_systems"] == [platform.system()]

        with connect(f"ws://127.0.0.1:{port}/ws/health/", origin=f"http://127.0.0.1:{port}", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10)) == {"type": "health", "channel_layer": "up", "user": None}
        # a foreign origin is refused (core.origin: scheme, host and port must be the site's own)
        with pytest.raises(Exception, match="403"):
            connect(f"ws://127.0.0.1:{port}/ws/health/", origin="http://evil.example", open_timeout=10)
        with pytest.raises(Exception, match="403"):  # the same host on another port is another site
            connect(f"ws://127.0.0.1:{port}/ws/health/", origin=f"http://127.0.0.1:{port + 1}", open_timeout=10)

        # the launcher polls /healthz on its own schedule, so its banner may follow our first 200 by a poll or two
        banner = (f"http://127.0.0.1:{port}/", "Demo login: demo /")
        output = ""

        def banner_printed() -> bool:
            nonlocal output
            output = (tmp_path / "run.log").read_text()
            return all(part in output for part in banner)

        assert wait_until(banner_printed, 30), output[-2000:]
        family = descendants(make.pid)
        assert len(family) >= 5  # launcher, redis, daphne, worker (+ pool), beat
    finally:
        os.killpg(make.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        try:
            make.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)
            raise
    survivors = [pid for pid in family if alive(pid)]
    assert not survivors, f"still running after Ctrl-C: {survivors}"
    assert get_health(port) is None
