"""The organizer's results CSV never carries a formula a spreadsheet would run (OWASP CSV injection)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from accounts.models import User
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer, play_round_out
from tournaments import services

pytestmark = pytest.mark.django_db

NAMES = ['=HYPERLINK("http://evil.example","open")', "@SUM(1+1)", "+1+2", "-3+cmd|' /C calc'!A0"]


def test_names_that_start_like_a_formula_are_escaped_in_the_results_csv(client):
    owner = organizer()
    t = event(owner, rounds=1)
    players = make_players(4, prefix="f")
    for player, name in zip(players, NAMES, strict=True):
        # stored as an older sign-up would have left them, whatever the forms refuse today
        User.objects.filter(pk=player.pk).update(display_name=name)
        services.registration_join(tournament_id=t.pk, user=player)
    client.force_login(owner)
    client.post(reverse("tournament_next_round", args=[t.pk]))
    play_round_out(t)
    services.tournament_advance(t.pk)
    body = client.get(reverse("tournament_export", args=[t.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    cells = [cell for row in rows[1:] for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r") or (c[:1] == "-" and not _number(c))]
    shown = {row[1] for row in rows[1:]}
    assert shown == {"'" + name for name in NAMES}  # the text itself stays readable


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True
