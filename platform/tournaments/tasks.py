"""Celery tasks: thin wrappers over ``tournaments.services``; beat runs ``tick`` every few seconds."""

from celery import shared_task


@shared_task(ignore_result=True)
def tournament_advance(tournament_id: int) -> str:
    from tournaments import services

    return services.tournament_advance(tournament_id)


@shared_task(ignore_result=True)
def tick() -> int:
    """Start events whose time has come and move running ones on (also the safety net for lost tasks)."""
    from tournaments import services

    return services.tournaments_tick()
