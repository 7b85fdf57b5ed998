"""Notification writes: sent in the action's own transaction, pushed to the player's open tabs after commit."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone

from accounts import blocks
from accounts.models import User
from core import outbox
from core.prepared import Insert
from notifications.models import Notification
from notifications.selectors import notifications_group, summons

#: notifications are inserted by a statement written once per process (and count of players): "Play now" tells
#: every table's players at once
_INSERT = Insert(Notification)

#: read notifications older than this are deleted by the daily prune (unread ones stay until read)
NOTIFICATIONS_KEPT_DAYS = 90


def notification_send(
    user: User, kind: str, text: str, url: str = "", params: dict | None = None, *, caused_by: User | None = None
) -> Notification | None:
    """Store a notification for ``user`` and push it to his open tabs after commit.

    ``text`` is shown as is, or, with ``params``, as a translatable template
    (``gettext_noop("%(name)s ...")``) filled in the reader's language. A notification ``caused_by`` a
    player ``user`` blocked is not sent at all (None).
    """
    if caused_by is not None and blocks.blocks(user, caused_by):
        return None
    return notifications_send([user], kind, text, url, params)[0]


def notifications_send(
    users: list[User], kind: str, text: str, url: str = "", params: dict | None = None
) -> list[Notification]:
    """``notification_send`` of one notice to several players (no ``caused_by``), stored in one statement."""
    if kind not in Notification.Kind.values:
        kind = Notification.Kind.OTHER
    notes = _INSERT.bulk(
        [Notification(user=user, kind=kind, text=text[:300], url=url[:300], params=params or {}) for user in users]
    )
    # one kind and one link for all of them: a summons to one is a summons to each
    called = bool(notes) and summons(notes[0])
    for note in notes:
        event: dict = {"type": "notifications.new", "id": note.pk}
        if called:
            # the page goes to the table at once: the socket sends it from the event, without a database read
            event["note"] = {"kind": note.kind, "text": note.text, "params": note.params, "url": note.url}
            event["note"]["at"] = note.created_at.isoformat()
        transaction.on_commit(partial(outbox.group_send, notifications_group(note.user_id), event))
    return notes


def notification_prune(days: int = NOTIFICATIONS_KEPT_DAYS) -> int:
    """Delete read notifications older than ``days`` (unread ones stay until read)."""
    old = timezone.now() - timedelta(days=days)
    deleted, _n = Notification.objects.filter(read_at__isnull=False, created_at__lt=old).delete()
    return deleted


def notification_mark_read(
    user: User, ids: list[int] | None = None, *, kind: str | None = None, url: str | None = None
) -> int:
    """Mark the user's notifications read (``ids``, or all; only those of ``kind`` and ``url`` when given); returns
    how many changed."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    if kind is not None:
        unread = unread.filter(kind=kind)
    if url is not None:
        unread = unread.filter(url=url)
    count = unread.update(read_at=timezone.now())
    if count:
        group = notifications_group(user.pk)
        transaction.on_commit(lambda: outbox.group_send(group, {"type": "notifications.read"}))
    return count
