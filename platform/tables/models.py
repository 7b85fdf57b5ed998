"""Tables, seats, matches, games and the move log.

The move log is the source of truth: ``Game.state`` caches the engine's JSON
snapshot after ``Game.move_number`` moves, and is always reproducible by
replaying ``Move`` rows from the game's setup (options, seats, dealer, deck).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy

from games import GAMES, get_game
from games.bots import LEVEL_TITLES, LEVELS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

BOT_LEVELS = [(level, gettext_lazy(LEVEL_TITLES[level])) for level in LEVELS]


def game_choices() -> list[tuple[str, StrOrPromise]]:
    """Every registered game (name, title), read when asked: a game registered later is a valid choice.

    The title is translated when shown (``get_game_display``), in the reader's language.
    """
    return [(name, gettext_lazy(get_game(name).title)) for name in GAMES]


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for players")
        PLAYING = "playing", gettext_lazy("Playing")
        FINISHED = "finished", gettext_lazy("Finished")
        #: stopped by a moderator (or with nobody left): no more moves, the game is unrated
        ABORTED = "aborted", gettext_lazy("Aborted")

    game = models.CharField(max_length=16, choices=game_choices)
    options = models.JSONField(default=dict, help_text="The engine's validated options.")
    seats_count = models.PositiveSmallIntegerField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tables_created")
    turn_seconds = models.PositiveIntegerField(default=60)
    time_bank_seconds = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=True)
    private = models.BooleanField(default=False)
    #: the creator's minimum finish rate (percent) for players who sit down; 0: anyone (the lobby checks it)
    min_reliability = models.PositiveSmallIntegerField(default=0)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    match_length = models.PositiveSmallIntegerField(default=1, help_text="Games (Biznes: scored deals) per match.")
    #: table-level match choices, e.g. Durak's {"fool_rule": "under"}
    match_options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    #: why an aborted table stopped: "moderator", "left" (its human players all left), or "" (another reason)
    stop_reason = models.CharField(max_length=16, blank=True, default="")
    #: the human players who asked for a rematch of this finished table (user ids)
    rematch_votes = models.JSONField(default=list, blank=True)
    #: the table the rematch started, once every human agreed
    rematch = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of")
    #: held by whoever runs the table's event (``tables.pause``): no moves, the turn's clock stopped
    paused_at = models.DateTimeField(null=True, blank=True)
    #: who paused it and why, as the players are told (the event's own words, already in a sentence)
    pause_note = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} table #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.pk])

    @property
    def group_name(self) -> str:
        from tables.relay import group_name  # the relay knows its layer's names

        return group_name(self.pk)


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    #: a computer player's level; empty for a human seat
    bot_level = models.CharField(max_length=16, choices=BOT_LEVELS, blank=True)
    #: a human who timed out twice or left: a bot plays for him until he is back
    away = models.BooleanField(default=False)
    #: the player resigned: he stays away for the rest of the match (no "I'm back")
    resigned = models.BooleanField(default=False)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    time_bank_left = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_index_unique"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    @property
    def filled(self) -> bool:
        return self.user_id is not None or bool(self.bot_level)

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    def __str__(self) -> str:
        return f"seat {self.index} of {self.table}"


class Match(models.Model):
    """A series of games at one table with running totals (the score sheet)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches")
    #: per-game rows for the score sheet, and for Biznes the engine's ``Match`` JSON
    sheet = models.JSONField(default=dict)
    finished = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(help_text="1 for the match's first game")
    dealer = models.PositiveSmallIntegerField()
    options = models.JSONField(help_text="Options of this game, e.g. Durak's first_attacker from the match.")
    #: the shuffled order (secret until the game ends) and its commitment sha256(salt:order)
    deck = models.JSONField()
    salt = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    #: engine snapshot after ``move_number`` moves (a cache of the move log)
    state = models.JSONField()
    move_number = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING, db_index=True)
    result = models.JSONField(null=True, blank=True)
    #: when the current turn started and runs out (Celery applies the default move then)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: a bot played for an absent human at some point (the game is then unrated)
    bot_substituted = models.BooleanField(default=False)
    #: a moderator aborted or annulled it: never rated (ratings already applied are recomputed without it)
    annulled = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="game_number_unique")]

    def __str__(self) -> str:
        return f"{self.table} game {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("replay", args=[self.pk])


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField(help_text="1 for the game's first move")
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    #: the move in English words, from public information only (the log of rows older than ``words``)
    text = models.CharField(max_length=200)
    #: the same words in no language yet (``games.words.Said``): each reader's log renders them in his own
    words = models.JSONField(null=True, blank=True)
    #: the move as every seat saw it (hidden cards as counts): what bots may read
    public = models.JSONField(default=dict)
    #: who made it: a human, a bot seat, a bot standing in, or the turn timer
    by = models.CharField(max_length=16, default="player")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="move_number_unique")]
