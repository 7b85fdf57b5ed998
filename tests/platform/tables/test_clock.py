"""The turn clock counts down a person's turn only: a bot's turn has a deadline too (its safety net, a
dozen seconds), and showing it made players think the bot had "11s" to think."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from django.template.loader import render_to_string


def clock(players: list[dict]) -> str:
    game = SimpleNamespace(deadline=datetime(2026, 1, 1, tzinfo=UTC))
    return render_to_string("tables/_clock.html", {"game": game, "view": {"over": False}, "players": players})


def test_a_persons_turn_shows_the_clock():
    players = [{"turn": True, "is_bot": False, "away": False}, {"turn": False, "is_bot": True, "away": False}]
    assert 'class="clock"' in clock(players)


def test_a_bots_turn_or_an_away_players_turn_shows_none():
    bot = [{"turn": False, "is_bot": False, "away": False}, {"turn": True, "is_bot": True, "away": False}]
    away = [{"turn": True, "is_bot": False, "away": True}, {"turn": False, "is_bot": False, "away": False}]
    assert 'class="clock"' not in clock(bot)
    assert 'class="clock"' not in clock(away)
