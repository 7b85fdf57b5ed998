from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as AuthUserManager
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.prepared import Prepared

#: the named bots' names (``accounts.bots.BOT_NAMES``, their accounts' display names), as each language writes them
BOT_NAME_WORDS = {
    "Olena": pgettext_lazy("bot name", "Olena"),
    "Bohdan": pgettext_lazy("bot name", "Bohdan"),
    "Oksana": pgettext_lazy("bot name", "Oksana"),
    "Taras": pgettext_lazy("bot name", "Taras"),
    "Iryna": pgettext_lazy("bot name", "Iryna"),
    "Mykola": pgettext_lazy("bot name", "Mykola"),
    "Svetlana": pgettext_lazy("bot name", "Svetlana"),
    "Dmitri": pgettext_lazy("bot name", "Dmitri"),
    "Natalka": pgettext_lazy("bot name", "Natalka"),
    "Boris": pgettext_lazy("bot name", "Boris"),
    "Vera": pgettext_lazy("bot name", "Vera"),
    "Ostap": pgettext_lazy("bot name", "Ostap"),
    "Galina": pgettext_lazy("bot name", "Galina"),
    "Yaroslav": pgettext_lazy("bot name", "Yaroslav"),
    "Zoya": pgettext_lazy("bot name", "Zoya"),
    "Stepan": pgettext_lazy("bot name", "Stepan"),
    "Daryna": pgettext_lazy("bot name", "Daryna"),
    "Fedor": pgettext_lazy("bot name", "Fedor"),
    "Lesya": pgettext_lazy("bot name", "Lesya"),
    "Pavlo": pgettext_lazy("bot name", "Pavlo"),
    "Tamara": pgettext_lazy("bot name", "Tamara"),
    "Igor": pgettext_lazy("bot name", "Igor"),
    "Marusya": pgettext_lazy("bot name", "Marusya"),
    "Hnat": pgettext_lazy("bot name", "Hnat"),
}


class UserManager(AuthUserManager["User"]):
    def get(self, *args: Any, **kwargs: Any) -> User:
        """Django's, but one player by his id (``get(pk=id)``: Django's auth backends read the signed-in player so on
        every request) is read by a query written once, not built by the ORM each time (it cost more than the
        database's answer)."""
        if not args and len(kwargs) == 1 and type(kwargs.get("pk")) is int and self._db is None:
            found = _BY_ID.instances(kwargs["pk"])
            if not found:
                raise self.model.DoesNotExist(f"{self.model._meta.object_name} matching query does not exist.")
            return found[0]
        return super().get(*args, **kwargs)


class User(AbstractUser):
    """A player (or a bot account). ``display_name`` is what tables and boards show."""

    display_name = models.CharField(max_length=40, blank=True)
    is_bot = models.BooleanField(default=False, help_text=_("A computer opponent; never logs in."))
    #: what the username and the display name look like (``accounts.names.skeleton``): a new name may not
    #: look like another account's, and that is one indexed query
    username_key = models.CharField(max_length=160, blank=True, db_index=True, editable=False)
    name_key = models.CharField(max_length=160, blank=True, db_index=True, editable=False)

    objects: ClassVar[UserManager] = UserManager()

    class Meta:
        ordering = ["username"]

    def save(self, *args: Any, **kwargs: Any) -> None:
        from accounts.names import skeleton

        self.username_key, self.name_key = skeleton(self.username)[:160], skeleton(self.display_name)[:160]
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "username_key", "name_key"}
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        if self.is_bot and self.display_name in BOT_NAME_WORDS:
            # a named bot's name, written in the reader's language's script ("Zoya", "Зоя")
            return str(BOT_NAME_WORDS[self.display_name])
        return self.display_name or self.username

    def get_absolute_url(self) -> str:
        return reverse("profile", args=[self.username])

    def __str__(self) -> str:
        return self.name


_BY_ID = Prepared(lambda user_id: User.objects.filter(pk=user_id).order_by()[:1])
