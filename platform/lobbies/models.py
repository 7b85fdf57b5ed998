"""The "Play now" seek queue: who waits, for what, since when.

A queue is one game with the settings that matter (seats, the engine's options, the match options, the turn time,
rated or not), named by ``SeekQueue.key``. Its row is the lock every join and every pairing of that queue takes
(``select_for_update``), so across web processes and workers two pairings of one queue never run at once; a
player has at most one ``Seek`` (``user`` is unique), so he waits in one queue only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SeekQueue(models.Model):
    key = models.CharField(max_length=400, unique=True)
    game = models.CharField(max_length=16)
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    match_options = models.JSONField(default=dict)
    turn_seconds = models.PositiveSmallIntegerField()
    rated = models.BooleanField()

    def __str__(self) -> str:
        return self.key


class Seek(models.Model):
    queue = models.ForeignKey(SeekQueue, on_delete=models.CASCADE, related_name="seeks")
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seek")
    #: the player's rating for the game when he joined (rated queues pair within a window around it)
    rating = models.FloatField(default=0.0)
    #: bots take the empty seats after he has waited this long; None: he waits for people only
    bots_after = models.PositiveIntegerField(null=True, blank=True)
    #: pair him only with reliable players (``reliability.selectors.RELIABLE``; new players count as reliable)
    reliable_only = models.BooleanField(default=False)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["queue", "created_at"], name="seek_queue_order")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.queue_id}"


class QueueTable(models.Model):
    """A table "Play now" made. While it is live its players sit down at no other table by hand (nor does the
    queue seat them again): the queue promised the others at it a player, and he plays there."""

    table = models.OneToOneField("tables.Table", on_delete=models.CASCADE, primary_key=True, related_name="from_queue")
    queue = models.ForeignKey(SeekQueue, on_delete=models.SET_NULL, null=True, blank=True, related_name="tables")

    def __str__(self) -> str:
        return f"table {self.table_id} from {self.queue_id}"
