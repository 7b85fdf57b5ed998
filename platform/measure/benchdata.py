"""Bulk fixtures for the speed tests and ``bench_leaderboards``: players, finished games and rating rows.

The rating rows are written directly (a random walk), not computed by playing,
so 10,000 games take seconds; what is measured is reading them.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from accounts.models import User
from games import GAMES, get_game
from leaderboards import ratings
from leaderboards.models import PlayerRating, RatingChange
from tables.models import Game, Match, Seat, Table

GAMES_PER_TABLE = 5
SEATS = 3


def build(players: int = 1000, games: int = 10_000, seed: int = 1, prefix: str = "bench") -> list[User]:
    """``players`` humans and ``games`` finished rated games over the last 90 days; returns the players."""
    rng = random.Random(seed)
    now = timezone.now()
    names = list(GAMES)
    users = User.objects.bulk_create(
        User(username=f"{prefix}-{i:05d}", display_name=f"Bench {i}", email=f"{prefix}{i}@example.com", password="!")
        for i in range(players)
    )
    tables = Table.objects.bulk_create(
        Table(
            game=names[t % len(names)],
            seats_count=SEATS,
            created_by=users[0],
            status=Table.Status.FINISHED,
            match_length=GAMES_PER_TABLE,
        )
        for t in range(games // GAMES_PER_TABLE)
    )
    matches = Match.objects.bulk_create(Match(table=t, finished=True) for t in tables)
    seated = {t.pk: rng.sample(users, SEATS) for t in tables}
    Seat.objects.bulk_create(Seat(table=t, index=i, user=u) for t in tables for i, u in enumerate(seated[t.pk]))
    span = timedelta(days=90) / games
    rows = []
    for n in range(games):
        t = n // GAMES_PER_TABLE
        rows.append(
            Game(
                match=matches[t],
                table=tables[t],
                number=n % GAMES_PER_TABLE + 1,
                dealer=0,
                options={},
                deck=[],
                salt="",
                commitment="",
                state={},
                status=Game.Status.FINISHED,
                result={"finished": [0, 1], "loser": 2},
                finished_at=now - span * (games - n),
            )
        )
    game_rows = Game.objects.bulk_create(rows, batch_size=1000)
    current: dict[tuple[int, str], list[float]] = {}
    changes = []
    for game in game_rows:
        assert game.finished_at is not None  # every row above has it
        name = game.table.game
        for place, user in enumerate(seated[game.table_id], start=1):
            mu, sigma, count = current.get((user.pk, name), [ratings.MODEL.mu, ratings.MODEL.sigma, 0])
            new_mu, new_sigma = mu + rng.gauss(0, 1.0), max(sigma * 0.96, 1.5)
            current[(user.pk, name)] = [new_mu, new_sigma, count + 1]
            changes.append(
                RatingChange(
                    user=user,
                    game=name,
                    played_game=game,
                    at=game.finished_at,
                    place=place,
                    won=place == 1,
                    lost=place == SEATS,
                    points_halves=rng.randint(-20, 30) if get_game(name).loss_words is None else None,
                    deals=6 if get_game(name).loss_words is None else None,
                    mu_before=mu,
                    sigma_before=sigma,
                    mu_after=new_mu,
                    sigma_after=new_sigma,
                    rating_before=ratings.display(mu, sigma),
                    rating_after=ratings.display(new_mu, new_sigma),
                )
            )
    RatingChange.objects.bulk_create(changes, batch_size=2000)
    PlayerRating.objects.bulk_create(
        PlayerRating(
            user_id=uid,
            game=name,
            mu=mu,
            sigma=sigma,
            rating=ratings.display(mu, sigma),
            games=count,
            updated_at=now,
        )
        for (uid, name), (mu, sigma, count) in current.items()
    )
    return users
