from celery import shared_task


@shared_task
def prune_notifications() -> int:
    from notifications.services import notification_prune

    return notification_prune()
