"""The Biznes discard is secret while the deal runs; the replay says when it is revealed."""

import json
import random

import pytest
from django.test import Client

from tables.models import Game, Move
from tables.selectors import seat_view, socket_state
from tables.services import table_apply_action
from tests.platform.tables.factories import play_randomly, started_table

pytestmark = pytest.mark.django_db


def play_until_discarded(game: Game, rng: random.Random) -> tuple[int, list[str]]:
    for _ in range(200):
        game.refresh_from_db()
        seat = seat_view(game, None)["view"]["to_act"][0]
        action = rng.choice(seat_view(game, seat)["legal"])
        table_apply_action(game.pk, seat, game.move_number, action)
        if action["type"] == "discard":
            return seat, action["cards"]
    raise AssertionError("no discard")


def test_the_discard_stays_secret_while_the_deal_runs_and_the_replay_says_when_it_is_revealed():
    rng = random.Random(5)
    table, players, game = started_table("biznes", 5, {"deck": 54})  # a four-card widow
    declarer, discarded = play_until_discarded(game, rng)
    game.refresh_from_db()
    # widow cards were shown to everyone (B2) before any was discarded: the rest is the secret
    discard = set(discarded) - set(seat_view(game, None)["view"]["widow"])
    for seat in [s for s in range(5) if s != declarer] + [None]:
        user = players[seat] if seat is not None else None
        public = json.dumps(socket_state(table.pk, user)["public"])
        assert not any(f'"{card}"' in public for card in discard), f"seat {seat} sees the discard"
        client = Client()
        if user is not None:
            client.force_login(user)
        page = client.get(f"/tables/{table.pk}/").content.decode()
        assert not any(f'data-card="{card}"' in page for card in discard)
        # no replay of a deal still being played, not even for the players at the table
        assert client.get(f"/games/{game.pk}/replay").status_code == 404
    logged = " ".join(Move.objects.filter(game=game).values_list("text", flat=True))
    assert not any(card in logged for card in discard)

    assert discard or set(discarded) <= set(seat_view(game, None)["view"]["widow"])
    play_randomly(game, rng)
    replay = Client().get(f"/games/{game.pk}/replay?step=0").content.decode()
    assert "discard stays secret while the deal is played" in replay
    assert "Once the deal is over this replay shows every hand and the whole deck" in replay
