"""A move inside a game commits without waiting for the disk; one that ends a game waits. A move lost with
a database crash (simulated: its rows taken back as the crash would have) leaves the game at a position it
really had, and a page that was shown the lost move is brought back to it."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Game, Move
from tables.selectors import seat_view
from tables.services import ActionRefused, table_apply_action, table_player_action
from tests.platform.tables.factories import started_table
from tests.platform.tables.test_consumer import connect

RELAXED = "SET LOCAL synchronous_commit = off"


def to_act(game: Game) -> int:
    return seat_view(game, None)["view"]["to_act"][0]


@pytest.mark.django_db
def test_only_a_move_inside_a_game_is_committed_without_waiting_for_the_disk():
    _table, _players, game = started_table("verish", 3)
    seen: list[bool] = []
    while game.status == Game.Status.PLAYING:
        seat = to_act(game)
        action = seat_view(game, seat)["legal"][0]
        with CaptureQueriesContext(connection) as queries:
            table_apply_action(game.pk, seat, game.move_number, action)
        relaxed = any(q["sql"].startswith(RELAXED) for q in queries.captured_queries)  # (the first of its query)
        game.refresh_from_db()
        ended = game.status != Game.Status.PLAYING
        # PostgreSQL only: SQLite keeps its own (durable) setting
        assert relaxed == (connection.vendor == "postgresql" and not ended)
        seen.append(ended)
    assert seen[-1] and not seen[0]


def lose_last_move(game_id: int, before: dict) -> None:
    """What a crash that lost the last commit leaves: the move's log row gone, the game row as before it."""
    Move.objects.filter(game_id=game_id, number=before["move_number"] + 1).delete()
    Game.objects.filter(pk=game_id).update(**before)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_page_shown_a_lost_move_is_brought_back_to_the_kept_position():
    table, players, game = await sync_to_async(started_table)("durak", 2)
    socks = [(await connect(table, u))[0] for u in players]
    for comm in socks:
        assert 'data-move="0"' in await comm.receive_from(timeout=5)
    before = await sync_to_async(
        lambda: Game.objects.filter(pk=game.pk).values("move_number", "state", "deadline", "turn_started_at").get()
    )()
    mover = await sync_to_async(to_act)(game)
    action = (await sync_to_async(seat_view)(game, mover))["legal"][0]
    await socks[mover].send_to(text_data=json.dumps({"move": 0, "action": action}))
    for comm in socks:
        assert 'data-move="1"' in await comm.receive_from(timeout=5)

    await sync_to_async(lose_last_move)(game.pk, before)
    game = await sync_to_async(Game.objects.select_related("table").get)(pk=game.pk)
    nxt = await sync_to_async(to_act)(game)  # who acts at the kept position
    # the page still shows move 1: its click is refused, and every page of the table reads it afresh
    clicker = socks[1 - mover]
    await clicker.send_to(text_data=json.dumps({"move": 1, "action": {"type": "take"}}))
    frames = [await clicker.receive_from(timeout=5) for _ in range(2)]
    assert any("the game is at move 0" in f for f in frames)
    assert any(re.search(r'id="table-status"[^>]*data-move="0"', f) for f in frames)
    assert re.search(r'id="table-status"[^>]*data-move="0"', await socks[mover].receive_from(timeout=5))
    # and the game goes on from there, through the same pages
    action = (await sync_to_async(seat_view)(game, nxt))["legal"][0]
    await socks[nxt].send_to(text_data=json.dumps({"move": 0, "action": action}))
    for comm in socks:
        assert 'data-move="1"' in await comm.receive_from(timeout=5)
    for comm in socks:
        await comm.disconnect()


@pytest.mark.django_db
def test_a_forged_move_number_does_not_make_the_table_read_afresh(monkeypatch):
    table, players, game = started_table("durak", 2)
    sent: list = []
    monkeypatch.setattr("tables.services.notify", lambda *args, **kwargs: sent.append(args))
    seat = to_act(game)
    with pytest.raises(ActionRefused):
        table_player_action(table.pk, players[seat], 7, {"type": "take"}, known=(game.pk, 0, seat))
    assert not sent


def _committed_with_store(queries: CaptureQueriesContext) -> bool:
    return any("INSERT" in q["sql"] and q["sql"].rstrip().endswith("COMMIT") for q in queries.captured_queries)


@pytest.mark.django_db(transaction=True)
def test_a_move_in_a_transaction_of_its_own_commits_in_its_stores_round_trip(monkeypatch):
    """On PostgreSQL its COMMIT goes with the move's insert and update, and the commit's hooks (its event) run as
    after any commit; inside an outer transaction the move leaves the commit, and its event, to that."""
    from django.db import transaction

    from tables import services

    _table, _players, game = started_table("durak", 2)
    told: list[int] = []
    monkeypatch.setattr(services, "notify", lambda table_id, game_id, number=0, delta=None: told.append(number))
    seat = to_act(game)
    with CaptureQueriesContext(connection) as queries:
        table_apply_action(game.pk, seat, 0, seat_view(game, seat)["legal"][0])
    assert _committed_with_store(queries) == (connection.vendor == "postgresql")
    assert told == [1] and connection.get_autocommit() and Move.objects.filter(game=game).count() == 1

    game.refresh_from_db()
    seat = to_act(game)
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            table_apply_action(game.pk, seat, 1, seat_view(game, seat)["legal"][0])
        assert not _committed_with_store(queries) and told == [1]
    assert told == [1, 2] and Game.objects.get(pk=game.pk).move_number == 2
