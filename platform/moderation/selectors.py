"""Reads: is a player banned, muted or playbanned now, and what a moderator sees of him."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import User
from chat.models import ChatMessage
from leaderboards.models import RatingChange
from moderation.models import Abandonment, Appeal, AuditEntry, Note, Report, Sanction, SignIn
from tables.models import Game

#: how long a player's standing stays cached; every sanction change forgets it at once
STANDING_SECONDS = 30
#: a banned (signed-out) player appeals with the token his ban page carries, valid this long
APPEAL_SALT, APPEAL_TOKEN_SECONDS = "moderation.appeal", 7 * 24 * 3600


def _standing_key(user_id: int) -> str:
    return f"mod-standing:{user_id}"


#: the standings read while a request is answered (``standings_kept``, from the middleware): its own read of the
#: player's serves the view's checks after it (a "Play now" click's), each of which was a cache round trip more
_KEPT: ContextVar[dict[int, dict[str, Any]] | None] = ContextVar("moderation_standings_kept", default=None)


@contextmanager
def standings_kept() -> Iterator[None]:
    """Inside, a standing read once is not read again (a request is answered in a few milliseconds; the cache keeps
    it for ``STANDING_SECONDS`` anyway), unless a sanction's change forgets it."""
    token = _KEPT.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)


def standing_forget(user_id: int) -> None:
    cache.delete(_standing_key(user_id))
    kept = _KEPT.get()
    if kept is not None:
        kept.pop(user_id, None)


def active_sanction(user_id: int, kind: str) -> Sanction | None:
    """The active sanction of ``kind`` that lasts longest (a permanent one first)."""
    found = list(Sanction.objects.filter(Sanction.active_q(), user_id=user_id, kind=kind))
    if not found:
        return None
    return max(found, key=lambda s: (s.until is None, s.until or timezone.now()))


def standing(user_id: int) -> dict[str, Any]:
    """Ban end (``"forever"`` for a permanent ban), mute and playban ends and unseen warnings, cached per user."""
    return standings([user_id])[user_id]


def standings(user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
    """``standing`` of several players: one cache round trip, and one query for those not cached."""
    kept = _KEPT.get()
    found = {user_id: kept[user_id] for user_id in user_ids if user_id in kept} if kept else {}
    keys = {_standing_key(user_id): user_id for user_id in user_ids if user_id not in found}
    if not keys:
        return found
    cached = cache.get_many(list(keys))
    found.update(
        (keys[key], value)
        for key, value in cached.items()
        # an entry cached before playbans were kept in it is read again
        if "playban" in value and not _expired(value)
    )
    missing = [user_id for user_id in user_ids if user_id not in found]
    if missing:
        fresh = _standings_read(missing)
        cache.set_many({_standing_key(user_id): value for user_id, value in fresh.items()}, STANDING_SECONDS)
        found.update(fresh)
    if kept is not None:
        kept.update(found)
    return found


def _longest(sanctions: list[Sanction]) -> Sanction | None:
    """Of a player's active sanctions of one kind, the one that lasts longest (a permanent one first)."""
    return max(sanctions, key=lambda s: (s.until is None, s.until or timezone.now()), default=None)


def _standings_read(user_ids: list[int]) -> dict[int, dict[str, Any]]:
    kinds = [Sanction.Kind.BAN, Sanction.Kind.MUTE, Sanction.Kind.PLAYBAN]
    rows = Sanction.objects.filter(user_id__in=user_ids).filter(
        (Sanction.active_q() & Q(kind__in=kinds)) | Q(kind=Sanction.Kind.WARN, seen_at__isnull=True)
    )
    by_user: dict[int, dict[str, list[Sanction]]] = {user_id: {} for user_id in user_ids}
    for row in rows:
        by_user[row.user_id].setdefault(row.kind, []).append(row)
    found = {}
    for user_id, mine in by_user.items():
        ban = _longest(mine.get(Sanction.Kind.BAN, []))
        mute = _longest(mine.get(Sanction.Kind.MUTE, []))
        playban = _longest(mine.get(Sanction.Kind.PLAYBAN, []))
        found[user_id] = {
            "banned": ban is not None,
            "ban_until": ban.until if ban else None,
            "ban_reason": ban.reason if ban else "",
            "mute_until": mute.until if mute else None,
            "muted": mute is not None,
            "playban": playban is not None,
            "playban_until": playban.until if playban else None,
            "warnings": bool(mine.get(Sanction.Kind.WARN)),
        }
    return found


def _expired(found: dict[str, Any]) -> bool:
    now = timezone.now()
    return any(found.get(k) is not None and found[k] <= now for k in ("ban_until", "mute_until", "playban_until"))


def when(moment: datetime | None) -> str:
    if moment is None:
        return _("permanently")
    return _("until %(time)s UTC") % {"time": formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")}


def ban_message(user_id: int) -> str | None:
    return _ban_text(standing(user_id))


def _ban_text(found: dict[str, Any]) -> str | None:
    if not found["banned"]:
        return None
    return _("Your account is banned %(when)s.") % {"when": when(found["ban_until"])}


def mute_message(user_id: int) -> str | None:
    found = standing(user_id)
    if not found["muted"]:
        return None
    # a mute covers everything a player publishes, not only the chat: the message says so, and until when
    return _(
        "A moderator muted you %(when)s: meanwhile you cannot chat, change your name or bio, post announcements "
        "or send challenges. You can appeal from your reports page (%(url)s)."
    ) % {"when": when(found["mute_until"]), "url": reverse("my_reports")}


def play_refusal(user: User | AnonymousUser | None) -> str | None:
    """Why this player may not start or join a table now (a ban or a playban), or None."""
    if user is None or not user.is_authenticated:
        return None
    found = standing(user.pk)  # one cache read for both
    banned = _ban_text(found)
    if banned:
        return banned
    if not found["playban"]:
        return None
    return _("You left or timed out of several games recently, so you cannot start or join a table %(when)s.") % {
        "when": when(found["playban_until"])
    }


def play_refused(user_ids: Collection[int]) -> frozenset[int]:
    """Of these players, those banned or playbanned now (their standings read at once)."""
    return frozenset(user_id for user_id, found in standings(user_ids).items() if found["banned"] or found["playban"])


def _game_state(game: Game) -> str:
    """How a game ended, as a moderator reads it: a moderator's abort or annulment is his, a stop is not."""
    if game.status == Game.Status.ABORTED:
        if game.table.stop_reason == "moderator":
            return _("Aborted by a moderator")
        if game.table.stop_reason == "left":
            return _("Stopped: every player left (unrated)")
        return _("Stopped before its end, e.g. at an event's deadline (unrated)")
    if game.annulled:
        return _("%(status)s · annulled by a moderator") % {"status": game.get_status_display()}
    return str(game.get_status_display())


def player_overview(user_id: int) -> dict[str, Any]:
    """Everything a moderator needs on one page: his sanctions, reports by and against him, abandonments,
    chat, games, ratings, notes and the accounts sharing his sign-in addresses."""
    games = list(
        Game.objects.filter(table__seats__user_id=user_id).select_related("table").order_by("-started_at")[:15]
    )
    for game in games:
        game.mod_state = _game_state(game)  # type: ignore[attr-defined]  # a label for the moderators' template only
    abandons = dict(
        Abandonment.objects.filter(user_id=user_id)
        .values_list("reason")
        .annotate(n=Count("pk"))
        .values_list("reason", "n")
    )
    return {
        "games": games,
        "chat": list(
            ChatMessage.objects.filter(user_id=user_id)
            .select_related("table", "hidden_by")
            .order_by("-created_at")[:30]
        ),
        "reports": list(
            Report.objects.filter(reported_id=user_id).select_related("reporter").order_by("-created_at")[:30]
        ),
        "reports_by": list(
            Report.objects.filter(reporter_id=user_id).select_related("reported").order_by("-created_at")[:30]
        ),
        "sanctions": list(
            Sanction.objects.filter(user_id=user_id).select_related("created_by", "appeal").order_by("-created_at")[:30]
        ),
        "audit": list(AuditEntry.objects.filter(target_id=user_id).select_related("actor")[:30]),
        "active": [
            s for s in Sanction.objects.filter(Sanction.active_q(), user_id=user_id).exclude(kind=Sanction.Kind.WARN)
        ],
        "abandons": {"left": abandons.get("left", 0), "timeouts": abandons.get("timeouts", 0)},
        "ratings": list(
            RatingChange.objects.filter(user_id=user_id).order_by("-at", "-pk").select_related("played_game")[:20]
        ),
        "notes": list(Note.objects.filter(user_id=user_id).select_related("author")[:30]),
        "shared": shared_addresses(user_id),
    }


def shared_addresses(user_id: int) -> list[dict[str, Any]]:
    """Other accounts seen signing in from one of his addresses (within the kept days), most shared first."""
    mine = SignIn.objects.filter(user_id=user_id).values("address")
    rows = (
        SignIn.objects.filter(address__in=mine)
        .exclude(user_id=user_id)
        .select_related("user")
        .order_by("user__username", "address")
    )
    found: dict[int, dict[str, Any]] = {}
    for row in rows:
        entry = found.setdefault(row.user_id, {"user": row.user, "addresses": [], "last_at": row.last_at})
        entry["addresses"].append(row.address)
        entry["last_at"] = max(entry["last_at"], row.last_at)
    return sorted(found.values(), key=lambda e: (-len(e["addresses"]), e["user"].username))


def open_appeals() -> list[Appeal]:
    return list(
        Appeal.objects.filter(decision="").select_related("user", "sanction", "audit__actor").order_by("created_at")
    )


def sanctions_of(user: User) -> list[Sanction]:
    """A player's own sanctions with their appeals: what he may appeal, and what was answered."""
    rows = list(Sanction.objects.filter(user=user).select_related("appeal").order_by("-created_at")[:30])
    now = timezone.now()
    for row in rows:
        counts = row.lifted_at is None and (row.kind == Sanction.Kind.WARN or row.until is None or row.until > now)
        row.appealable = row.created_by_id is not None and counts
    return rows


def reports_of(user: User) -> list[Report]:
    """A reporter's own reports: received, and later acted on or not (never anyone else's)."""
    return list(
        Report.objects.filter(reporter=user).select_related("reported", "sanction").order_by("-created_at")[:50]
    )


def ban_notice(user_id: int) -> dict[str, Any]:
    """What the ban page offers: the sanction, a token to appeal it signed out, and the appeal if made."""
    from django.core import signing

    ban = active_sanction(user_id, Sanction.Kind.BAN)
    if ban is None:
        return {}
    appeal = Appeal.objects.filter(sanction=ban).first()
    return {"sanction": ban, "token": signing.dumps(ban.pk, salt=APPEAL_SALT), "appeal": appeal}
