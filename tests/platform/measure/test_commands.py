"""Every management command answers ``--help``; the measuring commands exist only where they are asked for."""

import os
import signal

import pytest
from django.core.management import get_commands, load_command_class

from accounts.models import User
from tables.models import Table
from tests.platform.helpers import child_env, current_database_url, free_port, manage, start_daphne

COMMANDS = sorted(get_commands().items())
MEASURING = {"loadtest", "floodtest", "bench_timers", "bench_leaderboards", "bench_tournament", "bench_requests"}


@pytest.mark.parametrize(("name", "app"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_command_answers_help(name, app, capsys):
    """What ``manage.py <name> --help`` does: the command's module imports and its arguments parse."""
    command = load_command_class(app, name)
    with pytest.raises(SystemExit) as exit:
        command.run_from_argv(["manage.py", name, "--help"])
    assert exit.value.code == 0
    assert f"usage: manage.py {name}" in capsys.readouterr().out


def test_the_measuring_commands_come_from_the_measure_app_alone():
    found = {name: app for name, app in get_commands().items() if name in MEASURING}
    assert found == dict.fromkeys(MEASURING, "measure")


def production_env(**extra: str) -> dict[str, str]:
    env = child_env(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="cards.example",
        **extra,
    )
    env.pop("MEASURE_TOOLS", None)
    return env | extra


@pytest.mark.slow
def test_production_settings_install_the_measuring_commands_only_when_asked():
    plain = manage("help", "--commands", env=production_env())
    assert plain.returncode == 0, plain.stderr
    assert not MEASURING & set(plain.stdout.split())
    asked = manage("floodtest", "--help", env=production_env(MEASURE_TOOLS="1"))
    assert asked.returncode == 0, asked.stderr
    assert "--sockets" in asked.stdout


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_floodtest_loadtest_and_bench_requests_run_against_a_server():
    """The tools measure a real web process: the quiet table plays under the flood, and the load test's tables
    play; what they created is removed afterwards."""
    env = child_env(DATABASE_URL=current_database_url())
    port = free_port()
    server = start_daphne(port, env)
    url = f"http://127.0.0.1:{port}"
    try:
        flood = manage(
            "floodtest", "--sockets", "4", "--seconds", "3", "--think", "0.1", "--url", url, env=env, timeout=120
        )
        assert flood.returncode == 0, flood.stderr
        quiet, flooded, flooder = flood.stdout.splitlines()[-3:]
        assert quiet.startswith("quiet:    moves=") and flooded.startswith("flooded:  moves="), flood.stdout
        assert "flooder: 4 sockets asked, 4 accepted" in flooder
        load = manage(
            "loadtest", "--tables", "2", "--seconds", "3", "--think", "0.1", "--url", url, env=env, timeout=120
        )
        assert load.returncode == 0, load.stderr
        assert "mode=json tables=2" in load.stdout and "move sent -> both seats: p50=" in load.stdout, load.stdout
        plain = manage("bench_requests", "--requests", "20", "--threads", "2", "--url", url, env=env, timeout=120)
        assert plain.returncode == 0, plain.stderr
        assert "20 GET /favicon.ico over 1 web processes (1 found)" in plain.stdout, plain.stdout
        assert "ms a request; answers: 20 x 302" in plain.stdout, plain.stdout
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    assert not User.objects.filter(username__startswith="load-").exists()
    assert not Table.objects.exists()
