"""Writes for live tables: start a match, apply a move, finish a game, start the next.

Every move is one transaction that locks the game row (``select_for_update``),
checks the move number it was made against, lets the engine validate it and
stores it; the table's channel group hears "move N" only after commit, and each
socket then renders its own seat's view.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from games import IllegalAction, get_game
from games.base import State
from games.bots.public import public_record
from leaderboards.services import rating_record_game
from tables.fairness import deck_commitment
from tables.models import Game, Match, Move, Seat, Table
from tables.selectors import seat_index_of
from tables.sheets import sheet_new, sheet_over, sheet_record
from tables.turns import after_move, turn_start


class ActionRefused(ValueError):
    """A move that changes nothing: ``code`` is stale, not_seated, over, illegal or malformed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Applied:
    game_id: int
    move_number: int
    text: str
    game_over: bool
    next_game_id: int | None


def load_state(game: Game) -> State:
    return get_game(game.table.game).from_json(game.state)


def _game_create(table: Table, match: Match, number: int, dealer: int, options: dict[str, Any]) -> Game:
    # seed=None: the engine shuffles with `secrets`
    state = get_game(table.game).new(options=options, seats=table.seats_count, dealer=dealer)
    salt = secrets.token_hex(16)
    game = Game.objects.create(
        match=match,
        table=table,
        number=number,
        dealer=dealer,
        options=state.options,
        deck=list(state.deck),
        salt=salt,
        commitment=deck_commitment(list(state.deck), salt),
        state=state.to_json(),
    )
    turn_start(game, state)
    game.save(update_fields=["deadline", "turn_started_at"])
    return game


@transaction.atomic
def match_start(table: Table) -> Game:
    """Start a match at a full table: the first dealer is drawn by lot."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status != Table.Status.OPEN:
        raise ActionRefused("over", "this table has already started")
    if any(not seat.filled for seat in table.seats.all()):
        raise ActionRefused("illegal", "every seat must be filled before the start")
    # every player starts the match with the table's whole time bank (spent on overrunning turns)
    Seat.objects.filter(table=table).update(time_bank_left=table.time_bank_seconds, timeouts_in_row=0)
    dealer = secrets.randbelow(table.seats_count)
    match = Match.objects.create(
        table=table, sheet=sheet_new(table.game, table.seats_count, table.options, table.match_length, dealer)
    )
    game = _game_create(table, match, 1, dealer, dict(table.options))
    table.status = Table.Status.PLAYING
    table.started_at = timezone.now()
    table.save(update_fields=["status", "started_at"])
    transaction.on_commit(lambda: notify(table.pk, game.pk))
    return game


def _game_finish(game: Game, state: State) -> Game | None:
    """Record the result on the sheet; start the next game unless the match is over."""
    table, match = game.table, Match.objects.select_for_update().get(pk=game.match_id)
    game.status = Game.Status.FINISHED
    game.result = state.result()
    game.finished_at = timezone.now()
    game.deadline = None
    match.sheet = sheet_record(table.game, match.sheet, state)
    rating_record_game(game, match)  # same transaction: ratings never disagree with stored results
    if sheet_over(table.game, match.sheet):
        match.finished = True
        match.finished_at = timezone.now()
        match.save(update_fields=["sheet", "finished", "finished_at"])
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, finished_at=timezone.now())
        return None
    match.save(update_fields=["sheet"])
    dealer, options = state.next_game(**table.match_options)
    return _game_create(table, match, game.number + 1, dealer, options)


def parse_frame_action(action: Any) -> dict[str, Any]:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionRefused("malformed", "an action must be an object with a 'type'")
    return action


@transaction.atomic
def table_apply_action(game_id: int, seat: int, move_number: int, action: Any, by: str = "player") -> Applied:
    """Apply one move; raise ``ActionRefused`` (nothing changed) when it cannot be.

    ``by`` says who made it: ``player``, ``timeout`` (the turn timer), ``bot``
    (a bot seat) or ``stand-in`` (a bot playing for an absent human).
    """
    action = parse_frame_action(action)
    try:
        game = Game.objects.select_for_update().select_related("table").get(pk=game_id)
    except Game.DoesNotExist:
        raise ActionRefused("over", "no such game") from None
    if game.status != Game.Status.PLAYING:
        raise ActionRefused("over", "this game is over")
    if isinstance(move_number, bool) or not isinstance(move_number, int):
        raise ActionRefused("malformed", "the move number must be a whole number")
    if move_number != game.move_number:
        raise ActionRefused(
            "stale",
            f"that was made against move {move_number}, but the game is at move "
            f"{game.move_number}: the table has changed, look again",
        )
    state = load_state(game)
    before = state.copy()
    try:
        state.apply(seat, action)
        text = before.describe(seat, action)
    except IllegalAction as exc:
        raise ActionRefused("illegal", str(exc)) from None
    game.move_number += 1
    Move.objects.create(
        game=game,
        number=game.move_number,
        seat=seat,
        action=action,
        text=text[:200],
        by=by,
        public=public_record(game.table.game, action, state.view(None)),
    )
    game.state = state.to_json()
    after_move(game, seat, by)
    if by == "stand-in":
        game.bot_substituted = True  # a bot played for an absent human: the game is unrated
    turn_start(game, state)
    next_game = _game_finish(game, state) if state.is_over() else None
    game.save(
        update_fields=[
            "move_number",
            "state",
            "status",
            "result",
            "finished_at",
            "deadline",
            "turn_started_at",
            "bot_substituted",
        ]
    )
    table_id, number = game.table_id, game.move_number
    transaction.on_commit(lambda: notify(table_id, game_id, number))
    return Applied(game_id, number, text, state.is_over(), next_game.pk if next_game else None)


def table_player_action(table_id: int, user, move_number: Any, action: Any) -> Applied:
    """A human's move from the socket: find his seat in the table's current game."""
    seat = seat_index_of(table_id, user)
    if seat is None:
        raise ActionRefused("not_seated", "you are not seated at this table")
    game = Game.objects.filter(table_id=table_id).order_by("-number").values_list("pk", "status").first()
    if game is None or game[1] != Game.Status.PLAYING:
        raise ActionRefused("over", "no game is being played at this table")
    return table_apply_action(game[0], seat, move_number, action)


def notify(table_id: int, game_id: int, move_number: int | None = 0) -> None:
    """Tell the table's sockets (after commit) that it changed; each renders its own view."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(
            f"table-{table_id}", {"type": "table.changed", "game": game_id, "move": move_number}
        )
