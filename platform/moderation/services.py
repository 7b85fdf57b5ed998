"""Moderation writes: sanctions, reports, aborting and annulling games, playbans.

Every action writes its ``AuditEntry`` in its own transaction, so the log never
misses an action that happened nor lists one that rolled back. What must reach
a socket (closing a banned player's sockets, redrawing an aborted table) is
sent after commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.models import User
from accounts.sockets import user_sockets_close
from chat.models import ChatMessage
from core.sockets import CLOSE_BANNED
from core.text import TextRefused, clean_text
from moderation.models import Abandonment, Appeal, AuditEntry, Note, Report, Sanction, SignIn
from moderation.selectors import ban_message, standing_forget, when

if TYPE_CHECKING:
    from tables.models import Game, Table

#: the group the data migration creates
MODERATORS = "Moderators"
#: mute lengths a moderator picks in one click (minutes)
MUTE_CHOICES = {"10m": 10, "1h": 60, "1d": 24 * 60}
#: reports per reporter per hour, and how many chat lines and moves a report freezes
REPORTS_PER_HOUR = 5
CONTEXT_CHAT, CONTEXT_MOVES = 20, 10
#: playbans: this many abandoned games within the window earn one; each repeat within a week doubles it
PLAYBAN_ABANDONS, PLAYBAN_WINDOW = 3, timedelta(hours=24)
PLAYBAN_FIRST, PLAYBAN_MAX = timedelta(minutes=15), timedelta(days=3)
#: how long a sign-in address is kept (the "shares his addresses" view looks this far back)
SIGN_IN_DAYS = 90
#: "all his lines of the last hour"
RECENT_LINES = timedelta(hours=1)


#: what a report's own words and a moderator's reason may hold
REPORT_TEXT_MAX, REASON_MAX = 1000, 2000


class ModerationRefused(ValueError):
    """An action that changed nothing; the message says why."""


def _reason(reason: str) -> str:
    try:
        reason = clean_text(reason, max_length=REASON_MAX, multiline=True)
    except TextRefused as refused:
        raise ModerationRefused(str(refused)) from None
    if not reason:
        raise ModerationRefused(_("Every moderation action needs a reason."))
    return reason


def _text(text: object, empty: str) -> str:
    """A note's or an appeal's words, cleaned as every stored text is (``core.text``)."""
    try:
        text = clean_text(text, max_length=REASON_MAX, multiline=True)
    except TextRefused as refused:
        raise ModerationRefused(str(refused)) from None
    if not text:
        raise ModerationRefused(empty)
    return text


def audit_write(
    actor: User | None, action: str, target: User | None = None, reason: str = "", **details: Any
) -> AuditEntry:
    """One row of the append-only log; call it inside the action's transaction."""
    return AuditEntry.objects.create(actor=actor, target=target, action=action, reason=reason, details=details)


def may_sanction(by: User | None, user: User) -> None:
    """Nobody sanctions himself; only a superuser sanctions a staff account (else one moderator could lock
    the whole team out). ``by`` None is the platform itself (automatic playbans)."""
    if by is None:
        return
    if by.pk == user.pk:
        raise ModerationRefused(_("You cannot act on your own account."))
    if (user.is_staff or user.is_superuser) and not by.is_superuser:
        raise ModerationRefused(_("Only a superuser may act on a staff account."))


#: what a reporter is told when acting on the player closed his report, in his own language
OUTCOMES = {
    Sanction.Kind.WARN: gettext_noop("A moderator warned %(name)s after your report. Thank you."),
    Sanction.Kind.MUTE: gettext_noop("A moderator muted %(name)s after your report. Thank you."),
    Sanction.Kind.BAN: gettext_noop("A moderator banned %(name)s after your report. Thank you."),
    Sanction.Kind.PLAYBAN: gettext_noop("A moderator suspended %(name)s from play after your report. Thank you."),
}


def _reports_close(user: User, by: User, sanction: Sanction) -> list[Report]:
    """Acting on a player closes his open reports with what was done; each reporter is told."""
    from notifications.services import notification_send

    label = Sanction.Kind(sanction.kind).label
    if sanction.kind == Sanction.Kind.WARN:
        outcome = f"{label}: {sanction.reason}"
    else:
        outcome = f"{label} {when(sanction.until)}: {sanction.reason}"

    closed = list(
        Report.objects.select_for_update().filter(
            reported=user, status__in=[Report.Status.OPEN, Report.Status.ASSIGNED]
        )
    )
    now = timezone.now()
    for report in closed:
        report.status, report.resolution, report.closed_at = Report.Status.RESOLVED, outcome, now
        report.sanction, report.assigned_to = sanction, report.assigned_to or by
        report.save(update_fields=["status", "resolution", "closed_at", "sanction", "assigned_to"])
        audit_write(by, AuditEntry.Action.REPORT_RESOLVE, user, outcome, report=report.pk, sanction=sanction.pk)
    for reporter in User.objects.filter(pk__in={r.reporter_id for r in closed}).order_by("pk"):
        notification_send(
            reporter,
            "other",
            OUTCOMES[Sanction.Kind(sanction.kind)],
            url=reverse("my_reports"),
            params={"name": user.name},
        )
    return closed


def _forget_after_commit(user_id: int) -> None:
    # now (this request sees it at once) and again after commit (a read in between cached the old standing)
    standing_forget(user_id)
    transaction.on_commit(lambda: standing_forget(user_id))


@transaction.atomic
def user_warn(user: User, *, by: User, reason: str) -> Sanction:
    """A warning the player sees on his next page."""
    from notifications.services import notification_send

    may_sanction(by, user)
    sanction = Sanction.objects.create(user=user, kind=Sanction.Kind.WARN, reason=_reason(reason), created_by=by)
    audit_write(by, AuditEntry.Action.WARN, user, sanction.reason, sanction=sanction.pk)
    _reports_close(user, by, sanction)
    # also in his notifications (the bell, a live toast): nothing is lost while he is offline
    notification_send(
        user,
        "warning",
        gettext_noop("A moderator warned you: %(reason)s"),
        url=reverse("my_reports"),
        params={"reason": sanction.reason},
    )
    _forget_after_commit(user.pk)
    return sanction


@transaction.atomic
def user_mute(user: User, *, by: User, reason: str, minutes: int, hide: str = "") -> Sanction:
    """Refuse his chat lines for ``minutes``; nothing else changes, no socket is closed.

    ``hide="hour"`` also takes down every line he wrote in the last hour, on every open page.
    """
    may_sanction(by, user)
    if not isinstance(minutes, int) or minutes <= 0 or minutes > 365 * 24 * 60:
        raise ModerationRefused(_("A mute lasts from one minute to a year."))
    until = timezone.now() + timedelta(minutes=minutes)
    sanction = Sanction.objects.create(
        user=user, kind=Sanction.Kind.MUTE, reason=_reason(reason), created_by=by, until=until
    )
    audit_write(by, AuditEntry.Action.MUTE, user, sanction.reason, sanction=sanction.pk, until=until.isoformat())
    if hide == "hour":
        _recent_lines_hide(user, by, sanction.reason)
    _reports_close(user, by, sanction)
    _forget_after_commit(user.pk)
    return sanction


@transaction.atomic
def user_ban(user: User, *, by: User, reason: str, until: datetime | None = None, hide: str = "") -> Sanction:
    """Ban until ``until`` (None: permanently): bots take his seats, his sockets close, he is signed out.
    ``hide="hour"`` also takes down the lines he wrote in the last hour, as a mute can.

    The sign-out happens on his next request (``moderation.middleware``), whichever
    session or device it comes from; his sockets close at once through his user group.
    """
    if until is not None and until <= timezone.now():
        raise ModerationRefused(_("A temporary ban must end in the future."))
    if user.is_superuser:
        raise ModerationRefused(_("A superuser cannot be banned here."))
    may_sanction(by, user)
    sanction = Sanction.objects.create(
        user=user, kind=Sanction.Kind.BAN, reason=_reason(reason), created_by=by, until=until
    )
    tables = _seats_release(user)
    audit_write(
        by,
        AuditEntry.Action.BAN,
        user,
        sanction.reason,
        sanction=sanction.pk,
        until=until.isoformat() if until else None,
        tables=tables,
    )
    if hide == "hour":
        _recent_lines_hide(user, by, sanction.reason)
    _reports_close(user, by, sanction)
    user_id = user.pk

    standing_forget(user_id)

    def after() -> None:
        standing_forget(user_id)
        notice = _("A moderator removed you from your tables: %(ban)s A bot plays your seats.") % {
            "ban": ban_message(user_id) or ""
        }
        user_sockets_close(user_id, CLOSE_BANNED, notice)

    transaction.on_commit(after)
    return sanction


def _seats_release(user: User) -> list[int]:
    """A bot stands in for him in every running game; he stands up from tables still waiting."""
    from lobbies.services import LobbyRefused, seat_leave
    from tables.models import Seat, Table
    from tables.services import seat_set_away

    touched = []
    for seat in Seat.objects.filter(user=user).select_related("table"):
        if seat.table.status == Table.Status.PLAYING:
            seat_set_away(seat.table_id, user, True, reason="banned")
            touched.append(seat.table_id)
        elif seat.table.status == Table.Status.OPEN:
            try:
                seat_leave(table_id=seat.table_id, user=user)
            except LobbyRefused:
                continue  # it started meanwhile: the next ban check keeps him from playing
            touched.append(seat.table_id)
    return touched


@transaction.atomic
def sanction_lift(sanction: Sanction, *, by: User, reason: str) -> Sanction:
    sanction = Sanction.objects.select_for_update(of=("self",)).select_related("user").get(pk=sanction.pk)
    may_sanction(by, sanction.user)
    if sanction.lifted_at is not None:
        raise ModerationRefused(_("This sanction was already lifted."))
    sanction.lifted_at, sanction.lifted_by, sanction.lift_reason = timezone.now(), by, _reason(reason)
    sanction.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    audit_write(
        by, AuditEntry.Action.LIFT, sanction.user, sanction.lift_reason, sanction=sanction.pk, kind=sanction.kind
    )
    _forget_after_commit(sanction.user_id)
    return sanction


@transaction.atomic
def warnings_mark_seen(user: User) -> list[str]:
    """The unseen warnings' reasons, marked seen (shown once)."""
    rows = list(Sanction.objects.select_for_update().filter(user=user, kind=Sanction.Kind.WARN, seen_at__isnull=True))
    Sanction.objects.filter(pk__in=[r.pk for r in rows]).update(seen_at=timezone.now())
    _forget_after_commit(user.pk)
    return [r.reason for r in rows]


# ---- reports -------------------------------------------------------------------------------------


def _report_context(table_id: int | None, reported: User) -> dict[str, Any]:
    """The chat lines and moves around the report, copied as they are now."""
    from tables.models import Game, Move

    lines = ChatMessage.objects.filter(hidden_at__isnull=True).select_related("user")
    # at a table: everything said there; elsewhere (a profile): what the reported player said last
    lines = lines.filter(table_id=table_id) if table_id is not None else lines.filter(user=reported)
    chat = [
        {
            "id": m.pk,
            "at": m.created_at.isoformat(),
            "user": m.user.username,
            "channel": m.channel,
            "text": m.shown_text,
        }
        for m in reversed(lines.order_by("-created_at", "-pk")[:CONTEXT_CHAT])
    ]
    context: dict[str, Any] = {"chat": chat}
    if table_id is not None:
        game = Game.objects.filter(table_id=table_id).order_by("-number").first()
        if game is not None:
            moves = Move.objects.filter(game=game).order_by("-number")[:CONTEXT_MOVES]
            context["moves"] = [
                {"number": m.number, "seat": m.seat, "text": m.text, "by": m.by} for m in reversed(moves)
            ]
            context["game"], context["move_number"] = game.pk, game.move_number
    return context


@transaction.atomic
def report_create(
    *, reporter: User | AnonymousUser, reported: User, reason: str, text: str = "", table_id: int | None = None
) -> Report:
    from tables.models import Seat, Table

    if not reporter.is_authenticated:
        raise ModerationRefused(_("Log in to report a player."))
    banned = ban_message(reporter.pk)
    if banned:
        raise ModerationRefused(banned)
    if reported.pk == reporter.pk:
        raise ModerationRefused(_("You cannot report yourself."))
    if reported.is_bot:
        raise ModerationRefused(_("Bots cannot be reported."))
    if reason not in Report.Reason.values:
        raise ModerationRefused(_("Choose a reason for the report."))
    try:
        text = clean_text(text, max_length=REPORT_TEXT_MAX, multiline=True)
    except TextRefused as refused:
        raise ModerationRefused(str(refused)) from None
    hour_ago = timezone.now() - timedelta(hours=1)
    if Report.objects.filter(reporter=reporter, created_at__gte=hour_ago).count() >= REPORTS_PER_HOUR:
        raise ModerationRefused(_("You have sent many reports in the last hour; please wait a little."))
    if Report.objects.filter(
        reporter=reporter, reported=reported, status__in=[Report.Status.OPEN, Report.Status.ASSIGNED]
    ).exists():
        raise ModerationRefused(_("You already reported this player; moderators are looking at it."))
    table = None
    if table_id is not None:
        table = Table.objects.filter(pk=table_id).first()
        if table is None or not Seat.objects.filter(table=table, user=reported).exists():
            raise ModerationRefused(_("That player does not sit at this table."))
    context = _report_context(table.pk if table else None, reported)
    return Report.objects.create(
        reporter=reporter,
        reported=reported,
        reason=reason,
        text=text,
        table=table,
        game_id=context.get("game"),
        move_number=context.get("move_number"),
        context=context,
    )


def _report_locked(report: Report) -> Report:
    return Report.objects.select_for_update(of=("self",)).select_related("reporter", "reported").get(pk=report.pk)


@transaction.atomic
def report_assign(report: Report, *, by: User) -> Report:
    report = _report_locked(report)
    if not report.is_open:
        raise ModerationRefused(_("This report is already closed."))
    report.status, report.assigned_to = Report.Status.ASSIGNED, by
    report.save(update_fields=["status", "assigned_to"])
    audit_write(by, AuditEntry.Action.REPORT_ASSIGN, report.reported, "", report=report.pk)
    return report


def _report_close(report: Report, by: User, status: str, resolution: str, action: str) -> Report:
    report = _report_locked(report)
    if not report.is_open:
        raise ModerationRefused(_("This report is already closed."))
    report.status, report.resolution, report.closed_at = status, _reason(resolution), timezone.now()
    report.assigned_to = report.assigned_to or by
    report.save(update_fields=["status", "resolution", "closed_at", "assigned_to"])
    audit_write(by, action, report.reported, report.resolution, report=report.pk)
    _reporter_tell(report)
    return report


def _reporter_tell(report: Report) -> None:
    from notifications.services import notification_send

    if report.status == Report.Status.DISMISSED:
        text = gettext_noop("A moderator reviewed your report about %(name)s: no action was needed. Thank you.")
    else:
        text = gettext_noop("A moderator acted on your report about %(name)s. Thank you.")
    notification_send(report.reporter, "other", text, url=reverse("my_reports"), params={"name": report.reported.name})


@transaction.atomic
def report_resolve(report: Report, *, by: User, resolution: str) -> Report:
    """Acted on: the reporter sees that it was."""
    return _report_close(report, by, Report.Status.RESOLVED, resolution, AuditEntry.Action.REPORT_RESOLVE)


@transaction.atomic
def report_dismiss(report: Report, *, by: User, resolution: str) -> Report:
    return _report_close(report, by, Report.Status.DISMISSED, resolution, AuditEntry.Action.REPORT_DISMISS)


# ---- games ---------------------------------------------------------------------------------------


@transaction.atomic
def table_abort(table_id: int, *, by: User, reason: str) -> Table:
    """Stop a table at once, under the game's and the table's row locks; its game is never rated.

    Locks the game before the table, the order a move takes them in. Timers and
    bot tasks find the game no longer playing and do nothing.
    """
    from tables.models import Game, Table
    from tables.services import table_stop

    reason = _reason(reason)
    game = Game.objects.select_for_update().filter(table_id=table_id, status=Game.Status.PLAYING).first()
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise ModerationRefused(_("There is no such table."))
    if table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
        raise ModerationRefused(_("This table is already over; annul its games instead."))
    table_stop(table, game, by=by, reason=reason)
    _audit_players(by, AuditEntry.Action.TABLE_ABORT, table.pk, reason, table=table.pk, game=game.pk if game else None)
    return table


def _audit_players(by: User, action: str, table_id: int, reason: str, **details: Any) -> None:
    """One row per human player of the table, so each player's history lists it (one without a player if none)."""
    from tables.models import Seat

    players = list(
        User.objects.filter(
            pk__in=Seat.objects.filter(table_id=table_id, user__isnull=False).values("user_id"), is_bot=False
        ).order_by("pk")
    )
    targets: list[User | None] = [*players] or [None]
    for player in targets:
        audit_write(by, action, player, reason, players=[p.pk for p in players], **details)


@transaction.atomic
def game_annul(game_id: int, *, by: User, reason: str) -> Game:
    """No rating for this game: a finished game's rating changes are undone and every later one recomputed."""
    from tables.models import Game

    reason = _reason(reason)
    game = Game.objects.select_for_update().select_related("table").filter(pk=game_id).first()
    if game is None:
        raise ModerationRefused(_("There is no such game."))
    if game.status == Game.Status.PLAYING:
        raise ModerationRefused(_("This game is still being played: abort its table instead."))
    if game.annulled:
        raise ModerationRefused(_("This game is already annulled."))
    game.annulled = True
    game.save(update_fields=["annulled"])
    _audit_players(by, AuditEntry.Action.GAME_ANNUL, game.table_id, reason, table=game.table_id, game=game.pk)
    _ratings_rebuild([game])
    return game


@transaction.atomic
def ratings_reverse(user: User, *, by: User, reason: str) -> int:
    """Annul every rated game of a cheater: his and his opponents' ratings are recomputed without them."""
    from leaderboards.models import RatingChange
    from tables.models import Game

    may_sanction(by, user)
    reason = _reason(reason)
    ids = sorted(set(RatingChange.objects.filter(user=user).values_list("played_game_id", flat=True)))
    Game.objects.filter(pk__in=ids).update(annulled=True)
    audit_write(by, AuditEntry.Action.RATINGS_REVERSE, user, reason, games=ids)
    _ratings_rebuild(list(Game.objects.filter(pk__in=ids).select_related("table")))
    return len(ids)


def _ratings_rebuild(annulled: list[Game]) -> None:
    # ratings are a chain per game (each one starts from the one before): without these, every later rated game
    # of the same games changes, and only those
    from leaderboards.services import ratings_recompute

    finished = [(g.finished_at, g.table.game) for g in annulled if g.finished_at is not None]
    if finished:
        ratings_recompute(since=min(at for at, _name in finished), games={name for _at, name in finished})


# ---- moderators and automatic sanctions ----------------------------------------------------------


#: what the Moderators group may do (the data migration 0002 creates it with these)
MODERATOR_PERMISSIONS = {
    "moderation": [
        "view_player",
        "view_report",
        "change_report",
        "view_sanction",
        "view_auditentry",
        "moderate_players",
        "abort_games",
        "reverse_ratings",
    ],
    "tables": ["view_table", "view_game", "view_move", "view_match", "view_seat"],
    "chat": ["view_chatmessage"],
}


def moderators_group() -> Group:
    """The group from the migration; made again with the same permissions if it was deleted (or flushed)."""
    group, created = Group.objects.get_or_create(name=MODERATORS)
    if created:
        for app, codenames in MODERATOR_PERMISSIONS.items():
            group.permissions.add(*Permission.objects.filter(content_type__app_label=app, codename__in=codenames))
    return group


@transaction.atomic
def moderator_add(user: User, *, by: User | None = None) -> None:
    """Staff access and the Moderators group."""
    group = moderators_group()
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(group)
    audit_write(by, AuditEntry.Action.MODERATOR_ADD, user, _("added to the Moderators group"))


def playban_duration(earlier: int) -> timedelta:
    return min(PLAYBAN_FIRST * (2 ** min(earlier, 16)), PLAYBAN_MAX)


@transaction.atomic
def abandonment_record(user: User, table_id: int, reason: str) -> Sanction | None:
    """Count a game he left or timed out of; enough of them in a short time earn a (growing) playban."""
    now = timezone.now()
    Abandonment.objects.create(user=user, table_id=table_id, reason=reason, at=now)
    recent = Abandonment.objects.filter(user=user, at__gte=now - PLAYBAN_WINDOW).count()
    if recent < PLAYBAN_ABANDONS:
        return None
    if Sanction.objects.filter(Sanction.active_q(now), user=user, kind=Sanction.Kind.PLAYBAN).exists():
        return None
    last = Sanction.objects.filter(user=user, kind=Sanction.Kind.PLAYBAN).order_by("-created_at").first()
    # the abandons that earned the last playban do not earn another
    if (
        last is not None
        and last.created_at >= now - PLAYBAN_WINDOW
        and Abandonment.objects.filter(user=user, at__gt=last.created_at).count() < PLAYBAN_ABANDONS
    ):
        return None
    earlier = Sanction.objects.filter(
        user=user, kind=Sanction.Kind.PLAYBAN, created_at__gte=now - timedelta(days=7)
    ).count()
    until = now + playban_duration(earlier)
    reason = _("Left or timed out of %(count)d games within 24 hours.") % {"count": recent}
    sanction = Sanction.objects.create(user=user, kind=Sanction.Kind.PLAYBAN, reason=reason, until=until)
    audit_write(None, AuditEntry.Action.PLAYBAN, user, reason, sanction=sanction.pk, until=until.isoformat())
    _forget_after_commit(user.pk)
    return sanction


# ---- a moderator's other tools -------------------------------------------------------------------


@transaction.atomic
def user_playban(user: User, *, by: User, reason: str, minutes: int) -> Sanction:
    """A moderator's playban: he may chat and watch, not start or join a table."""
    may_sanction(by, user)
    if not isinstance(minutes, int) or minutes <= 0 or minutes > 365 * 24 * 60:
        raise ModerationRefused(_("A playban lasts from one minute to a year."))
    until = timezone.now() + timedelta(minutes=minutes)
    sanction = Sanction.objects.create(
        user=user, kind=Sanction.Kind.PLAYBAN, reason=_reason(reason), created_by=by, until=until
    )
    audit_write(by, AuditEntry.Action.PLAYBAN, user, sanction.reason, sanction=sanction.pk, until=until.isoformat())
    _reports_close(user, by, sanction)
    _forget_after_commit(user.pk)
    return sanction


@transaction.atomic
def chat_hide(user: User, *, by: User, reason: str, lines: list[int] | None = None, last_hour: bool = False) -> int:
    """Take down some of his lines (``lines``), or all he wrote in the last hour: gone from every page at once.

    The audit row keeps what they said.
    """
    from chat.services import chat_lines_hide

    reason = _reason(reason)
    if by is not None and by.pk != user.pk and (user.is_staff or user.is_superuser) and not by.is_superuser:
        raise ModerationRefused(_("Only a superuser may act on a staff account."))
    rows = ChatMessage.objects.filter(user=user)
    if last_hour:
        rows = rows.filter(created_at__gte=timezone.now() - RECENT_LINES)
    elif lines:
        rows = rows.filter(pk__in=[i for i in lines if isinstance(i, int)])
    else:
        raise ModerationRefused(_("Choose the lines to hide."))
    hidden = chat_lines_hide(list(rows.values_list("pk", flat=True)), by=by)
    if not hidden:
        raise ModerationRefused(_("There were no lines to hide."))
    audit_write(
        by,
        AuditEntry.Action.CHAT_HIDE,
        user,
        reason,
        lines=[{"id": m.pk, "table": m.table_id, "channel": m.channel, "text": m.shown_text} for m in hidden],
    )
    return len(hidden)


def _recent_lines_hide(user: User, by: User, reason: str) -> None:
    # with a mute or a ban: nothing said in the last hour is nothing to hide, not a refusal of the sanction
    recent = ChatMessage.objects.filter(
        user=user, hidden_at__isnull=True, created_at__gte=timezone.now() - RECENT_LINES
    )
    if recent.exists():
        chat_hide(user, by=by, reason=reason, last_hour=True)


@transaction.atomic
def note_add(user: User, *, by: User, text: str) -> Note:
    text = _text(text, _("Write the note first."))
    note = Note.objects.create(user=user, author=by, text=text)
    audit_write(by, AuditEntry.Action.NOTE, user, text, note=note.pk)
    return note


def sign_in_record(user: User, address: str | None) -> None:
    """Remember where he signed in from (for "accounts sharing his addresses"); rows older than
    ``SIGN_IN_DAYS`` are purged here, on write, so nothing older is ever kept."""
    if not address or user is None or not user.pk:
        return
    now = timezone.now()
    with transaction.atomic():
        updated = SignIn.objects.filter(user=user, address=address).update(last_at=now)
        if not updated:
            SignIn.objects.get_or_create(user=user, address=address, defaults={"first_at": now, "last_at": now})
        SignIn.objects.filter(last_at__lt=now - timedelta(days=SIGN_IN_DAYS)).delete()


# ---- appeals -------------------------------------------------------------------------------------


@transaction.atomic
def appeal_create(sanction: Sanction, *, user: User, text: str) -> Appeal:
    """Once per sanction, by its player, while it still counts (a warning any time)."""
    sanction = Sanction.objects.select_for_update().get(pk=sanction.pk)
    if sanction.user_id != user.pk:
        raise ModerationRefused(_("You can only appeal your own sanctions."))
    if sanction.created_by_id is None:
        raise ModerationRefused(_("Automatic playbans end by themselves and cannot be appealed."))
    if (
        sanction.kind != Sanction.Kind.WARN
        and not Sanction.objects.filter(Sanction.active_q(), pk=sanction.pk).exists()
    ):
        raise ModerationRefused(_("This sanction is over: there is nothing to appeal."))
    if Appeal.objects.filter(sanction=sanction).exists():
        raise ModerationRefused(_("You already appealed this sanction."))
    text = _text(text, _("Say why the sanction should be lifted or reduced."))
    audit = (
        AuditEntry.objects.filter(target=user, action=sanction.kind, details__sanction=sanction.pk)
        .order_by("at", "pk")
        .first()
    )
    appeal = Appeal.objects.create(sanction=sanction, user=user, text=text, audit=audit)
    audit_write(user, AuditEntry.Action.APPEAL, user, text, sanction=sanction.pk, appeal=appeal.pk)
    return appeal


@transaction.atomic
def appeal_answer(appeal: Appeal, *, by: User, decision: str, answer: str, until: datetime | None = None) -> Appeal:
    """Uphold, reduce (a new, earlier end) or lift; the player is told."""
    from notifications.services import notification_send

    appeal = Appeal.objects.select_for_update(of=("self",)).select_related("sanction", "user").get(pk=appeal.pk)
    if not appeal.is_open:
        raise ModerationRefused(_("This appeal was already answered."))
    sanction, user = appeal.sanction, appeal.user
    may_sanction(by, user)
    answer = _reason(answer)
    now = timezone.now()
    if decision == Appeal.Decision.UPHOLD:
        action = AuditEntry.Action.APPEAL_UPHOLD
        told = gettext_noop("A moderator reviewed your appeal and upheld the sanction: %(answer)s")
    elif decision == Appeal.Decision.LIFT:
        if sanction.lifted_at is None:
            sanction_lift(sanction, by=by, reason=answer)
        action = AuditEntry.Action.APPEAL_LIFT
        told = gettext_noop("A moderator accepted your appeal and lifted the sanction: %(answer)s")
    elif decision == Appeal.Decision.REDUCE:
        sanction = Sanction.objects.select_for_update().get(pk=sanction.pk)
        if sanction.kind == Sanction.Kind.WARN:
            raise ModerationRefused(_("A warning cannot be reduced: uphold or lift it."))
        if until is None or until <= now:
            raise ModerationRefused(_("A reduced sanction must end in the future."))
        if sanction.until is not None and until >= sanction.until:
            raise ModerationRefused(_("A reduced sanction must end before it would have."))
        sanction.until = until
        sanction.save(update_fields=["until"])
        action = AuditEntry.Action.APPEAL_REDUCE
        told = gettext_noop("A moderator reduced your sanction on appeal: it now ends %(until)s. %(answer)s")
        _forget_after_commit(user.pk)
    else:
        raise ModerationRefused(_("Choose a decision."))
    appeal.decision, appeal.answer, appeal.answered_by, appeal.answered_at = decision, answer, by, now
    appeal.save(update_fields=["decision", "answer", "answered_by", "answered_at"])
    audit_write(
        by,
        action,
        user,
        answer,
        appeal=appeal.pk,
        sanction=sanction.pk,
        until=sanction.until.isoformat() if sanction.until else None,
    )
    params = {"answer": answer, "until": when(sanction.until)}
    notification_send(user, "other", told, url=reverse("my_reports"), params=params)
    return appeal
