from __future__ import annotations

from django.shortcuts import get_object_or_404

from accounts.models import User


def profile_user(username: str) -> User:
    """An active account by username (a player or a bot), or 404."""
    return get_object_or_404(User, username=username, is_active=True)


def profile_games_played(user: User) -> int:
    """Finished games at any table (rated or not) in which ``user`` held a seat."""
    from tables.models import Game

    return Game.objects.filter(status=Game.Status.FINISHED, table__seats__user=user).count()


def bot_levels(user: User) -> list[dict]:
    """For a named bot: each level it has played at, with the account its rated results count for.

    A named bot carries no rating of its own (``accounts.bots``): its strength is its
    level's, so its profile shows the levels it played at and their current ratings.
    """
    from accounts.bots import LEVEL_WORDS
    from games.bots import LEVELS
    from leaderboards.selectors import current_ratings
    from tables.models import Seat

    if not user.is_bot:
        return []
    played = set(Seat.objects.filter(user=user).exclude(bot_level="").values_list("bot_level", flat=True))
    accounts = {u.username: u for u in User.objects.filter(username__in=[f"bot-{level}" for level in played])}
    shown = [(level, accounts[f"bot-{level}"]) for level in LEVELS if f"bot-{level}" in accounts]  # weakest first
    rated = current_ratings([account.pk for _level, account in shown])
    return [
        {"word": LEVEL_WORDS.get(level, level), "account": account, "ratings": rated[account.pk]}
        for level, account in shown
        if account != user
    ]
