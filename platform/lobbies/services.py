"""Lobby writes: create a table, sit down, stand up, kick, add a bot, start when full.

Every write that touches seats locks the table row (``select_for_update``) in
one transaction and re-checks everything under the lock, so two people taking
the last seat at once get exactly one seat; a seat is filled by a conditional
UPDATE and the seat constraints back that up. A refusal raises ``LobbyRefused``
with a message for the player, and changes nothing.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from accounts import blocks, standing
from accounts.bots import bots_for_table
from accounts.models import User
from core.durability import commit_unflushed
from core.limits import within_limit
from core.prepared import Insert, Prepared
from games import InvalidOptions, get_game
from games.bots import DEFAULT_LEVEL
from lobbies import pairing
from lobbies.models import QueueTable, Seek, SeekQueue
from lobbies.selectors import NEW_RATING, rating_of
from notifications.models import Notification
from notifications.services import notification_send, notifications_send
from reliability import selectors as reliability
from tables.models import BOT_LEVELS, Seat, Table
from tables.selectors import table_visible_to
from tables.services import ActionRefused, match_start

BOT_LEVEL_NAMES = dict(BOT_LEVELS)
LIVE = (Table.Status.OPEN, Table.Status.PLAYING)
DEFAULT_BOT_LEVEL = DEFAULT_LEVEL


#: rematch votes one player may cast a minute, over all his tables
REMATCH_VOTES_PER_MINUTE = 6


class LobbyRefused(ValueError):
    """A lobby action that changed nothing; the message is shown to the player."""


def default_match_length(game: str, seats: int) -> int:
    """The game's own default (Biznes: two deals per player; most games: one)."""
    return get_game(game).default_match_length(seats)


def _empty_seats() -> dict[str, Any]:
    return {"user__isnull": True, "bot_level": ""}


def _locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise LobbyRefused(gettext("There is no such table.")) from None


def _check_open(table: Table) -> None:
    if table.status != Table.Status.OPEN:
        raise LobbyRefused(gettext("This table has already started."))


def _check_may_play(user: User) -> None:
    """A ban or a playban (too many abandoned games lately) keeps a player from new tables."""
    refusal = standing.play_refusal(user)
    if refusal:
        raise LobbyRefused(refusal)


def _check_host(table: Table, user: User) -> None:
    if table.created_by_id != user.pk:
        raise LobbyRefused(gettext("Only the player who created the table can do that."))


def _free_seat(table: Table, index: int | None) -> Seat:
    """The seat asked for (or the first free one), refusing with the reason it cannot be had."""
    if index is None:
        seat = table.seats.filter(**_empty_seats()).order_by("index").first()
        if seat is None:
            raise LobbyRefused(gettext("This table is full."))
        return seat
    if not 0 <= index < table.seats_count:
        raise LobbyRefused(
            gettext("There is no seat %(n)s at this table (it has %(seats)s).")
            % {"n": index + 1, "seats": table.seats_count}
        )
    seat = table.seats.get(index=index)
    if seat.filled:
        full = not table.seats.filter(**_empty_seats()).exists()
        raise LobbyRefused(
            gettext("This table is full.")
            if full
            else gettext("Seat %(n)s is taken; choose another.") % {"n": index + 1}
        )
    return seat


def _check_bot_tables(user: User, adding_to: Table | None = None) -> None:
    """Each table with bots keeps the workers busy: a user has at most ``BOT_TABLES_PER_USER`` at once."""
    _lock_player(user)  # one such check per user at a time
    live = Table.objects.filter(status__in=LIVE, seats__user=user)
    with_bots = live.filter(seats__bot_level__gt="")
    if adding_to is not None and with_bots.filter(pk=adding_to.pk).exists():
        return  # this table already counts
    count = with_bots.values("pk").distinct().count()
    if count >= settings.BOT_TABLES_PER_USER:
        raise LobbyRefused(
            ngettext(
                "You already have %(count)s table with bots; finish or leave it before starting another.",
                "You already have %(count)s tables with bots; finish or leave one before starting another.",
                count,
            )
            % {"count": count}
        )


#: written once per process, as the hot queries below: each is run on every "Play now" click
_PLAYER_LOCK = Prepared(lambda user_id: User.objects.select_for_update().filter(pk=user_id).values_list("pk"))


def _lock_player(user: User) -> None:
    """His row lock: every way he sits down (by hand, by the queue, joining the queue) holds it to its commit, so
    of two at once the second sees the first."""
    _PLAYER_LOCK.rows(user.pk)


def _players_lock(user_ids: Any) -> None:
    """Several players' row locks, in one order (two callers locking the same players never deadlock)."""
    list(User.objects.select_for_update().filter(pk__in=user_ids).order_by("pk").values_list("pk", flat=True))


def seated_elsewhere(user_ids: list[int]) -> None:
    """These players are seated at a table by someone else (an event's round): under their row locks (a pairing
    leaves them out meanwhile), they leave the queue in the same transaction."""
    _players_lock(user_ids)
    Seek.objects.filter(user_id__in=user_ids).delete()


def _queue_table_of(user: User) -> Table | None:
    """The live table "Play now" made for him, if he still plays there."""
    seat = (
        Seat.objects.filter(user=user, away=False, table__status__in=LIVE, table__from_queue__isnull=False)
        .select_related("table")
        .first()
    )
    return seat.table if seat is not None else None


def _sit_down_by_hand(user: User) -> None:
    """Before he joins or creates a table by hand, under his row lock: refused while a table the queue made for him
    is live (it may have been made a moment ago, while he clicked); otherwise he leaves the queue, in the same
    transaction as the seat he takes."""
    _lock_player(user)
    table = _queue_table_of(user)
    if table is not None:
        raise LobbyRefused(
            gettext("Play now has seated you at table #%(table)s: finish or leave that game first.")
            % {"table": table.pk}
        )
    Seek.objects.filter(user=user).delete()


def _fill(seat: Seat, **values: Any) -> None:
    # conditional: only an empty seat is filled, even if the lock were somehow bypassed
    if not Seat.objects.filter(pk=seat.pk, **_empty_seats()).update(joined_at=timezone.now(), **values):
        raise LobbyRefused(gettext("Seat %(n)s was just taken; choose another.") % {"n": seat.index + 1})


def _unfit_seats(seats: list[Seat], minimum: int = 0) -> list[Seat]:
    """The seats a table may not start with: a player banned, playbanned or gone since he sat down, one whose finish
    rate fell below the table's ``minimum`` while he waited, and of two players one of whom blocked the other, the
    one who sat down later (a block keeps them apart in casual play)."""
    humans = [(s, s.user) for s in seats if s.user is not None and not s.bot_level and not s.user.is_bot]
    refused = standing.play_refused([user.pk for _s, user in humans])
    marks = reliability.reliability_marks([user.pk for _s, user in humans]) if minimum else {}
    unfit = [
        s
        for s, user in humans
        if not user.is_active or user.pk in refused or (minimum and not reliability.meets(marks[user.pk], minimum))
    ]
    for i, (first, first_user) in enumerate(humans):
        for second, second_user in humans[i + 1 :]:
            if first in unfit or second in unfit:
                continue
            if blocks.blocked_either(first_user, second_user):
                unfit.append(max(first, second, key=lambda s: (s.joined_at, s.index)))
    return unfit


def _start_if_full(table: Table) -> bool:
    """Start the match once every seat is filled, each seat checked at that moment: a seat whose player may no
    longer play here is emptied instead, and the table waits for someone else."""
    if table.seats.filter(**_empty_seats()).exists():
        return False
    unfit = _unfit_seats(list(table.seats.select_related("user")), table.min_reliability)
    if unfit:
        Seat.objects.filter(pk__in=[s.pk for s in unfit]).update(user=None)
        return False
    match_start(table)
    return True


@transaction.atomic
def table_create(
    *,
    user: User,
    game: str,
    options: dict[str, Any],
    seats: int,
    turn_seconds: int = 60,
    time_bank_seconds: int = 0,
    rated: bool = True,
    private: bool = False,
    match_length: int | None = None,
    match_options: dict[str, Any] | None = None,
    host_sits: bool = True,
    min_reliability: int = 0,
) -> Table:
    """A new open table with its creator in seat 0 (``host_sits``; else every seat empty, for an organizer who
    seats others); the options are checked by the engine. ``min_reliability``: the finish rate a player needs to
    sit down (``reliability.selectors.MINIMUMS``, or 0 for anyone)."""
    if min_reliability and min_reliability not in reliability.MINIMUMS:
        raise LobbyRefused(gettext("Choose the players' reliability from the list."))
    if host_sits:
        _check_may_play(user)
        _sit_down_by_hand(user)
        if reliability.table_refusal(user.pk, min_reliability):
            raise LobbyRefused(gettext("You cannot ask for more reliability than you have: choose a lower minimum."))
    engine = get_game(game)
    try:
        state = engine.new(options=options, seats=seats, seed=0)
        match_options = engine.check_match_options(match_options, seats)
    except InvalidOptions as exc:
        raise LobbyRefused(str(exc)) from None
    table = Table.objects.create(
        game=game,
        options=dict(state.options),
        seats_count=seats,
        created_by=user,
        turn_seconds=turn_seconds,
        time_bank_seconds=time_bank_seconds,
        rated=rated,
        private=private,
        match_length=match_length or default_match_length(game, seats),
        match_options=match_options,
        min_reliability=min_reliability,
    )
    host = user if host_sits else None
    Seat.objects.bulk_create(Seat(table=table, index=i, user=host if i == 0 else None) for i in range(seats))
    return table


def seat_join(*, table_id: int, user: User, index: int | None = None, token: str = "") -> Seat:
    """Sit ``user`` at a free seat (``index``, or the first free one); start the match if that filled it."""
    try:
        return _seat_join(table_id, user, index, token)
    except IntegrityError:
        # the one-seat-per-user constraint: a double click racing itself
        raise LobbyRefused(gettext("You already sit at this table.")) from None


@transaction.atomic
def _seat_join(table_id: int, user: User, index: int | None, token: str) -> Seat:
    _check_may_play(user)
    _sit_down_by_hand(user)  # his lock before the table's, as everywhere
    table = _locked_table(table_id)
    if not table_visible_to(table, user, token):
        raise LobbyRefused(gettext("This table is private: you need its invite link to join."))
    # a player the host blocked cannot join his private table, invite link or not
    if table.private and blocks.blocks(table.created_by, user):
        raise LobbyRefused(gettext("You cannot join this private table."))
    _check_open(table)
    refusal = reliability.table_refusal(user.pk, table.min_reliability)
    if refusal:
        raise LobbyRefused(refusal)
    # a block keeps two players apart in casual play, whichever of them blocked the other
    if any(
        seat.user is not None and blocks.blocked_either(seat.user, user)
        for seat in table.seats.filter(bot_level="").exclude(user=None).select_related("user")
    ):
        raise LobbyRefused(gettext("You cannot join this table."))
    mine = table.seats.filter(user=user).first()
    if mine is not None:
        raise LobbyRefused(gettext("You already sit at this table (seat %(n)s).") % {"n": mine.index + 1})
    seat = _free_seat(table, index)
    _fill(seat, user=user)
    _start_if_full(table)
    seat.refresh_from_db()
    return seat


@transaction.atomic
def seat_leave(*, table_id: int, user: User) -> Table | None:
    """Stand up before the start. The host leaving hands the table to the next human, or closes it."""
    table = _locked_table(table_id)
    _check_open(table)
    mine = table.seats.filter(user=user).first()
    if mine is None:
        raise LobbyRefused(gettext("You do not sit at this table."))
    Seat.objects.filter(pk=mine.pk).update(user=None)
    if table.created_by_id != user.pk:
        return table
    heir = table.seats.filter(user__isnull=False, bot_level="").select_related("user").order_by("index").first()
    if heir is None or heir.user is None:
        # only bots (or nobody) would be left waiting: nothing to keep
        table.delete()
        return None
    table.created_by = heir.user
    table.save(update_fields=["created_by"])
    return table


@transaction.atomic
def seat_kick(*, table_id: int, user: User, index: int) -> Seat:
    """The host empties another seat (a player or a bot) before the start."""
    table = _locked_table(table_id)
    _check_host(table, user)
    _check_open(table)
    if not 0 <= index < table.seats_count:
        raise LobbyRefused(gettext("There is no seat %(n)s at this table.") % {"n": index + 1})
    seat = table.seats.get(index=index)
    if seat.user_id == user.pk:
        raise LobbyRefused(gettext("You cannot kick yourself; leave the table instead."))
    if not seat.filled:
        raise LobbyRefused(gettext("Seat %(n)s is already empty.") % {"n": index + 1})
    kicked = seat.user
    Seat.objects.filter(pk=seat.pk).update(user=None, bot_level="")
    if kicked is not None and not kicked.is_bot:
        # told on whatever page he has open (his presence socket), not only on his next poll
        notification_send(
            kicked,
            "other",
            gettext_noop("The host of %(game)s table #%(table)s removed you from your seat."),
            url=reverse("play"),
            params={"game": get_game(table.game).title, "table": table.pk},
            caused_by=user,
        )
    seat.refresh_from_db()
    return seat


@transaction.atomic
def seat_add_bot(*, table_id: int, user: User, level: str = DEFAULT_BOT_LEVEL, index: int | None = None) -> Seat:
    """The host puts a bot of ``level`` on an empty seat; the match starts if that filled the table."""
    if level not in BOT_LEVEL_NAMES:
        raise LobbyRefused(
            gettext("There is no bot level %(level)r (choose %(levels)s).")
            % {"level": level, "levels": ", ".join(BOT_LEVEL_NAMES)}
        )
    _lock_player(user)  # taken below by the bots' limit; his lock before the table's, as everywhere
    table = _locked_table(table_id)
    _check_host(table, user)
    _check_open(table)
    _check_bot_tables(user, adding_to=table)
    seat = _free_seat(table, index)
    (bot,) = bots_for_table(table.seats.filter(user__isnull=False).values_list("user_id", flat=True), 1)
    _fill(seat, bot_level=level, user=bot)
    _start_if_full(table)
    seat.refresh_from_db()
    return seat


@transaction.atomic
def table_against_bots(*, user: User, game: str, seats: int | None = None, level: str = DEFAULT_BOT_LEVEL) -> Table:
    """One click: an unrated table of ``game`` with default options, ``user`` in seat 0, bots elsewhere, started."""
    engine = get_game(game)
    # the default options' seat counts (Durak's 36 cards: up to 6), the ones the Play page offers
    counts = engine.seat_counts()
    seats = seats or counts[0]
    if seats not in counts:
        raise LobbyRefused(
            gettext("%(game)s is played by %(low)s to %(high)s players.")
            % {"game": gettext(engine.title), "low": counts[0], "high": counts[-1]}
        )
    if level not in BOT_LEVEL_NAMES:
        raise LobbyRefused(gettext("There is no bot level %(level)r.") % {"level": level})
    _check_bot_tables(user)
    table = table_create(user=user, game=game, options={}, seats=seats, rated=False, private=False)
    for index, bot in enumerate(bots_for_table([user.pk], seats - 1), start=1):
        Seat.objects.filter(table=table, index=index).update(bot_level=level, user=bot)
    match_start(table)
    table.refresh_from_db()
    return table


@transaction.atomic
def table_rematch(*, table_id: int, user: User) -> Table | None:
    """``user`` agrees to a rematch of a finished table; once every human seated there has (bots always do),
    a new table with the same game, options and seats starts at once. Returns it, or None while waiting."""
    from tables.services import notify

    _check_may_play(user)
    # the players' row locks before the table's, as everywhere: the rematch seats them, as sitting down by hand does
    _players_lock(Seat.objects.filter(table_id=table_id, bot_level="").exclude(user=None).values_list("user_id"))
    table = _locked_table(table_id)
    if table.status != Table.Status.FINISHED:
        raise LobbyRefused(gettext("A rematch is offered once the match is over."))
    seats = list(table.seats.select_related("user").order_by("index"))
    humans = {s.user_id for s in seats if s.user is not None and not s.is_bot and not s.user.is_bot}
    if user.pk not in humans:
        raise LobbyRefused(gettext("Only the players of this table can ask for a rematch."))
    if table.rematch_id is not None:
        return table.rematch
    if user.pk in (table.rematch_votes or []):
        return None  # a second click: nothing changed, nobody is told again
    # each vote is told to every page at the table: a player cannot flood them by voting over and over
    if not within_limit("rematch-vote", user.pk, most=REMATCH_VOTES_PER_MINUTE, seconds=60):
        raise LobbyRefused(gettext("Too many rematch requests: wait a minute."))
    votes = sorted(set(table.rematch_votes or []) | {user.pk})
    table.rematch_votes = votes
    table.save(update_fields=["rematch_votes"])
    last = table.games.order_by("-number").values_list("pk", flat=True).first() or 0
    transaction.on_commit(lambda: notify(table.pk, last, None))
    if not humans <= set(votes):
        return None
    if any(s.bot_level for s in seats):
        _check_bot_tables(table.created_by)
    # each vote was checked when it was cast; the seats are checked again now, as the table starts (and nobody sits
    # at another live table meanwhile: Play now may have seated him)
    players = [pk for pk in humans if pk is not None]
    if (
        _unfit_seats(seats, table.min_reliability)
        or Seat.objects.filter(user_id__in=players, away=False, table__status__in=LIVE).exists()
    ):
        raise LobbyRefused(gettext("The rematch cannot start: not every player of this table may play it now."))
    Seek.objects.filter(user_id__in=players).delete()  # seated here, they wait in no queue
    rematch = Table.objects.create(
        game=table.game,
        options=dict(table.options),
        seats_count=table.seats_count,
        created_by=table.created_by,
        turn_seconds=table.turn_seconds,
        time_bank_seconds=table.time_bank_seconds,
        rated=table.rated,
        private=table.private,
        match_length=table.match_length,
        match_options=dict(table.match_options),
        min_reliability=table.min_reliability,
    )
    Seat.objects.bulk_create(Seat(table=rematch, index=s.index, user=s.user, bot_level=s.bot_level) for s in seats)
    table.rematch = rematch
    table.save(update_fields=["rematch"])
    match_start(rematch)
    rematch.refresh_from_db()
    return rematch


# -- "Play now": the seek queue (``lobbies.models``, who sits with whom: ``lobbies.pairing``) ----------------

#: the turn times and the waits before bots a queue offers
QUEUE_TURN_SECONDS = (15, 30, 60, 120)
QUEUE_BOTS_AFTER = (15, 30, 60, 120)


def _queue_key(
    game: str, seats: int, options: dict[str, Any], match_options: dict[str, Any], turn: int, rated: bool
) -> str:
    settings_ = json.dumps([options, match_options], sort_keys=True, separators=(",", ":"))
    return f"{game}:{seats}:{turn}:{int(rated)}:{settings_}"


def _joining_query(user_id: int) -> Any:
    live = Seat.objects.filter(user=OuterRef("pk"), away=False, table__status__in=LIVE)
    return (
        User.objects.filter(pk=user_id)
        .annotate(
            live_table=Subquery(live.values("table_id")[:1]), queued=Exists(Seek.objects.filter(user=OuterRef("pk")))
        )
        .values_list("live_table", "queued")
    )


#: written once per process: its subqueries cost the ORM more to build than the database to answer
_JOINING = Prepared(_joining_query)


def _joining(user: User, game: str, rated: bool) -> tuple[int | None, bool, float]:
    """His row lock (one queue action per player at a time, and none while he sits down by hand), then in one
    query the live table he sits at (or None) and whether he waits in a queue now; and his rating for ``game`` (a
    rated queue's window is around it; an unrated one never reads it). Read after the lock, in a statement of its
    own: a statement that waited for the lock would still read what it saw before the wait."""
    _lock_player(user)
    ((live_table, queued),) = _JOINING.rows(user.pk)
    found = rating_of(user.pk, game) if rated else None
    return live_table, bool(queued), found if found is not None else NEW_RATING


def seek_join(
    *,
    user: User,
    game: str,
    seats: int,
    options: dict[str, Any] | None = None,
    match_options: dict[str, Any] | None = None,
    turn_seconds: int = 60,
    rated: bool = True,
    bots_after: int | None = None,
    reliable_only: bool = False,
    now: datetime | None = None,
) -> Table | None:
    """Put ``user`` in the queue of these settings (leaving any other); the table he was just seated at, if his
    joining completed a group, else None (he waits; the others' pages are called to a table by notification).
    ``reliable_only``: pair him only with players who finish at least ``reliability.selectors.RELIABLE`` percent of
    their games (new players included).

    The groups are claimed under the queue's lock (their tables made, open, with their seats: nobody is seated
    twice) and started after its commit, so the next join of the queue does not wait for a match's start."""
    made = _seek_join(user, game, seats, options, match_options, turn_seconds, rated, bots_after, reliable_only, now)
    _claimed_start(made)
    return next((table for table, players in made if user.pk in {p.pk for p in players}), None)


@transaction.atomic
def _seek_join(
    user: User,
    game: str,
    seats: int,
    options: dict[str, Any] | None,
    match_options: dict[str, Any] | None,
    turn_seconds: int,
    rated: bool,
    bots_after: int | None,
    reliable_only: bool,
    now: datetime | None,
) -> list[tuple[Table, list[User]]]:
    # what a crash of the database can lose is a click of the last moment: the player clicks again (a table it
    # made and its players were sent to, gone, is a missing page to them)
    commit_unflushed()
    _check_may_play(user)
    if user.is_bot:
        raise LobbyRefused(gettext("Bots do not queue."))
    engine = get_game(game)
    try:
        state = engine.new(options=options or {}, seats=seats, seed=0)
        match_options = engine.check_match_options(match_options, seats)
    except InvalidOptions as exc:
        raise LobbyRefused(str(exc)) from None
    if turn_seconds not in QUEUE_TURN_SECONDS:
        raise LobbyRefused(gettext("Choose a time per turn from the list."))
    if bots_after is not None and bots_after not in QUEUE_BOTS_AFTER:
        raise LobbyRefused(gettext("Choose when bots may fill the empty seats from the list."))
    # read before the queue's lock: the lock is held as briefly as it can be
    live_table, queued, rating = _joining(user, game, rated)
    if live_table is not None:
        raise LobbyRefused(
            gettext("You already sit at table #%(table)s: finish or leave it first.") % {"table": live_table}
        )
    options = dict(state.options)
    key = _queue_key(game, seats, options, match_options, turn_seconds, rated)
    if queued:
        Seek.objects.filter(user=user).delete()
    queue = _locked_queue(key, game, seats, options, match_options, turn_seconds, rated)
    now = now or timezone.now()
    _SEEK_INSERT.create(
        Seek(queue=queue, user=user, rating=rating, bots_after=bots_after, reliable_only=reliable_only, created_at=now)
    )
    # he was checked above, under his own lock: pairing checks only the others it seats
    return _pair(queue, now, checked={user.pk}, check_all=False)


#: a click's rows, inserted by statements written once per process (a join inserts his seek; the click that
#: fills a group its table, seats and claim)
_SEEK_INSERT, _TABLE_INSERT = Insert(Seek), Insert(Table)
_SEATS_INSERT, _CLAIM_INSERT = Insert(Seat), Insert(QueueTable)

_QUEUE_LOCK = Prepared(lambda key: SeekQueue.objects.select_for_update().filter(key=key).order_by("pk")[:1])


def _locked_queue(
    key: str,
    game: str,
    seats: int,
    options: dict[str, Any],
    match_options: dict[str, Any],
    turn_seconds: int,
    rated: bool,
) -> SeekQueue:
    """The queue of these settings, locked (made on its first join)."""
    found = _QUEUE_LOCK.instances(key)
    if found:
        return found[0]
    fields = {"game": game, "seats": seats, "options": options, "match_options": match_options}
    try:
        with transaction.atomic():
            return SeekQueue.objects.create(key=key, turn_seconds=turn_seconds, rated=rated, **fields)
    except IntegrityError:  # made by a join racing this one: its row, once it commits
        return SeekQueue.objects.select_for_update().get(key=key)


def seek_leave(*, user: User) -> bool:
    """Take ``user`` out of his queue; False if he was in none (already seated, or never queued)."""
    with transaction.atomic():
        return Seek.objects.filter(user=user).delete()[0] > 0


#: written once per process (and count of players), as the queries above
_SEATED = Prepared(
    lambda user_ids: Seat.objects.filter(user_id__in=user_ids, away=False, table__status__in=LIVE).values_list(
        "user_id"
    )
)
_SEEKS_OF = Prepared(lambda user_ids: Seek.objects.filter(user_id__in=user_ids))


def _unfit(players: list[User]) -> set[int]:
    """Of these waiting players, those who may no longer be seated: gone, banned or playbanned, or sitting at a
    live table since they joined."""
    if not players:
        return set()
    ids = [u.pk for u in players]
    unfit = {user_id for (user_id,) in _SEATED.rows(ids)}
    refused = standing.play_refused(ids)
    return unfit | {u.pk for u in players if not u.is_active or u.pk in refused}


def seek_queue_pair(*, queue: SeekQueue, now: datetime | None = None) -> list[Table]:
    """Seat every group the queue (locked here) can make now: full groups of people first, then a player whose
    wait for bots is over with bots on the empty seats. Every waiting player who may no longer play is dropped."""
    with transaction.atomic():
        queue = SeekQueue.objects.select_for_update().get(pk=queue.pk)
        made = _pair(queue, now or timezone.now(), checked=set(), check_all=True)
    _claimed_start(made)
    return [table for table, _players in made]


_WAITING = Prepared(
    lambda queue_id: (
        Seek.objects.select_for_update(of=("self", "user"), skip_locked=True)
        .select_related("user")
        # of the player only what seating him reads (his id, whether he is active): the rest of his row is not loaded
        .only(*(f.name for f in Seek._meta.concrete_fields), "user__id", "user__is_active")
        .filter(queue_id=queue_id)
        .order_by("created_at", "pk")
    )
)


def _pair(queue: SeekQueue, now: datetime, checked: set[int], check_all: bool) -> list[tuple[Table, list[User]]]:
    """The pairing itself, under the queue's lock (the caller's transaction): each table claimed, with its players.
    Every waiting player is checked (``check_all``, the sweep), or only those about to be seated (a join, which
    then costs the same however many wait), except the ``checked``; one found unfit is dropped from the queue."""
    # each seek with its player's row lock, the one sitting down by hand takes: held to the commit, so a hand join
    # waits and then sees this table; a player whose lock is busy (he is sitting down by hand right now) is left
    # out of this pairing instead of waited for (waiting here, under the queue's lock, could deadlock)
    seeks = _WAITING.instances(queue.pk)
    users = {s.user_id: s.user for s in seeks}
    unfit = _unfit([s.user for s in seeks if s.user_id not in checked]) if check_all else set()
    # read only when someone asked for reliable players: the usual pairing costs no query more
    picky = any(s.reliable_only for s in seeks)
    marks = reliability.reliability_marks([s.user_id for s in seeks]) if picky else {}
    waiting = [
        pairing.Waiting(
            user_id=s.user_id,
            rating=s.rating,
            waited=(now - s.created_at).total_seconds(),
            bots_after=s.bots_after,
            reliable=not picky or reliability.meets(marks[s.user_id], reliability.RELIABLE),
            reliable_only=s.reliable_only,
        )
        for s in seeks
        if s.user_id not in unfit
    ]
    # every block among them in one query, read only when a group could be made
    pairs = blocks.blocked_pairs(list(users)) if len(waiting) > 1 else frozenset()

    def blocked(a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in pairs

    made: list[tuple[Table, list[User]]] = []
    for pick in (pairing.full_group, pairing.group_with_bots):
        while (group := pick(waiting, queue.seats, queue.rated, blocked)) is not None:
            taken = {w.user_id for w in group}
            dropped = set() if check_all else _unfit([users[i] for i in taken - checked])
            if not dropped:
                players = [users[w.user_id] for w in group]
                made.append((_claim_table(queue, players), players))
            unfit |= dropped
            waiting = [w for w in waiting if w.user_id not in (dropped or taken)]
    if unfit:
        Seek.objects.filter(queue=queue, user_id__in=unfit).delete()
    return made


def _claim_table(queue: SeekQueue, players: list[User]) -> Table:
    """A new table of the queue's settings with ``players`` seated (bots on the seats left), still open: from the
    commit on, nobody seats them again, and they sit down nowhere else until it ends (``_sit_down_by_hand``)."""
    with_bots = len(players) < queue.seats
    table = Table(
        game=queue.game,
        options=dict(queue.options),
        seats_count=queue.seats,
        created_by=players[0],
        turn_seconds=queue.turn_seconds,
        # a table with a bot seated is never rated
        rated=queue.rated and not with_bots,
        match_length=default_match_length(queue.game, queue.seats),
        match_options=dict(queue.match_options),
    )
    _TABLE_INSERT.create(table)
    bots = bots_for_table([p.pk for p in players], queue.seats - len(players)) if with_bots else []
    _SEATS_INSERT.bulk(
        [Seat(table=table, index=i, user=p) for i, p in enumerate(players)]
        + [Seat(table=table, index=len(players) + i, user=b, bot_level=DEFAULT_BOT_LEVEL) for i, b in enumerate(bots)]
    )
    _SEEKS_OF.delete([p.pk for p in players])
    _CLAIM_INSERT.create(QueueTable(table=table, queue=queue))
    return table


def _claimed_start(made: list[tuple[Table, list[User]]]) -> None:
    """Start the claimed tables (after the queue's commit) and call every player to his."""
    for table, players in made:
        _queue_table_start(table, players)


@transaction.atomic
def _queue_table_start(table: Table, players: list[User]) -> None:
    commit_unflushed()  # a start lost with the database's crash is made again by the sweep (the table stays claimed)
    try:
        started = match_start(table).table
    except ActionRefused:
        return  # started already (by the sweep that found it waiting, or the join that claimed it)
    table.status, table.started_at = started.status, started.started_at  # as the join's caller will read it
    notifications_send(
        players,
        Notification.Kind.PLAY_NOW,
        gettext_noop("Play now: your %(game)s table #%(table)s is ready."),
        url=reverse("table", args=[table.pk]),
        params={"game": get_game(table.game).title, "table": table.pk},
    )


#: a claimed table not started this long after it was made lost its start (its process died): the sweep starts it
CLAIM_STARTED_WITHIN = timedelta(seconds=10)


def _claimed_left_open(now: datetime) -> list[tuple[Table, list[User]]]:
    tables = Table.objects.filter(
        status=Table.Status.OPEN, from_queue__isnull=False, created_at__lt=now - CLAIM_STARTED_WITHIN
    )
    return [
        (table, [s.user for s in table.seats.select_related("user").order_by("index") if s.user and not s.bot_level])
        for table in tables
    ]


def seek_sweep(now: datetime | None = None) -> int:
    """Pair every queue with someone waiting (windows widen and waits for bots run out with time alone); the
    number of tables made."""
    made = 0
    for queue in SeekQueue.objects.filter(seeks__isnull=False).distinct():
        made += len(seek_queue_pair(queue=queue, now=now))
    _claimed_start(_claimed_left_open(now or timezone.now()))
    return made
