"""Chat lines: a table's players' and spectators' channels, and the lobby's.

Lines are stored as typed (escaped when shown) and never edited; a quick
phrase is stored by its key, so each reader sees it in his own language.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: one click phrases, stored by key
PHRASES = {
    "hello": _("Hello!"),
    "gl": _("Good luck!"),
    "hurry": _("Hurry up, please"),
    "wp": _("Well played"),
    "gg": _("Good game"),
    "thanks": _("Thank you"),
}
MAX_LENGTH = 300


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")
        LOBBY = "lobby", _("Lobby")

    channel = models.CharField(max_length=16, choices=Channel.choices)
    #: None for the lobby
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_lines")
    text = models.CharField(max_length=MAX_LENGTH, blank=True)
    phrase = models.CharField(max_length=16, blank=True, choices=[(k, v) for k, v in PHRASES.items()])
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    #: a moderator took the line down: no page shows it again, the audit log keeps its text
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["table", "channel", "created_at"], name="chat_channel_time")]
        verbose_name = _("chat line")
        verbose_name_plural = _("chat lines")

    @property
    def shown_text(self) -> str:
        return str(PHRASES[self.phrase]) if self.phrase in PHRASES else self.text

    def __str__(self) -> str:
        return f"{self.user}: {self.shown_text}"


class ChatSettings(models.Model):
    """A player's own chat choices: hiding the chat hides it on every device."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_settings")
    hidden = models.BooleanField(default=False)
