"""What a player's reliability is counted from: one row per match he played at a table with other people.

A row is written when a bot takes his seat (he left, his clock ran out twice, he resigned, a moderator's ban, a
tournament's organizer or round clock) and when the match ends; ``Tally`` is the summary of his last
``selectors.COUNTED_GAMES`` rows, kept up to date at those moments so a seat reads one row, never the history.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Sitting(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="+")
    #: when it was first counted (the order of "his last games")
    at = models.DateTimeField(default=timezone.now)
    #: he was at his seat when the match ended (or was excused from it: a round's clock, a resignation that ended
    #: the game); False while a bot plays for him after he walked away
    finished = models.BooleanField(default=False)
    #: his turn's clock ran out at least once in the match
    timed_out = models.BooleanField(default=False)
    #: why a bot last took his seat, as ``tables.signals.seat_taken_over`` said; "" if none did
    reason = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "table"], name="one_sitting_per_table")]
        indexes = [models.Index(fields=["user", "-at"], name="sitting_latest")]


class Tally(models.Model):
    """A player's last counted games, summed: what every seat, lobby line and profile shows of him."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="reliability"
    )
    games = models.PositiveSmallIntegerField(default=0)
    finished = models.PositiveSmallIntegerField(default=0)
    timed_out = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)
