# The Notification model moves from social to this app; its table and rows stay where they are
# (``db_table = "social_notification"``): only Django's idea of which app owns them changes.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def content_type_moves(apps, schema_editor):
    # admin log entries and permissions keep pointing at the same model
    content_type = apps.get_model("contenttypes", "ContentType")
    if not content_type.objects.filter(app_label="notifications", model="notification").exists():
        content_type.objects.filter(app_label="social", model="notification").update(app_label="notifications")


def content_type_returns(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="notifications", model="notification").update(app_label="social")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        ("social", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Notification",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("friend_request", "Friend request"),
                                    ("friend_accepted", "Friend request accepted"),
                                    ("challenge", "Challenge"),
                                    ("challenge_answer", "Challenge answered"),
                                    ("tournament", "Tournament"),
                                    ("warning", "Moderator's warning"),
                                    ("other", "Notice"),
                                ],
                                max_length=24,
                            ),
                        ),
                        ("text", models.CharField(max_length=300)),
                        ("params", models.JSONField(blank=True, default=dict)),
                        ("url", models.CharField(blank=True, max_length=300)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("read_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="notifications",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "social_notification",
                        "ordering": ["-created_at", "-pk"],
                        "indexes": [models.Index(fields=["user", "read_at"], name="notification_unread")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_moves, content_type_returns),
    ]
