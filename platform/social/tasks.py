from celery import shared_task


@shared_task
def expire_challenges() -> int:
    from social.services import challenge_expire_overdue

    return challenge_expire_overdue()
