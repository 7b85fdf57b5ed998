"""Turn deadlines in the Redis sorted set: written after commit, swept once, recovered from the database.

Against the test session's real Redis (embedded, or ``REDIS_URL``).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from datetime import timedelta

import pytest
import redis
from django.db import connection
from django.utils import timezone

from core.redis_client import redis_client
from tables import deadlines
from tables.models import Game, Move
from tables.selectors import seat_view
from tables.services import game_apply_timeout, seat_set_away, table_apply_action, table_stop
from tests.platform.helpers import ROOT, child_env, current_database_url, wait_until
from tests.platform.tables.factories import started_table


@pytest.fixture(autouse=True)
def turn_set(settings):
    """Timers on (as in production), and an empty set marked seeded: each test says what is in it."""
    settings.TURN_TASKS = True
    client = redis_client()
    client.delete(deadlines.KEY)
    client.set(deadlines.SEEDED, "1", ex=600)
    yield client
    client.delete(deadlines.KEY, deadlines.SEEDED)


def in_set(client) -> dict[str, float]:
    return {raw.decode(): score for raw, score in client.zrange(deadlines.KEY, 0, -1, withscores=True)}


def mover_of(game: Game) -> int:
    return seat_view(game, None)["view"]["to_act"][0]


def make_overdue(game: Game, client) -> None:
    """The turn's deadline passed five seconds ago, in the database and in the set."""
    past = timezone.now() - timedelta(seconds=5)
    Game.objects.filter(pk=game.pk).update(deadline=past)
    client.zadd(deadlines.KEY, {deadlines.member(game.pk, game.move_number): past.timestamp()})


def play(game: Game) -> None:
    mover = mover_of(game)
    table_apply_action(game.pk, mover, game.move_number, seat_view(game, mover)["legal"][0])
    game.refresh_from_db()


@pytest.mark.django_db
def test_each_turn_is_in_the_set_after_commit_the_played_one_leaves_it(turn_set, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _, _, game = started_table("durak", 2)
    assert in_set(turn_set) == {f"{game.pk}:0": pytest.approx(game.deadline.timestamp())}
    with django_capture_on_commit_callbacks(execute=True):
        play(game)
    assert in_set(turn_set) == {f"{game.pk}:1": pytest.approx(game.deadline.timestamp())}
    assert turn_set.llen("celery") == 0  # no Celery message for a human's turn


@pytest.mark.django_db
def test_a_turn_is_queued_after_redis_dropped_the_connection_it_was_to_go_on(
    turn_set, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _, _, game = started_table("durak", 2)
    # the connection the move's thread will take from the pool, closed by Redis (as a restarted Redis leaves them)
    pooled = turn_set.client_id()
    pool = turn_set.connection_pool
    other = redis.Redis(connection_pool=type(pool)(connection_class=pool.connection_class, **pool.connection_kwargs))
    other.client_kill_filter(_id=pooled)
    other.close()
    with django_capture_on_commit_callbacks(execute=True):
        play(game)
    assert in_set(turn_set) == {f"{game.pk}:1": pytest.approx(game.deadline.timestamp())}


@pytest.mark.django_db
def test_the_tests_schedule_no_turn_unless_they_ask(turn_set, settings, django_capture_on_commit_callbacks):
    """Production always schedules (``tables.turns.schedule_turn``); the tests' app holds it back by default,
    so a turn queued by one test cannot come due in the next."""
    settings.TURN_TASKS = False
    with django_capture_on_commit_callbacks(execute=True):
        _, _, game = started_table("durak", 2)
        play(game)
    assert in_set(turn_set) == {}
    settings.TURN_TASKS = True
    with django_capture_on_commit_callbacks(execute=True):
        play(game)
    assert in_set(turn_set) == {f"{game.pk}:2": pytest.approx(game.deadline.timestamp())}


def test_every_module_schedules_a_turn_through_tables_turns():
    """The tests' app replaces ``tables.turns.schedule_turn``; a module holding its own name for the function
    (``from tables.turns import schedule_turn``) would schedule real turns in every test."""
    bound = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "platform").rglob("*.py")
        if re.search(r"from tables\.turns import[^\n]*\bschedule_turn\b", path.read_text())
    ]
    assert bound == []


@pytest.mark.django_db
def test_a_stopped_table_leaves_no_timer_behind(turn_set, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        table, _, game = started_table("durak", 2)
        play(game)
    assert in_set(turn_set)
    with django_capture_on_commit_callbacks(execute=True):
        table_stop(table, game, by=None, reason="a test", stop_reason="")
    assert in_set(turn_set) == {}


@pytest.mark.django_db
def test_nothing_is_written_before_the_move_commits(turn_set):
    # the move's transaction is still open here (the test's own): the set must not know the turn yet
    _, _, game = started_table("durak", 2)
    assert in_set(turn_set) == {}
    assert game.deadline is not None


@pytest.mark.django_db
def test_a_due_turn_is_swept_once_and_the_next_turn_takes_its_place(turn_set, django_capture_on_commit_callbacks):
    _, _, game = started_table("biznes", 4)
    make_overdue(game, turn_set)
    with django_capture_on_commit_callbacks(execute=True):
        assert deadlines.deadlines_sweep() == 1
    assert deadlines.deadlines_sweep() == 0
    game.refresh_from_db()
    assert Move.objects.get(game=game).by == "timeout"
    assert in_set(turn_set) == {f"{game.pk}:1": pytest.approx(game.deadline.timestamp())}


@pytest.mark.django_db
def test_a_played_turn_coming_due_does_nothing(turn_set):
    _, _, game = started_table("verish", 3)
    play(game)
    turn_set.zadd(deadlines.KEY, {deadlines.member(game.pk, 0): 0})  # left behind: its turn was played
    assert deadlines.deadlines_sweep() == 0
    assert Move.objects.filter(game=game).count() == 1
    assert in_set(turn_set) == {}


@pytest.mark.django_db
def test_a_turn_given_more_time_since_it_was_queued_waits_for_it(turn_set):
    table, players, game = started_table("durak", 2)
    mover = mover_of(game)
    # queued as due, but the database's deadline is later (the seat went away and a bot's clock runs)
    seat_set_away(table.pk, players[mover], away=True)
    game.refresh_from_db()
    turn_set.zadd(deadlines.KEY, {deadlines.member(game.pk, 0): 0})
    assert deadlines.deadlines_sweep() == 0
    assert not Move.objects.filter(game=game).exists()
    assert in_set(turn_set) == {f"{game.pk}:0": pytest.approx(game.deadline.timestamp())}


@pytest.mark.django_db
def test_a_flushed_set_is_reseeded_from_the_database(turn_set, django_capture_on_commit_callbacks):
    _, _, late = started_table("durak", 2)
    _, _, waiting = started_table("verish", 3)
    Game.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    turn_set.flushdb()  # Redis lost everything: the set and its marker
    with django_capture_on_commit_callbacks(execute=True):
        assert deadlines.deadlines_sweep() == 1  # re-seeded at once, and the overdue turn acted on
    assert Move.objects.get(game=late).by == "timeout"
    late.refresh_from_db()
    waiting.refresh_from_db()
    assert in_set(turn_set) == {
        f"{late.pk}:1": pytest.approx(late.deadline.timestamp()),
        f"{waiting.pk}:0": pytest.approx(waiting.deadline.timestamp()),
    }
    assert turn_set.ttl(deadlines.SEEDED) > 0  # and it is re-seeded again when the marker expires


@pytest.mark.django_db
def test_a_move_goes_through_while_redis_is_down_and_the_database_sweep_applies_its_deadline(
    settings, django_capture_on_commit_callbacks
):
    from tables.services import games_sweep_overdue

    _, _, game = started_table("durak", 2)
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    with django_capture_on_commit_callbacks(execute=True):
        play(game)  # committed; only the set's copy of its deadline is lost
    assert game.move_number == 1
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    assert games_sweep_overdue() == 1
    assert Move.objects.filter(game=game, by="timeout").count() == 1


def test_claims_are_atomic_every_due_member_goes_to_exactly_one_sweeper(turn_set):
    turn_set.zadd(deadlines.KEY, {deadlines.member(i, 0): 1.0 for i in range(2000)})
    turn_set.zadd(deadlines.KEY, {deadlines.member(9999, 0): 4e9})  # not due
    barrier = threading.Barrier(4)
    taken: list[list[tuple[int, int]]] = [[] for _ in range(4)]

    def claimer(i: int) -> None:
        barrier.wait(10)
        while batch := deadlines.deadlines_claim(limit=7):
            taken[i].extend(batch)

    threads = [threading.Thread(target=claimer, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    everything = [turn for part in taken for turn in part]
    assert sorted(everything) == [(i, 0) for i in range(2000)]  # each once: no duplicates, none lost
    assert sum(bool(part) for part in taken) >= 2  # they really raced
    assert in_set(turn_set) == {"9999:0": 4e9}


def race(*calls) -> list:
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(10)
            results[i] = call()
        finally:
            connection.close()  # each thread's own connection

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_sweepers_at_once_act_once_per_deadline(turn_set):
    games = [started_table("durak", 2)[2] for _ in range(6)]
    for game in games:
        make_overdue(game, turn_set)
    assert sum(race(deadlines.deadlines_sweep, deadlines.deadlines_sweep)) == 6
    for game in games:
        assert list(Move.objects.filter(game=game).values_list("number", "by")) == [(1, "timeout")]


@pytest.mark.django_db(transaction=True)
def test_the_same_turn_fired_twice_at_once_moves_once(turn_set):
    """A member claimed, re-seeded and claimed again: both timeouts run together, one acts (the row lock)."""
    _, _, game = started_table("durak", 2)
    make_overdue(game, turn_set)
    results = race(lambda: game_apply_timeout(game.pk, 0), lambda: game_apply_timeout(game.pk, 0))
    assert sorted(results) == [False, True]
    assert list(Move.objects.filter(game=game).values_list("number", "by")) == [(1, "timeout")]


def start_worker(tmp_path, database: str) -> subprocess.Popen:
    """A Celery worker with its own beat (so the 1 s sweep runs), in its own process group."""
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-B", "--concurrency", "1", "-l", "WARNING"]
    command += ["-n", f"deadlines-{os.getpid()}@%h", "-s", str(tmp_path / "beat-schedule")]
    return subprocess.Popen(
        command,
        env=child_env(DATABASE_URL=database, TURN_TASKS="1", BOT_DEADLINE_SLACK="3000"),
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_turn_that_came_due_while_the_worker_was_dead_is_acted_on_after_its_restart(turn_set, tmp_path):
    from core.selectors import celery_workers

    database = current_database_url()
    worker = start_worker(tmp_path, database)
    try:
        assert wait_until(lambda: celery_workers(timeout=0.5) or worker.poll() is not None, 90), "no worker"
        _, _, game = started_table("durak", 2)
        os.killpg(worker.pid, signal.SIGKILL)  # a crash: worker and beat, no clean shutdown
        worker.wait(10)
        # the turn comes due while nothing runs
        due = timezone.now() - timedelta(seconds=1)
        Game.objects.filter(pk=game.pk).update(deadline=due)
        turn_set.zadd(deadlines.KEY, {deadlines.member(game.pk, 0): due.timestamp()})
        assert not Move.objects.filter(game=game).exists()
        worker = start_worker(tmp_path, database)
        assert wait_until(lambda: Move.objects.filter(game=game).exists() or worker.poll() is not None, 120)
        assert list(Move.objects.filter(game=game).values_list("number", "by")) == [(1, "timeout")]
        game.refresh_from_db()
        # the next turn is queued by the worker, for its own deadline
        assert wait_until(lambda: deadlines.member(game.pk, 1) in in_set(turn_set), 10)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)


def test_the_every_second_sweep_stays_out_of_the_log_unless_it_acted():
    import logging

    from config.celery import QuietRoutine

    def shown(logger: str, message: str, level: int = logging.INFO) -> bool:
        return QuietRoutine().filter(logging.LogRecord(logger, level, __file__, 1, message, None, None))

    sweep = "tables.tasks.sweep_turn_deadlines[0f3a]"
    assert not shown("celery.beat", f"Scheduler: Sending due task sweep-turn-deadlines ({sweep[:-6]})")
    assert not shown("celery.worker.strategy", f"Task {sweep} received")
    assert not shown("celery.app.trace", f"Task {sweep} succeeded in 0.001s: 0")
    assert shown("celery.app.trace", f"Task {sweep} succeeded in 0.2s: 3")  # it applied three timeouts
    assert shown("celery.app.trace", f"Task {sweep} raised unexpected: OperationalError()", logging.ERROR)
    assert shown("celery.worker.strategy", "Task tables.tasks.bot_move[77] received")
