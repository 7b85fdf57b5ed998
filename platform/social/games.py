"""Reads about games for the social pages: running games to watch, the game a player is in, his history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from accounts.bots import seat_names
from accounts.models import User
from games import get_game
from games.outcome import Placing
from leaderboards.models import PlayerRating, RatingChange
from tables.models import Game, Seat, Table
from tables.selectors import table_visible_to

#: games per page of a profile's history
HISTORY_PAGE = 20


@dataclass
class LiveGame:
    table: Table
    players: list[dict[str, Any]]
    rating: float | None
    game_number: int
    move_number: int


def live_games(limit: int = 20) -> list[LiveGame]:
    """Running public games, best-rated first (the mean shown rating of their rated humans)."""
    tables = list(
        Table.objects.filter(status=Table.Status.PLAYING, private=False)
        .prefetch_related("seats__user")
        .order_by("-started_at")[:200]
    )
    if not tables:
        return []
    progress = {
        row["table_id"]: row
        for row in Game.objects.filter(table__in=tables, status=Game.Status.PLAYING).values(
            "table_id", "number", "move_number"
        )
    }
    users = {s.user_id for t in tables for s in t.seats.all() if s.user_id}
    rated = {
        (r["user_id"], r["game"]): r["rating"]
        for r in PlayerRating.objects.filter(user_id__in=users, games__gt=0).values("user_id", "game", "rating")
    }
    found = []
    for table in tables:
        players, known = [], []
        names = seat_names(table.seats.all())
        for seat in table.seats.all():
            rating = rated.get((seat.user_id, table.game)) if seat.user_id else None
            if rating is not None:
                known.append(rating)
            players.append({"name": names[seat.index], "rating": None if rating is None else round(rating)})
        playing = progress.get(table.pk)
        found.append(
            LiveGame(
                table,
                players,
                sum(known) / len(known) if known else None,
                playing["number"] if playing else 1,
                playing["move_number"] if playing else 0,
            )
        )
    found.sort(key=lambda g: (g.rating is None, -(g.rating or 0), -g.table.pk))
    return found[:limit]


def playing_now(player: User, viewer: User | AnonymousUser | None) -> Table | None:
    """The running table ``player`` sits at, if ``viewer`` may see it."""
    seats = Seat.objects.filter(user=player, table__status=Table.Status.PLAYING).select_related("table")
    for seat in seats.order_by("-table__started_at")[:5]:
        if table_visible_to(seat.table, viewer):
            return seat.table
    return None


@dataclass
class HistoryPage:
    """One page of a history, without counting the whole history: one row more than shown says there is more."""

    items: list[Game]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def previous_page_number(self) -> int:
        return self.number - 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1

    @property
    def has_other_pages(self) -> bool:
        return self.has_previous or self.has_next


def history_page(games: QuerySet[Game], number: Any, size: int = HISTORY_PAGE) -> HistoryPage:
    try:
        number = max(1, min(int(number), 10_000))
    except (TypeError, ValueError):
        number = 1
    start = (number - 1) * size
    rows = list(games[start : start + size + 1])
    return HistoryPage(rows[:size], number, len(rows) > size)


@dataclass
class HistoryRow:
    game: Game
    place: int | None
    fool: bool
    points: str | None
    delta: float | None
    opponents: list[str] = field(default_factory=list)
    #: the player's partners in a team game ([] without teams): the result is the team's
    partners: list[str] = field(default_factory=list)
    won: bool = False


def visible_history(player: User, viewer: User | AnonymousUser | None, game: str | None = None) -> QuerySet[Game]:
    """Finished games ``player`` played, newest first; private tables only for those who could see them
    (the rule of ``tables.selectors.table_visible_to``, without an invite link: its creator and its players)."""
    games = Game.objects.filter(
        status=Game.Status.FINISHED, table_id__in=Seat.objects.filter(user=player).values("table_id")
    )
    if game:
        games = games.filter(table__game=game)
    visible = Q(table__private=False)
    if viewer is not None and viewer.is_authenticated:
        visible |= Q(table__created_by=viewer) | Q(table_id__in=Seat.objects.filter(user=viewer).values("table_id"))
    return games.filter(visible).select_related("table", "match").order_by("-finished_at", "-pk")


def _placing(game: Game, seat: int) -> Placing | None:
    """The seat's place and fool flag, as ratings read them: a game rated per match (Biznes) by its finished
    match's score sheet, every other game by its own placings."""
    engine = get_game(game.table.game)
    try:
        if engine.rated_by == "match":
            # a deal of a match still being played has no standings yet
            return engine.load_sheet(game.match.sheet).standings()[seat] if game.match.finished else None
        return engine.placings(game.result or {}, game.table.seats_count, game.options).placings[seat]
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def _teams(game: Game) -> list[list[int]]:
    return get_game(game.table.game).teams(game.table.seats_count, game.options)


def history_rows(player: User, games: list[Game]) -> list[HistoryRow]:
    """One row per game for ``player``: place, fool, points, rating change, opponents."""
    ids = [g.pk for g in games]
    changes = {c.played_game_id: c for c in RatingChange.objects.filter(user=player, played_game_id__in=ids)}
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table_id__in={g.table_id for g in games}).select_related("user"):
        seats.setdefault(seat.table_id, []).append(seat)
    rows = []
    for game in games:
        table_seats = sorted(seats.get(game.table_id, []), key=lambda s: s.index)
        names = seat_names(table_seats)
        mine = next((s.index for s in table_seats if s.user_id == player.pk), None)
        team = next((t for t in _teams(game) if mine in t), []) if mine is not None else []
        change = changes.get(game.pk)
        placing = _placing(game, mine) if mine is not None else None
        points = None
        if change is not None and change.points_halves is not None:
            points = f"{change.points_halves / 2:g}"
        elif placing is not None and placing.points_halves is not None:
            points = f"{placing.points_halves / 2:g}"
        rows.append(
            HistoryRow(
                game=game,
                place=change.place if change else (placing.place if placing else None),
                fool=change.lost if change else bool(placing and placing.lost),
                points=points,
                delta=(change.rating_after - change.rating_before) if change else None,
                opponents=[names[s.index] for s in table_seats if s.index != mine and s.index not in team],
                partners=[names[s] for s in team if s != mine and s in names],
                won=bool(placing and placing.won),
            )
        )
    return rows
