"""Reads: is a player banned, muted or playbanned now, and what a moderator sees of him."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from chat.models import ChatMessage
from moderation.models import AuditEntry, Report, Sanction
from tables.models import Game

#: how long a player's standing stays cached; every sanction change forgets it at once
STANDING_SECONDS = 30


def _standing_key(user_id: int) -> str:
    return f"mod-standing:{user_id}"


def standing_forget(user_id: int) -> None:
    cache.delete(_standing_key(user_id))


def active_sanction(user_id: int, kind: str) -> Sanction | None:
    """The active sanction of ``kind`` that lasts longest (a permanent one first)."""
    found = list(Sanction.objects.filter(Sanction.active_q(), user_id=user_id, kind=kind))
    if not found:
        return None
    return max(found, key=lambda s: (s.until is None, s.until or timezone.now()))


def standing(user_id: int) -> dict[str, Any]:
    """Ban end (``"forever"`` for a permanent ban), mute end and unseen warnings, cached per user."""
    key = _standing_key(user_id)
    found = cache.get(key)
    if found is not None and not _expired(found):
        return found
    ban, mute = active_sanction(user_id, Sanction.Kind.BAN), active_sanction(user_id, Sanction.Kind.MUTE)
    found = {
        "banned": ban is not None,
        "ban_until": ban.until if ban else None,
        "ban_reason": ban.reason if ban else "",
        "mute_until": mute.until if mute else None,
        "muted": mute is not None,
        "warnings": Sanction.objects.filter(user_id=user_id, kind=Sanction.Kind.WARN, seen_at__isnull=True).exists(),
    }
    cache.set(key, found, STANDING_SECONDS)
    return found


def _expired(found: dict[str, Any]) -> bool:
    now = timezone.now()
    return any(found.get(k) is not None and found[k] <= now for k in ("ban_until", "mute_until"))


def when(moment: datetime | None) -> str:
    if moment is None:
        return _("permanently")
    return _("until %(time)s UTC") % {"time": formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")}


def ban_message(user_id: int) -> str | None:
    found = standing(user_id)
    if not found["banned"]:
        return None
    return _("Your account is banned %(when)s.") % {"when": when(found["ban_until"])}


def mute_message(user_id: int) -> str | None:
    found = standing(user_id)
    if not found["muted"]:
        return None
    return _("A moderator muted your chat %(when)s.") % {"when": when(found["mute_until"])}


def play_refusal(user) -> str | None:
    """Why this player may not start or join a table now (a ban or a playban), or None."""
    if user is None or not user.is_authenticated:
        return None
    banned = ban_message(user.pk)
    if banned:
        return banned
    playban = active_sanction(user.pk, Sanction.Kind.PLAYBAN)
    if playban is None:
        return None
    return _("You left or timed out of several games recently, so you cannot start or join a table %(when)s.") % {
        "when": when(playban.until)
    }


def player_overview(user_id: int) -> dict[str, Any]:
    """Everything a moderator needs on one page: recent games, chat lines, reports and earlier actions."""
    return {
        "games": list(
            Game.objects.filter(table__seats__user_id=user_id).select_related("table").order_by("-started_at")[:15]
        ),
        "chat": list(ChatMessage.objects.filter(user_id=user_id).select_related("table").order_by("-created_at")[:30]),
        "reports": list(
            Report.objects.filter(reported_id=user_id).select_related("reporter").order_by("-created_at")[:30]
        ),
        "sanctions": list(Sanction.objects.filter(user_id=user_id).order_by("-created_at")[:30]),
        "audit": list(AuditEntry.objects.filter(target_id=user_id).select_related("actor")[:30]),
        "active": [
            s for s in Sanction.objects.filter(Sanction.active_q(), user_id=user_id).exclude(kind=Sanction.Kind.WARN)
        ],
    }


def reports_of(user) -> list[Report]:
    """A reporter's own reports: received, and later acted on or not (never anyone else's)."""
    return list(Report.objects.filter(reporter=user).select_related("reported").order_by("-created_at")[:50])
