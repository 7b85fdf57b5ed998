"""A player's finish and timeout rates, counted from the matches he played with other people as they happen."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import get_game
from reliability.models import Sitting, Tally
from reliability.selectors import COUNTED_GAMES, NEW_BELOW, mark, reliability_of
from reliability.services import tally_update
from tables.models import Game, Seat, Table
from tables.services import load_state, seat_set_away, table_apply_action, table_resign
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db


def time_out_once(game: Game) -> int:
    """The player to act lets his clock run out: the rules' default move, made by the turn timer. His seat."""
    game.refresh_from_db()
    state = load_state(game)
    seat = state.to_act()[0]
    table_apply_action(game.pk, seat, game.move_number, state.default_action(seat), by="timeout")
    return seat


def play_out(game: Game, seed: int = 1) -> None:
    play_randomly(game, random.Random(seed))


def test_a_finished_match_counts_for_every_human_at_it():
    _table, players, game = started_table("durak", 2)
    play_out(game)
    for player in players:
        assert list(Sitting.objects.filter(user=player).values_list("finished", "timed_out")) == [(True, False)]
        assert reliability_of(player.pk).games == 1


def test_leaving_counts_at_once_and_stays_counted_when_the_match_ends():
    table, (stayer, leaver), game = started_table("durak", 2)
    seat_set_away(table.pk, leaver, True)
    # walking out shows while the match goes on
    assert Tally.objects.get(user=leaver).finished == 0
    play_out(game)
    assert Sitting.objects.get(user=leaver).finished is False
    assert Sitting.objects.get(user=stayer).finished is True


def test_a_player_back_at_his_seat_by_the_end_finished_it_though_his_clock_ran_out():
    table, players, game = started_table("durak", 2)
    late = players[time_out_once(game)]
    seat_set_away(table.pk, late, True)
    seat_set_away(table.pk, late, False)  # "I'm back"
    play_out(game)
    assert list(Sitting.objects.filter(user=late).values_list("finished", "timed_out")) == [(True, True)]


def test_two_timeouts_in_a_row_hand_the_seat_to_a_bot_and_count_as_not_finished():
    table, players, game = started_table("durak", 2)
    seat = time_out_once(game)
    game.refresh_from_db()
    # the rules' default move may pass the turn; keep letting that player's clock run out until a bot takes over
    for _ in range(20):
        if Seat.objects.get(table=table, index=seat).away:
            break
        game.refresh_from_db()
        state = load_state(game)
        to_act = state.to_act()[0]
        if to_act == seat:
            time_out_once(game)
        else:
            table_apply_action(game.pk, to_act, game.move_number, random.choice(state.legal_actions(to_act)))
    assert Seat.objects.get(table=table, index=seat).away
    play_out(game)
    assert list(Sitting.objects.filter(user=players[seat]).values_list("finished", "timed_out", "reason")) == [
        (False, True, "timeouts")
    ]


def test_resigning_counts_as_finishing_where_the_rules_end_the_game_for_it():
    table, (a, _b), _game = started_table("durak", 2)
    table_resign(table.pk, a)
    ends = get_game("durak").resign_ends
    assert Sitting.objects.get(user=a).finished is ends


def test_games_with_bots_only_do_not_count():
    player = make_players(1, prefix="solo")[0]
    table, _, _game = started_table("durak", 2, players=[player, make_players(1, prefix="other")[0]])
    Seat.objects.filter(table=table, index=1).update(user=None, bot_level="heuristic")
    seat_set_away(table.pk, player, True)
    assert not Sitting.objects.filter(user=player).exists()


def test_a_tournament_rounds_clock_is_not_the_players_doing():
    table, (a, _b), game = started_table("durak", 2)
    seat_set_away(table.pk, a, True, reason="deadline")
    play_out(game)
    assert Sitting.objects.get(user=a).finished is True


def test_rates_over_the_last_games_only_and_new_players():
    _table, (player, _other), game = started_table("durak", 2)
    assert reliability_of(player.pk).new  # never counted
    play_out(game)
    assert reliability_of(player.pk).new and reliability_of(player.pk).games == 1 < NEW_BELOW
    # ten old walk-outs, then COUNTED_GAMES good games (every tenth with a timeout): the walk-outs no longer count
    now = timezone.now()
    tables = [Table.objects.create(game="durak", seats_count=2, created_by=player) for _ in range(COUNTED_GAMES + 10)]
    Sitting.objects.bulk_create(
        Sitting(user=player, table=t, at=now - timedelta(hours=100 - i), finished=i >= 10, timed_out=i % 10 == 5)
        for i, t in enumerate(tables)
    )
    tally_update([player.pk])
    mine = reliability_of(player.pk)
    assert (mine.games, mine.finished, mine.timeouts, mine.new, mine.low) == (COUNTED_GAMES, 100, 10, False, False)


def test_percentages_in_words_a_player_can_trust():
    # the finish rate rounds down (89.6% does not pass a 90% minimum), the timeout rate up (one is never 0%)
    assert mark(50, 44, 0).finished == 88 and mark(50, 44, 0).low
    assert mark(50, 45, 1) == mark(50, 45, 1) and mark(50, 45, 1).timeouts == 2 and not mark(50, 45, 1).low
    assert mark(3, 0, 3).new and not mark(3, 0, 3).low
    assert mark(0, 0, 0).new and mark(0, 0, 0).games == 0


def test_the_history_is_counted_again_from_what_the_tables_kept():
    from django.core.management import call_command

    table, (_stayer, leaver), game = started_table("durak", 2)
    time_out_once(game)
    seat_set_away(table.pk, leaver, True)
    play_out(game)
    before = sorted(Sitting.objects.values_list("user_id", "finished", "timed_out"))
    tallies = sorted(Tally.objects.values_list("user_id", "games", "finished", "timed_out"))
    Sitting.objects.all().delete()
    Tally.objects.all().delete()
    call_command("recompute_reliability", verbosity=0)
    assert sorted(Sitting.objects.values_list("user_id", "finished", "timed_out")) == before
    assert sorted(Tally.objects.values_list("user_id", "games", "finished", "timed_out")) == tallies
