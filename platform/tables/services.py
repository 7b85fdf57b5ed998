"""Writes for live tables: start a match, apply a move, finish a game, start the next.

Every move is one transaction that locks the game row (``SELECT ... FOR UPDATE``, ``tables.rows``),
checks the move number it was made against, lets the engine validate it and
stores it; the table's channel group hears "move N" only after commit, and each
socket then renders its own seat's view.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from core.prepared import Insert, Prepared, Update
from games import IllegalAction, get_game
from games.base import RESIGN_ACTION, State
from games.bots import DEFAULT_LEVEL, get_bot
from games.words import render, say
from tables import deadlines, hooks, relay, rows, signals, turns
from tables.delta import MOVE_FIELDS, move_delta
from tables.fairness import deck_commitment
from tables.labels import said_text
from tables.models import Game, Match, Move, Seat, Table
from tables.pause import PAUSED
from tables.presence import present_users
from tables.selectors import seat_index_of
from tables.sheets import sheet_record_game, sheet_start
from tables.turns import after_move, humans_waited_for, seat_is_automated, turn_handover, turn_start

#: a move made against an old position (translated where it is raised, in the player's language)
STALE = gettext_noop(
    "that was made against move %(move)s, but the game is at move %(now)s: the table has changed, look again"
)
#: a move from a seat a bot plays (his page shows no controls then: an old page's click)
AWAY = gettext_noop("a bot plays your seat: press “I'm back” to play again")
#: a resignation in the move log (not a game's action: the platform words it; each reader sees it translated)
RESIGNS = gettext_noop("resigns")


def refusal_text(exc: IllegalAction) -> str:
    """An engine's refusal in the player's language where the engine worded it (``IllegalAction.said``), else as is."""
    return said_text(exc.said) if exc.said is not None else str(exc)


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


def _game_create(
    table: Table, match: Match, number: int, dealer: int, options: dict[str, Any], seats: dict[int, Seat] | None = None
) -> Game:
    """The next game of the match, its first turn started. ``seats``: the table's seat rows by index, when the
    caller has them."""
    # seed=None: the engine shuffles with `secrets`
    state = get_game(table.game).new(options=options, seats=table.seats_count, dealer=dealer)
    salt = secrets.token_hex(16)
    game = Game(
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
    # its first turn's deadline goes in with the row (an update after the insert was a statement more per game)
    turn_start(game, state, seats)
    _GAME_INSERT.create(game)
    return game


#: a table starting is locked and its seats read by queries written once per process ("Play now" starts hundreds
#: of tables a minute at its busiest)
_TABLE_LOCK = Prepared(lambda table_id: Table.objects.select_for_update().filter(pk=table_id)[:1])
_TABLE_SEATS = Prepared(lambda table_id: Seat.objects.filter(table_id=table_id))
#: and its match and games inserted, and its start written, by statements written once
_MATCH_INSERT, _GAME_INSERT = Insert(Match), Insert(Game)
_TABLE_STARTED = Update(Table, ("status", "started_at"))


@transaction.atomic
def match_start(table: Table) -> Game:
    """Start a match at a full table: the first dealer is drawn by lot."""
    found = _TABLE_LOCK.instances(table.pk)
    if not found:
        raise Table.DoesNotExist(f"no table {table.pk}")
    table = found[0]
    if table.status != Table.Status.OPEN:
        raise ActionRefused("over", gettext("this table has already started"))
    seats = {seat.index: seat for seat in _TABLE_SEATS.instances(table.pk)}
    if any(not seat.filled for seat in seats.values()):
        raise ActionRefused("illegal", gettext("every seat must be filled before the start"))
    # every player starts the match with the table's whole time bank (spent on overrunning turns); seats made for
    # this start (a "Play now" table's) have it already
    if any(s.time_bank_left != table.time_bank_seconds or s.timeouts_in_row for s in seats.values()):
        Seat.objects.filter(table=table).update(time_bank_left=table.time_bank_seconds, timeouts_in_row=0)
    for seat in seats.values():
        seat.time_bank_left, seat.timeouts_in_row = table.time_bank_seconds, 0
    dealer = secrets.randbelow(table.seats_count)
    match = _MATCH_INSERT.create(Match(table=table, sheet=sheet_start(table, dealer)))
    game = _game_create(table, match, 1, dealer, dict(table.options), seats)
    table.status = Table.Status.PLAYING
    table.started_at = timezone.now()
    _TABLE_STARTED.save(table)
    transaction.on_commit(lambda: notify(table.pk, game.pk))
    return game


def _game_finish(game: Game, state: State) -> Game | None:
    """Record the result on the sheet, tell listeners; start the next game unless the match is over.

    ``game_finished`` (ratings listen) and ``match_finished`` are sent here, inside the
    move's transaction, once the game row and the sheet are stored.
    """
    table, match = game.table, Match.objects.select_for_update().get(pk=game.match_id)
    game.status = Game.Status.FINISHED
    game.result = state.result()
    game.finished_at = timezone.now()
    game.deadline = None
    game.save(update_fields=["status", "result", "finished_at", "deadline", "bot_substituted"])
    sheet = sheet_record_game(table, match, state)
    over = sheet.is_over()
    if over:
        match.finished = True
        match.finished_at = timezone.now()
    match.save(update_fields=["sheet", "finished", "finished_at"])
    game.match = match
    signals.game_finished.send(sender=Table, table=table, game=game, state=state)
    if over:
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, finished_at=timezone.now())
        signals.match_finished.send(sender=Table, table=table, match=match)
        return None
    dealer, options = state.next_game(**table.match_options)
    return _game_create(table, match, game.number + 1, dealer, options)


def parse_frame_action(action: Any) -> dict[str, Any]:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionRefused("malformed", "an action must be an object with a 'type'")
    return action


@transaction.atomic
def table_apply_action(
    game_id: int, seat: int, move_number: int, action: Any, by: str = "player", user_id: int | None = None
) -> Applied:
    """Apply one move; raise ``ActionRefused`` (nothing changed) when it cannot be.

    ``by`` says who made it: ``player``, ``timeout`` (the turn timer), ``bot``
    (a bot seat) or ``stand-in`` (a bot playing for an absent human). ``user_id``:
    a human's move whose seat the caller took from what his socket shows; it is
    checked here, under the lock, to be his and not played by a bot.
    """
    action = parse_frame_action(action)
    # the game locked and every seat read (the mover's bookkeeping, the next turn's clock, "your turn") in one
    # round trip, by statements written once rather than compiled per move (``tables.rows``)
    locked = rows.game_lock(game_id)
    if locked is None:
        raise ActionRefused("over", gettext("no such game"))
    game, seat_rows = locked
    if game.status != Game.Status.PLAYING:
        raise ActionRefused("over", gettext("this game is over"))
    if game.table.paused_at is not None:
        raise ActionRefused("paused", gettext(PAUSED))
    if isinstance(move_number, bool) or not isinstance(move_number, int):
        raise ActionRefused("malformed", "the move number must be a whole number")
    if move_number != game.move_number:
        if move_number > game.move_number:
            # newer than the database: a move committed without waiting for the disk (below) was lost with
            # a database crash. Every socket of the table reads it afresh, back at the position kept
            notify(game.table_id, game.pk, None)
        raise ActionRefused(
            "stale",
            gettext(STALE) % {"move": move_number, "now": game.move_number},
        )
    seats = {s.index: s for s in seat_rows}
    if user_id is not None:
        if seat not in seats or seats[seat].user_id != user_id:
            raise ActionRefused("not_seated", gettext("you are not seated at this table"))
        if seats[seat].away:
            raise ActionRefused("away", gettext(AWAY))
    state = load_state(game)
    try:
        said = state.apply_said(seat, action)  # words from the position before the move, no copy
        text = render(said)  # English: the row's fallback and what a caller is told
    except IllegalAction as exc:
        raise ActionRefused("illegal", refusal_text(exc)) from None
    game.move_number += 1
    move = rows.move_new(
        game,
        number=game.move_number,
        seat=seat,
        action=action,
        text=text[:200],
        words=said,
        by=by,
        public=get_game(game.table.game).public_record(action, state.view(None)),
    )
    game.state = state.to_json()
    seat_changed = after_move(game, seats[seat], by)
    if by == "stand-in":
        game.bot_substituted = True  # a bot played for an absent human: the game is unrated
    turn_start(game, state, seats)
    # Durability: a move inside a game commits without waiting for PostgreSQL to flush its WAL to the
    # disk, whose flushes stall here for 100-330 ms at times, holding every move in flight (the load
    # test's p99). What a crash of PostgreSQL or of its machine can lose is the moves of the last
    # moment (up to 3 x wal_writer_delay, 0.6 s by default), each whole with its log row: every
    # game stays at a position it really had, its timer is kept on its row and swept again, and a
    # socket showing a lost move has its next click refused and the table read afresh (above). A
    # move that ends a game (its result, the sheet, ratings, the next deal) or changes a seat waits
    # for the disk, as does everything else the platform writes.
    durable = seat_changed or state.is_over()
    # (a game's end below reads the log with its last move, and writes more; else this is the transaction's last write)
    rows.move_store(move, game, MOVE_FIELDS, durable, last=not state.is_over())
    next_game = _game_finish(game, state) if state.is_over() else None
    table_id, number = game.table_id, game.move_number
    # the table's sockets build the new position from the event itself when nothing else they show changed
    delta = None if seat_changed or game.status != Game.Status.PLAYING else move_delta(game, [move])
    transaction.on_commit(lambda: notify(table_id, game_id, number, delta))
    # two timeouts in a row send a player away without his word: the table is not ended for it at once (he
    # may be back in a minute, the page open); the abandon sweeper ends it if he does not come back
    return Applied(game_id, number, text, state.is_over(), next_game.pk if next_game else None)


def refuse_if_older(move_number: Any, known: tuple[int, int, int] | None) -> None:
    """A move made against an older position than the newest one its socket was sent is stale,
    whichever game it was made in: refused with no query (the socket's snapshot is ``known``)."""
    if known is None or not isinstance(move_number, int) or isinstance(move_number, bool):
        return
    if move_number < known[1]:
        raise ActionRefused("stale", gettext(STALE) % {"move": move_number, "now": known[1]})


def table_player_action(
    table_id: int, user: User | AnonymousUser, move_number: Any, action: Any, known: tuple[int, int, int] | None = None
) -> Applied:
    """A human's move from the socket: find his seat in the table's current game.

    ``known``: (game, move number, seat) as the socket's own table snapshot shows them, the
    newest this player can have seen; a move against it goes straight to the locked checks.
    """
    refuse_if_older(move_number, known)
    if known is not None and move_number == known[1] and not isinstance(move_number, bool):
        return table_apply_action(known[0], known[2], move_number, action, user_id=user.pk)
    seat = seat_index_of(table_id, user)
    if seat is None:
        raise ActionRefused("not_seated", gettext("you are not seated at this table"))
    if Seat.objects.filter(table_id=table_id, index=seat, away=True).exists():
        # his page shows no controls while a bot plays for him: a move from an old page changes nothing
        raise ActionRefused("away", gettext(AWAY))
    game = Game.objects.filter(table_id=table_id).order_by("-number").values_list("pk", "status", "move_number").first()
    if game is None or game[1] != Game.Status.PLAYING:
        raise ActionRefused("over", gettext("no game is being played at this table"))
    if move_number != game[2] and not isinstance(move_number, bool) and isinstance(move_number, int):
        # refused before the transaction: a stale move costs no write lock (SQLite takes it at BEGIN),
        # so a flood of them cannot slow the other tables; the locked check below still decides races
        raise ActionRefused(
            "stale",
            gettext(STALE) % {"move": move_number, "now": game[2]},
        )
    return table_apply_action(game[0], seat, move_number, action)


def notify(table_id: int, game_id: int, move_number: int | None = 0, delta: str | None = None) -> None:
    """Tell the table's sockets (after commit) that it changed; each renders its own view.

    A move names its (game, move) and carries what it changed (``delta``, ``tables.delta``) when
    that is all the sockets show: each web process then builds the new position without a query
    (``tables.live``); ``move_number`` None is any other change, read in full.
    """
    relay.table_send(table_id, {"type": "table.changed", "game": game_id, "move": move_number, "delta": delta})


# -- when no human clicks: turn timers, bot moves and absent players ------------------------------
# A turn's deadline is stored on the game row when the turn starts, and after commit it goes
# into the Redis set of due turns (``tables.turns``, ``tables.deadlines``), which beat's 1 s
# sweep reads; an automated seat's move is also queued as a short Celery countdown task.
# Whatever acts on a turn (the sweep, a bot's task, the database sweep of deadlines the set
# lost) re-checks, under the game's row lock, that the game and move number are still the
# ones it was meant for and that the deadline has passed, so a turn swept twice, late, or
# after the player moved acts at most once. A bot (a bot seat, or a bot standing in for an
# absent human) decides from its seat's view, its legal actions and the public move log
# only, outside the lock, and plays through ``table_apply_action`` like a human.

#: the level of the bot that plays for an absent human
STAND_IN_LEVEL = DEFAULT_LEVEL


def game_apply_timeout(game_id: int, move_number: int) -> bool:
    """The turn's deadline passed: apply the rules' default move, once. True if it acted."""
    # nearly every timer finds its turn long played: say so without taking the row lock
    due = Game.objects.filter(
        pk=game_id,
        move_number=move_number,
        status=Game.Status.PLAYING,
        deadline__lte=timezone.now(),
        table__paused_at__isnull=True,
    )
    return due.exists() and _game_apply_timeout_locked(game_id, move_number)


@transaction.atomic
def _game_apply_timeout_locked(game_id: int, move_number: int) -> bool:
    game = Game.objects.select_for_update().select_related("table").filter(pk=game_id).first()
    if (
        game is None
        or game.status != Game.Status.PLAYING
        or game.move_number != move_number
        or game.deadline is None
        or game.deadline > timezone.now()
        or game.table.paused_at is not None  # held: the clock stands still until the table is released
    ):
        return False
    state = load_state(game)
    index = state.to_act()[0]
    if seat_is_automated(Seat.objects.get(table_id=game.table_id, index=index)):
        # a bot's task was lost: give it a new deadline and ask it again
        game.deadline = timezone.now() + timedelta(seconds=settings.BOT_DEADLINE_SLACK)
        game.save(update_fields=["deadline"])
        deadline = game.deadline
        transaction.on_commit(lambda: turns.schedule_turn(game_id, move_number, deadline, True))
        return False
    table_apply_action(game_id, index, move_number, state.default_action(index), by="timeout")
    return True


def game_play_bot(game_id: int, move_number: int, rng: random.Random | None = None) -> bool:
    """A bot moves for its seat (or for an absent human). True if its move landed."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.PLAYING or game.move_number != move_number:
        return False
    if game.table.paused_at is not None:
        return False  # held: the release schedules the turn again
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


def games_sweep_overdue(limit: int = 200) -> int:
    """Apply every deadline that passed without its task acting (lost tasks). Returns how many acted."""
    now = timezone.now() - timedelta(seconds=settings.SWEEP_GRACE_SECONDS)
    overdue = Game.objects.filter(
        status=Game.Status.PLAYING, deadline__lte=now, table__paused_at__isnull=True
    ).values_list("pk", "move_number")
    return sum(game_apply_timeout(pk, move) for pk, move in overdue[:limit])


@transaction.atomic
def seat_set_away(table_id: int, user: User, away: bool, reason: str = "left") -> Seat:
    """Leave a running game (a bot plays on) or come back ("I'm back").

    ``reason`` is what ``seat_taken_over`` reports: "left", or "banned" when a moderator's ban sends him away
    ("disqualified", "deadline" when a tournament's organizer or round clock does).
    """
    # the game's lock before the seat's, the order a move takes them in (else a Leave racing a move deadlocks)
    game = Game.objects.select_for_update().filter(table_id=table_id, status=Game.Status.PLAYING).first()
    seat = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
    if seat is None:
        raise ActionRefused("not_seated", gettext("you are not seated at this table"))
    if seat.resigned and not away:
        raise ActionRefused("over", gettext("you resigned: a bot plays your seat to the end of the match"))
    taken_over = away and not seat.away and not seat.is_bot
    # the timeout count stays: only a move the player makes himself clears it
    seat.away = away
    seat.save(update_fields=["away"])
    if taken_over:
        signals.seat_taken_over.send(sender=Table, table=seat.table, seat=seat, reason=reason)
    if game is not None and taken_over and reason in GONE_REASONS and table_end_if_humans_gone(table_id, game):
        return seat
    if game is not None:
        state = load_state(game)
        if seat.index in state.to_act():
            turn_handover(game, seat)  # the same turn, now the bot's or the human's again: no fresh clock
            game.save(update_fields=["deadline", "turn_started_at"])
        # no move number: the game row changed (deadline) without a move, so sockets must re-read it
        transaction.on_commit(lambda: notify(table_id, game.pk, None))
    return seat


def turn_clock_release(table_id: int) -> bool:
    """A page of the table opened: if the opening turn's clock waits for the players' pages and every seated
    human now has one open, it starts now (``tables.turns.clock_hold``). True if it did."""
    now = timezone.now()
    waiting = Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING, number=1, turn_started_at__gt=now)
    if not waiting.exists():  # the common case: one cheap read per socket opened
        return False
    with transaction.atomic():
        game = waiting.select_for_update().select_related("table").first()
        if game is None or game.deadline is None or game.turn_started_at is None:
            return False
        seats = {s.index: s for s in Seat.objects.filter(table_id=table_id)}
        if not humans_waited_for(seats) <= present_users(table_id):
            return False
        now = timezone.now()
        game.deadline = now + (game.deadline - game.turn_started_at)
        game.turn_started_at = now
        game.save(update_fields=["deadline", "turn_started_at"])
        game_id, move, deadline = game.pk, game.move_number, game.deadline
        transaction.on_commit(lambda: turns.schedule_turn(game_id, move, deadline, False))
        # no move number: the game row changed (its clock) without a move, so sockets re-read it
        transaction.on_commit(lambda: notify(table_id, game_id, None))
    return True


def table_stop(
    table: Table, game: Game | None, *, by: User | None, reason: str, stop_reason: str | None = None
) -> None:
    """Stop a table before its end (a moderator's abort, or only bots left): its running game is never rated.

    ``stop_reason`` is what the page tells: "left" (its players all left), "moderator" (the default when
    ``by`` is someone), or "" (another reason, e.g. a tournament round's deadline).

    The caller holds the game's and then the table's row lock (a move's order).
    Timers and bot tasks find the game no longer playing and do nothing; the
    sockets re-read the table after commit and say it was stopped.
    """
    now = timezone.now()
    if game is not None:
        game.status, game.annulled, game.finished_at = Game.Status.ABORTED, True, now
        game.deadline = game.turn_started_at = None
        game.save(update_fields=["status", "annulled", "finished_at", "deadline", "turn_started_at"])
        Match.objects.filter(pk=game.match_id).update(finished=True, finished_at=now)
    table.status, table.finished_at = Table.Status.ABORTED, now
    table.stop_reason = stop_reason if stop_reason is not None else ("moderator" if by is not None else "")
    table.save(update_fields=["status", "finished_at", "stop_reason"])
    signals.table_stopped.send(sender=Table, table=table, game=game, by=by, stop_reason=table.stop_reason)
    table_id, game_id = table.pk, game.pk if game else 0
    transaction.on_commit(lambda: notify(table_id, game_id, None))
    if game is not None:  # its turn's timer would only come due as a no-op
        turn = (game.pk, game.move_number)
        transaction.on_commit(lambda: deadlines.deadlines_drop([turn]))


# -- resigning, and tables whose humans are all gone ------------------------------------------------

#: why a bot took a seat that, when no human is left playing, ends the table at once; a ban or a
#: tournament's deadline or disqualification leaves the table to its bots on purpose
GONE_REASONS = frozenset({"left", "resigned", "timeouts"})
HUMANS_GONE = "every player left; only bots were playing"


def table_end_if_humans_gone(table_id: int, game: Game) -> bool:
    """Stop the table (unrated) if it has human players and a bot plays for every one of them. True if stopped.

    The caller holds ``game``'s row lock; the table's is taken here (a move's order). The
    abandon sweeper (``tables.abandon``) stays the safety net for whatever this misses.
    """
    humans = Seat.objects.filter(table_id=table_id, user__isnull=False, user__is_bot=False)
    if not humans.exists() or humans.filter(away=False).exists():
        return False
    if hooks.table_played_out(table_id):
        return False
    table = Table.objects.select_for_update().filter(pk=table_id, status=Table.Status.PLAYING).first()
    if table is None or game.status != Game.Status.PLAYING:
        return False
    table_stop(table, game, by=None, reason=HUMANS_GONE, stop_reason="left")
    return True


@transaction.atomic
def table_resign(table_id: int, user: User) -> Seat:
    """Give up. Where the game's rules end a game for a resigner (``GameSpec.resign_ends``), it ends now as they
    say (the move log keeps ``RESIGN_ACTION``; rated like any finished game); either way he leaves the match
    for good and a bot plays his seat on, and a table left to bots only ends at once.
    """
    # the game's lock before the seat's, as a move takes them
    playing = Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING)
    game = playing.select_for_update().select_related("table").first()
    seat = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
    if seat is None or seat.is_bot:
        raise ActionRefused("not_seated", gettext("you are not seated at this table"))
    if game is None:
        raise ActionRefused("over", gettext("no game is being played at this table"))
    if seat.resigned:
        raise ActionRefused("over", gettext("you have already resigned"))
    state = load_state(game)
    ends = get_game(game.table.game).resign_ends
    if ends:
        try:
            state.resign(seat.index)
        except IllegalAction as exc:
            raise ActionRefused("illegal", refusal_text(exc)) from None
    was_away = seat.away
    seat.away = seat.resigned = True
    seat.save(update_fields=["away", "resigned"])
    if not was_away:
        signals.seat_taken_over.send(sender=Table, table=game.table, seat=seat, reason="resigned")
    running: Game | None = game
    if ends:
        game.move_number += 1
        Move.objects.create(
            game=game,
            number=game.move_number,
            seat=seat.index,
            action=dict(RESIGN_ACTION),
            text=RESIGNS,
            words=say(RESIGNS),
            by="player",
            public=dict(RESIGN_ACTION),
        )
        game.state = state.to_json()
        turn_start(game, state)  # the game is over: no deadline
        running = _game_finish(game, state)  # the next game (a bot plays his seat), or None
        game.save(update_fields=["move_number", "state", "status", "result", "finished_at", "deadline"])
    elif seat.index in state.to_act():
        turn_handover(game, seat)  # the same turn, now the bot's
        game.save(update_fields=["deadline", "turn_started_at"])
    game_id, number = game.pk, game.move_number
    transaction.on_commit(lambda: notify(table_id, game_id, number if ends else None))
    if running is not None:
        table_end_if_humans_gone(table_id, running)
    return seat
