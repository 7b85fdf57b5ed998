"""Odd tokens get a clear 4xx and change nothing; private stays private."""

import pytest

from lobbies import services
from tables.models import Game, Seat
from tests.platform.tables.factories import play_randomly, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(host):
    return services.table_create(user=host, game="durak", options={}, seats=2, private=True)


def test_a_non_ascii_invite_on_a_private_table_page_is_a_clear_400(private_table, make_user, client_of):
    client = client_of(make_user())
    response = client.get(f"/tables/{private_table.pk}/?invite=%C3%A9")
    assert response.status_code == 400 and b"invite link is not valid" in response.content


def test_a_token_with_a_slash_on_the_seats_poll_is_a_clear_400(durak_table, make_user, client_of):
    response = client_of(make_user()).get(f"/play/{durak_table.pk}/seats/?token=a/b")
    assert response.status_code == 400 and b"invite link is not valid" in response.content


def test_a_join_with_a_malformed_token_changes_nothing(durak_table, make_user, client_of):
    guest = make_user()
    response = client_of(guest).post(f"/play/{durak_table.pk}/join/", {"token": "a/b"})
    assert response.status_code == 400 and b"invite link is not valid" in response.content
    assert not Seat.objects.filter(table=durak_table, user=guest).exists()
    assert not Game.objects.filter(table=durak_table).exists()  # the table did not start either


def test_private_games_are_not_listed_on_a_public_profile(make_user, client_of):
    import random

    _, players, game = started_table("durak", 2, private=True)
    play_randomly(game, random.Random(3))
    replay = f"/games/{game.pk}/replay".encode()
    stranger = client_of(make_user())
    assert replay not in stranger.get(f"/u/{players[0].username}/").content
    assert replay in client_of(players[0]).get(f"/u/{players[0].username}/").content


def test_a_replay_answers_the_same_404_for_unfinished_and_missing_games(make_user, client_of):
    _, _, running = started_table("durak", 2, private=True)
    stranger = client_of(make_user())
    unfinished = stranger.get(f"/games/{running.pk}/replay")
    missing = stranger.get("/games/999999/replay")
    assert unfinished.status_code == missing.status_code == 404
    assert unfinished.content == missing.content
    # nor does a message about it wait on the stranger's next page
    assert b"once the game is over" not in stranger.get("/play/").content
