"""Notifications moved from social to their own app without losing a row: the same table, state-only migrations."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from notifications.models import Notification


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor.migrate(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_notification_written_before_the_move_is_read_after_it():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = migrate([("social", "0001_initial"), ("notifications", None)])
        user = old.get_model("accounts", "User").objects.create(username="before", email="b@example.com")
        old.get_model("social", "Notification").objects.create(
            user_id=user.pk, kind="warning", text="A moderator warned you: %(reason)s", params={"reason": "spam"}
        )
    finally:
        migrate(leaves)
    note = Notification.objects.get(user__username="before")
    assert note.kind == "warning" and note.message == "A moderator warned you: spam" and note.read_at is None
    assert Notification._meta.db_table == "social_notification"
