from celery import shared_task


@shared_task
def expire_challenges() -> int:
    from social.services import challenge_expire_overdue

    return challenge_expire_overdue()


@shared_task
def drop_offline_seekers() -> int:
    """A player who closed his last tab leaves the "Play now" queue."""
    from social.services import seek_drop_offline

    return seek_drop_offline()
