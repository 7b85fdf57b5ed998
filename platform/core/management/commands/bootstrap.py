from django.core.management.base import BaseCommand

from accounts.services import DEMO_PASSWORD, DEMO_USERNAME, ensure_bot_accounts, ensure_demo_player


class Command(BaseCommand):
    help = "Create the demo player and the bot accounts if they are missing."

    def handle(self, *args, **options) -> None:
        _, created = ensure_demo_player()
        bots = ensure_bot_accounts()
        state = "created" if created else "already there"
        self.stdout.write(f"demo player {DEMO_USERNAME!r} ({state}; password {DEMO_PASSWORD}), {len(bots)} bots")
