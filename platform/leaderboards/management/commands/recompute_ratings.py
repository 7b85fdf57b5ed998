from typing import Any

from django.core.management.base import BaseCommand

from leaderboards.services import ratings_recompute


class Command(BaseCommand):
    help = "Forget every rating and rate all finished games again, in the order they finished."

    def handle(self, *args: Any, **options: Any) -> None:
        games = ratings_recompute()
        self.stdout.write(f"recomputed ratings from {games} finished rated games")
