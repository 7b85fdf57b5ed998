"""Turn timers and absent players: a missed turn gets the rules' default move, exactly once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import tasks
from tables.models import Game, Move, Seat
from tables.selectors import seat_view
from tables.services import game_apply_timeout, game_play_bot, seat_set_away, table_apply_action
from tests.platform.tables.factories import started_table

pytestmark = pytest.mark.django_db


def overdue(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    game.refresh_from_db()
    return game


def mover_of(game: Game) -> int:
    return seat_view(game, None)["view"]["to_act"][0]


def test_a_turn_gets_a_deadline_from_the_table_turn_time():
    table, _, game = started_table("durak", 2)
    assert game.deadline is not None
    seconds = (game.deadline - game.turn_started_at).total_seconds()
    assert seconds == pytest.approx(table.turn_seconds, abs=1)


def test_timeout_delivered_twice_applies_the_default_move_once():
    _, _, game = started_table("durak", 2)
    mover = mover_of(game)
    expected = seat_view(game, mover)  # the engine's default: lowest card, non-trump first
    overdue(game)
    assert game_apply_timeout(game.pk, 0) is True
    assert game_apply_timeout(game.pk, 0) is False
    moves = list(Move.objects.filter(game=game))
    assert len(moves) == 1 and moves[0].by == "timeout" and moves[0].seat == mover
    assert moves[0].action["type"] == "attack" and len(moves[0].action["cards"]) == 1
    assert moves[0].action["cards"][0] in expected["view"]["hand"]
    assert Seat.objects.get(table=game.table, index=mover).timeouts_in_row == 1


def test_a_task_that_fires_early_or_after_the_move_does_nothing():
    _, _, game = started_table("verish", 3)
    assert game_apply_timeout(game.pk, 0) is False  # deadline not reached
    mover = mover_of(game)
    table_apply_action(game.pk, mover, 0, seat_view(game, mover)["legal"][0])
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    assert game_apply_timeout(game.pk, 0) is False  # scheduled for move 0: stale
    assert Move.objects.filter(game=game).count() == 1


def test_the_sweeper_recovers_a_lost_task():
    _, _, game = started_table("biznes", 4)
    overdue(game)  # its task never ran (worker killed, broker restarted)
    assert tasks.sweep_overdue_turns.apply().get() == 1
    game.refresh_from_db()
    assert game.move_number == 1 and game.deadline > timezone.now()
    assert Move.objects.get(game=game).action == {"type": "pass"}  # B: a timed-out bidder passes
    assert tasks.sweep_overdue_turns.apply().get() == 0


def test_two_timeouts_in_a_row_mark_the_player_away_and_a_bot_plays_for_him():
    table, players, game = started_table("durak", 2)
    mover = mover_of(game)
    overdue(game)
    game_apply_timeout(game.pk, game.move_number)
    game.refresh_from_db()
    while mover_of(game) != mover:  # the other player answers; our man is slow again
        other = mover_of(game)
        table_apply_action(game.pk, other, game.move_number, seat_view(game, other)["legal"][0])
        game.refresh_from_db()
    overdue(game)
    game_apply_timeout(game.pk, game.move_number)
    seat = Seat.objects.get(table=table, index=mover)
    assert seat.away and seat.timeouts_in_row == 2
    game.refresh_from_db()
    while mover_of(game) != mover:
        other = mover_of(game)
        table_apply_action(game.pk, other, game.move_number, seat_view(game, other)["legal"][0])
        game.refresh_from_db()
    assert game_play_bot(game.pk, game.move_number) is True  # the stand-in moves for him
    game.refresh_from_db()
    assert game.bot_substituted
    assert Move.objects.filter(game=game).order_by("-number").first().by == "stand-in"
    seat_set_away(table.pk, players[mover], away=False)  # "I'm back"
    seat.refresh_from_db()
    # only a move of his own clears the count: away/back must not reset it
    assert not seat.away and seat.timeouts_in_row == 2


def test_leave_and_back_on_your_own_turn_never_extends_it_nor_resets_the_count():
    """Toggling Leave / I'm back on one's own turn used to restart the clock."""
    from tables.models import Table

    table, players, game = started_table("durak", 2)
    Table.objects.filter(pk=table.pk).update(time_bank_seconds=60)
    mover = mover_of(game)
    Seat.objects.filter(table=table, index=mover).update(timeouts_in_row=1, time_bank_left=20)
    # 50 of the 60 seconds of this turn are already gone
    started = timezone.now() - timedelta(seconds=50)
    Game.objects.filter(pk=game.pk).update(turn_started_at=started, deadline=started + timedelta(seconds=80))
    for _ in range(3):
        seat_set_away(table.pk, players[mover], away=True)
        seat_set_away(table.pk, players[mover], away=False)
    game.refresh_from_db()
    seat = Seat.objects.get(table=table, index=mover)
    assert seat.timeouts_in_row == 1 and seat.time_bank_left == 20
    assert game.turn_started_at == started
    assert game.deadline == started + timedelta(seconds=table.turn_seconds + 20)
    # once the turn's time is all gone, coming back gives no new time: the timer acts at once
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=500))
    seat_set_away(table.pk, players[mover], away=True)
    seat_set_away(table.pk, players[mover], away=False)
    game.refresh_from_db()
    assert game.deadline <= timezone.now()
    assert game_apply_timeout(game.pk, game.move_number) is True
    assert Seat.objects.get(table=table, index=mover).timeouts_in_row == 2


def test_a_bot_does_not_move_for_a_present_human():
    _, _, game = started_table("durak", 2)
    assert game_play_bot(game.pk, 0) is False
    assert not Move.objects.exists()


def test_the_time_bank_extends_turns_and_is_spent_by_overrunning():
    from tables.models import Table
    from tables.services import match_start
    from tests.platform.tables.factories import make_players

    players = make_players(2, prefix="bank")
    table = Table.objects.create(
        game="durak", seats_count=2, created_by=players[0], turn_seconds=30, time_bank_seconds=60
    )
    for i, user in enumerate(players):
        Seat.objects.create(table=table, index=i, user=user)
    game = match_start(table)
    mover = mover_of(game)
    assert (game.deadline - game.turn_started_at).total_seconds() == pytest.approx(90, abs=1)
    # the player thinks 50 s: 20 s over the turn time come out of his bank
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=50))
    table_apply_action(game.pk, mover, 0, seat_view(game, mover)["legal"][0])
    assert Seat.objects.get(table=table, index=mover).time_bank_left == pytest.approx(40, abs=1)
    assert Seat.objects.get(table=table, index=1 - mover).time_bank_left == 60
