"""What happens when no human clicks: turn timers, bot moves and absent players.

A turn's deadline is stored on the game row when the turn starts, and a Celery
task is scheduled for it after commit. Every task re-checks, under the game's
row lock, that the game and move number are still the ones it was scheduled
for and that the deadline has passed, so a task delivered twice, late, or
after the player moved acts at most once. Celery beat's sweeper applies any
overdue deadline whose task was lost. A bot (a bot seat, or a bot standing in
for an absent human) decides from its seat's view, its legal actions and the
public move log only, outside the lock, and plays through the same service as
a human.
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.bots import get_bot
from tables.models import Game, Seat
from tables.services import ActionRefused, load_state, notify, table_apply_action
from tables.turns import schedule_turn, seat_is_automated, turn_start

#: the level of the bot that plays for an absent human
STAND_IN_LEVEL = "heuristic"


def game_timeout(game_id: int, move_number: int) -> bool:
    """The turn's deadline passed: apply the rules' default move, once. True if it acted."""
    # nearly every timer finds its turn long played: say so without taking the row lock
    due = Game.objects.filter(
        pk=game_id, move_number=move_number, status=Game.Status.PLAYING, deadline__lte=timezone.now()
    )
    return due.exists() and _game_timeout_locked(game_id, move_number)


@transaction.atomic
def _game_timeout_locked(game_id: int, move_number: int) -> bool:
    game = Game.objects.select_for_update().select_related("table").filter(pk=game_id).first()
    if (
        game is None
        or game.status != Game.Status.PLAYING
        or game.move_number != move_number
        or game.deadline is None
        or game.deadline > timezone.now()
    ):
        return False
    state = load_state(game)
    index = state.to_act()[0]
    if seat_is_automated(Seat.objects.get(table_id=game.table_id, index=index)):
        # a bot's task was lost: give it a new deadline and ask it again
        game.deadline = timezone.now() + timedelta(seconds=settings.BOT_DEADLINE_SLACK)
        game.save(update_fields=["deadline"])
        deadline = game.deadline
        transaction.on_commit(lambda: schedule_turn(game_id, move_number, deadline, True))
        return False
    table_apply_action(game_id, index, move_number, state.default_action(index), by="timeout")
    return True


def bot_play(game_id: int, move_number: int, rng: random.Random | None = None) -> bool:
    """A bot moves for its seat (or for an absent human). True if its move landed."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.PLAYING or game.move_number != move_number:
        return False
    state = load_state(game)
    index = state.to_act()[0]
    seat = Seat.objects.get(table_id=game.table_id, index=index)
    if not seat_is_automated(seat):
        return False
    history = [(seat_no, public) for seat_no, public in game.moves.order_by("number").values_list("seat", "public")]
    bot = get_bot(
        seat.bot_level or STAND_IN_LEVEL,
        **({"budget_seconds": settings.BOT_STRONG_BUDGET} if seat.bot_level == "strong" else {}),
    )
    # the bot sees the seat's view, its legal actions and the public log: never the state
    action = bot.choose(
        game.table.game,
        state.view(index),
        state.legal_actions(index),
        history,
        rng or random.Random(secrets.randbits(64)),
    )
    try:
        table_apply_action(game_id, index, move_number, action, by="bot" if seat.is_bot else "stand-in")
    except ActionRefused:
        return False  # someone else moved first: nothing to do
    return True


def sweep_overdue(limit: int = 200) -> int:
    """Apply every deadline that passed without its task acting (lost tasks). Returns how many acted."""
    now = timezone.now() - timedelta(seconds=settings.SWEEP_GRACE_SECONDS)
    overdue = Game.objects.filter(status=Game.Status.PLAYING, deadline__lte=now).values_list("pk", "move_number")
    return sum(game_timeout(pk, move) for pk, move in overdue[:limit])


@transaction.atomic
def seat_set_away(table_id: int, user, away: bool) -> Seat:
    """Leave a running game (a bot plays on) or come back ("I'm back")."""
    seat = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
    if seat is None:
        raise ActionRefused("not_seated", "you are not seated at this table")
    seat.away, seat.timeouts_in_row = away, 0
    seat.save(update_fields=["away", "timeouts_in_row"])
    game = Game.objects.select_for_update().filter(table_id=table_id, status=Game.Status.PLAYING).first()
    if game is not None:
        state = load_state(game)
        if seat.index in state.to_act():
            turn_start(game, state)  # the turn is now the bot's, or the human's again with a fresh clock
            game.save(update_fields=["deadline", "turn_started_at"])
        # no move number: the game row changed (deadline) without a move, so sockets must re-read it
        transaction.on_commit(lambda: notify(table_id, game.pk, None))
    return seat
