"""Tournament writes: create/edit, register, check in, start, seat rounds, score, advance, organizer controls.

Every write locks the tournament row (``select_for_update``) and re-checks its
state under the lock, so the beat tick, a Celery task and the organizer's
button racing each other start a round once. Tables are created through the
lobby's ``table_create`` and started by ``tables.services.match_start``; results
arrive from ``tables.signals`` inside the move's transaction (``receivers``).
Sockets hear about changes only after commit.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import standing
from accounts.bots import bots_for_table
from accounts.models import User
from core import outbox
from core.limits import within_limit
from core.text import TextRefused, clean_text
from games import InvalidOptions, get_game
from lobbies.services import seated_elsewhere, table_create
from reliability import selectors as reliability
from tables import relay
from tables.models import Game, Seat, Table
from tables.services import match_start, seat_set_away
from tournaments import cumulative, seating, tell
from tournaments.models import (
    ORGANIZERS_GROUP,
    Announcement,
    Board,
    OrganizerAction,
    Registration,
    Result,
    Round,
    Series,
    Tournament,
)
from tournaments.scoring import scored_per_match
from tournaments.selectors import computed_standings, ranking

log = logging.getLogger(__name__)


#: the longest event name, description and announcement (the model's columns)
NAME_MAX, DESCRIPTION_MAX, ANNOUNCEMENT_MAX = 80, 4000, 500


#: registrations and withdrawals one player may make an hour, over all events
REGISTRATIONS_PER_HOUR = 20


class TournamentRefused(ValueError):
    """A tournament action that changed nothing; the message is shown to the user."""


EDITABLE = (
    "name",
    "description",
    "options",
    "match_options",
    "table_size",
    "format",
    "fill",
    "advance",
    "rounds",
    "games_per_round",
    "turn_seconds",
    "time_bank_seconds",
    "round_minutes",
    "settle",
    "bot_level",
    "registration_opens",
    "registration_closes",
    "starts_at",
    "check_in_minutes",
    "no_show",
    "min_players",
    "max_players",
    "private",
    "rated",
    "min_rating",
    "min_rated_games",
    "min_reliability",
)


def is_organizer(user: User | AnonymousUser | None) -> bool:
    """May create events: the Organizers group (``manage.py createorganizer``) and superusers; being staff (a
    moderator) is not enough."""
    return bool(
        user is not None
        and user.is_authenticated
        and (user.is_superuser or user.groups.filter(name=ORGANIZERS_GROUP).exists())
    )


def organizer_add(user: User) -> None:
    """Let ``user`` create events (the Organizers group; nothing else: no staff access)."""
    from django.contrib.auth.models import Group

    user.groups.add(Group.objects.get_or_create(name=ORGANIZERS_GROUP)[0])


def may_edit(tournament: Tournament, user: User | AnonymousUser | None) -> bool:
    """Runs this event: its own organizer, and superusers; no other organizer, moderator or staff account."""
    return bool(
        user is not None and user.is_authenticated and (user.is_superuser or tournament.organizer_id == user.pk)
    )


def audit(tournament: Tournament, actor: User, action: str, player_id: int | None = None, **detail: Any) -> None:
    """An organizer action's record, written in the action's own transaction."""
    OrganizerAction.objects.create(
        tournament=tournament, actor=actor, action=action, player_id=player_id, detail=detail
    )


def _check_fields(game: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The engine judges the options at the table size; the event's own fields must agree with each other."""
    engine = get_game(game)
    try:
        fields["name"] = clean_text(fields.get("name"), max_length=NAME_MAX, required=True)
        fields["description"] = clean_text(fields.get("description"), max_length=DESCRIPTION_MAX, multiline=True)
    except TextRefused as refused:
        raise TournamentRefused(str(refused)) from None
    size = fields["table_size"]
    if not engine.min_seats <= size <= engine.max_seats:
        raise TournamentRefused(
            _("%(game)s is played by %(low)d to %(high)d players.")
            % {"game": engine.title, "low": engine.min_seats, "high": engine.max_seats}
        )
    if fields["format"] == Tournament.Format.CUMULATIVE and not cumulative.allowed(game):
        raise TournamentRefused(_("The cumulative format is for Biznes only."))
    try:
        state = engine.new(options=fields.get("options") or {}, seats=size, seed=0)
        fields["match_options"] = engine.check_match_options(fields.get("match_options") or {}, size)
    except InvalidOptions as exc:
        raise TournamentRefused(str(exc)) from None
    fields["options"] = dict(state.options)
    if fields["min_players"] < 2 or fields["max_players"] < fields["min_players"]:
        raise TournamentRefused(_("The maximum number of players must be at least the minimum (and at least 2)."))
    if not fields["registration_opens"] < fields["registration_closes"] <= fields["starts_at"]:
        raise TournamentRefused(_("Registration must open before it closes, and close no later than the start."))
    if fields["format"] == Tournament.Format.KNOCKOUT and not 1 <= fields["advance"] < size:
        raise TournamentRefused(_("In a knockout, fewer than a whole table must advance from each table."))
    if fields["rounds"] < 1 or fields["games_per_round"] < 1:
        raise TournamentRefused(_("An event needs at least one round of at least one game."))
    if fields.get("min_reliability", 0) not in (0, *reliability.MINIMUMS):
        raise TournamentRefused(_("Choose the players' reliability from the list."))
    return fields


@transaction.atomic
def tournament_create(*, organizer: User, game: str, series: Series | None = None, **fields: Any) -> Tournament:
    if not is_organizer(organizer):
        raise TournamentRefused(_("Only organizers can create events."))
    if series is not None and (
        series.game != game or not (organizer.is_superuser or series.organizer_id == organizer.pk)
    ):
        raise TournamentRefused(_("That series is another organizer's, or of another game."))
    _check_may_publish(organizer)
    fields = _check_fields(game, {k: v for k, v in fields.items() if k in EDITABLE})
    return Tournament.objects.create(organizer=organizer, game=game, series=series, **fields)


@transaction.atomic
def tournament_update(*, tournament_id: int, user: User, **fields: Any) -> Tournament:
    tournament = _locked(tournament_id)
    if not may_edit(tournament, user):
        raise TournamentRefused(_("Only the event's organizer or staff can edit it."))
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentRefused(_("The event has started; it can no longer be edited."))
    merged = {name: getattr(tournament, name) for name in EDITABLE}
    merged.update({k: v for k, v in fields.items() if k in EDITABLE})
    merged = _check_fields(tournament.game, merged)
    changed = sorted(name for name, value in merged.items() if getattr(tournament, name) != value)
    if (merged["name"], merged["description"]) != (tournament.name, tournament.description):
        _check_may_publish(user)
    for name, value in merged.items():
        setattr(tournament, name, value)
    tournament.save()
    audit(tournament, user, "edit", fields=changed)
    _changed(tournament.pk)
    return tournament


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentRefused(_("There is no such event.")) from None


# -- players ---------------------------------------------------------------------------------------


def _check_may_publish(user: User) -> None:
    """An announcement, an event's name and description are published to every player: not while muted."""
    refusal = standing.talk_refusal(user.pk)
    if refusal:
        raise TournamentRefused(refusal)


def _check_registration_rate(user: User) -> None:
    """Each registration and withdrawal is told to every open page of the event: a few an hour per player."""
    if not within_limit("registration", user.pk, most=REGISTRATIONS_PER_HOUR, seconds=3600):
        raise TournamentRefused(_("You registered and withdrew too often in the last hour: try again later."))


def registration_join(*, tournament_id: int, user: User, token: str = "") -> Registration:
    if user.is_authenticated:
        _check_registration_rate(user)
    try:
        return _registration_join(tournament_id, user, token)
    except IntegrityError:
        raise TournamentRefused(_("You are already registered.")) from None


@transaction.atomic
def _registration_join(tournament_id: int, user: User, token: str) -> Registration:
    tournament = _locked(tournament_id)
    now = timezone.now()
    if tournament.private and token != tournament.invite_token:
        raise TournamentRefused(_("This event is invite-only: you need its invite link to register."))
    if tournament.status != Tournament.Status.REGISTRATION or now >= tournament.registration_closes:
        raise TournamentRefused(_("Registration is closed."))
    if now < tournament.registration_opens:
        raise TournamentRefused(_("Registration has not opened yet."))
    if tournament.registrations.filter(user=user).exists():
        raise TournamentRefused(_("You are already registered."))
    entry_check(tournament, user)
    full = _entered(tournament).count() >= tournament.max_players
    registration = Registration.objects.create(tournament=tournament, user=user, waitlisted=full)
    _changed(tournament.pk)
    return registration


def _entered(tournament: Tournament) -> QuerySet[Registration]:
    """The registrations holding a place (not waiting for one, not withdrawn by the organizer)."""
    return tournament.registrations.filter(waitlisted=False, withdrawn=False)


def entry_check(tournament: Tournament, user: User) -> None:
    """The event's entry conditions against the player's rating for its game and his reliability (how often he
    finishes what he starts), refused with what is missing."""
    refusal = reliability.event_refusal(user.pk, tournament.min_reliability)
    if refusal:
        raise TournamentRefused(refusal)
    if tournament.min_rating is None and not tournament.min_rated_games:
        return
    from leaderboards.models import PlayerRating

    rating = PlayerRating.objects.filter(user=user, game=tournament.game).first()
    games = rating.games if rating is not None else 0
    if games < tournament.min_rated_games:
        raise TournamentRefused(
            _("This event needs at least %(needed)d rated games of this game; you have %(have)d.")
            % {"needed": tournament.min_rated_games, "have": games}
        )
    if tournament.min_rating is not None and (rating is None or games == 0 or rating.rating < tournament.min_rating):
        have = round(rating.rating) if rating is not None and games else None
        if have is None:
            raise TournamentRefused(
                _("This event needs a rating of at least %(needed)d in this game; you have none yet.")
                % {"needed": tournament.min_rating}
            )
        raise TournamentRefused(
            _("This event needs a rating of at least %(needed)d in this game; yours is %(have)d.")
            % {"needed": tournament.min_rating, "have": have}
        )


def waitlist_promote(tournament: Tournament) -> None:
    """Places freed before the start go to the waiting list in the order it registered (each is told)."""
    free = tournament.max_players - _entered(tournament).count()
    if free <= 0:
        return
    waiting = list(tournament.registrations.filter(waitlisted=True, withdrawn=False).order_by("created_at")[:free])
    if not waiting:
        return
    Registration.objects.filter(pk__in=[r.pk for r in waiting]).update(waitlisted=False)
    tell.players([r.user_id for r in waiting], tell.PROMOTED, tournament.get_absolute_url(), event=tournament.name)


@transaction.atomic
def registration_withdraw(*, tournament_id: int, user: User) -> None:
    _check_registration_rate(user)
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentRefused(_("The event has started: ask the organizer to withdraw you."))
    if not tournament.registrations.filter(user=user).delete()[0]:
        raise TournamentRefused(_("You are not registered."))
    waitlist_promote(tournament)
    _changed(tournament.pk)


def check_in_open(tournament: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (
        tournament.check_in_minutes > 0
        and tournament.status == Tournament.Status.REGISTRATION
        and tournament.starts_at - timedelta(minutes=tournament.check_in_minutes) <= now < tournament.starts_at
    )


@transaction.atomic
def registration_check_in(*, tournament_id: int, user: User) -> Registration:
    tournament = _locked(tournament_id)
    if not check_in_open(tournament):
        raise TournamentRefused(_("Check-in is not open."))
    registration = tournament.registrations.filter(user=user).first()
    if registration is None:
        raise TournamentRefused(_("You are not registered."))
    if registration.checked_in_at is None:
        registration.checked_in_at = timezone.now()
        registration.save(update_fields=["checked_in_at"])
        _changed(tournament.pk)
    return registration


# -- running ---------------------------------------------------------------------------------------


@transaction.atomic
def tournament_start(tournament_id: int, *, early_by: User | None = None) -> bool:
    """Start the event (beat at ``starts_at``, or the organizer early). True if it started now."""
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        return False
    if early_by is None and tournament.starts_at > timezone.now():
        return False
    if early_by is not None and not may_edit(tournament, early_by):
        raise TournamentRefused(_("Only the event's organizer can start it."))
    # the waiting list and the organizer's withdrawals take no seat: they stay listed, as out of it
    registrations = [r for r in tournament.registrations.all() if not (r.waitlisted or r.withdrawn)]
    present = [r for r in registrations if not tournament.check_in_minutes or r.checked_in_at is not None]
    if len(present) < tournament.min_players:
        if early_by is not None:
            # nothing is changed: the organizer may wait for more players, lower the minimum, or cancel
            raise TournamentRefused(
                _(
                    "Not started: %(count)d players are ready and the event needs at least %(minimum)d. "
                    "Wait for more, lower the minimum (Edit), or cancel the event."
                )
                % {"count": len(present), "minimum": tournament.min_players}
            )
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        tell.event_players(tournament, tell.CANCELLED_FEW, count=len(present), minimum=tournament.min_players)
        _changed(tournament.pk)
        return False
    tournament.registrations.exclude(pk__in=[r.pk for r in present]).update(dropped=True)
    still_waiting = tournament.registrations.filter(waitlisted=True, withdrawn=False).values_list("user_id", flat=True)
    tell.players(still_waiting, tell.STARTED_FULL, tournament.get_absolute_url(), event=tournament.name)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    if early_by is not None:
        audit(tournament, early_by, "start", players=len(present))
    no_show_bots = 0
    if tournament.no_show == Tournament.NoShow.BOT:
        no_show_bots = len(registrations) - len(present)
    _round_start(tournament, bots_for=no_show_bots)
    return True


def _active_players(tournament: Tournament) -> list[int]:
    rows = tournament.registrations.filter(dropped=False, disqualified=False, eliminated_in__isnull=True)
    return list(rows.values_list("user_id", flat=True))


def _round_start(tournament: Tournament, bots_for: int = 0) -> Round:
    """Seat the next round (caller holds the tournament lock) and start every table."""
    number = tournament.current_round + 1
    players = _active_players(tournament)
    size, fill = tournament.table_size, tournament.fill
    # no-shows replaced by bots keep their seats in round 1: placeholders that become bot seats
    placeholders = [-(i + 1) for i in range(bots_for)]
    if number == 1:
        plan = seating.seat_random(players + placeholders, size, fill)
    else:
        order = ranking(tournament, among=players)
        history = Board.objects.filter(round__tournament=tournament).values_list("players", flat=True)
        byes_had = [int(u) for byes in tournament.round_set.values_list("byes", flat=True) for u in byes]
        plan = seating.seat_by_standing(order, size, seating.mates_of(history), fill, byes_had)
    deadline = timezone.now() + timedelta(minutes=tournament.round_minutes) if tournament.round_minutes else None
    bye_halves = _bye_halves(tournament)
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        deadline=deadline,
        byes={str(u): bye_halves for u in plan.byes if u > 0},
    )
    goto: dict[str, str] = {}
    for index, seats in enumerate(plan.tables, start=1):
        board_players = [p if p is not None and p > 0 else None for p in seats]
        table = _board_table(tournament, board_players)
        Board.objects.create(round=rnd, number=index, table=table, players=board_players)
        for user_id in board_players:
            if user_id is not None:
                goto[str(user_id)] = reverse("table", args=[table.pk])
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    _summon(tournament, number, goto)
    tournament_id = tournament.pk
    transaction.on_commit(lambda: _broadcast(tournament_id, {"type": "tournament.round", "goto": goto}))
    return rnd


def _summon(tournament: Tournament, number: int, goto: dict[str, str]) -> None:
    """Each seated player's open pages take him to his table (the notification's live frame says go)."""
    from django.contrib.auth import get_user_model

    from notifications.services import notification_send

    users = get_user_model().objects.filter(pk__in=[int(u) for u in goto], is_bot=False)
    for user in users:
        notification_send(
            user,
            "tournament",
            gettext_noop("Round %(round)s of %(event)s has started: your table is ready."),
            goto[str(user.pk)],
            {"round": number, "event": tournament.name},
        )


def _bye_halves(tournament: Tournament) -> int:
    """A bye scores the mean place points of a game per game; a match scored by its own points (Biznes) gives 0."""
    if scored_per_match(tournament.game):
        return 0
    return (tournament.table_size - 1) * tournament.games_per_round


def _board_table(tournament: Tournament, players: list[int | None]) -> Table:
    # the organizer "creates" the table: he may watch it even when the event is invite-only
    table = table_create(
        user=tournament.organizer,
        game=tournament.game,
        options=tournament.options,
        seats=tournament.table_size,
        turn_seconds=tournament.turn_seconds,
        time_bank_seconds=tournament.time_bank_seconds,
        rated=tournament.rated,
        private=tournament.private,
        match_length=tournament.games_per_round,
        match_options=tournament.match_options,
        host_sits=False,
    )
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    bots = iter(bots_for_table([p for p in players if p is not None], players.count(None)))
    for seat, player in zip(seats, players, strict=True):
        # a bot seat gets a named bot account: "who" it is; its level is what plays
        seat.user_id = player if player is not None else next(bots).pk
        seat.bot_level = "" if player is not None else tournament.bot_level
    Seat.objects.bulk_update(seats, ["user", "bot_level"])
    seated_elsewhere([p for p in players if p is not None])
    match_start(table)
    return table


def round_finished(rnd: Round) -> bool:
    return not rnd.boards.filter(finished=False).exists()


@transaction.atomic
def tournament_advance(tournament_id: int) -> str:
    """Start the next round, or finish the event, once the current round is over. Says what it did."""
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        return "idle"
    rnd = tournament.round_set.filter(number=tournament.current_round).first()
    if rnd is None:
        return "idle"
    if not round_finished(rnd):
        if rnd.deadline is None or rnd.deadline > timezone.now():
            return "playing"
        from tournaments.settlement import round_settle

        done = round_settle(tournament, rnd)
        if not round_finished(rnd):
            return done
    if rnd.finished_at is None:
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["finished_at"])
    tell.tables_changed(rnd.boards.values_list("table_id", flat=True))
    if tournament.format == Tournament.Format.KNOCKOUT:
        # the final table decides the places among its players (no one is "out" of it)
        if rnd.boards.count() == 1 or _knockout_cut(tournament, rnd) < 2:
            return _finish(tournament)
    elif rnd.number >= tournament.rounds:
        return _finish(tournament)
    _round_start(tournament)
    return "started"


def _knockout_cut(tournament: Tournament, rnd: Round) -> int:
    """Mark who is out after a knockout round; returns how many go on."""
    from tournaments.standings import ranks_at_table

    advancing: set[int] = set()
    for board in rnd.boards.prefetch_related("results"):
        totals = [0] * len(board.players)
        for result in board.results.all():
            totals = [a + b for a, b in zip(totals, result.points, strict=True)]
        ranks = ranks_at_table(totals)
        humans = [(p, ranks[i]) for i, p in enumerate(board.players) if p is not None]
        advancing.update(seating.knockout_advance([humans], tournament.advance))
    for user_id in rnd.byes:
        advancing.add(int(user_id))
    out = tournament.registrations.filter(eliminated_in__isnull=True, dropped=False).exclude(user_id__in=advancing)
    out_ids = list(out.values_list("user_id", flat=True))
    out.update(eliminated_in=rnd.number)
    going_on = advancing & set(_active_players(tournament))
    url = tournament.get_absolute_url()
    tell.players(out_ids, tell.KNOCKED_OUT, url, event=tournament.name, round=rnd.number)
    if len(going_on) >= 2:
        tell.players(going_on, tell.ADVANCED, url, event=tournament.name, round=rnd.number)
    return len(going_on)


def _finish(tournament: Tournament) -> str:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    rows = computed_standings(tournament)
    for row in rows:
        tell.players(
            [row.player],
            tell.FINISHED,
            tournament.get_absolute_url(),
            event=tournament.name,
            place=row.place,
            count=len(rows),
        )
    tell.event_tables(tournament)
    _changed(tournament.pk)
    return "finished"


def board_record_game(table: Table, game: Game, points: list[int], fool: int | None) -> None:
    """A scored unit finished at a tournament table (inside the move's transaction)."""
    board = Board.objects.filter(table=table).select_related("round").first()
    if board is None:
        return
    Result.objects.get_or_create(game=game, defaults={"board": board, "points": points, "fool": fool})
    _changed(board.round.tournament_id)


def board_finish(table: Table) -> None:
    """The match at a tournament table ended; the last board of the round asks the worker to move on."""
    board = Board.objects.filter(table=table).select_related("round").first()
    if board is None:
        return
    # the round row serialises boards finishing at once, so exactly one of them sees the round over
    Round.objects.select_for_update().get(pk=board.round_id)
    Board.objects.filter(pk=board.pk).update(finished=True)
    tournament_id = board.round.tournament_id
    if not board.round.boards.filter(finished=False).exists():
        transaction.on_commit(lambda: _advance_later(tournament_id))
    _changed(tournament_id)


def _advance_later(tournament_id: int) -> None:
    from tournaments import tasks

    try:
        tasks.tournament_advance.delay(tournament_id)
    except Exception as exc:  # the broker unreachable after commit: the 5 s tick moves the round on
        log.warning("tournament %s: advance not queued (%s)", tournament_id, exc)


# -- the organizer ---------------------------------------------------------------------------------


def _organizer_locked(tournament_id: int, user: User) -> Tournament:
    tournament = _locked(tournament_id)
    if not may_edit(tournament, user):
        raise TournamentRefused(_("Only the event's organizer can do that."))
    return tournament


def _live_tables(tournament: Tournament) -> list[int]:
    return list(Board.objects.filter(round__tournament=tournament, finished=False).values_list("table_id", flat=True))


@transaction.atomic
def tournament_pause(*, tournament_id: int, user: User, paused: bool) -> Tournament:
    """Pause: every unfinished table of the event is held (no moves, clocks and time banks stopped) and every
    player told. Resume: the tables go on with the time they had, and the round's deadline moves on by the pause."""
    from tables.pause import table_pause, table_resume

    tournament = _organizer_locked(tournament_id, user)
    want, have = (
        (Tournament.Status.PAUSED, Tournament.Status.RUNNING)
        if paused
        else (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    )
    if tournament.status != have:
        raise TournamentRefused(_("Only a running event can be paused, and only a paused one resumed."))
    now = timezone.now()
    tables = _live_tables(tournament)
    held = timedelta(0)
    if paused:
        for table_id in tables:
            # the table says "paused" in each reader's language; the note names whose event holds it
            table_pause(table_id, note=tournament.name)
        tournament.paused_at = now
    else:
        held = now - (tournament.paused_at or now)
        for table_id in tables:
            table_resume(table_id)
        tournament.paused_at = None
        rnd = tournament.round_set.filter(number=tournament.current_round).first()
        if rnd is not None and rnd.deadline is not None and rnd.finished_at is None:
            rnd.deadline += held
            rnd.save(update_fields=["deadline"])
    tournament.status = want
    tournament.save(update_fields=["status", "paused_at"])
    audit(
        tournament, user, "pause" if paused else "resume", **({} if paused else {"seconds": int(held.total_seconds())})
    )
    tell.event_players(tournament, tell.PAUSED if paused else tell.RESUMED)
    tell.tables_changed(tables)
    _changed(tournament.pk)
    if not paused:
        transaction.on_commit(lambda: _advance_later(tournament_id))
    return tournament


@transaction.atomic
def tournament_next_round(*, tournament_id: int, user: User) -> str:
    """Start the event now, or end the current round early: what is left is settled as at the deadline
    (in the last round that finishes the event)."""
    tournament = _organizer_locked(tournament_id, user)
    if tournament.status == Tournament.Status.REGISTRATION:
        return "started" if tournament_start(tournament_id, early_by=user) else "cancelled"
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentRefused(_("The event is not running."))
    rnd = tournament.round_set.get(number=tournament.current_round)
    rnd.deadline = timezone.now()
    rnd.save(update_fields=["deadline"])
    audit(tournament, user, "next_round", round=rnd.number)
    tell.event_tables(tournament)
    return tournament_advance(tournament_id)


@transaction.atomic
def player_disqualify(*, tournament_id: int, user: User, player_id: int) -> Registration:
    """The player is seated no more; a bot plays his current seat out, and his results stay. He is told."""
    tournament = _organizer_locked(tournament_id, user)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise TournamentRefused(_("Only a running event's players can be disqualified; before the start, withdraw."))
    registration = tournament.registrations.filter(user_id=player_id).select_related("user").first()
    if registration is None:
        raise TournamentRefused(_("That player is not registered."))
    if registration.disqualified:
        raise TournamentRefused(_("That player is already disqualified."))
    registration.disqualified = True
    registration.save(update_fields=["disqualified"])
    tables = []
    for board in Board.objects.filter(round__tournament=tournament, finished=False).select_related("table"):
        if player_id in board.players:
            seat_set_away(board.table_id, registration.user, True, reason="disqualified")
            # a bot level on his seat keeps it automated: his page offers no "I'm back" and says why
            Seat.objects.filter(table=board.table, user_id=player_id).update(bot_level=tournament.bot_level)
            tables.append(board.table_id)
    audit(tournament, user, "disqualify", player_id)
    tell.players([player_id], tell.DISQUALIFIED, tournament.get_absolute_url(), event=tournament.name)
    tell.tables_changed(tables)
    _changed(tournament.pk)
    return registration


@transaction.atomic
def player_reinstate(*, tournament_id: int, user: User, player_id: int) -> Registration:
    """Undo a disqualification: seated again from the next round (the bot finishes the seat it took)."""
    tournament = _organizer_locked(tournament_id, user)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise TournamentRefused(_("The event is over: its standings are final."))
    registration = tournament.registrations.filter(user_id=player_id, disqualified=True).first()
    if registration is None:
        raise TournamentRefused(_("That player is not disqualified."))
    registration.disqualified = False
    registration.save(update_fields=["disqualified"])
    audit(tournament, user, "reinstate", player_id)
    tell.players([player_id], tell.REINSTATED, tournament.get_absolute_url(), event=tournament.name)
    tell.event_tables(tournament)
    _changed(tournament.pk)
    return registration


@transaction.atomic
def announcement_post(*, tournament_id: int, user: User, text: str) -> Announcement:
    tournament = _organizer_locked(tournament_id, user)
    _check_may_publish(user)
    try:
        text = clean_text(text, max_length=ANNOUNCEMENT_MAX)
    except TextRefused as refused:
        raise TournamentRefused(str(refused)) from None
    if not text:
        raise TournamentRefused(_("An announcement cannot be empty."))
    announcement = Announcement.objects.create(tournament=tournament, author=user, text=text)
    audit(tournament, user, "announce", text=text)
    tables = _live_tables(tournament)
    name = tournament.name

    def send() -> None:
        for table_id in tables:
            relay.table_send(table_id, {"type": "tournament.announce", "text": text, "event": name})

    transaction.on_commit(send)
    _changed(tournament.pk)
    return announcement


# -- sockets ---------------------------------------------------------------------------------------


def _changed(tournament_id: int) -> None:
    """After commit: the event page re-reads its standings (coalesced per transaction)."""
    transaction.on_commit(lambda: _broadcast(tournament_id, {"type": "tournament.changed"}))


def _broadcast(tournament_id: int, message: dict[str, Any]) -> None:
    outbox.group_send(f"tournament-{tournament_id}", message)


def tournaments_tick() -> int:
    """Beat: start every event due, and advance every running one whose round is over or out of time."""
    now = timezone.now()
    acted = 0
    for pk in Tournament.objects.filter(status=Tournament.Status.REGISTRATION, starts_at__lte=now).values_list(
        "pk", flat=True
    ):
        acted += tournament_start(pk)
    for pk in Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("pk", flat=True):
        acted += tournament_advance(pk) in ("started", "finished")
    return acted
