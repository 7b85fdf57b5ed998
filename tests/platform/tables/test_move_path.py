"""A player's move from his socket: what the socket's own snapshot tells the service, and what is still
checked under the game's lock (his seat, a bot playing it, a stale position)."""

import pytest

from tables.models import Game, Move, Seat
from tables.selectors import seat_view
from tables.services import ActionRefused, table_player_action
from tests.platform.tables.factories import started_table


def to_act(game: Game) -> int:
    return seat_view(game, None)["view"]["to_act"][0]


@pytest.mark.django_db
def test_a_move_against_the_sockets_position_lands_in_a_handful_of_queries(django_assert_max_num_queries):
    table, players, game = started_table("durak", 2)
    seat = to_act(game)
    action = seat_view(game, seat)["legal"][0]
    # lock the game, read the seats, write the move and the game (plus the transaction's own statements and,
    # on PostgreSQL, not waiting for the disk: see test_durability)
    with django_assert_max_num_queries(7):
        table_player_action(table.pk, players[seat], 0, action, known=(game.pk, 0, seat))
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_an_older_move_than_the_socket_was_sent_is_refused_without_a_query(django_assert_num_queries):
    table, players, game = started_table("durak", 2)
    seat = to_act(game)
    with django_assert_num_queries(0), pytest.raises(ActionRefused) as refused:
        table_player_action(table.pk, players[seat], 3, {"type": "take"}, known=(game.pk, 7, seat))
    assert refused.value.code == "stale" and "move 3" in str(refused.value)


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["another seat", "another game's seat", "away"])
def test_what_the_socket_says_is_checked_under_the_lock(case):
    table, players, game = started_table("durak", 2)
    seat = to_act(game)
    action = seat_view(game, seat)["legal"][0]
    user, known = players[seat], (game.pk, 0, seat)
    if case == "another seat":
        known = (game.pk, 0, 1 - seat)  # a forged or mistaken seat: not his
    elif case == "another game's seat":
        _, _, other_game = started_table("durak", 2)
        known = (other_game.pk, 0, seat)
    else:
        Seat.objects.filter(table=table, index=seat).update(away=True)
    with pytest.raises(ActionRefused) as refused:
        table_player_action(table.pk, user, 0, action, known=known)
    assert refused.value.code == ("away" if case == "away" else "not_seated")
    assert not Move.objects.exists()
    assert Game.objects.get(pk=game.pk).move_number == 0
