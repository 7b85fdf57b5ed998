from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from moderation.services import moderator_add


class Command(BaseCommand):
    help = "Make a user a moderator: staff access and the Moderators group (not superuser)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        moderator_add(user)
        self.stdout.write(f"{username} is now a moderator.")
