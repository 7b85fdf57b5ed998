"""Lobby reads: open tables, a player's own tables, one table's seats, options in words."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext

from accounts.bots import LEVEL_WORDS, seat_names
from accounts.models import User
from core.prepared import Prepared
from games import GameSpec, get_game
from leaderboards import ratings
from leaderboards.models import PlayerRating
from leaderboards.selectors import ratings_at_seats
from lobbies.models import Seek, SeekQueue
from reliability.selectors import reliability_marks, requirement
from tables.hooks import Reliability
from tables.labels import TEAM_LABELS
from tables.models import Seat, Table
from tables.selectors import rating_label


@dataclass(frozen=True)
class SeatRow:
    index: int
    name: str
    empty: bool
    bot: bool
    you: bool
    host: bool
    #: a bot's level in words ("strong"), shown as a badge
    level: str = ""
    #: the seat's team in a partnership game (its colour), else None
    team: int | None = None
    #: how reliably a human player finishes his games (``tables.hooks.Reliability``), else None
    reliability: Reliability | None = None
    #: a human player's rating for the table's game: (as shown, provisional?), else None
    rating: tuple[str, bool] | None = None

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def team_label(self) -> str:
        return "" if self.team is None else str(TEAM_LABELS[self.team % len(TEAM_LABELS)])


@dataclass(frozen=True)
class TableCard:
    """What the lobby shows of one table."""

    table: Table
    title: str
    summary: str
    seats: list[SeatRow]
    #: the match in words: its length in the game's unit and its match options
    match: str = ""
    #: the creator's minimum reliability in words, or ""
    requirement: str = ""

    @property
    def taken(self) -> int:
        return sum(not s.empty for s in self.seats)

    @property
    def you_sit(self) -> bool:
        return any(s.you for s in self.seats)

    @property
    def free(self) -> int:
        return len(self.seats) - self.taken

    @property
    def rating(self) -> str:
        return rating_label(self.table.rated, any(s.bot for s in self.seats))


@dataclass(frozen=True)
class OptionRule:
    """One option on a rules page, in the reader's language."""

    label: str
    help: str
    #: (label, is the default) for an option with choices, "on"/"off" for a switch
    choices: list[tuple[str, bool]]
    #: "1 to 6, usually 5" for a number
    values: str = ""


def rules_options(game: GameSpec) -> list[OptionRule]:
    """The options a table may choose, the match's first, for players (a match sets the seat options itself)."""
    rows = []
    for option in (*game.match_options, *game.options):
        if option.kind == "seat":
            continue
        choices: list[tuple[str, bool]] = []
        values = ""
        if option.kind == "bool":
            choices = [(gettext("on"), option.default is True), (gettext("off"), option.default is False)]
        elif option.choices:
            labels = option.choice_labels or tuple(str(c) for c in option.choices)
            choices = [(gettext(lb), c == option.default) for c, lb in zip(option.choices, labels, strict=True)]
        elif option.low is not None and option.high is not None:
            values = gettext("%(low)s to %(high)s, usually %(default)s") % {
                "low": option.low,
                "high": option.high,
                "default": option.default,
            }
        rows.append(OptionRule(gettext(option.label), gettext(option.help), choices, values))
    return rows


def options_summary(game: str, options: dict[str, Any]) -> str:
    """The table's options in words: choices by their labels, numbers and switches only when not the default."""
    parts = []
    for option in get_game(game).options:
        if option.kind == "seat" or option.name not in options:
            continue
        value = options[option.name]
        if option.kind == "bool":
            if value != option.default:
                label = gettext(option.label)
                parts.append(label if value else gettext("no %(option)s") % {"option": label.lower()})
        elif option.name == "deck" and not option.choice_labels:
            parts.append(ngettext("%(n)s card", "%(n)s cards", value) % {"n": value})
        elif option.choices and option.choice_labels:
            parts.append(gettext(option.choice_labels[option.choices.index(value)]))
        elif option.choices or value != option.default:
            parts.append(f"{gettext(option.label).lower()} {value}")
    return " · ".join(parts)


def match_summary(table: Table) -> str:
    """ "3 games, next game of the match: under the fool: ..." from the game's unit words and match options."""
    game = get_game(table.game)
    parts = [f"{table.match_length} {ngettext(*game.unit, table.match_length)}"]
    for option in game.match_options:
        value = table.match_options.get(option.name)
        if value in option.choices and option.choice_labels:
            choice = gettext(option.choice_labels[option.choices.index(value)])
            parts.append(f"{gettext(option.label).lower()}: {choice}")
    return ", ".join(parts)


def _humans(tables: list[Table]) -> list[int]:
    """The human players seated at these tables (their prefetched seats)."""
    return [
        s.user.pk for t in tables for s in t.seats.all() if s.user is not None and not s.is_bot and not s.user.is_bot
    ]


def seat_rows(
    table: Table,
    viewer: User | AnonymousUser | None = None,
    marks: dict[int, Reliability] | None = None,
    ratings_by_game: dict[str, dict[int, tuple[str, bool]]] | None = None,
) -> list[SeatRow]:
    """Uses the prefetched ``seats`` (with users) when there are; ``marks`` (the players' reliability) and
    ``ratings_by_game`` (game -> their ratings) are read for every table of a list at once, else for this table's."""
    if marks is None:
        marks = reliability_marks(_humans([table]))
    if ratings_by_game is None:
        ratings_by_game = _ratings([table])
    ratings_here = ratings_by_game.get(table.game, {})
    viewer_id = getattr(viewer, "pk", None)
    rows = []
    seats = sorted(table.seats.all(), key=lambda s: s.index)
    names = seat_names(seats)
    teams = get_game(table.game).teams(table.seats_count, table.options)
    for seat in seats:
        rows.append(
            SeatRow(
                index=seat.index,
                name=names[seat.index],
                empty=not seat.filled,
                bot=seat.is_bot,
                level=str(LEVEL_WORDS.get(seat.bot_level, "")),
                team=next((t for t, members in enumerate(teams) if seat.index in members), None),
                you=viewer_id is not None and seat.user_id == viewer_id,
                host=seat.user_id is not None and seat.user_id == table.created_by_id,
                reliability=marks.get(seat.user_id) if seat.user_id is not None else None,
                rating=ratings_here.get(seat.user_id) if seat.user_id is not None else None,
            )
        )
    return rows


def _ratings(tables: list[Table]) -> dict[str, dict[int, tuple[str, bool]]]:
    """Game -> the seated humans' ratings for it, a query per game shown."""
    by_game: dict[str, list[int]] = {}
    for table in tables:
        by_game.setdefault(table.game, []).extend(_humans([table]))
    return {game: ratings_at_seats(game, ids) for game, ids in by_game.items() if ids}


def table_card(
    table: Table,
    viewer: User | AnonymousUser | None = None,
    marks: dict[int, Reliability] | None = None,
    ratings_by_game: dict[str, dict[int, tuple[str, bool]]] | None = None,
) -> TableCard:
    return TableCard(
        table=table,
        title=table.get_game_display(),
        summary=options_summary(table.game, table.options),
        seats=seat_rows(table, viewer, marks, ratings_by_game),
        match=match_summary(table),
        requirement=requirement(table.min_reliability),
    )


def _cards(tables: QuerySet[Table], viewer: User | AnonymousUser | None) -> list[TableCard]:
    found = list(tables)
    marks = reliability_marks(_humans(found))  # one query for every table's players
    ratings_by_game = _ratings(found)
    return [table_card(t, viewer, marks, ratings_by_game) for t in found]


def _with_seats(tables: QuerySet[Table]) -> QuerySet[Table]:
    return tables.select_related("created_by").prefetch_related("seats__user")


def open_tables(*, game: str | None = None, viewer: User | AnonymousUser | None = None) -> list[TableCard]:
    """Public tables still waiting for players, newest first; ``game`` filters."""
    tables = Table.objects.filter(status=Table.Status.OPEN, private=False)
    if game:
        tables = tables.filter(game=game)
    return _cards(_with_seats(tables)[:100], viewer)


def tables_of(user: User | AnonymousUser) -> list[TableCard]:
    """Open or playing tables ``user`` sits at or created (private ones included)."""
    if not user.is_authenticated:
        return []
    mine = Q(created_by=user) | Q(pk__in=Seat.objects.filter(user=user).values("table_id"))
    tables = Table.objects.filter(mine, status__in=[Table.Status.OPEN, Table.Status.PLAYING])
    return _cards(_with_seats(tables)[:50], user)


def lobby_table(table_id: int) -> Table | None:
    return _with_seats(Table.objects.filter(pk=table_id)).first()


def table_by_invite(token: str) -> Table | None:
    return _with_seats(Table.objects.filter(invite_token=token)).first() if token else None


# -- the "Play now" queues ---------------------------------------------------------------------------------


#: the rating a player without one for the game is paired at
NEW_RATING = ratings.BASE


def rating_of(user_id: int, game: str) -> float | None:
    """His rating for ``game``, None if he has none."""
    return PlayerRating.objects.filter(user_id=user_id, game=game).values_list("rating", flat=True).first()


@dataclass(frozen=True)
class QueueRow:
    queue: SeekQueue
    title: str
    summary: str
    waiting: int


def _match_options_text(game: GameSpec, values: dict[str, Any]) -> list[str]:
    found = []
    for option in game.match_options:
        value = values.get(option.name)
        if value in option.choices and option.choice_labels:
            found.append(gettext(option.choice_labels[option.choices.index(value)]))
    return found


#: a queue's summary by its key (its settings, which never change) and language: every waiting player's page asks
#: for every queue's every few seconds, and each click's answer again
_SUMMARIES: dict[tuple[str, str], str] = {}
#: more queues than this (a long-running process, many settings tried) and the summaries are made afresh
_SUMMARIES_KEPT = 1000


def queue_summary(queue: SeekQueue) -> str:
    """The queue's settings in words, in the reader's language."""
    kept = (queue.key, get_language())
    found = _SUMMARIES.get(kept)
    if found is None:
        if len(_SUMMARIES) >= _SUMMARIES_KEPT:
            _SUMMARIES.clear()
        found = _SUMMARIES[kept] = _queue_summary(queue)
    return found


def _queue_summary(queue: SeekQueue) -> str:
    engine = get_game(queue.game)
    parts = [
        ngettext("%(n)s player", "%(n)s players", queue.seats) % {"n": queue.seats},
        options_summary(queue.game, queue.options),
        *_match_options_text(engine, queue.match_options),
        ngettext("%(s)s second per turn", "%(s)s seconds per turn", queue.turn_seconds) % {"s": queue.turn_seconds},
        gettext("rated") if queue.rated else gettext("unrated"),
    ]
    return " · ".join(p for p in parts if p)


#: written once per process: asked by every waiting player's page every few seconds, and by each click
_QUEUES_WAITING = Prepared(
    lambda: SeekQueue.objects.annotate(waiting=Count("seeks")).filter(waiting__gt=0).order_by("-waiting", "pk")
)
_SEEK_OF = Prepared(lambda user_id: Seek.objects.filter(user_id=user_id).order_by("pk")[:1])


def queues_waiting() -> list[QueueRow]:
    """Every queue someone waits in, with how many wait, the fullest first."""
    queues = _QUEUES_WAITING.instances()
    return [
        QueueRow(queue=q, title=gettext(get_game(q.game).title), summary=queue_summary(q), waiting=q.waiting)
        for q in queues
    ]


def seek_of(user: User | AnonymousUser) -> Seek | None:
    if not user.is_authenticated:
        return None
    return next(iter(_SEEK_OF.instances(user.pk)), None)


#: under this many seconds a wait reads "just now" (the page polls every few seconds anyway)
JUST_NOW_SECONDS = 10


def wait_text(since: datetime, now: datetime | None = None) -> str:
    """How long he has waited, as a sentence: "just now", then seconds, then minutes (each in the plural form the
    language needs; Django's own ``timesince`` says "0 minutes" for the first minute and puts Russian and
    Ukrainian units in the nominative where "waiting for" needs the accusative)."""
    waited = max(0, int(((now or timezone.now()) - since).total_seconds()))
    if waited < JUST_NOW_SECONDS:
        return gettext("You joined just now; your table opens as soon as it is made.")
    if waited < 60:
        return ngettext(
            "Waiting for %(n)s second; your table opens as soon as it is made.",
            "Waiting for %(n)s seconds; your table opens as soon as it is made.",
            waited,
        ) % {"n": waited}
    minutes = waited // 60
    return ngettext(
        "Waiting for %(n)s minute; your table opens as soon as it is made.",
        "Waiting for %(n)s minutes; your table opens as soon as it is made.",
        minutes,
    ) % {"n": minutes}


def seekers() -> dict[int, datetime]:
    """Everyone waiting in a queue: his id and when he joined."""
    return dict(Seek.objects.values_list("user_id", "created_at"))
