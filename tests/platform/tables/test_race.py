"""Two processes send a move for the same position at the same instant: exactly one lands."""

import json
import subprocess
import sys
import time

import pytest

from tables.models import Move
from tables.selectors import seat_view
from tests.platform.helpers import ROOT, child_env, current_database_url
from tests.platform.tables.factories import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MOVER = """
import json, sys, time
import django
django.setup()
from tables.services import ActionRefused, table_apply_action
game_id, seat, action, start = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]), float(sys.argv[4])
while time.time() < start:
    pass
try:
    table_apply_action(game_id, seat, 0, action)
    print("applied")
except ActionRefused as refused:
    print("refused", refused.code)
"""


def test_two_processes_one_move_applied_one_refused():
    _, _, game = started_table("durak", 2)
    mover = seat_view(game, None)["view"]["to_act"][0]
    legal = seat_view(game, mover)["legal"]
    first, second = legal[0], legal[-1]  # two different legal leads, both against move 0
    env = child_env(DATABASE_URL=current_database_url())
    start = time.time() + 3  # both processes are set up by then and fire together
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", MOVER, str(game.pk), str(mover), json.dumps(a), str(start)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for a in (first, second)
    ]
    outputs = [p.communicate(timeout=60) for p in procs]
    results = sorted(out.strip() for out, _ in outputs)
    assert results == ["applied", "refused stale"], outputs
    game.refresh_from_db()
    assert game.move_number == 1 and Move.objects.filter(game=game).count() == 1
