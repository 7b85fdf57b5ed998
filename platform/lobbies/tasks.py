from celery import shared_task


@shared_task
def sweep_seeks() -> int:
    """Rated windows widen and waits for bots run out with time alone: each queue is paired again."""
    from lobbies.services import seek_sweep

    return seek_sweep()
