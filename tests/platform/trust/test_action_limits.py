"""Actions that are told to every page (a rematch vote, a registration, a withdrawal) have a per-user limit."""

from __future__ import annotations

from unittest import mock

import pytest

from lobbies.services import REMATCH_VOTES_PER_MINUTE, LobbyRefused, table_rematch
from tables.services import table_resign
from tests.platform.tables.factories import make_players, started_table
from tests.platform.tournaments.factories import event, organizer
from tournaments import services
from tournaments.services import REGISTRATIONS_PER_HOUR, TournamentRefused

pytestmark = pytest.mark.django_db


def test_a_second_vote_tells_nobody_again_and_votes_over_many_tables_are_limited(django_capture_on_commit_callbacks):
    (voter,) = make_players(1, prefix="v")
    tables = []
    for _ in range(REMATCH_VOTES_PER_MINUTE + 1):
        table, _players, _game = started_table("durak", 2, players=[voter, *make_players(1, prefix=f"o{len(tables)}")])
        table_resign(table.pk, voter)
        tables.append(table)
    with mock.patch("tables.services.notify") as told, django_capture_on_commit_callbacks(execute=True):
        table_rematch(table_id=tables[0].pk, user=voter)
        table_rematch(table_id=tables[0].pk, user=voter)  # a double click
    assert told.call_count == 1
    for table in tables[1:-1]:
        table_rematch(table_id=table.pk, user=voter)
    with pytest.raises(LobbyRefused, match="Too many"):
        table_rematch(table_id=tables[-1].pk, user=voter)
    tables[-1].refresh_from_db()
    assert voter.pk not in tables[-1].rematch_votes


def test_registering_and_withdrawing_over_and_over_is_limited():
    t = event(organizer())
    (player,) = make_players(1, prefix="r")
    done = 0
    with pytest.raises(TournamentRefused, match="too often"):
        while done <= REGISTRATIONS_PER_HOUR:
            services.registration_join(tournament_id=t.pk, user=player)
            done += 1
            services.registration_withdraw(tournament_id=t.pk, user=player)
            done += 1
    assert done == REGISTRATIONS_PER_HOUR
    (other,) = make_players(1, prefix="s")
    services.registration_join(tournament_id=t.pk, user=other)  # the limit is his, not the event's
