"""The leaderboard says in plain words what a provisional rating is, and lists the players still finding their
level, so a new site's board is not an empty page."""

from __future__ import annotations

import html
import re

import pytest
from django.utils import timezone

from accounts.models import User
from leaderboards.models import PlayerRating

pytestmark = pytest.mark.django_db


def rated(name: str, sigma: float, rating: float, games: int, game: str = "durak") -> User:
    user = User.objects.create_user(name, f"{name}@example.com", "pw-cards-123", display_name=name.title())
    PlayerRating.objects.create(
        user=user, game=game, mu=25, sigma=sigma, rating=rating, games=games, updated_at=timezone.now()
    )
    return user


def test_new_players_are_listed_while_no_rating_has_settled(client):
    rated("nadia", sigma=7.5, rating=1040, games=3)
    rated("oleg", sigma=8.0, rating=990, games=1)
    rated("veteran", sigma=7.0, rating=1100, games=5, game="verish")  # another game's
    page = html.unescape(re.sub(r"<(?!h2)[^>]+>", "", client.get("/leaderboards/durak/").content.decode()))
    assert "OpenSkill" not in page and "μ" not in page and "σ" not in page  # noqa: RUF001
    assert "provisional" in page and "Everyone starts at 1000" in page
    assert "No rating has settled yet" in page
    newcomers = page[page.index("Still finding their level") :]
    assert "Nadia" in newcomers and "1040?" in newcomers and "Oleg" in newcomers
    assert "Veteran" not in newcomers


def test_a_settled_player_is_on_the_board_and_not_among_newcomers(client):
    rated("sonia", sigma=4.0, rating=1200, games=30)
    rated("timur", sigma=7.9, rating=1010, games=2)
    page = html.unescape(client.get("/leaderboards/durak/").content.decode())
    board, newcomers = page.split("Still finding their level")
    assert "Sonia" in board and "Sonia" not in newcomers and "Timur" in newcomers


def test_an_empty_board_says_nobody_has_played(client):
    page = html.unescape(client.get("/leaderboards/durak/").content.decode())
    assert "Nobody has played a rated game of this yet." in page and "Still finding" not in page
