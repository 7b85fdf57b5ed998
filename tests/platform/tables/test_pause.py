"""A held table: nobody moves (player, timer, bot), the overdue sweep passes it by, and on release the turn has
exactly the time it had left."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Game, Seat, Table
from tables.pause import table_pause, table_resume
from tables.selectors import seat_view
from tables.services import ActionRefused, game_play_bot, games_sweep_overdue, table_apply_action
from tests.platform.tables.factories import started_table

pytestmark = pytest.mark.django_db


def test_a_held_table_takes_no_move_and_its_clock_resumes_where_it_stood():
    table, _players, game = started_table("durak", 2)
    before = Game.objects.get(pk=game.pk)
    assert table_pause(table.pk, note="Friday cup")
    assert not table_pause(table.pk)  # already held: nothing changes
    seat = seat_view(before, None)["view"]["to_act"][0]
    legal = seat_view(before, seat)["legal"]
    with pytest.raises(ActionRefused) as refused:
        table_apply_action(game.pk, seat, before.move_number, legal[0])
    assert refused.value.code == "paused"
    # a bot standing in for the player to act does not move either, and an overdue turn is not swept
    Seat.objects.filter(table=table, index=seat).update(away=True)
    assert not game_play_bot(game.pk, before.move_number, random.Random(1))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert games_sweep_overdue() == 0
    Seat.objects.filter(table=table, index=seat).update(away=False)
    Game.objects.filter(pk=game.pk).update(deadline=before.deadline)
    # held for five minutes: the turn's start and deadline both move on by them
    Table.objects.filter(pk=table.pk).update(paused_at=timezone.now() - timedelta(minutes=5))
    held = table_resume(table.pk)
    assert held is not None and timedelta(minutes=5) <= held < timedelta(minutes=5, seconds=30)
    after = Game.objects.get(pk=game.pk)
    assert after.deadline - before.deadline == after.turn_started_at - before.turn_started_at >= timedelta(minutes=5)
    assert Table.objects.get(pk=table.pk).paused_at is None and Table.objects.get(pk=table.pk).pause_note == ""
    table_apply_action(game.pk, seat, before.move_number, legal[0])  # play goes on
    assert table_resume(table.pk) is None  # not held: nothing to release


def test_leaving_and_coming_back_while_held_neither_buys_nor_costs_time():
    """The player to act steps away and back during a long hold: after the release he has what he had at the
    pause, not what was left of a clock that ran on through the hold, nor the whole hold added."""
    from tables.services import seat_set_away

    table, _players, game = started_table("durak", 2)
    before = Game.objects.get(pk=game.pk)
    seat = seat_view(before, None)["view"]["to_act"][0]
    user = Seat.objects.get(table=table, index=seat).user
    paused = timezone.now() - timedelta(hours=1)  # held an hour
    start = paused - timedelta(seconds=10)  # ten seconds of his turn were gone at the pause
    turn = before.deadline - before.turn_started_at
    Game.objects.filter(pk=game.pk).update(turn_started_at=start, deadline=start + turn)
    left_at_pause = turn - timedelta(seconds=10)
    assert table_pause(table.pk)
    Table.objects.filter(pk=table.pk).update(paused_at=paused)
    seat_set_away(table.pk, user, True)
    seat_set_away(table.pk, user, False)
    table_resume(table.pk)
    after = Game.objects.get(pk=game.pk)
    left = after.deadline - timezone.now()
    assert abs((left - left_at_pause).total_seconds()) < 5, (left, left_at_pause)
