"""Friends, blocks, challenges and the public profile's extra fields.

A friendship is one row per pair, made by the request (``from_user`` asked
``to_user``) and accepted in place; a block is one-way. Notifications are the
notifications app's; the presence socket here pushes them when they are made
and the bell counts the unread ones.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.models import game_choices

#: avatars shipped as static/img/avatars/<name>.svg (no uploads)
AVATARS = [
    ("spade", _("Spade")),
    ("heart", _("Heart")),
    ("diamond", _("Diamond")),
    ("club", _("Club")),
    ("crown", _("Crown")),
    ("joker", _("Joker")),
    ("star", _("Star")),
    ("moon", _("Moon")),
]
DEFAULT_AVATAR = "spade"
BIO_MAX = 280


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="social_profile")
    bio = models.CharField(_("about me"), max_length=BIO_MAX, blank=True)
    avatar = models.CharField(_("avatar"), max_length=16, choices=AVATARS, default=DEFAULT_AVATAR)
    #: ISO 3166-1 alpha-2, or empty
    country = models.CharField(_("country"), max_length=2, blank=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"


class Friendship(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Requested")
        ACCEPTED = "accepted", _("Friends")

    from_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    to_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["from_user", "to_user"], name="one_friendship_per_direction"),
            models.CheckConstraint(condition=~models.Q(from_user=models.F("to_user")), name="no_self_friendship"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user} -> {self.to_user} ({self.status})"


class Block(models.Model):
    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair")]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    from_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    to_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16, choices=game_choices)
    #: what ``lobbies.services.table_create`` is called with on accept (options checked by the engine)
    settings = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    table = models.ForeignKey("tables.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.from_user} challenges {self.to_user} to {self.game} ({self.status})"
