"""Blocks between two players, as the apps below social ask them (the lobby's private tables, the chat).

Social owns blocks and sits above the apps that honour them, so it answers these hooks in its ``ready()``.
Unanswered (social not installed), nobody has blocked anybody.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from core.hooks import Hook

if TYPE_CHECKING:
    from accounts.models import User


def _nobody_blocked(user: User, other: User) -> bool:
    return False


#: has ``user`` blocked ``other``?
blocks: Hook[[User, User], bool] = Hook("accounts.blocks.blocks", _nobody_blocked)
#: has either of the two blocked the other?
blocked_either: Hook[[User, User], bool] = Hook("accounts.blocks.blocked_either", _nobody_blocked)


def _nobody(user_id: int) -> frozenset[int]:
    return frozenset()


#: the ids of the players this user (by id) has blocked: every chat hides their lines from him
blocked_ids: Hook[[int], frozenset[int]] = Hook("accounts.blocks.blocked_ids", _nobody)

#: the event a user's sockets get (his ``core.sockets.user_group``) when his blocks change
BLOCKS_CHANGED = "user.blocks"


def _no_pairs(user_ids: Collection[int]) -> frozenset[tuple[int, int]]:
    return frozenset()


#: of these users (by id), every pair (lower id first) of whom one has blocked the other, asked at once
blocked_pairs: Hook[[Collection[int]], frozenset[tuple[int, int]]] = Hook("accounts.blocks.blocked_pairs", _no_pairs)
