"""The end of a game and of a table: resigning, tables whose humans all left, the banner, the rematch."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.base import RESIGN_ACTION
from lobbies.services import table_rematch
from notifications.models import Notification
from tables.abandon import tables_end_abandoned
from tables.models import Game, Move, Seat, Table
from tables.selectors import replay_step, seat_view, socket_state
from tables.services import (
    ActionRefused,
    game_apply_timeout,
    game_play_bot,
    seat_set_away,
    table_player_action,
    table_resign,
)
from tests.platform.tables.factories import make_players, started_table

pytestmark = pytest.mark.django_db


def with_bots(game: str, humans: int, bots: int, **table) -> tuple[Table, list[User], Game]:
    """A started table: ``humans`` players in the first seats, heuristic bots in the rest."""
    from tables.services import match_start

    players = make_players(humans, prefix=f"b{Table.objects.count()}-")
    table = Table.objects.create(
        game=game, options={}, seats_count=humans + bots, created_by=players[0], rated=True, **table
    )
    for i in range(humans + bots):
        Seat.objects.create(
            table=table, index=i, user=players[i] if i < humans else None, bot_level="" if i < humans else "heuristic"
        )
    return table, players, match_start(table)


def to_act(game: Game) -> int:
    game.refresh_from_db()
    return seat_view(game, None)["view"]["to_act"][0]


def test_a_durak_resigner_is_the_fool_the_game_is_logged_rated_and_replayable():
    table, players, game = started_table("durak", 2)
    table_resign(table.pk, players[1])
    game.refresh_from_db()
    table.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["fool"] == 1
    last = Move.objects.filter(game=game).order_by("-number").first()
    assert last.action == RESIGN_ACTION and last.seat == 1 and last.by == "player"
    assert table.status == Table.Status.FINISHED
    seat = Seat.objects.get(table=table, index=1)
    assert seat.resigned and seat.away
    step = replay_step(game, game.move_number)
    assert step["final_matches_log"] and step["spectator"]["over"]
    # the banner: places from the sheet, the winner named, signed rating changes (a rated table of two humans)
    end = socket_state(table.pk, players[0])["end"]
    assert end["finished"] and end["winners"] == [players[0].name]
    rows = {row["index"]: row for row in end["rows"]}
    assert rows[0]["place"] == 1 and rows[1]["place"] == 2 and rows[1]["lost"]
    assert rows[0]["delta"] > 0 > rows[1]["delta"]


def test_after_a_resignation_in_a_match_a_bot_plays_his_seat_and_he_cannot_come_back():
    table, players, game = started_table("verish", 3, match_length=3)
    table_resign(table.pk, players[2])
    nxt = Game.objects.get(table=table, number=2)
    assert nxt.status == Game.Status.PLAYING and Game.objects.get(pk=game.pk).result["loser"] == 2
    with pytest.raises(ActionRefused, match="resigned"):
        seat_set_away(table.pk, players[2], away=False)
    with pytest.raises(ActionRefused, match="already"):
        table_resign(table.pk, players[2])
    # the game goes on; when his seat is to act, the bot moves for it and his own moves are refused
    while to_act(nxt) != 2:
        seat = to_act(nxt)
        table_player_action(table.pk, players[seat], nxt.move_number, seat_view(nxt, seat)["legal"][0])
    with pytest.raises(ActionRefused) as refused:
        table_player_action(table.pk, players[2], nxt.move_number, {"type": "believe"})
    assert refused.value.code == "away"
    assert game_play_bot(nxt.pk, nxt.move_number) is True
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_resignation_that_does_not_end_the_deal_lets_a_bot_play_on():
    table, players, game = started_table("biznes", 4)
    mover = to_act(game)
    table_resign(table.pk, players[mover])
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and not Move.objects.filter(game=game).exists()
    assert Seat.objects.get(table=table, index=mover).resigned
    assert game.deadline <= timezone.now() + timedelta(seconds=30)  # the bot's short clock, not the human's
    assert game_play_bot(game.pk, 0) is True


def test_the_last_human_leaving_ends_the_table_at_once_unrated_and_spectators_are_told():
    table, players, game = with_bots("durak", 1, 2)
    seat_set_away(table.pk, players[0], away=True)
    table.refresh_from_db()
    game.refresh_from_db()
    assert table.status == Table.Status.ABORTED and table.stop_reason == "left"
    assert game.status == Game.Status.ABORTED and game.annulled
    page = Client().get(reverse("table", args=[table.pk])).content.decode()
    assert "Every player left the table" in page
    assert "The table has ended" in page


def test_the_last_human_resigning_ends_the_table_but_two_timeouts_leave_it_to_the_abandon_sweeper():
    table, players, _ = with_bots("biznes", 1, 3)
    table_resign(table.pk, players[0])
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED

    table, players, game = with_bots("durak", 1, 1)
    Seat.objects.filter(table=table, index=0).update(timeouts_in_row=1)
    while to_act(game) != 0:
        assert game_play_bot(game.pk, game.move_number)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    assert game_apply_timeout(game.pk, game.move_number) is True
    # away without his word: he may be back in a minute, so the table plays on for now...
    assert Seat.objects.get(table=table, index=0).away
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    # ...and the sweeper ends it once nobody came back within ABANDONED_TABLE_SECONDS
    later = timezone.now() - timedelta(seconds=settings.ABANDONED_TABLE_SECONDS + 1)
    Table.objects.filter(pk=table.pk).update(started_at=later)
    Move.objects.filter(game__table=table).update(created_at=later)
    assert tables_end_abandoned() == 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED


def test_a_human_leaving_while_another_plays_on_or_a_deadline_sending_all_away_keeps_the_table():
    table, players, _ = with_bots("durak", 2, 1)
    seat_set_away(table.pk, players[0], away=True)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    # a tournament's deadline hands every seat to the bots on purpose: they play the table out
    seat_set_away(table.pk, players[1], away=True, reason="deadline")
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_rematch_starts_when_every_human_agreed_with_the_same_seats_and_options():
    table, players, _ = with_bots("verish", 2, 1, match_length=1)
    Table.objects.filter(pk=table.pk).update(options={"kind": "suit"})
    table_resign(table.pk, players[0])  # the match (one game) is over
    assert table_rematch(table_id=table.pk, user=players[1]) is None
    end = socket_state(table.pk, players[0])["end"]
    assert end["rematch"]["agreed"] == [players[1].name] and end["rematch"]["waiting"] == [players[0].name]
    new = table_rematch(table_id=table.pk, user=players[0])
    assert new is not None and new.status == Table.Status.PLAYING and new.options == {"kind": "suit"}
    assert [(s.user_id, s.bot_level) for s in new.seats.order_by("index")] == [
        (players[0].pk, ""),
        (players[1].pk, ""),
        (None, "heuristic"),
    ]
    assert socket_state(table.pk, players[1])["end"]["rematch"]["table"] == new.pk
    assert table_rematch(table_id=table.pk, user=players[1]).pk == new.pk  # a late click goes to the same one


def test_a_rematch_is_refused_before_the_end_and_to_strangers(client):
    from lobbies.services import LobbyRefused

    table, players, _ = started_table("durak", 2)
    with pytest.raises(LobbyRefused, match="over"):
        table_rematch(table_id=table.pk, user=players[0])
    table_resign(table.pk, players[0])
    with pytest.raises(LobbyRefused, match="players"):
        table_rematch(table_id=table.pk, user=make_players(1, prefix="x")[0])


def test_new_table_starts_from_the_finished_tables_settings():
    table, players, _ = started_table("durak", 3, {"mode": "transfer"}, match_length=2)
    client = Client()
    client.force_login(players[0])
    form = client.get(reverse("table_new") + f"?game=durak&from={table.pk}").context["form"]
    assert form["opt_mode"].value() == "transfer" and form["seats"].value() == 3
    assert form["match_length"].value() == 2


def test_a_kicked_player_is_notified_and_tables_with_bots_say_unrated():
    from lobbies.selectors import table_card
    from lobbies.services import seat_add_bot, seat_join, seat_kick, table_create

    host, guest = make_players(2, prefix="k")
    table = table_create(user=host, game="biznes", options={}, seats=4)
    seat_join(table_id=table.pk, user=guest)
    assert table_card(table).rating == "rated"
    seat_kick(table_id=table.pk, user=host, index=1)
    note = Notification.objects.get(user=guest)
    assert f"#{table.pk}" in note.message and "removed you" in note.message
    seat_add_bot(table_id=table.pk, user=host)
    assert table_card(Table.objects.get(pk=table.pk)).rating == "unrated (bots)"
