"""Logging out closes the user's open sockets (every tab, every web process)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

from accounts.sockets import user_sockets_close
from core.sockets import CLOSE_SIGNED_OUT

if TYPE_CHECKING:
    from django.http import HttpRequest

    from accounts.models import User


@receiver(user_logged_out, dispatch_uid="accounts.close_sockets_on_logout")
def close_sockets_on_logout(sender: object, request: HttpRequest | None, user: User | None, **kwargs: object) -> None:
    # Django's signal: sent by allauth's logout and the admin's alike
    if user is not None:
        user_id = user.pk
        transaction.on_commit(lambda: user_sockets_close(user_id, CLOSE_SIGNED_OUT, "signed out"))
