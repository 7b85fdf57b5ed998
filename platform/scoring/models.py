"""Final standings of finished matches, one row per seat: what seasons and tournaments sum.

The live sheet stays on ``tables.Match.sheet`` (the game's own JSON); when a
match ends (``tables.signals.match_finished``) its final standings are copied
here, so a sum over many matches is one indexed query instead of loading sheets.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MatchScore(models.Model):
    match = models.ForeignKey("tables.Match", on_delete=models.CASCADE, related_name="scores")
    seat = models.PositiveSmallIntegerField()
    #: the human in the seat; None for a bot seat
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="match_scores"
    )
    #: the game's registry name
    game = models.CharField(max_length=16)
    place = models.PositiveSmallIntegerField(help_text=_("1 is best; shared places are ties"))
    won = models.BooleanField(default=False)
    #: lost at least one game of the match (counting sheets: was the fool or the loser)
    lost = models.BooleanField(default=False)
    #: the match total in exact halves, for games that score points (Biznes); None otherwise
    points_halves = models.IntegerField(null=True, blank=True)
    #: scored deals behind ``points_halves``
    deals = models.PositiveSmallIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_score_per_seat")]
        indexes = [
            models.Index(fields=["user", "finished_at"], name="score_history"),
            models.Index(fields=["game", "finished_at"], name="score_period"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: place {self.place}"
