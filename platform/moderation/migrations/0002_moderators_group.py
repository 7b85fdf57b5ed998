"""The Moderators group with exactly the permissions moderation needs (not superuser, no deletes)."""

from django.db import migrations

PERMISSIONS = {
    "moderation": [
        "view_player",
        "view_report",
        "change_report",
        "view_sanction",
        "view_auditentry",
        "moderate_players",
        "abort_games",
        "reverse_ratings",
    ],
    "tables": ["view_table", "view_game", "view_move", "view_match", "view_seat"],
    "chat": ["view_chatmessage"],
}


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # permissions are normally made after all migrations; the group needs them now
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    wanted = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codenames in PERMISSIONS.items()
        for codename in codenames
    ]
    group.permissions.set(wanted)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("tables", "0003_game_annulled_and_aborted"),
        ("chat", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
