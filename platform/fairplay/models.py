"""The bots' grading of a suspected pair's finished games (``games.grading``), stored once per game and direction."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GameGrade(models.Model):
    """How one player's decisions in one finished game compare with the strong bot's, against one partner.

    ``cost`` is what his moves cost him and ``gift`` what they gave the partner (sums over his graded
    decisions, each on the game's 0..1 utility); ``decisive`` lists the heaviest moves, each with its
    number in the game's log (the replay's ``?step=``), both moves and their values.
    """

    game = models.ForeignKey("tables.Game", on_delete=models.CASCADE, related_name="grades")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    partner_seat = models.PositiveSmallIntegerField()
    decisions = models.PositiveIntegerField(default=0)
    graded = models.PositiveIntegerField(default=0)
    agreed = models.PositiveIntegerField(default=0)
    cost = models.FloatField(default=0.0)
    gift = models.FloatField(default=0.0)
    harm = models.FloatField(default=0.0)
    decisive = models.JSONField(default=list)
    #: every decision was graded within the time budget
    complete = models.BooleanField(default=True)
    seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("bot grading")
        verbose_name_plural = _("bot gradings")
        constraints = [
            models.UniqueConstraint(fields=["game", "user", "partner"], name="grade_once_per_game_and_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.user_id} with {self.partner_id}"


class SuspectedPair(GameGrade):
    """The moderators' fair-play queue in the admin (its list is the detector's ranked pairs, not rows)."""

    class Meta:
        proxy = True
        verbose_name = _("fair-play queue")
        verbose_name_plural = _("fair-play queue")


class PairScan(models.Model):
    """One run of the detector over every finished game (``fairplay.services.pair_scan_store``), which the
    queue and a pair's page read instead of scanning on each load. Only the latest is kept.

    ``pairs`` holds every flagged or reported pair and the strongest others (``fairplay.pairs.pair_to_json``),
    best first; ``total`` counts every pair the scan scored; ``baseline`` what every pair was judged against
    (``fairplay.pairs.baseline_to_json``), so a pair it did not keep is scored from its players' games alone."""

    #: the games finished before this are in it
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()
    total = models.PositiveIntegerField(default=0)
    pairs = models.JSONField(default=list)
    baseline = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"scan of {self.started_at:%Y-%m-%d %H:%M}"
