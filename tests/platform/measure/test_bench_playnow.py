"""The Play now benchmark runs, seats everyone it can exactly once, and leaves nothing behind."""

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from lobbies.models import Seek
from tables.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_bench_playnow_prints_its_figures_and_cleans_up():
    out = StringIO()
    call_command("bench_playnow", players=26, seconds=0.2, threads=4, stdout=out)
    text = out.getvalue()
    # 26 players over queues of 2, 3, 4 and 2 seats: 7+7+6+6 joiners seat 3+2+1+3 tables, 1+1+2+0 wait
    assert "tables 9 (0 made by a later pairing, not a click), seated 22, still waiting 4, seated twice 0" in text, text
    assert "join p50" in text and "seat latency (queue filled -> seated, per player): p50" in text
    assert "load average before" in text
    assert not User.objects.filter(username__startswith="pnb").exists()
    assert not Table.objects.exists() and not Seek.objects.exists()
