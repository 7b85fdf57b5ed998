"""Unfinished tables at a round's deadline, settled as the organizer chose for the event (``Tournament.settle``).

- *bots*: every human seat is given to a bot for the rest of the match (no "I'm back": the seat's page says
  why) and bots play the table to its end;
- *position*: the game is stopped (``tables.services.table_stop``) and its
  rules score the position (``GameSpec.score_position``): places per game, or for
  a game scored by its whole match (Biznes) the sheet's points so far plus the
  unfinished unit's score;
- *organizer*: the game is stopped and the board waits until the organizer
  enters each seat's place (or, for a points game, the match's points), in one
  transaction that records who settled it and when.

Each table is stopped under the game's and the table's row locks (a move's
order) while the caller holds the tournament's lock; a move that finished the
table first has committed by the time the locks are ours, so such a board is
left to ``board_finish``.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import get_game
from games.outcome import Placing
from tables.models import Game, Seat, Table
from tables.services import load_state, seat_set_away, table_stop
from tournaments import tell
from tournaments.models import Board, Result, Round, Tournament
from tournaments.scoring import match_points, scored_per_match
from tournaments.standings import place_points

REASON = "deadline"
#: ``Board.settled`` of a board whose table a moderator stopped: the organizer enters its result
MODERATOR = "moderator"


def round_settle(tournament: Tournament, rnd: Round) -> str:
    """The round's time is up: settle its unfinished boards (caller holds the tournament lock). Says what it did."""
    boards = list(rnd.boards.filter(finished=False).select_related("table"))
    if tournament.settle == Tournament.Settle.POSITION:
        for board in boards:
            _board_score_position(board)
        return "settled"
    if tournament.settle == Tournament.Settle.ORGANIZER:
        stopped = [board for board in boards if not board.settled]
        for board in stopped:
            game, _ = _board_stop(board, Tournament.Settle.ORGANIZER)
            if game is None and not scored_per_match(board.table.game):
                # no game was under way: every game of this board is already scored, nothing to enter
                board.finished, board.settled_at = True, timezone.now()
                board.save(update_fields=["finished", "settled_at"])
        if stopped:
            from tournaments.services import _changed

            tell.tables_changed([board.table_id for board in stopped])
            _changed(tournament.pk)
        return "awaiting organizer"
    held = []
    for board in boards:
        for seat in board.table.seats.filter(user__isnull=False, bot_level="", user__is_bot=False):
            if not seat.away and seat.user is not None:  # (a user always, by the filter)
                seat_set_away(board.table_id, seat.user, True, reason=REASON)
            # held for good, as a disqualified seat is: an "I'm back" would only be undone at the next tick
            Seat.objects.filter(pk=seat.pk).update(bot_level=tournament.bot_level)
            held.append(board.table_id)
    if held:
        tell.tables_changed(set(held))
    return "settling"


def board_stopped_by_moderator(table: Table) -> None:
    """A moderator stopped a board's table (inside his abort's transaction): the board waits for the organizer's
    result, as a board stopped at the deadline of an event the organizer settles does, so the round can end.

    Only the board row is written: the abort holds the table's lock, and taking the tournament's after it would
    invert the order a round's end takes them in.
    """
    board = Board.objects.select_related("round__tournament").filter(table=table, finished=False).first()
    if board is None or board.settled:
        return
    Board.objects.filter(pk=board.pk).update(settled=MODERATOR)
    tournament = board.round.tournament
    params = {"event": tournament.name, "round": board.round.number, "table": board.number}
    tell.players(board.players, tell.STOPPED_BY_MODERATOR, tournament.get_absolute_url(), **params)
    tell.players([tournament.organizer_id], tell.STOPPED_FOR_ORGANIZER, tournament.get_absolute_url(), **params)
    tell.tables_changed([table.pk])
    from tournaments.services import _changed

    _changed(tournament.pk)


def _board_stop(board: Board, how: str) -> tuple[Game | None, bool]:
    """Stop the board's table at once; (its running game, True) or (None, False) if it ended meanwhile."""
    game = Game.objects.select_for_update().filter(table_id=board.table_id, status=Game.Status.PLAYING).first()
    table = Table.objects.select_for_update().get(pk=board.table_id)
    if table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
        return None, False
    table_stop(table, game, by=None, reason=REASON)
    board.settled = how
    board.save(update_fields=["settled"])
    return game, True


def _board_score_position(board: Board) -> None:
    game, stopped = _board_stop(board, Tournament.Settle.POSITION)
    if not stopped:
        return
    engine = get_game(board.table.game)
    seats = len(board.players)
    if game is not None:
        outcome = engine.score_position(load_state(game))
        unit = place_points(outcome.placings)
        fool = outcome.loser
    else:
        unit, fool = [0] * seats, None
    if scored_per_match(board.table.game):
        # the finished units keep their sheet points; the stopped one adds what its position scores
        match = board.table.matches.order_by("-pk").first()
        so_far = match_points(match) if match is not None and match.sheet else [0] * seats
        halves = [outcome.placings[s].points_halves for s in range(seats)] if game is not None else [0] * seats
        points = [a + (b or 0) for a, b in zip(so_far, halves, strict=True)]
        fool = None
        anchor = game or (match.games.order_by("-number").first() if match is not None else None)
    else:
        points, anchor = unit, game
    if anchor is not None:
        Result.objects.get_or_create(game=anchor, defaults={"board": board, "points": points, "fool": fool})
    board.finished = True
    board.settled_at = timezone.now()
    board.save(update_fields=["finished", "settled_at"])
    _tell_settled(board, points, tell.SETTLED_POSITION)


def _tell_settled(board: Board, points: list[int], text: str) -> None:
    """Each player of a settled table hears why it stopped and what he scored."""
    tournament = board.round.tournament
    for seat, user_id in enumerate(board.players):
        if user_id is not None:
            tell.players(
                [user_id],
                text,
                tournament.get_absolute_url(),
                event=tournament.name,
                round=board.round.number,
                points=tell.halves_text(points[seat]),
            )
    tell.tables_changed([board.table_id])


def parse_points(text: str) -> int:
    """A seat's points as the organizer typed them ("12", "12.5", "12,5", "12½") in exact halves."""
    clean = (text or "").strip().replace(",", ".").replace("½", ".5").replace("\u2212", "-")
    if clean.startswith(".") or clean.startswith("-."):
        clean = clean.replace(".", "0.", 1)
    try:
        value = Decimal(clean) * 2
    except InvalidOperation as exc:
        raise ValueError(_("Enter points as a number in whole or half points.")) from exc
    if not value.is_finite() or value != value.to_integral_value() or abs(value) > 100000:
        raise ValueError(_("Enter points as a number in whole or half points."))
    return int(value)


def board_points_from_entry(board: Board, entries: Sequence[str]) -> tuple[list[int], int | None]:
    """Validate the organizer's entry for each seat: places (1 best, ties share) or points; (halves, fool)."""
    seats = len(board.players)
    if len(entries) != seats:
        raise ValueError(_("Enter a value for every seat."))
    if scored_per_match(board.table.game):
        return [parse_points(e) for e in entries], None
    places = []
    for entry in entries:
        try:
            place = int((entry or "").strip())
        except ValueError as exc:
            raise ValueError(_("Enter each seat's place as a whole number.")) from exc
        if not 1 <= place <= seats:
            raise ValueError(_("Places go from 1 to %(seats)d.") % {"seats": seats})
        places.append(place)
    if min(places) != 1:
        raise ValueError(_("Someone must be placed first."))
    for place in places:
        # "1224": a place is one more than the number of seats placed above it
        if place != 1 + sum(1 for p in places if p < place):
            raise ValueError(_("Places must be consistent: seats tied for a place leave the next places empty."))
    last = max(places)
    fool = places.index(last) if places.count(last) == 1 and last > 1 else None
    return place_points({s: Placing(p) for s, p in enumerate(places)}), fool


@transaction.atomic
def board_settle(*, tournament_id: int, user: User, board_id: int, entries: Sequence[str]) -> Board:
    """The organizer settles a board stopped at the deadline: one result, who settled it and when; the round
    moves on once it is the last."""
    from tournaments.services import TournamentRefused, _advance_later, _changed, _organizer_locked, audit

    tournament = _organizer_locked(tournament_id, user)
    board = (
        Board.objects.select_related("table", "round")
        .filter(pk=board_id, round__tournament=tournament, round__number=tournament.current_round)
        .first()
    )
    if board is None or board.finished or board.settled not in (Tournament.Settle.ORGANIZER, MODERATOR):
        raise TournamentRefused(_("That table is not waiting for your result."))
    try:
        points, fool = board_points_from_entry(board, entries)
    except ValueError as exc:
        raise TournamentRefused(str(exc)) from exc
    game = board.table.games.order_by("-number").first()
    if game is None or Result.objects.filter(game=game).exists():
        raise TournamentRefused(_("That table has no game left to settle."))
    if scored_per_match(board.table.game):
        fool = None
    Result.objects.create(board=board, game=game, points=points, fool=fool)
    board.finished = True
    board.settled_by = user
    board.settled_at = timezone.now()
    board.save(update_fields=["finished", "settled_by", "settled_at"])
    audit(tournament, user, "settle", board=board.number, round=board.round.number, points=points)
    _tell_settled(board, points, tell.SETTLED_ORGANIZER if board.settled != MODERATOR else tell.SETTLED_AFTER_MODERATOR)
    if not board.round.boards.filter(finished=False).exists():
        transaction.on_commit(lambda: _advance_later(tournament_id))
    _changed(tournament_id)
    return board
