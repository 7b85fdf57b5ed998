"""A notification is a row, so nothing is lost while a player is offline.

The apps that tell a player something (the lobby, social, moderation, tournaments) write one through
``notifications.services.notification_send``; the presence socket (social) pushes it to his open tabs and the
bell counts the unread ones. The table is the one social created (``social_notification``): the rows moved
apps, not tables.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    class Kind(models.TextChoices):
        FRIEND_REQUEST = "friend_request", _("Friend request")
        FRIEND_ACCEPTED = "friend_accepted", _("Friend request accepted")
        CHALLENGE = "challenge", _("Challenge")
        CHALLENGE_ANSWER = "challenge_answer", _("Challenge answered")
        TOURNAMENT = "tournament", _("Tournament")
        PLAY_NOW = "play_now", _("Play now")
        WARNING = "warning", _("Moderator's warning")
        OTHER = "other", _("Notice")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    #: the message, a translatable template when ``params`` fill it (shown in the reader's language)
    text = models.CharField(max_length=300)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "social_notification"
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]

    @property
    def message(self) -> str:
        text = gettext(self.text)
        if not self.params:
            return text
        try:
            return text % self.params
        except (KeyError, TypeError, ValueError):
            return self.text % self.params

    def __str__(self) -> str:
        return f"{self.kind} for {self.user}: {self.text}"
