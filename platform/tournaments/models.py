"""Events, their players, rounds, tables and scored results.

A ``Result`` row is written in the move's own transaction for every scored
unit (a Durak or Believe game, a whole Biznes match), so the standings are
always the sum of stored results; ``Board`` ties a round to a live
``tables.Table`` and remembers who sits in each seat (``None`` for a bot), so
a disqualified player's seat keeps his name while a bot plays it out.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tables.models import BOT_LEVELS, game_choices

ORGANIZERS_GROUP = "Organizers"


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss tables")
        KNOCKOUT = "knockout", _("Knockout tables")
        CUMULATIVE = "cumulative", _("Biznes cumulative")

    class Fill(models.TextChoices):
        BOTS = "bots", _("Bots fill the empty seats")
        BYES = "byes", _("Byes for the players left over")

    class NoShow(models.TextChoices):
        REMOVE = "remove", _("Removed from the event")
        BOT = "bot", _("Replaced by a bot")

    class Settle(models.TextChoices):
        BOTS = "bots", _("Bots play the unfinished tables out")
        POSITION = "position", _("Scored by the rules from the position")
        ORGANIZER = "organizer", _("Settled by the organizer")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True, max_length=4000)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments")
    game = models.CharField(pgettext_lazy("a tournament's field", "game"), max_length=16, choices=game_choices)
    options = models.JSONField(default=dict)
    match_options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(_("players per table"))
    format = models.CharField(_("format"), max_length=16, choices=Format.choices, default=Format.SWISS)
    fill = models.CharField(_("uneven counts"), max_length=8, choices=Fill.choices, default=Fill.BOTS)
    advance = models.PositiveSmallIntegerField(_("advance per table (knockout)"), default=2)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    games_per_round = models.PositiveSmallIntegerField(_("games (Biznes: deals) per round"), default=1)
    turn_seconds = models.PositiveIntegerField(_("time per turn"), default=60)
    time_bank_seconds = models.PositiveIntegerField(_("time bank"), default=0)
    round_minutes = models.PositiveIntegerField(
        _("round time limit (minutes)"),
        default=0,
        help_text=_("0: none. What happens to the unfinished tables at the limit is the next choice."),
    )
    settle = models.CharField(
        _("unfinished tables at the time limit"), max_length=12, choices=Settle.choices, default=Settle.BOTS
    )
    bot_level = models.CharField(_("bot level"), max_length=16, choices=BOT_LEVELS, default="heuristic")
    registration_opens = models.DateTimeField(_("registration opens"))
    registration_closes = models.DateTimeField(_("registration closes"))
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    check_in_minutes = models.PositiveSmallIntegerField(
        _("check-in (minutes before the start)"), default=0, help_text=_("0: no check-in.")
    )
    no_show = models.CharField(_("no-shows"), max_length=8, choices=NoShow.choices, default=NoShow.REMOVE)
    min_players = models.PositiveIntegerField(_("minimum players"), default=2)
    max_players = models.PositiveIntegerField(_("maximum players"), default=64)
    private = models.BooleanField(_("invite-only"), default=False)
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    rated = models.BooleanField(_("rated"), default=False)
    #: entry conditions, read from the player's rating for this event's game when he registers
    min_rating = models.PositiveIntegerField(
        _("minimum rating"), null=True, blank=True, help_text=_("Empty: anyone may register.")
    )
    min_rated_games = models.PositiveIntegerField(_("minimum rated games"), default=0)
    #: the finish rate (percent) a player needs to register (``reliability.selectors``); 0: anyone
    min_reliability = models.PositiveSmallIntegerField(_("minimum reliability"), default=0)
    series = models.ForeignKey(
        "Series", on_delete=models.SET_NULL, null=True, blank=True, related_name="events", verbose_name=_("series")
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION, db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: when the organizer paused the event; a resume moves the round's deadline on by the time paused
    paused_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def group_name(self) -> str:
        return f"tournament-{self.pk}"


class Registration(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations")
    created_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    #: took no part: a no-show removed at the start
    dropped = models.BooleanField(default=False)
    #: disqualified by the organizer: his results stay, he is seated no more
    disqualified = models.BooleanField(default=False)
    #: knocked out of a knockout event
    eliminated_in = models.PositiveSmallIntegerField(null=True, blank=True)
    #: withdrawn by the organizer before the start (he may reinstate him); kept so the player sees it
    withdrawn = models.BooleanField(default=False)
    #: registered while the event was full: moves up, in order, when a place frees
    waitlisted = models.BooleanField(default=False)

    class Meta:
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_registration_per_user")]


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    deadline = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: user ids who sat this round out with a bye, and the halves each was given
    byes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]


class Board(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField("tables.Table", on_delete=models.PROTECT, related_name="board")
    #: user id per seat, None for a bot seat
    players = models.JSONField()
    finished = models.BooleanField(default=False)
    #: a board stopped at the round's deadline: "position" (the rules scored it) or "organizer"; or "moderator"
    #: (a moderator stopped its table: the organizer enters its result)
    settled = models.CharField(max_length=12, blank=True, default="")
    #: who entered the result of a board the organizer settled, and when (audit)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]


class Result(models.Model):
    """One scored unit at a board: points per seat in halves, and who was the fool."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results")
    #: the game (Durak, Believe) or the match's last game (Biznes)
    game = models.OneToOneField("tables.Game", on_delete=models.PROTECT, related_name="tournament_result")
    points = models.JSONField()
    fool = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)


class Announcement(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    text = models.CharField(_("announcement"), max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class Series(models.Model):
    """A club's running score: events of one game, weekly or on listed dates, standings summed over them all."""

    name = models.CharField(_("name"), max_length=80)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="series")
    game = models.CharField(pgettext_lazy("a tournament's field", "game"), max_length=16, choices=game_choices)
    description = models.TextField(_("description"), blank=True, max_length=4000)
    #: the schedule: every week after the latest event, or the listed start times (ISO, UTC) in order
    weekly = models.BooleanField(_("weekly"), default=True)
    dates = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series", args=[self.pk])


class OrganizerAction(models.Model):
    """An append-only record of what an organizer (or a superuser) did to an event, and to whom."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=24)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]
