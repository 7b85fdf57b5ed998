"""A match's opening turn: its clock waits for every seated player's page to open (a player who just joined
may still be loading it), at most ``FIRST_TURN_GRACE_SECONDS``; the last page to open starts it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables import turns
from tables.models import Game, Seat, Table
from tables.presence import presence_add, presence_remove
from tables.services import match_start, turn_clock_release
from tables.turns import clock_hold
from tests.platform.sockets import connect
from tests.platform.tables.factories import make_players, started_table

GRACE = 20


@pytest.fixture(autouse=True)
def grace(settings):
    settings.FIRST_TURN_GRACE_SECONDS = GRACE
    yield
    # table ids repeat after a flush: no page of this test may count as open in the next one
    from core.throttle import redis_client

    client = redis_client()
    for key in client.scan_iter("cards:table-present:*"):
        client.delete(key)


def close_to(a, b, seconds: float = 3) -> bool:
    return abs((a - b).total_seconds()) < seconds


@pytest.mark.django_db
def test_the_opening_clock_waits_for_the_players_pages_and_the_last_one_starts_it():
    table, players, game = started_table("durak", 2)
    started = timezone.now()
    # nobody has the table open yet: the turn's clock starts at the grace's end, not now
    assert close_to(game.turn_started_at, started + timedelta(seconds=GRACE))
    assert close_to(game.deadline, game.turn_started_at + timedelta(seconds=table.turn_seconds))
    presence_add(table.pk, players[0].pk, "chan-a")
    assert turn_clock_release(table.pk) is False  # one page open of two: still waiting
    presence_add(table.pk, players[1].pk, "chan-b")
    assert turn_clock_release(table.pk) is True
    game.refresh_from_db()
    assert close_to(game.turn_started_at, timezone.now())
    assert close_to(game.deadline, timezone.now() + timedelta(seconds=table.turn_seconds))
    assert turn_clock_release(table.pk) is False  # started once: a page opened later changes nothing


@pytest.mark.django_db
def test_players_already_at_the_table_start_at_once_and_later_games_never_wait():
    players = make_players(2, prefix="here")
    table = Table.objects.create(game="durak", options={}, seats_count=2, created_by=players[0])
    for i, user in enumerate(players):
        Seat.objects.create(table=table, index=i, user=user)
        presence_add(table.pk, user.pk, f"chan-{i}")  # both pages open while the last seat fills
    game = match_start(table)
    assert close_to(game.turn_started_at, timezone.now())
    # the second game of a match: its players are there, nothing is waited for
    later = Game(table=table, match=game.match, number=2, dealer=0, state=game.state)
    seats = {s.index: s for s in table.seats.all()}
    for i, user in enumerate(players):
        presence_remove(table.pk, user.pk, f"chan-{i}")
    assert clock_hold(later, seats, timezone.now()) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_opening_the_table_pages_starts_the_clock():
    table, players, game = await sync_to_async(started_table)("durak", 2)
    assert game.turn_started_at > timezone.now() + timedelta(seconds=GRACE - 5)
    first = await connect(f"/ws/tables/{table.pk}/?format=json", players[0], timeout=5)
    await first.receive_from(timeout=5)
    second = await connect(f"/ws/tables/{table.pk}/?format=json", players[1], timeout=5)
    state = json.loads(await second.receive_from(timeout=5))
    assert state["type"] == "state"
    game = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert close_to(game.turn_started_at, timezone.now())
    # the first page hears the clock start (the game row changed without a move)
    frame = json.loads(await first.receive_from(timeout=5))
    assert frame["type"] == "state"
    for comm in (first, second):
        await comm.disconnect()


@pytest.mark.django_db
def test_once_every_page_was_seen_open_the_opening_does_not_read_presence_again(monkeypatch):
    players = make_players(2, prefix="seen")
    table = Table.objects.create(game="durak", options={}, seats_count=2, created_by=players[0])
    for i, user in enumerate(players):
        Seat.objects.create(table=table, index=i, user=user)
        presence_add(table.pk, user.pk, f"chan-{i}")
    game = match_start(table)  # both pages seen open: the first turn starts at once
    assert close_to(game.turn_started_at, timezone.now())
    seats = {s.index: s for s in table.seats.select_related("user")}
    assert clock_hold(game, seats, timezone.now()) is None  # a move's next turn: both pages still seen open
    reads = []
    monkeypatch.setattr(turns, "present_users", lambda table_id: reads.append(table_id) or set())
    # the next turns of the opening start at once without asking who has the page open
    assert clock_hold(game, seats, timezone.now()) is None
    assert reads == []
    # a player not seen yet (his seat just taken) is waited for, as at the start
    newcomer = make_players(1, prefix="late")[0]
    seats[1] = Seat(table=table, index=1, user=newcomer)
    assert clock_hold(game, seats, timezone.now()) is not None
    assert reads == [table.pk]
