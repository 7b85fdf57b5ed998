from __future__ import annotations

from django.shortcuts import get_object_or_404

from accounts.models import User


def profile_user(username: str) -> User:
    """An active human player by username, or 404 (bots have no public profile yet)."""
    return get_object_or_404(User, username=username, is_active=True)


def profile_games_played(user: User) -> int:
    """Finished games at any table (rated or not) in which ``user`` held a seat."""
    from tables.models import Game

    return Game.objects.filter(status=Game.Status.FINISHED, table__seats__user=user).count()
