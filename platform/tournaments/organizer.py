"""The organizer's undoable actions before the start: cancel and reopen the event, withdraw and restore a player.

Each runs under the tournament's row lock, writes its audit row and tells the
players it touches in the same transaction (``tournaments.tell``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from tournaments import tell
from tournaments.models import Registration, Tournament
from tournaments.services import TournamentRefused, _changed, _entered, _organizer_locked, audit, waitlist_promote


@transaction.atomic
def tournament_cancel(*, tournament_id: int, user: User) -> Tournament:
    """Cancel before the start; every registered player is told. Reopened with ``tournament_reopen``."""
    tournament = _organizer_locked(tournament_id, user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentRefused(_("Only an event that has not started can be cancelled."))
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    audit(tournament, user, "cancel")
    tell.event_players(tournament, tell.CANCELLED)
    _changed(tournament.pk)
    return tournament


def may_reopen(tournament: Tournament) -> bool:
    return (
        tournament.status == Tournament.Status.CANCELLED
        and tournament.started_at is None
        and tournament.starts_at > timezone.now()
    )


@transaction.atomic
def tournament_reopen(*, tournament_id: int, user: User) -> Tournament:
    """Undo a cancel, while the event's start is still ahead: the registrations are all kept."""
    tournament = _organizer_locked(tournament_id, user)
    if not may_reopen(tournament):
        raise TournamentRefused(_("Only a cancelled event whose start is still ahead can be reopened."))
    tournament.status = Tournament.Status.REGISTRATION
    tournament.finished_at = None
    tournament.save(update_fields=["status", "finished_at"])
    audit(tournament, user, "reopen")
    tell.event_players(tournament, tell.REOPENED)
    _changed(tournament.pk)
    return tournament


def _registration(tournament: Tournament, player_id: int) -> Registration:
    registration = tournament.registrations.filter(user_id=player_id).first()
    if registration is None:
        raise TournamentRefused(_("That player is not registered."))
    return registration


@transaction.atomic
def player_withdraw(*, tournament_id: int, user: User, player_id: int) -> Registration:
    """Take a player out before the start (his place goes to the waiting list); he is told, and may be restored."""
    tournament = _organizer_locked(tournament_id, user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentRefused(_("The event has started: disqualify the player instead."))
    registration = _registration(tournament, player_id)
    if registration.withdrawn:
        raise TournamentRefused(_("That player is already withdrawn."))
    registration.withdrawn = True
    registration.save(update_fields=["withdrawn"])
    waitlist_promote(tournament)
    audit(tournament, user, "withdraw", player_id)
    tell.players([player_id], tell.WITHDRAWN, tournament.get_absolute_url(), event=tournament.name)
    _changed(tournament.pk)
    return registration


@transaction.atomic
def player_restore(*, tournament_id: int, user: User, player_id: int) -> Registration:
    """Undo a withdrawal before the start: back in if a place is free, else at the end of the waiting list."""
    tournament = _organizer_locked(tournament_id, user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentRefused(_("The event has started: a withdrawn player can no longer be restored."))
    registration = _registration(tournament, player_id)
    if not registration.withdrawn:
        raise TournamentRefused(_("That player is not withdrawn."))
    registration.withdrawn = False
    registration.waitlisted = _entered(tournament).count() >= tournament.max_players
    registration.save(update_fields=["withdrawn", "waitlisted"])
    audit(tournament, user, "restore", player_id, waitlisted=registration.waitlisted)
    tell.players([player_id], tell.RESTORED, tournament.get_absolute_url(), event=tournament.name)
    _changed(tournament.pk)
    return registration
