from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.names import skeleton

    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "username", "display_name").iterator():
        User.objects.filter(pk=user.pk).update(
            username_key=skeleton(user.username)[:160], name_key=skeleton(user.display_name)[:160]
        )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=160),
        ),
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=160),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
