"""Rebuild every player's reliability from the stored history (after a deploy onto an existing database)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from reliability.services import reliability_rebuild


class Command(BaseCommand):
    help = "Rebuild every player's finish and timeout rates from the finished and stopped tables"

    def handle(self, *args: Any, **options: Any) -> None:
        tables, players = reliability_rebuild()
        self.stdout.write(f"counted {tables} tables for {players} players")
