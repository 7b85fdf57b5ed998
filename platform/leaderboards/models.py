"""Ratings: the current OpenSkill rating per player and game, and one change row per rated game.

History, leaderboards, profile counts and the Biznes season standings are all
queries over these two tables; ``recompute_ratings`` rebuilds both from the
game history.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.models import game_choices


class PlayerRating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=16, choices=game_choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    #: the displayed rating (see ``ratings.display``), stored so leaderboards can sort by it in SQL
    rating = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "-rating"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.rating:.0f}"


class RatingChange(models.Model):
    """One player's rating before and after one rated game (Biznes: one rated match)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=16, choices=game_choices)
    #: the game (the one played at a table) that was rated; for Biznes the match's last deal
    played_game = models.ForeignKey("tables.Game", on_delete=models.CASCADE, related_name="rating_changes")
    #: when that game finished: the order ratings are computed in
    at = models.DateTimeField()
    place = models.PositiveSmallIntegerField(help_text=_("1 is best; shared places are ties"))
    won = models.BooleanField(default=False)
    #: the fool (Durak; in teams: on the losing team) or the loser (Believe It or Not)
    lost = models.BooleanField(default=False)
    #: Biznes only: the match total in half points (exact) and the scored deals it had
    points_halves = models.IntegerField(null=True, blank=True)
    deals = models.PositiveSmallIntegerField(null=True, blank=True)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()

    class Meta:
        ordering = ["at", "pk"]
        indexes = [
            models.Index(fields=["user", "game", "at"], name="change_history"),
            models.Index(fields=["game", "at"], name="change_period"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.rating_before:.0f}->{self.rating_after:.0f}"
