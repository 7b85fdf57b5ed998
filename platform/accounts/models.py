from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player (or a bot account). ``display_name`` is what tables and boards show."""

    display_name = models.CharField(max_length=40, blank=True)
    is_bot = models.BooleanField(default=False, help_text=_("A computer opponent; never logs in."))

    class Meta:
        ordering = ["username"]

    @property
    def name(self) -> str:
        return self.display_name or self.username

    def get_absolute_url(self) -> str:
        return reverse("profile", args=[self.username])

    def __str__(self) -> str:
        return self.name
