"""The seams: tables tells listeners that a game, a match ended or a bot took a seat, inside the move's transaction."""

import random

import pytest
from django.db import connection

from tables import signals
from tables.models import Game, Table
from tables.selectors import seat_view
from tables.services import game_apply_timeout, seat_set_away, table_apply_action
from tests.platform.tables.factories import play_randomly, started_table
from tests.platform.tables.test_timers import mover_of, overdue

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard():
    """Every signal tables sends, with its kwargs and whether it came inside a transaction."""
    calls = []

    def listen(name):
        def receiver(sender, **kwargs):
            calls.append((name, sender, kwargs, connection.in_atomic_block))

        return receiver

    receivers = {name: listen(name) for name in ("game_finished", "match_finished", "seat_taken_over")}
    for name, receiver in receivers.items():
        getattr(signals, name).connect(receiver, weak=False)
    yield calls
    for name, receiver in receivers.items():
        getattr(signals, name).disconnect(receiver)


def test_each_game_and_then_the_match_are_announced_inside_the_move(heard):
    table, _, game = started_table("durak", 2, match_length=2)
    rng = random.Random(4)
    play_randomly(game, rng)
    table.refresh_from_db()
    while table.status == Table.Status.PLAYING:
        play_randomly(Game.objects.filter(table=table).order_by("-number").first(), rng)
        table.refresh_from_db()
    names = [name for name, *_ in heard]
    games = list(Game.objects.filter(table=table).order_by("number"))
    assert names == ["game_finished"] * len(games) + ["match_finished"]
    assert all(sender is Table and inside for _, sender, _, inside in heard)
    finished = [kw for name, _, kw, _ in heard if name == "game_finished"]
    assert [kw["game"].pk for kw in finished] == [g.pk for g in games]
    assert all(kw["table"].pk == table.pk and kw["game"].result == kw["state"].result() for kw in finished)
    last = heard[-1][2]
    assert last["match"].finished and last["match"].sheet == table.matches.get().sheet


def test_a_bot_taking_over_a_seat_is_announced(heard):
    table, players, game = started_table("durak", 2)
    mover = mover_of(game)
    overdue(game)
    game_apply_timeout(game.pk, game.move_number)
    game.refresh_from_db()
    while mover_of(game) != mover:
        other = mover_of(game)
        table_apply_action(game.pk, other, game.move_number, seat_view(game, other)["legal"][0])
        game.refresh_from_db()
    overdue(game)
    game_apply_timeout(game.pk, game.move_number)
    taken = [kw for name, _, kw, inside in heard if name == "seat_taken_over" and inside]
    assert [(kw["table"].pk, kw["seat"].index, kw["reason"]) for kw in taken] == [(table.pk, mover, "timeouts")]

    other = 1 - mover
    seat_set_away(table.pk, players[other], away=True)
    seat_set_away(table.pk, players[other], away=True)  # already away: no second announcement
    taken = [kw for name, _, kw, _ in heard if name == "seat_taken_over"]
    assert [(kw["seat"].index, kw["reason"]) for kw in taken] == [(mover, "timeouts"), (other, "left")]
