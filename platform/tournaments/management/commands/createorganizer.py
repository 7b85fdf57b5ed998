from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from tournaments.services import organizer_add


class Command(BaseCommand):
    help = "Make a user an organizer: he may create events at /events/ and runs the events he creates."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        organizer_add(user)
        self.stdout.write(f"{username} is now an organizer.")
