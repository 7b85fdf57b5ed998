"""Notification reads: the bell's count, the list, and what a socket sends for one."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import Resolver404, resolve

from accounts.models import User
from notifications.models import Notification


def notifications_group(user_id: int) -> str:
    """The channel group a socket that shows a user's notifications joins (the presence socket): it hears
    ``notifications.new`` (``id``; a summons also its fields, ``note``) and ``notifications.read`` events."""
    return f"notifications-{user_id}"


def unread_count(user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def unread_of(user: User, limit: int) -> tuple[int, list[Notification]]:
    """The unread count and the newest ``limit`` unread notifications."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    return unread.count(), list(unread[:limit])


def notifications_of(user: User, limit: int = 30) -> list[Notification]:
    return list(Notification.objects.filter(user=user)[:limit])


def notification_of(user: User, note_id: int) -> Notification | None:
    return Notification.objects.filter(pk=note_id, user=user).first()


def summons(note: Notification) -> bool:
    """A tournament notice or a "Play now" pairing that points at a table calls the player to it: a page that hears
    it live goes there."""
    if note.kind not in (Notification.Kind.TOURNAMENT, Notification.Kind.PLAY_NOW) or not note.url:
        return False
    try:
        return resolve(note.url).url_name == "table"
    except Resolver404:
        return False


def notification_from_event(note_id: int, fields: dict[str, Any]) -> Notification:
    """The notification a ``notifications.new`` event carries whole (a summons), as read from its row."""
    return Notification(
        pk=note_id,
        kind=fields["kind"],
        text=fields["text"],
        params=fields["params"],
        url=fields["url"],
        created_at=datetime.fromisoformat(fields["at"]),
    )


def notification_payload(note: Notification) -> dict[str, Any]:
    """What a socket sends for one notification; ``go``: the page should open ``url`` (see ``summons``)."""
    return {
        "type": "notification",
        "id": note.pk,
        "kind": note.kind,
        "text": note.message,
        "url": note.url,
        "go": summons(note),
        "read": note.read_at is not None,
        "at": note.created_at.isoformat(),
    }
