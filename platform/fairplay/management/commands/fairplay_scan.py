"""``python manage.py fairplay_scan [--since DATE] [--game G]``: one JSON line per pair, best first."""

from __future__ import annotations

import json
from datetime import datetime, time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone, translation

from fairplay.pairs import PairScore
from fairplay.selectors import pair_scores
from fairplay.words import evidence
from games import GAMES


def pair_line(p: PairScore) -> dict[str, Any]:
    with translation.override("en"):  # a log line, whoever runs it
        words = evidence(p)
    return {
        "players": [p.a_name, p.b_name],
        "games": p.games,
        "score": p.score,
        "flagged": p.flagged,
        "reports": p.reports,
        "together": p.together_ratio,
        "evidence": words,
    }


class Command(BaseCommand):
    help = "Score every pair of players who shared finished games for collusion; one JSON line per pair, best first."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--since", help="only games finished on or after this date (YYYY-MM-DD)")
        parser.add_argument("--game", choices=tuple(GAMES), help="only this game")
        parser.add_argument("--min-games", type=int, default=1, help="leave out pairs with fewer games together")
        parser.add_argument("--flagged", action="store_true", help="only the pairs at or above the threshold")

    def handle(self, *args: Any, **opts: Any) -> None:
        since = None
        if opts["since"]:
            try:
                day = datetime.strptime(opts["since"], "%Y-%m-%d").date()
            except ValueError as e:
                raise CommandError(f"--since: a date as YYYY-MM-DD, not {opts['since']!r}") from e
            since = timezone.make_aware(datetime.combine(day, time.min))
        for p in pair_scores(since, opts["game"]):
            if p.games < opts["min_games"] or (opts["flagged"] and not p.flagged):
                continue
            self.stdout.write(json.dumps(pair_line(p), ensure_ascii=False))
