"""Results reach tournaments through ``tables.signals``, in the move's own transaction (a moderator's abort in
his); ``board_is_played_out`` answers ``tables.hooks.table_played_out``."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.base import State
from tables.models import Game, Match, Table
from tables.signals import game_finished, match_finished, table_stopped
from tournaments import services, settlement
from tournaments.scoring import game_points, match_points, scored_per_match


@receiver(game_finished, sender=Table, dispatch_uid="tournaments.game_finished")
def on_game_finished(sender: object, table: Table, game: Game, state: State, **kwargs: Any) -> None:
    if scored_per_match(table.game):
        return  # scored once, by the whole match's own points
    points, fool = game_points(table, state)
    services.board_record_game(table, game, points, fool)


@receiver(match_finished, sender=Table, dispatch_uid="tournaments.match_finished")
def on_match_finished(sender: object, table: Table, match: Match, **kwargs: Any) -> None:
    if scored_per_match(table.game):
        last = match.games.order_by("-number").first()
        if last is not None:
            services.board_record_game(table, last, match_points(match), None)
    services.board_finish(table)


@receiver(table_stopped, sender=Table, dispatch_uid="tournaments.table_stopped")
def on_table_stopped(sender: object, table: Table, by: object, stop_reason: str, **kwargs: Any) -> None:
    if stop_reason == "moderator":
        settlement.board_stopped_by_moderator(table)


def board_is_played_out(table_id: int) -> bool:
    """A board whose players all left is played to its end by bots: the event needs its result."""
    from tournaments.models import Board

    return Board.objects.filter(table_id=table_id).exists()
