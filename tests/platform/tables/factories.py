"""Tables with players already seated, for tests."""

from __future__ import annotations

import random
from typing import Any

from accounts.models import User
from tables.models import Game, Seat, Table
from tables.services import match_start, table_apply_action


def make_players(count: int, prefix: str = "p") -> list[User]:
    return [
        User.objects.create_user(f"{prefix}{i}", f"{prefix}{i}@example.com", "pw-cards-123", display_name=f"Player {i}")
        for i in range(count)
    ]


def started_table(
    game: str,
    seats: int,
    options: dict[str, Any] | None = None,
    *,
    match_length: int = 1,
    match_options: dict[str, Any] | None = None,
    private: bool = False,
    players: list[User] | None = None,
) -> tuple[Table, list[User], Game]:
    players = players or make_players(seats, prefix=f"{game[:2]}{Table.objects.count()}-")
    table = Table.objects.create(
        game=game,
        options=options or {},
        seats_count=seats,
        created_by=players[0],
        match_length=match_length,
        match_options=match_options or {},
        private=private,
    )
    for i, user in enumerate(players):
        Seat.objects.create(table=table, index=i, user=user)
    return table, players, match_start(table)


def play_randomly(game: Game, rng: random.Random, max_moves: int = 5000) -> Game:
    """Play random legal moves through the service until this game is over."""
    from tables.selectors import seat_view

    for _ in range(max_moves):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        seat = seat_view(game, None)["view"]["to_act"][0]
        legal = seat_view(game, seat)["legal"]
        table_apply_action(game.pk, seat, game.move_number, rng.choice(legal))
    raise AssertionError("the game did not end")
