from __future__ import annotations

from django.shortcuts import get_object_or_404

from accounts.models import User


def profile_user(username: str) -> User:
    """An active human player by username, or 404 (bots have no public profile yet)."""
    return get_object_or_404(User, username=username, is_active=True)
