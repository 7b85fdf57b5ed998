"""Social reads: friends and who is online where, challenges, notifications, live games, game history."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bots import LEVEL_WORDS
from accounts.models import User
from core.prepared import Prepared
from games import get_game
from games.bots import LEVELS
from leaderboards.selectors import current_ratings
from notifications.selectors import notification_payload, unread_of
from scoring.selectors import head_to_head
from social import presence
from social.models import AVATARS, DEFAULT_AVATAR, Block, Challenge, Friendship, Profile
from tables.models import Game, Seat


def is_blocked(a: User, b: User) -> bool:
    """Has either of the two blocked the other? (Chat and the lobby ask here too.)"""
    return Block.objects.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a)).exists()


#: written once per process (and count of players): "Play now" asks it on every click that could make a group
_BLOCKED_AMONG = Prepared(
    lambda ids: Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list("blocker_id", "blocked_id")
)


def blocked_pairs(user_ids: Collection[int]) -> frozenset[tuple[int, int]]:
    """Of these players, each pair (lower id first) of whom one blocked the other, in one query."""
    return frozenset((min(a, b), max(a, b)) for a, b in _BLOCKED_AMONG.rows(list(user_ids)))


def blocked_ids(user_id: int) -> frozenset[int]:
    """The players ``user_id`` has blocked."""
    return frozenset(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocks(user: User, other: User) -> bool:
    """Has ``user`` blocked ``other``?"""
    return Block.objects.filter(blocker=user, blocked=other).exists()


def friend_ids(user: User) -> list[int]:
    rows = Friendship.objects.filter(Q(from_user=user) | Q(to_user=user), status=Friendship.Status.ACCEPTED)
    return [r.to_user_id if r.from_user_id == user.pk else r.from_user_id for r in rows.only("from_user", "to_user")]


def friendship_state(user: User, other: User) -> str:
    """ "friends", "sent" (user asked), "received" (other asked) or "" between two players."""
    if not user.is_authenticated or user.pk == other.pk:
        return ""
    row = Friendship.objects.filter(Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)).first()
    if row is None:
        return ""
    if row.status == Friendship.Status.ACCEPTED:
        return "friends"
    return "sent" if row.from_user_id == user.pk else "received"


def table_mates(user: User | AnonymousUser, usernames: list[str]) -> list[dict[str, Any]]:
    """The other human players of a table, each with ``user``'s friendship state towards him (one query each way)."""
    if not user.is_authenticated:
        return []
    others = list(User.objects.filter(username__in=usernames, is_bot=False).exclude(pk=user.pk))
    rows = Friendship.objects.filter(
        Q(from_user=user, to_user__in=others) | Q(to_user=user, from_user__in=others)
    ).values_list("from_user_id", "to_user_id", "status")
    state: dict[int, str] = {}
    for from_id, to_id, status in rows:
        other_id = to_id if from_id == user.pk else from_id
        if status == Friendship.Status.ACCEPTED:
            state[other_id] = "friends"
        else:
            state[other_id] = "sent" if from_id == user.pk else "received"
    blocked = set(Block.objects.filter(blocker=user, blocked__in=others).values_list("blocked_id", flat=True))
    return [{"user": o, "friendship": state.get(o.pk, ""), "blocked": o.pk in blocked} for o in others]


def where_label(where: list[str]) -> tuple[str, int | None]:
    """The most telling place among a player's tabs, in words, with the table it names."""
    for prefix, label in (("table:", _("at table #%(id)s")), ("watching:", _("watching table #%(id)s"))):
        for w in where:
            if w.startswith(prefix):
                table = int(w.split(":", 1)[1])
                return label % {"id": table}, table
    if "private" in where:
        return _("at a private table"), None
    if "lobby" in where:
        return _("in the lobby"), None
    return _("online"), None


@dataclass(frozen=True)
class FriendRow:
    user: User
    online: bool
    where: str
    table: int | None


def friends_of(user: User) -> list[FriendRow]:
    """Friends, the online ones first, each with where he is."""
    friends = list(User.objects.filter(pk__in=friend_ids(user), is_bot=False).select_related("social_profile"))
    online = presence.online_where([f.pk for f in friends])
    rows = []
    for friend in friends:
        where, table = where_label(online[friend.pk]) if friend.pk in online else ("", None)
        rows.append(FriendRow(friend, friend.pk in online, where, table))
    rows.sort(key=lambda r: (not r.online, r.user.name.lower()))
    return rows


def friend_requests_to(user: User) -> list[Friendship]:
    return list(Friendship.objects.filter(to_user=user, status=Friendship.Status.PENDING).select_related("from_user"))


def friend_requests_from(user: User) -> list[Friendship]:
    return list(Friendship.objects.filter(from_user=user, status=Friendship.Status.PENDING).select_related("to_user"))


def blocked_by(user: User) -> list[User]:
    return [b.blocked for b in Block.objects.filter(blocker=user).select_related("blocked")]


def user_online(user: User) -> bool:
    return not user.is_bot and presence.is_online(user.pk)


# -- challenges ----------------------------------------------------------------------


def challenges_for(user: User) -> dict[str, list[Challenge]]:
    """Pending challenges to and from ``user`` (expired ones left out)."""
    pending = Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__gt=timezone.now())
    return {
        "incoming": list(pending.filter(to_user=user).select_related("from_user")),
        "outgoing": list(pending.filter(from_user=user).select_related("to_user")),
    }


def challenge_for(user: User, challenge_id: int) -> Challenge | None:
    """A challenge ``user`` sent or received."""
    return (
        Challenge.objects.filter(Q(from_user=user) | Q(to_user=user), pk=challenge_id)
        .select_related("from_user", "to_user", "table")
        .first()
    )


# -- notifications -------------------------------------------------------------------


def socket_hello(user: User, limit: int = 10) -> dict[str, Any]:
    """On (re)connect: the unread count and the newest unread notifications, so nothing sent while away is lost."""
    count, unread = unread_of(user, limit)
    return {
        "type": "hello",
        "unread": count,
        "notifications": [notification_payload(n) for n in unread],
        "heartbeat": presence.heartbeat(),
    }


# -- profile -------------------------------------------------------------------------


def profile_user(username: str) -> User:
    """An active account by username (a player or a bot), or 404."""
    return get_object_or_404(User, username=username, is_active=True)


@dataclass(frozen=True)
class HeadToHeadRow:
    title: str
    together: int
    ahead: int
    behind: int
    level: int


def profile_head_to_head(viewer: User | AnonymousUser, player: User) -> list[HeadToHeadRow] | None:
    """The signed-in viewer's record against ``player``, per game, from the viewer's side; None where a record
    means nothing (signed out, his own profile, a bot on either side)."""
    if not viewer.is_authenticated or viewer.pk == player.pk or viewer.is_bot or player.is_bot:
        return None
    return [
        HeadToHeadRow(_(get_game(r.game).title), r.together, r.ahead, r.behind, r.level)
        for r in head_to_head(viewer.pk, player.pk)
    ]


def profile_games_played(user: User) -> int:
    """Finished games at any table (rated or not) in which ``user`` held a seat."""
    return Game.objects.filter(status=Game.Status.FINISHED, table__seats__user=user).count()


def bot_levels(user: User) -> list[dict[str, Any]]:
    """For a named bot: each level it has played at, with the account its rated results count for.

    A named bot carries no rating of its own (``accounts.bots``): its strength is its
    level's, so its profile shows the levels it played at and their current ratings.
    """
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


def profile_of(user: User) -> Profile:
    """The user's profile (an unsaved default one if he never edited it)."""
    try:
        return user.social_profile
    except Profile.DoesNotExist:
        return Profile(user=user, avatar=DEFAULT_AVATAR)


def avatar_choices() -> list[tuple[str, Any]]:
    return list(AVATARS)


def country_flag(code: str) -> str:
    """The flag emoji of an ISO 3166-1 alpha-2 code (two regional indicator letters)."""
    if len(code) != 2 or not code.isalpha():
        return ""
    return "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in code.upper())
