"""The fair-play benchmark runs small, prints its figures through the scan's code path, and leaves nothing behind."""

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from tables.models import Table

pytestmark = pytest.mark.django_db


def test_bench_fairplay_prints_recall_and_false_positives_and_cleans_up():
    out = StringIO()
    call_command("bench_fairplay", games=36, players=12, colluders=0.2, min_shared=3, stdout=out)
    text = out.getvalue()
    assert "36 games simulated and stored" in text
    assert "recall " in text and "false positives " in text, text
    assert "honest pairs near the threshold: >= " in text
    assert not User.objects.filter(username__startswith="fpb").exists()
    assert not Table.objects.exists()
