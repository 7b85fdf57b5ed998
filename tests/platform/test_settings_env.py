"""Settings come from the environment; a bad value stops start-up with a message naming it."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import celery_broker_url, database_config, env_bool, env_int, env_list, redis_url
from tests.platform.helpers import child_env, manage


def test_booleans():
    assert env_bool("DEBUG", False, {"DEBUG": "yes"}) is True
    assert env_bool("DEBUG", True, {"DEBUG": "0"}) is False
    assert env_bool("DEBUG", True, {}) is True
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG='maybe'"):
        env_bool("DEBUG", False, {"DEBUG": "maybe"})


def test_numbers_and_lists():
    assert env_int("EMAIL_PORT", 25, {"EMAIL_PORT": " 465 "}, high=65535) == 465
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT='smtp': expected a whole number"):
        env_int("EMAIL_PORT", 25, {"EMAIL_PORT": "smtp"})
    with pytest.raises(ImproperlyConfigured, match="from 0 to 65535"):
        env_int("EMAIL_PORT", 25, {"EMAIL_PORT": "70000"}, high=65535)
    assert env_list("ALLOWED_HOSTS", [], {"ALLOWED_HOSTS": "a.example, b.example,"}) == ["a.example", "b.example"]


def test_database_url():
    pg = database_config("postgres://cards:pw@db.internal:5433/cards", "/tmp/x.sqlite3")
    assert (pg["ENGINE"], pg["HOST"], pg["PORT"], pg["NAME"], pg["USER"]) == (
        "django.db.backends.postgresql",
        "db.internal",
        5433,
        "cards",
        "cards",
    )
    assert database_config(None, "/tmp/x.sqlite3")["NAME"] == "/tmp/x.sqlite3"
    # a web process's pool: connections kept by the pool, handed back by Django after each use
    pooled = database_config("postgres://cards:pw@db.internal:5433/cards", "/tmp/x.sqlite3", pool=8)
    assert pooled["OPTIONS"]["pool"]["max_size"] == 8 and pooled["CONN_MAX_AGE"] == 0
    assert "pool" not in database_config("sqlite:////tmp/x.sqlite3", "/tmp/y", pool=8).get("OPTIONS", {})
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL='mysql://x/y': expected postgres"):
        database_config("mysql://x/y", "/tmp/x.sqlite3")
    with pytest.raises(ImproperlyConfigured, match="database name is missing"):
        database_config("postgres://db.internal:5432", "/tmp/x.sqlite3")


def test_redis_url():
    assert redis_url(None, "/srv/var/redis.sock") == "unix:///srv/var/redis.sock"
    assert redis_url("redis://cache:6379/1", "/x") == "redis://cache:6379/1"
    assert celery_broker_url("unix:///srv/var/redis.sock") == "redis+socket:///srv/var/redis.sock"
    assert celery_broker_url("redis://cache:6379/1") == "redis://cache:6379/1"
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL='localhost:6379'"):
        redis_url("localhost:6379", "/x")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "oracle://db/x"}, "DATABASE_URL='oracle://db/x'"),
        ({"REDIS_URL": "cache:6379"}, "REDIS_URL='cache:6379'"),
        ({"DEBUG": "perhaps"}, "DEBUG='perhaps'"),
        ({"SECRET_KEY": "", "DEBUG": "0"}, "SECRET_KEY is required"),
        ({"ALLOWED_HOSTS": "", "DEBUG": "0"}, "ALLOWED_HOSTS is required"),
    ],
)
@pytest.mark.slow
def test_bad_environment_stops_manage_py_with_a_clear_error(env, message):
    base = {"DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "cards.example"}
    out = manage("check", env=child_env(**(base | env)))
    assert out.returncode != 0
    assert message in out.stderr


@pytest.mark.slow
def test_check_deploy_passes_with_production_variables():
    env = child_env(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        ALLOWED_HOSTS="cards.example",
        SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        DATABASE_URL="postgres://cards@127.0.0.1:5432/cards",
        REDIS_URL="redis://127.0.0.1:6379/0",
        EMAIL_HOST="smtp.cards.example",
        SECURE_SSL_REDIRECT="1",
    )
    out = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow
def test_healthz_answers_over_plain_http_in_production_while_pages_redirect_to_https():
    """The launcher and load balancers probe /healthz over plain HTTP; a redirect there stopped `runplatform`."""
    env = child_env(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        ALLOWED_HOSTS="cards.example",
        SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        SECURE_SSL_REDIRECT="1",
    )
    probe = (
        "from django.test import Client; c = Client(); "
        "h = 'cards.example'; "
        "print('codes', c.get('/healthz', HTTP_HOST=h).status_code, c.get('/', HTTP_HOST=h).status_code)"
    )
    out = manage("shell", "-c", probe, env=env)
    assert out.returncode == 0, out.stderr
    health, home = out.stdout.split("codes", 1)[1].split()[:2]
    assert health != "301" and home == "301", out.stdout


@pytest.mark.slow
def test_every_redis_key_of_the_platform_carries_its_prefix(redis_server):
    """Two platforms sharing a Redis database (REDIS_PREFIX apart) keep their own turn timers, presence, socket
    counts and Celery queues: a platform's worker never takes the other's tasks."""
    import json

    import redis

    prefix = "other-platform"
    probe = (
        "import json\n"
        "from django.utils import timezone\n"
        "from config.celery import app\n"
        "from core import throttle\n"
        "from core.redis_client import redis_client\n"
        "from social import presence\n"
        "from tables import deadlines, presence as table_presence\n"
        "deadlines.deadline_set(987654, 1, timezone.now())\n"
        "table_presence.presence_add(987654, 1, 'chan')\n"
        "presence.presence_touch(987654, 'chan')\n"
        "throttle.socket_open('user:987654', 'chan')\n"
        "app.send_task('tables.tasks.sweep_turn_deadlines')\n"
        f"print('KEYS', json.dumps(sorted(k.decode() for k in redis_client().keys('{prefix}*'))))\n"
    )
    client = redis.Redis.from_url(redis_server)
    try:
        out = manage("shell", "-c", probe, env=child_env(REDIS_URL=redis_server, REDIS_PREFIX=prefix))
        assert out.returncode == 0, out.stderr
        keys = json.loads(out.stdout.split("KEYS", 1)[1])
        for wanted in ("turns:due", "table-present:987654", "sockets:user:987654", "presence", "celery"):
            assert any(key.startswith(f"{prefix}:{wanted}") for key in keys), (wanted, keys)
    finally:
        for key in client.keys(f"{prefix}*"):
            client.delete(key)
        client.close()
