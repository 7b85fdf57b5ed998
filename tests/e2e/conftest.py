"""Browser tests: Playwright driving Debian's Chromium against the whole platform, started for real.

pytest-django's ``live_server`` is WSGI only (no WebSockets), so the platform
runs as ``manage.py runplatform`` (daphne, Celery, Redis) on a free port with
its own ``VAR_DIR``; the players are made through ``manage.py shell`` in
that same environment, then log in, create and join the table through the real pages.

Without a browser these tests skip on a developer's machine but FAIL under CI
(``CI`` set, as ``.ci/run`` does): a CI run must never pass by skipping them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from tests.platform.helpers import ROOT, developer_env, free_port, wait_until

CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


def artifacts_dir() -> Path:
    path = Path(os.environ.get("E2E_ARTIFACTS", ROOT / "var" / "artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path


class Platform:
    """A running platform on ``url``, and a way to run Django code in its environment."""

    def __init__(self, url: str, env: dict[str, str], log: Path | None = None) -> None:
        self.url = url
        self.env = env
        self.log = log  # what daphne, Celery and the launcher wrote: printed from a failed test's start

    def django(self, code: str) -> dict:
        """Run ``code`` in ``manage.py shell`` against the platform's database; it prints one JSON line."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])


def watch_page(page, problems: list[str]) -> None:
    """Record what a person's browser would flag: console warnings and errors, script errors, 4xx/5xx."""
    page.on(
        "console",
        lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type in ("warning", "error") else None,
    )
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on(
        "response",
        lambda resp: problems.append(f"HTTP {resp.status} {resp.url}") if resp.status >= 400 else None,
    )


def own_redis_db(env: dict[str, str]) -> None:
    """A real Redis (REDIS_URL set) gets a database of its own for the platform under test, emptied first.

    The suite's session Celery worker (tests/platform) listens on REDIS_URL's broker queue with the
    test database: sharing that queue, it took the platform's bot and timer tasks and ran them against
    the wrong database, so bots never moved on PostgreSQL runs.
    """
    url = env.get("REDIS_URL")
    if not url:
        return  # the embedded Redis: the launcher starts one of its own under VAR_DIR
    import redis

    parts = urllib.parse.urlsplit(url)
    db = (int(parts.path.strip("/") or 0) + 1) % 16
    env["REDIS_URL"] = urllib.parse.urlunsplit(parts._replace(path=f"/{db}"))
    env["REDIS_PREFIX"] = f"e2e{db}"  # pub/sub ignores the database number: the suite's events stay its own
    client = redis.Redis.from_url(env["REDIS_URL"])
    client.flushdb()
    client.close()


def postgres_url(env: dict[str, str]) -> urllib.parse.SplitResult | None:
    url = env.get("DATABASE_URL", "")
    return urllib.parse.urlsplit(url) if url.startswith(("postgres://", "postgresql://")) else None


def postgres_admin(parts: urllib.parse.SplitResult, sql: str) -> None:
    import psycopg

    with psycopg.connect(urllib.parse.urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(sql)


class Template:
    """A database migrated (and bootstrapped) once per session: each platform starts on a copy of it.

    Migrating from nothing cost each module's platform ~6 s of CPU before it answered; a copy is a file
    copy (SQLite) or PostgreSQL's ``CREATE DATABASE ... TEMPLATE``, and ``runplatform``'s own migrate and
    bootstrap then find nothing to do. Every module still gets a database of its own, new for it.
    """

    def __init__(self, var: Path, database: str | None) -> None:
        self.var = var
        self.database = database  # PostgreSQL: the template database's name

    @contextmanager
    def copy(self, env: dict[str, str]) -> Iterator[None]:
        """A new database for the platform under test, with the template's tables and rows, dropped after.

        On PostgreSQL the named database outlives the run: browser tests that met it again found the last
        run's lobby chat in its history and the last run's display names taken ("Vera the Ace" refused as
        looking like another player's), so they failed on the second run against the same server.
        """
        parts = postgres_url(env)
        if parts is None:  # SQLite: the platform's own file under its VAR_DIR
            for path in self.var.glob("db.sqlite3*"):
                shutil.copy(path, Path(env["VAR_DIR"]) / path.name)
            yield
            return
        name = f"e2e_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        postgres_admin(parts, f'CREATE DATABASE "{name}" TEMPLATE "{self.database}"')
        env["DATABASE_URL"] = urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
        try:
            yield
        finally:
            postgres_admin(parts, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def platform_env(var: Path, **extra: str) -> dict[str, str]:
    """The environment of the platform under test: a developer's, with a folder of its own."""
    return developer_env(
        DEBUG="1",
        VAR_DIR=str(var),
        PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        LOG_LEVEL="WARNING",
        **extra,
    )


@pytest.fixture(scope="session")
def platform_template(tmp_path_factory) -> Iterator[Template]:
    var = tmp_path_factory.mktemp("e2e-template")
    env = platform_env(var)
    parts = postgres_url(env)
    name = None
    if parts is not None:
        name = f"e2e_template_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        postgres_admin(parts, f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    try:
        # what runplatform does before it starts anything (neither needs Redis)
        for command in (["migrate", "--no-input", "-v", "0"], ["bootstrap"]):
            done = subprocess.run(
                [sys.executable, "manage.py", *command],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            assert done.returncode == 0, f"{command}: {done.stderr[-3000:]}"
        yield Template(var, name)
    finally:
        if parts is not None:
            postgres_admin(parts, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as resp:
            return resp.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def platform_server(request, tmp_path_factory, platform_template) -> Iterator[Platform]:
    port = free_port()
    var = tmp_path_factory.mktemp("e2e-var")
    # the platform must start as a developer's would; a test module may tune it,
    # e.g. quicker bots: PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}
    env = platform_env(var, **getattr(request.module, "PLATFORM_ENV", {}))
    own_redis_db(env)
    cleanup = ExitStack()
    cleanup.enter_context(platform_template.copy(env))
    log = (var / "platform.log").open("w+")
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "runplatform", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        if not wait_until(lambda: healthy(port) or proc.poll() is not None, 120) or proc.poll() is not None:
            log.seek(0)
            pytest.fail(f"the platform did not come up:\n{log.read()[-4000:]}", pytrace=False)
        yield Platform(f"http://127.0.0.1:{port}", env, var / "platform.log")
    finally:
        os.killpg(proc.pid, signal.SIGINT)  # the launcher stops daphne, Celery and Redis on Ctrl-C
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        log.close()
        cleanup.close()


@pytest.fixture(scope="module")
def browser() -> Iterator:
    if not Path(CHROMIUM).exists():
        unavailable(f"no browser at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        item.stash[_FAILED] = True
    return report


def _print_pages(name: str, contexts) -> None:
    folder = artifacts_dir() / "failed"
    folder.mkdir(exist_ok=True)
    for c, context in enumerate(contexts):
        for p, page in enumerate(context.pages):
            label = f"{name}-{c}-{p}"
            try:
                print(f"--- page {c}.{p} at {page.url} ---\n{page.inner_text('body', timeout=2000)[:2000]}")
                page.screenshot(path=str(folder / f"{label}.png"), full_page=True, timeout=5000)
                (folder / f"{label}.html").write_text(page.content())
            # a page that closed or hangs must not hide the test's own failure
            except Exception as exc:
                print(f"--- page {c}.{p}: could not be read ({exc})")


@pytest.fixture(autouse=True)
def pages_on_failure(request) -> Iterator[None]:
    """A failed browser test prints where each of its pages was and what it showed (CI keeps only what is
    printed) and keeps their pictures and HTML in the artifacts folder.

    Most tests close their context in a ``finally``, before this fixture's teardown: a context closed while
    an exception is on its way out is printed first."""
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    if browser is None:
        yield
        return
    platform = request.getfixturevalue("platform_server") if "platform_server" in request.fixturenames else None
    log_start = platform.log.stat().st_size if platform is not None and platform.log is not None else 0
    name = request.node.name
    new_context = browser.new_context

    def watched_context(*args, **kwargs):
        context = new_context(*args, **kwargs)
        close = context.close

        def close_printing_if_failing(*a, **kw):
            if sys.exc_info()[0] is not None:
                _print_pages(f"{name}-closed", [context])
            return close(*a, **kw)

        context.close = close_printing_if_failing
        return context

    browser.new_context = watched_context
    try:
        yield
    finally:
        browser.new_context = new_context
    if request.node.stash.get(_FAILED, False):
        _print_pages(name, browser.contexts)
        if platform is not None and platform.log is not None:
            _print_log(platform.log, log_start)


def _print_log(log: Path, start: int, lines: int = 80) -> None:
    """The platform's log since the failed test began (its requests, their answers, any traceback): whether a
    page's request reached the server, and how it was answered, is often what a failure leaves unclear."""
    with log.open("rb") as f:
        f.seek(start)
        tail = [line for line in f.read().decode(errors="replace").splitlines() if '"GET /static/' not in line]
    tail = tail[-lines:]
    print(f"--- the platform's log during the test (last {len(tail)} lines) ---")
    print("\n".join(tail))
