"""Social writes: friend requests, blocks, challenges, notifications and the profile.

Every refusal raises ``SocialRefused`` with a message for the player and
changes nothing. Notifications are rows written in the action's transaction
and pushed to the player's presence sockets after commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import blocks, standing
from accounts.models import User
from accounts.names import NameRefused, display_name_check
from core import outbox
from core.sockets import user_group
from core.text import TextRefused, clean_text
from lobbies import selectors as lobby_selectors
from lobbies.services import LobbyRefused, seat_join, seek_leave, table_create
from notifications.models import Notification
from notifications.services import notification_mark_read, notification_send
from social.models import AVATARS, BIO_MAX, Block, Challenge, Friendship, Profile
from social.selectors import is_blocked

if TYPE_CHECKING:
    from tables.models import Table

#: a challenge waits this long for an answer
CHALLENGE_TTL = timedelta(minutes=10)
#: pending outgoing challenges per player; friend requests and challenges per hour
MAX_PENDING_CHALLENGES = 5
HOURLY = {"friend_request": 30, "challenge": 30}


class SocialRefused(ValueError):
    """A social action that changed nothing; the message is shown to the player."""


def social_group(user_id: int) -> str:
    """The channel group of a user's presence sockets (and only those: other consumers never see its events)."""
    return f"social-{user_id}"


def _push(user_id: int, event: dict[str, Any]) -> None:
    outbox.group_send(social_group(user_id), event)


def _limit(user: User, action: str) -> None:
    """At most ``HOURLY[action]`` of an action per user per hour, across every process (the Redis cache)."""
    key = f"social-limit:{action}:{user.pk}:{int(timezone.now().timestamp() // 3600)}"
    cache.add(key, 0, 3600)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, count := 1, 3600)
    if count > HOURLY[action]:
        raise SocialRefused(_("Too many requests in the last hour: try again later."))


def _check_human(user: User, other: User) -> None:
    if other.pk == user.pk:
        raise SocialRefused(_("That is you."))
    if other.is_bot or not other.is_active:
        raise SocialRefused(_("This player cannot be added or challenged."))


# -- notifications -------------------------------------------------------------------


def turn_notify(user_id: int, table_id: int, game_name: str) -> None:
    """ "Your turn" at a table, to the user's open tabs only: a turn is over long before he could be back."""
    _push(
        user_id,
        {"type": "social.turn", "table": table_id, "url": _table_url(table_id), "game": game_name},
    )


def _table_url(table_id: int) -> str:
    """The table's page, reversed once per table (a turn's push follows every move: 13 -> 5 us, in a shell)."""
    return _reversed_table_url(table_id, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)


@lru_cache(maxsize=4096)
def _reversed_table_url(table_id: int, prefix: str, urlconf: str) -> str:
    return reverse("table", args=[table_id], urlconf=urlconf)  # (``reverse`` reads the same prefix itself)


# -- friends and blocks --------------------------------------------------------------


def _pair(a: User, b: User) -> Q:
    return Q(from_user=a, to_user=b) | Q(from_user=b, to_user=a)


@transaction.atomic
def friend_request_send(user: User, other: User) -> Friendship:
    """Ask ``other`` to be friends; if he already asked, this accepts his request."""
    _check_human(user, other)
    if is_blocked(user, other):
        raise SocialRefused(_("You cannot add this player."))
    existing = Friendship.objects.select_for_update().filter(_pair(user, other)).first()
    if existing is not None:
        if existing.status == Friendship.Status.ACCEPTED:
            raise SocialRefused(_("You are already friends."))
        if existing.from_user_id == user.pk:
            raise SocialRefused(_("You have already asked; waiting for an answer."))
        return friend_request_accept(user, other)
    _limit(user, "friend_request")
    try:
        with transaction.atomic():
            friendship = Friendship.objects.create(from_user=user, to_user=other)
    except IntegrityError:
        raise SocialRefused(_("You have already asked; waiting for an answer.")) from None
    notification_send(
        other,
        Notification.Kind.FRIEND_REQUEST,
        gettext_noop("%(name)s wants to be your friend."),
        reverse("friends"),
        {"name": user.name},
        caused_by=user,
    )
    return friendship


@transaction.atomic
def friend_request_accept(user: User, other: User) -> Friendship:
    """Accept ``other``'s pending request to ``user``."""
    request = Friendship.objects.select_for_update().filter(from_user=other, to_user=user).first()
    if request is None:
        raise SocialRefused(_("There is no friend request from this player."))
    if request.status == Friendship.Status.ACCEPTED:
        return request
    request.status = Friendship.Status.ACCEPTED
    request.accepted_at = timezone.now()
    request.save(update_fields=["status", "accepted_at"])
    _friend_request_notes_read(user)
    notification_send(
        other,
        Notification.Kind.FRIEND_ACCEPTED,
        gettext_noop("%(name)s accepted your friend request."),
        user.get_absolute_url(),
        {"name": user.name},
        caused_by=user,
    )
    return request


@transaction.atomic
def friend_request_decline(user: User, other: User) -> None:
    deleted, _n = Friendship.objects.filter(from_user=other, to_user=user, status=Friendship.Status.PENDING).delete()
    if not deleted:
        raise SocialRefused(_("There is no friend request from this player."))
    _friend_request_notes_read(user)


@transaction.atomic
def friend_remove(user: User, other: User) -> None:
    """Unfriend, or withdraw one's own pending request."""
    mine = Q(status=Friendship.Status.ACCEPTED) | Q(from_user=user, status=Friendship.Status.PENDING)
    deleted, _n = Friendship.objects.filter(_pair(user, other)).filter(mine).delete()
    if not deleted:
        raise SocialRefused(_("You are not friends with this player."))
    _friend_request_notes_read(other)  # a withdrawn request is no news any more


def _friend_request_notes_read(user: User) -> None:
    """Once no friend request waits for ``user`` (answered, or withdrawn), his bell stops counting the notifications
    that announced them (they name no request: while one still waits, they all stay)."""
    if not Friendship.objects.filter(to_user=user, status=Friendship.Status.PENDING).exists():
        notification_mark_read(user, kind=Notification.Kind.FRIEND_REQUEST)


@transaction.atomic
def block_add(user: User, other: User) -> Block:
    """Block ``other``: any friendship ends, his pending challenges to ``user`` are cancelled."""
    if other.pk == user.pk:
        raise SocialRefused(_("That is you."))
    block, _created = Block.objects.get_or_create(blocker=user, blocked=other)
    Friendship.objects.filter(_pair(user, other)).delete()
    Challenge.objects.filter(_pair(user, other), status=Challenge.Status.PENDING).update(
        status=Challenge.Status.CANCELLED, answered_at=timezone.now()
    )
    _blocks_changed(user)
    return block


@transaction.atomic
def block_remove(user: User, other: User) -> None:
    Block.objects.filter(blocker=user, blocked=other).delete()
    _blocks_changed(user)


def _blocks_changed(user: User) -> None:
    """His open pages (every socket of his) read his blocks again: the chat they show follows at once."""
    transaction.on_commit(lambda: outbox.group_send(user_group(user.pk), {"type": blocks.BLOCKS_CHANGED}))


# -- challenges ----------------------------------------------------------------------


def may_challenge(user: User) -> bool:
    """May ``user`` send challenges at all? Not while banned or muted (a challenge is a message too)."""
    return bool(user.is_active) and not user.is_bot and not standing.talk_refusal(user.pk)


@transaction.atomic
def challenge_send(user: User, other: User, game: str, table_settings: dict[str, Any]) -> Challenge:
    """Challenge ``other`` to ``game``; ``table_settings`` are ``lobbies.services.table_create``'s keywords."""
    _check_human(user, other)
    refusal = standing.talk_refusal(user.pk)  # a challenge is a message too: banned or muted, it says until when
    if refusal:
        raise SocialRefused(refusal)
    if not may_challenge(user):
        raise SocialRefused(_("You cannot send challenges at the moment."))
    if is_blocked(user, other):
        raise SocialRefused(_("You cannot challenge this player."))
    # one writer per challenger at a time, so the pending count below holds
    User.objects.select_for_update().filter(pk=user.pk).first()
    challenge_expire_overdue()
    pending = Challenge.objects.filter(from_user=user, status=Challenge.Status.PENDING)
    if pending.filter(to_user=other).exists():
        raise SocialRefused(_("You have already challenged this player; wait for an answer."))
    if pending.count() >= MAX_PENDING_CHALLENGES:
        raise SocialRefused(_("You have too many challenges waiting for an answer."))
    _limit(user, "challenge")
    challenge = Challenge.objects.create(
        from_user=user,
        to_user=other,
        game=game,
        settings=table_settings,
        expires_at=timezone.now() + CHALLENGE_TTL,
    )
    notification_send(
        other,
        Notification.Kind.CHALLENGE,
        gettext_noop("%(name)s challenges you to %(game)s."),
        reverse("challenge", args=[challenge.pk]),
        {"name": user.name, "game": challenge.get_game_display()},
        caused_by=user,
    )
    return challenge


def _pending_for(challenge_id: int, user: User, *, to: bool) -> Challenge:
    field = "to_user" if to else "from_user"
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id, **{field: user}).first()
    if challenge is None:
        raise SocialRefused(_("There is no such challenge."))
    if challenge.status == Challenge.Status.PENDING and challenge.expires_at <= timezone.now():
        challenge.status = Challenge.Status.EXPIRED
        challenge.save(update_fields=["status"])
    if challenge.status != Challenge.Status.PENDING:
        status = challenge.get_status_display()
        raise SocialRefused(_("This challenge is no longer open (%(status)s).") % {"status": status})
    return challenge


def _challenge_notes_read(challenge: Challenge) -> None:
    """An answered challenge's notification needs no more attention: the bell stops counting it."""
    url = reverse("challenge", args=[challenge.pk])
    notification_mark_read(challenge.to_user, kind=Notification.Kind.CHALLENGE, url=url)


@transaction.atomic
def challenge_accept(user: User, challenge_id: int) -> Table:
    """Accept: a new table with the challenger in seat 1 and ``user`` in seat 2 (it starts when full)."""
    challenge = _pending_for(challenge_id, user, to=True)
    challenger = challenge.from_user
    if not may_challenge(challenger) or is_blocked(user, challenger):
        raise SocialRefused(_("This challenge can no longer be accepted."))
    try:
        table = table_create(user=challenger, game=challenge.game, **challenge.settings)
        seat_join(table_id=table.pk, user=user, token=table.invite_token)
    except (LobbyRefused, TypeError) as exc:
        raise SocialRefused(_("The table could not be made: %(reason)s") % {"reason": exc}) from None
    challenge.status = Challenge.Status.ACCEPTED
    challenge.answered_at = timezone.now()
    challenge.table = table
    challenge.save(update_fields=["status", "answered_at", "table"])
    _challenge_notes_read(challenge)
    table.refresh_from_db()  # started if the two of them filled it
    notification_send(
        challenger,
        Notification.Kind.CHALLENGE_ANSWER,
        gettext_noop("%(name)s accepted your challenge: the table is ready."),
        reverse("lobby_table" if table.status == table.Status.OPEN else "table", args=[table.pk]),
        {"name": user.name},
        caused_by=user,
    )
    return table


@transaction.atomic
def challenge_decline(user: User, challenge_id: int) -> Challenge:
    challenge = _pending_for(challenge_id, user, to=True)
    challenge.status = Challenge.Status.DECLINED
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    _challenge_notes_read(challenge)
    notification_send(
        challenge.from_user,
        Notification.Kind.CHALLENGE_ANSWER,
        gettext_noop("%(name)s declined your challenge."),
        user.get_absolute_url(),
        {"name": user.name},
        caused_by=user,
    )
    return challenge


@transaction.atomic
def challenge_cancel(user: User, challenge_id: int) -> Challenge:
    challenge = _pending_for(challenge_id, user, to=False)
    challenge.status = Challenge.Status.CANCELLED
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    return challenge


def challenge_expire_overdue() -> int:
    """Mark every pending challenge past its time expired (beat runs this; answers check it too)."""
    return Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=timezone.now()).update(
        status=Challenge.Status.EXPIRED
    )


# -- profile -------------------------------------------------------------------------


@transaction.atomic
def profile_update(user: User, *, display_name: str, bio: str, avatar: str, country: str) -> Profile:
    """Save the profile form's cleaned values (the form checks them as sign-up does)."""
    if avatar not in dict(AVATARS):
        raise SocialRefused(_("Choose one of the avatars shown."))
    try:
        bio = clean_text(bio, max_length=BIO_MAX, multiline=True)
        display_name = display_name_check(display_name, user=user)
    except (TextRefused, NameRefused) as refused:
        raise SocialRefused(str(refused)) from None
    profile, _created = Profile.objects.get_or_create(user=user)
    if display_name != user.display_name or bio != profile.bio:
        # a name and a bio are published to everyone: a mute (or a ban) covers them as it covers the chat
        refusal = standing.talk_refusal(user.pk)
        if refusal:
            raise SocialRefused(refusal)
    user.display_name = display_name
    user.save(update_fields=["display_name"])
    profile.bio, profile.avatar, profile.country = bio, avatar, country
    profile.save(update_fields=["bio", "avatar", "country"])
    return profile


#: a player whose last tab closed this long ago leaves the "Play now" queue (a page reload is not leaving)
SEEK_OFFLINE_GRACE = 10.0


def seek_drop_offline(now: datetime | None = None) -> int:
    """Take out of the "Play now" queues every player whose last tab closed more than ``SEEK_OFFLINE_GRACE``
    seconds ago (or, when that moment is unknown, whose presence ran out: his web process died); how many left."""
    from social import presence  # presence talks to Redis; the rest of this module does not need it

    now = now or timezone.now()
    waiting = lobby_selectors.seekers()
    gone = presence.offline_since(list(waiting))
    if gone is None:
        return 0  # Redis cannot tell who is online: nobody loses his place for it
    dropped = 0
    for user_id, left in gone.items():
        since = left if left is not None else waiting[user_id].timestamp() + presence.ttl()
        if now.timestamp() - since >= SEEK_OFFLINE_GRACE:
            dropped += seek_leave(user=User.objects.get(pk=user_id))
    return dropped
