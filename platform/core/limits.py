"""Per-user limits on actions that broadcast (a rematch vote, a registration): a fixed window in the shared
cache (Redis), so every process and socket of one user counts together."""

from __future__ import annotations

import time

from django.core.cache import cache


def within_limit(action: str, user_id: int, *, most: int, seconds: int) -> bool:
    """Count one ``action`` of this user; False once he has done it ``most`` times in this ``seconds`` window."""
    window = int(time.time() // seconds)
    key = f"limit:{action}:{user_id}:{window}"
    if cache.add(key, 1, seconds * 2):
        return most >= 1
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, count := 1, seconds * 2)
    return count <= most
