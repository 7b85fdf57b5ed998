from typing import Any

from django.core.management.base import BaseCommand

from accounts.services import DEMO_PASSWORD, DEMO_USERNAME, ensure_bot_accounts, ensure_demo_player


class Command(BaseCommand):
    help = "Create the demo player and the bot accounts if they are missing."

    def handle(self, *args: Any, **options: Any) -> None:
        _, created = ensure_demo_player()
        bots = ensure_bot_accounts()
        state = "created" if created else "already there"
        # the first line is the launcher's banner (``runplatform`` shows it once the platform answers)
        self.stdout.write(f"Demo login: {DEMO_USERNAME} / {DEMO_PASSWORD}")
        self.stdout.write(f"demo player {state}, {len(bots)} bots")
