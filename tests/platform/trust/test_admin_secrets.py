"""Staff pages keep a running game's secrets: no deck order, salt, hands or hidden move actions until it is over."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from accounts.models import User
from moderation import services
from tables.models import Game, Move
from tables.selectors import seat_view
from tables.services import table_apply_action
from tests.platform.tables.factories import play_randomly, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    user = User.objects.create_user("mod", "mod@example.com", "pw-cards-123")
    services.moderator_add(user)
    return user


def _secrets(game: Game) -> list[str]:
    """Strings that only a running game's secrets contain: the salt, the deck's order, a hand."""
    hand = next(iter(game.state["hands"])) if isinstance(game.state.get("hands"), list) else None
    found = [game.salt, json.dumps(game.deck[:4])[1:-1]]
    if hand:
        found.append(json.dumps(hand)[1:-1])
    return found


def test_a_running_games_admin_page_shows_no_secret_until_the_game_is_over(client, moderator):
    _table, _players, game = started_table("durak", 2)
    play_randomly_moves = random.Random(3)

    for _ in range(3):  # a few moves, so the move log has hidden actions too
        game.refresh_from_db()
        seat = seat_view(game, None)["view"]["to_act"][0]
        table_apply_action(game.pk, seat, game.move_number, play_randomly_moves.choice(seat_view(game, seat)["legal"]))
    game.refresh_from_db()
    client.force_login(moderator)
    page = client.get(reverse("admin:tables_game_change", args=[game.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    for secret in _secrets(game):
        assert secret not in text, secret
    assert game.commitment in text  # the public commitment stays
    move = Move.objects.filter(game=game).first()
    move_page = client.get(reverse("admin:tables_move_change", args=[move.pk])).content.decode()
    assert json.dumps(move.action)[1:-1] not in move_page
    assert move.text in move_page

    # once the game is over, the admin shows what the replay shows
    play_randomly(game, random.Random(4))
    game.refresh_from_db()
    text = client.get(reverse("admin:tables_game_change", args=[game.pk])).content.decode()
    assert game.salt in text
