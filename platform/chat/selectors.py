"""Chat reads: the last lines a page shows, and who may read which channel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from accounts import blocks
from accounts.models import User
from chat.models import PHRASES, ChatMessage, ChatSettings
from tables.models import Table

if TYPE_CHECKING:
    from tables.models import Game

#: lines a page (re)load shows per channel
LAST_LINES = 40


def lobby_group() -> str:
    return "chat-lobby"


def spectators_group(table_id: int) -> str:
    return f"table-{table_id}-spectators"


def line_payload(line: ChatMessage) -> dict[str, Any]:
    """What a socket sends of one line: never anything but the sender's public name, the text and the time."""
    return {
        "id": line.pk,
        "channel": line.channel,
        "table": line.table_id,
        "user": line.user.name,
        "username": line.user.username,
        # the sender's real account, whatever his display name looks like
        "url": reverse("profile", args=[line.user.username]),
        "text": line.shown_text,
        "phrase": line.phrase,
        "at": timezone.localtime(line.created_at).strftime("%H:%M"),
    }


def chat_hidden(user: User | AnonymousUser | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return ChatSettings.objects.filter(user=user, hidden=True).exists()


def sees_spectators(table: Table, seated: bool) -> bool:
    """Players never read the spectators' chat while their game runs (no kibitzing)."""
    return not seated or table.status != Table.Status.PLAYING


def hidden_senders(user: User | AnonymousUser | None) -> frozenset[int]:
    """The players whose lines ``user`` does not see: those he blocked."""
    if user is None or not user.is_authenticated:
        return frozenset()
    return blocks.blocked_ids(user.pk)


def last_lines(
    channel: str, table_id: int | None = None, limit: int = LAST_LINES, hidden: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    rows = ChatMessage.objects.filter(channel=channel, hidden_at__isnull=True).select_related("user")
    rows = rows.filter(table__isnull=True) if table_id is None else rows.filter(table_id=table_id)
    if hidden:
        rows = rows.exclude(user_id__in=hidden)
    lines = list(rows.order_by("-created_at", "-pk")[:limit])
    lines.reverse()
    return [line_payload(line) for line in lines]


def lobby_chat(user: User | AnonymousUser | None) -> dict[str, Any]:
    return {
        "hidden": chat_hidden(user),
        "lines": last_lines(ChatMessage.Channel.LOBBY, hidden=hidden_senders(user)),
        "can_write": bool(user and user.is_authenticated),
        "phrases": list(PHRASES.items()),
    }


def table_chat(table: Table, user: User | AnonymousUser | None, seated: bool) -> dict[str, Any]:
    """What the table page shows at load: the players' lines, and the spectators' when he may read them."""
    hidden = hidden_senders(user)
    return {
        "hidden": chat_hidden(user),
        "players_lines": last_lines(ChatMessage.Channel.PLAYERS, table.pk, hidden=hidden),
        "spectators_lines": last_lines(ChatMessage.Channel.SPECTATORS, table.pk, hidden=hidden)
        if sees_spectators(table, seated)
        else None,
        "seated": seated,
        "can_write": user is not None and user.is_authenticated,
        #: a spectator, or a player once his match is over (``chat.services.chat_post`` checks the same)
        "spectators_writable": bool(user is not None and user.is_authenticated and sees_spectators(table, seated)),
        "phrases": list(PHRASES.items()),
    }


def game_chat(game: Game, user: User | AnonymousUser | None = None) -> list[dict[str, Any]]:
    """The players' lines said while a game was played (its replay shows them to its players), but for those
    of players ``user`` blocked."""
    rows = ChatMessage.objects.filter(
        channel=ChatMessage.Channel.PLAYERS, table_id=game.table_id, hidden_at__isnull=True
    ).select_related("user")
    hidden = hidden_senders(user)
    if hidden:
        rows = rows.exclude(user_id__in=hidden)
    rows = rows.filter(created_at__gte=game.started_at)
    if game.finished_at:
        rows = rows.filter(created_at__lte=game.finished_at)
    return [line_payload(line) for line in rows.order_by("created_at", "pk")[:500]]
