"""Reports, sanctions (warn, mute, ban, playban) and the append-only audit log.

A sanction is active from ``created_at`` until ``until`` (None: permanent) unless
lifted. Every moderator action and every automatic sanction writes one
``AuditEntry`` in its own transaction; audit rows can be added, never changed
or deleted (the model, its querysets and the admin all refuse).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class Player(User):
    """A user as moderators see him: his page in the admin carries the moderation actions."""

    class Meta:
        proxy = True
        verbose_name = _("player")
        verbose_name_plural = _("players")


class Sanction(models.Model):
    #: whether its player may appeal it now, set by ``moderation.selectors.sanctions_of`` for his page
    appealable: bool

    class Kind(models.TextChoices):
        WARN = "warn", _("Warning")
        MUTE = "mute", _("Chat mute")
        BAN = "ban", _("Ban")
        PLAYBAN = "playban", _("Playban")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sanctions")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    reason = models.TextField()
    #: None: automatic (playbans)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: None: permanent (a ban) or not applicable (a warning)
    until = models.DateTimeField(null=True, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    lift_reason = models.TextField(blank=True)
    #: a warning is shown to its player once, on his next page
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "kind", "lifted_at"], name="sanction_active")]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    @staticmethod
    def active_q(now: datetime | None = None) -> Q:
        now = now or timezone.now()
        return Q(lifted_at__isnull=True) & (Q(until__isnull=True) | Q(until__gt=now))

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.user}"


class Report(models.Model):
    class Reason(models.TextChoices):
        CHEATING = "cheating", _("Cheating or collusion")
        ABUSE = "abuse", _("Abusive chat")
        STALLING = "stalling", _("Stalling or abandoning")
        NAME = "name", _("Offensive name")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ASSIGNED = "assigned", _("Assigned")
        RESOLVED = "resolved", _("Resolved (acted on)")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_against")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    text = models.TextField(max_length=1000, blank=True)
    table = models.ForeignKey("tables.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    game = models.ForeignKey("tables.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    move_number = models.PositiveIntegerField(null=True, blank=True)
    #: chat lines and moves around the report, copied when it was made
    context = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolution = models.TextField(blank=True)
    #: the sanction acting on the player closed it with (None: dismissed, or resolved by hand)
    sanction = models.ForeignKey("Sanction", on_delete=models.PROTECT, null=True, blank=True, related_name="reports")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    @property
    def is_open(self) -> bool:
        return self.status in (self.Status.OPEN, self.Status.ASSIGNED)

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_reason_display()}: {self.reported}"


class Abandonment(models.Model):
    """A player left a running game or timed out of it (a bot took his seat): what playbans count."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=16)
    at = models.DateTimeField(default=timezone.now, db_index=True)


class AppendOnly(models.QuerySet):
    def update(self, **kwargs: Any) -> NoReturn:
        raise PermissionError("the audit log is append-only")

    def delete(self) -> NoReturn:
        raise PermissionError("the audit log is append-only")


class AuditEntry(models.Model):
    class Action(models.TextChoices):
        WARN = "warn", _("Warned")
        MUTE = "mute", _("Muted")
        BAN = "ban", _("Banned")
        LIFT = "lift", _("Lifted a sanction")
        PLAYBAN = "playban", _("Playban (automatic)")
        REPORT_ASSIGN = "report_assign", _("Took a report")
        REPORT_RESOLVE = "report_resolve", _("Resolved a report")
        REPORT_DISMISS = "report_dismiss", _("Dismissed a report")
        TABLE_ABORT = "table_abort", _("Aborted a table")
        GAME_ANNUL = "game_annul", _("Annulled a game")
        RATINGS_REVERSE = "ratings_reverse", _("Reversed ratings")
        MODERATOR_ADD = "moderator_add", _("Made a moderator")
        CHAT_HIDE = "chat_hide", _("Hid chat lines")
        NOTE = "note", _("Wrote a note")
        APPEAL = "appeal", _("Appealed (by the player)")
        APPEAL_UPHOLD = "appeal_uphold", _("Upheld a sanction on appeal")
        APPEAL_REDUCE = "appeal_reduce", _("Reduced a sanction on appeal")
        APPEAL_LIFT = "appeal_lift", _("Lifted a sanction on appeal")

    at = models.DateTimeField(default=timezone.now, db_index=True)
    #: who acted; None: the platform itself (automatic sanctions)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    #: whom it concerned, if a player
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries"
    )
    action = models.CharField(max_length=24, choices=Action.choices, db_index=True)
    reason = models.TextField(blank=True)
    #: what else identifies the action: table, game, report, sanction ids, the until time
    details = models.JSONField(default=dict, blank=True)

    objects = AppendOnly.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        permissions = [
            ("moderate_players", _("Can warn, mute, ban and lift sanctions")),
            ("abort_games", _("Can abort tables and annul games")),
            ("reverse_ratings", _("Can reverse a player's ratings")),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise PermissionError("the audit log is append-only")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise PermissionError("the audit log is append-only")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor or 'system'} {self.action} {self.target or ''}"


class Note(models.Model):
    """Moderators' private note on a player: never shown to him."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("moderators' note")
        verbose_name_plural = _("moderators' notes")


class SignIn(models.Model):
    """The address a player signed in from, last seen when: kept ``SIGN_IN_DAYS`` days (``services``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    address = models.GenericIPAddressField()
    first_at = models.DateTimeField(default=timezone.now)
    last_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "address"], name="signin_user_address")]
        indexes = [models.Index(fields=["address"], name="signin_address")]


class Appeal(models.Model):
    """A player's one appeal against one sanction, and the moderator's answer."""

    class Decision(models.TextChoices):
        UPHOLD = "uphold", _("Upheld")
        REDUCE = "reduce", _("Reduced")
        LIFT = "lift", _("Lifted")

    sanction = models.OneToOneField(Sanction, on_delete=models.PROTECT, related_name="appeal")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="appeals")
    #: the audit row of the sanction appealed against
    audit = models.ForeignKey(AuditEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    decision = models.CharField(max_length=8, choices=Decision.choices, blank=True)
    answer = models.TextField(blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")

    @property
    def is_open(self) -> bool:
        return not self.decision

    def __str__(self) -> str:
        return f"#{self.pk} {self.user}: {self.sanction}"
