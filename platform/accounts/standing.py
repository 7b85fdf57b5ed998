"""A player's standing, as the apps below moderation ask it: banned, muted, kept from new tables.

Moderation owns sanctions and sits above the apps that must refuse a banned player (his sockets, the chat, the
lobby, challenges, a table he watches), so it answers these hooks in its ``ready()``. Unanswered (moderation not
installed), nobody is banned, muted or refused.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from core.hooks import Hook


def _nobody(user_id: int) -> str | None:
    return None


def _anybody_may_play(user: Any) -> str | None:
    return None


#: why this user (by id) is banned now, in words for him, or None
ban_message: Hook[[int], str | None] = Hook("accounts.standing.ban_message", _nobody)
#: why this user (by id) may not chat now (a moderator's mute), in words for him, or None
mute_message: Hook[[int], str | None] = Hook("accounts.standing.mute_message", _nobody)
#: why this user (a user object, possibly anonymous) may not start or join a table now, or None
play_refusal: Hook[[Any], str | None] = Hook("accounts.standing.play_refusal", _anybody_may_play)


def _nobody_refused(user_ids: Collection[int]) -> frozenset[int]:
    return frozenset()


#: of these users (by id), those who may not start or join a table now, asked at once (a table starting)
play_refused: Hook[[Collection[int]], frozenset[int]] = Hook("accounts.standing.play_refused", _nobody_refused)


def talk_refusal(user_id: int) -> str | None:
    """Why this user may not write to anybody now (banned or muted), or None."""
    return ban_message(user_id) or mute_message(user_id)
