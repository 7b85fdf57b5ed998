# The Notification model is the notifications app's now (its 0001 takes it over in the same table):
# social forgets it without touching the table.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("social", "0001_initial"),
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Notification")],
            database_operations=[],
        ),
    ]
