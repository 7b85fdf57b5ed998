"""Automatic sanctions from what the tables app reports (inside the move's own transaction)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from tables.signals import seat_taken_over

if TYPE_CHECKING:
    from django.http import HttpRequest

    from accounts.models import User
    from tables.models import Seat, Table

#: a bot took the seat because the player walked away or let his clock run out (not a ban)
ABANDONS = {"left", "timeouts"}


@receiver(seat_taken_over, dispatch_uid="moderation-playban")
def count_abandon(sender: object, table: Table, seat: Seat, reason: str, **kwargs: object) -> None:
    from moderation.services import abandonment_record
    from tables.models import Seat

    if reason not in ABANDONS or seat.user_id is None or seat.is_bot:
        return
    # walking out on bots harms nobody: only games with another human count
    others = Seat.objects.filter(table_id=table.pk, user__isnull=False, user__is_bot=False).exclude(pk=seat.pk)
    if others.exists() and seat.user is not None:
        abandonment_record(seat.user, table.pk, reason)


@receiver(user_logged_in, dispatch_uid="moderation-sign-in")
def remember_sign_in(sender: object, request: HttpRequest | None, user: User, **kwargs: object) -> None:
    from moderation.services import sign_in_record

    if request is not None:
        sign_in_record(user, request.META.get("REMOTE_ADDR"))
