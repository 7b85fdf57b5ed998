"""Tournament reads: lists of events, standings from stored results, a player's table, the CSV export."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext

from accounts.models import User
from core.csvcells import csv_row
from reliability.selectors import requirement
from tables.models import Game, Match
from tournaments.models import Board, Registration, Result, Round, Tournament
from tournaments.standings import GameRecord, Standing, standings, to_number


def events(viewer: User | AnonymousUser) -> dict[str, list[Tournament]]:
    """Upcoming, running and finished events the viewer may see (invite-only ones only to their people)."""
    # counted in a subquery of its own: a Count over the registrations join would also count the rows the
    # viewer's own "registered to it" filter below joins in, once per registration of his
    taking_part = (
        Registration.objects.filter(tournament=OuterRef("pk"), dropped=False, waitlisted=False, withdrawn=False)
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = Tournament.objects.select_related("organizer").annotate(
        players=Coalesce(Subquery(taking_part, output_field=IntegerField()), 0)
    )
    if not (viewer.is_authenticated and viewer.is_staff):
        if viewer.is_authenticated:
            mine = Q(organizer=viewer) | Q(pk__in=Registration.objects.filter(user=viewer).values("tournament"))
        else:
            mine = Q(pk__in=[])
        rows = rows.filter(Q(private=False) | mine)
    S = Tournament.Status
    return {
        "upcoming": list(rows.filter(status=S.REGISTRATION).order_by("starts_at")[:50]),
        "running": list(rows.filter(status__in=[S.RUNNING, S.PAUSED]).order_by("-started_at")[:50]),
        "finished": list(rows.filter(status__in=[S.FINISHED, S.CANCELLED]).order_by("-finished_at")[:50]),
    }


def visible_to(tournament: Tournament, user: User | AnonymousUser, token: str = "") -> bool:
    if not tournament.private or token == tournament.invite_token:
        return True
    if not user.is_authenticated:
        return False
    return user.is_staff or tournament.organizer_id == user.pk or tournament.registrations.filter(user=user).exists()


def _records(tournament: Tournament) -> list[GameRecord]:
    rows = Result.objects.filter(board__round__tournament=tournament).select_related("board__round")
    return [
        GameRecord(
            round=r.board.round.number,
            table=r.board.number,
            players=tuple(r.board.players),
            points=tuple(r.points),
            fool=r.fool,
        )
        for r in rows
    ]


def _byes(tournament: Tournament) -> dict[int, int]:
    out: dict[int, int] = {}
    for byes in Round.objects.filter(tournament=tournament).values_list("byes", flat=True):
        for user_id, halves in byes.items():
            out[int(user_id)] = out.get(int(user_id), 0) + int(halves)
    return out


def computed_standings(tournament: Tournament, among: list[int] | None = None) -> list[Standing]:
    """The pure standings over stored results; a knockout ranks who went further first."""
    regs = Registration.objects.filter(tournament=tournament, dropped=False)
    players = among if among is not None else list(regs.values_list("user_id", flat=True))
    rows = standings(players, _records(tournament), _byes(tournament))
    if tournament.format == Tournament.Format.KNOCKOUT:
        out_in = dict(regs.values_list("user_id", "eliminated_in"))
        rows.sort(key=lambda s: (-(out_in.get(s.player) or 10_000), s.key()))
    return rows


def ranking(tournament: Tournament, among: list[int]) -> list[int]:
    return [s.player for s in computed_standings(tournament, among)]


@dataclass(frozen=True)
class Row:
    place: int
    user_id: int
    name: str
    points: int | float
    mates: int | float
    won: int
    fools: int
    games: int
    per_round: list[int | float | None]
    status: str


def standing_rows(tournament: Tournament) -> list[Row]:
    """What the standings table and the CSV show, points as whole or half numbers."""
    regs = {r.user_id: r for r in Registration.objects.filter(tournament=tournament).select_related("user")}
    rounds = tournament.current_round
    per_round: dict[int, list[int | None]] = {u: [None] * rounds for u in regs}
    for result in Result.objects.filter(board__round__tournament=tournament).select_related("board__round"):
        number = result.board.round.number
        for seat, user_id in enumerate(result.board.players):
            if user_id in per_round and number <= rounds:
                cell = per_round[user_id]
                cell[number - 1] = (cell[number - 1] or 0) + result.points[seat]
    for rnd in Round.objects.filter(tournament=tournament):
        for user_id, halves in rnd.byes.items():
            if int(user_id) in per_round:
                per_round[int(user_id)][rnd.number - 1] = int(halves)
    out = []
    for s in computed_standings(tournament):
        reg = regs[s.player]
        status = ""
        if reg.disqualified:
            status = "disqualified"
        elif reg.eliminated_in:
            status = f"out-{reg.eliminated_in}"
        out.append(
            Row(
                place=s.place,
                user_id=s.player,
                name=reg.user.display_name or reg.user.username,
                points=to_number(s.points),
                mates=to_number(s.mates),
                won=s.won,
                fools=s.fools,
                games=s.games,
                per_round=[None if h is None else to_number(h) for h in per_round[s.player]],
                status=status,
            )
        )
    return out


def rounds_of(tournament: Tournament) -> list[dict[str, Any]]:
    """Every round's tables with their players and links (watch live, or the finished games' replays)."""
    boards = Board.objects.filter(round__tournament=tournament).select_related("round", "table")
    names = {
        user_id: display or username
        for user_id, display, username in Registration.objects.filter(tournament=tournament).values_list(
            "user_id", "user__display_name", "user__username"
        )
    }
    games: dict[int, list[tuple[int, int]]] = {}
    finished = Game.objects.filter(table__board__round__tournament=tournament, status=Game.Status.FINISHED)
    for table_id, game_id, number in finished.values_list("table_id", "pk", "number"):
        games.setdefault(table_id, []).append((game_id, number))
    void = _void_games(tournament)
    by_round: dict[int, dict[str, Any]] = {}
    for board in boards:
        rnd = by_round.setdefault(board.round.number, {"round": board.round, "boards": []})
        rnd["boards"].append(
            {
                "board": board,
                "url": reverse("table", args=[board.table_id]),
                "players": [names.get(p) if p is not None else None for p in board.players],
                "replays": _replays(sorted(games.get(board.table_id, []), key=lambda g: g[1]), void),
            }
        )
    for round_ in Round.objects.filter(tournament=tournament):
        by_round.setdefault(round_.number, {"round": round_, "boards": []})["byes"] = [
            names.get(int(u)) for u in round_.byes
        ]
    return [by_round[n] for n in sorted(by_round, reverse=True)]


def _void_games(tournament: Tournament) -> set[int]:
    """Games the match's own sheet marks void (everyone passed: dealt again, not counted), by their ids."""
    from games import get_game

    engine = get_game(tournament.game)
    void: set[int] = set()
    for match in Match.objects.filter(table__board__round__tournament=tournament).prefetch_related("games"):
        if not match.sheet:
            continue
        rows = engine.load_sheet(match.sheet).rows().get("rows", [])
        by_number = {g.number: g.pk for g in match.games.all()}
        for position, row in enumerate(rows, start=1):
            if isinstance(row, dict) and row.get("void") and position in by_number:
                void.add(by_number[position])
    return void


def _replays(games: list[tuple[int, int]], void: set[int]) -> list[tuple[str, str]]:
    """Each finished game's replay link, labelled as the sheet counts it: void ones are redeals."""
    out, counted = [], 0
    for game_id, _number in games:
        if game_id in void:
            label = gettext("redeal (everyone passed)")
        else:
            counted += 1
            label = gettext("replay %(n)s") % {"n": counted}
        out.append((label, reverse("replay", args=[game_id])))
    return out


def my_table(tournament: Tournament, user: User | AnonymousUser) -> str | None:
    """The link to the user's table in the current round, if he sits at one still playing."""
    if not user.is_authenticated or tournament.current_round == 0:
        return None
    for board in Board.objects.filter(
        round__tournament=tournament, round__number=tournament.current_round, finished=False
    ):
        if user.pk in board.players:
            return reverse("table", args=[board.table_id])
    return None


def export_csv(tournament: Tournament) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    rounds = tournament.current_round
    writer.writerow(
        ["place", "player", "points", "tiebreak_mates", "games_won", "times_fool", "games", "status"]
        + [f"round_{n}" for n in range(1, rounds + 1)]
    )
    for row in standing_rows(tournament):
        writer.writerow(
            csv_row(
                [row.place, row.name, row.points, row.mates, row.won, row.fools, row.games, row.status]
                + ["" if p is None else p for p in row.per_round]
            )
        )
    return buffer.getvalue()


def rules_of(tournament: Tournament) -> list[tuple[str, Any]]:
    """The event's engine options as the lobby labels them."""
    from games import get_game

    options = {option.name: option for option in get_game(tournament.game).options}
    rows = []
    for name, value in tournament.options.items():
        option = options.get(name)
        if option is None:
            rows.append((name, value))
            continue
        if option.choice_labels and value in option.choices:
            value = gettext(option.choice_labels[option.choices.index(value)])
        elif value is None:
            # an option the rules settle each game when nobody sets it (who attacks first: the lowest trump)
            value = gettext("as the rules say")
        rows.append((gettext(option.label), value))
    return rows


def boards_to_settle(tournament: Tournament) -> list[dict[str, Any]]:
    """The current round's boards stopped at the deadline or by a moderator that wait for the organizer's result:
    seats and names."""
    boards = list(
        Board.objects.filter(
            round__tournament=tournament,
            round__number=tournament.current_round,
            finished=False,
            settled__in=["organizer", "moderator"],
        ).select_related("table")
    )
    ids = {p for b in boards for p in b.players if p is not None}
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    return [
        {"board": b, "seats": [(i, names.get(p) if p is not None else None) for i, p in enumerate(b.players)]}
        for b in boards
    ]


def entry_conditions(tournament: Tournament) -> list[str]:
    """The entry conditions in words, for the registration box."""
    out = []
    if tournament.min_rating is not None:
        out.append(gettext("a rating of at least %(n)d in this game") % {"n": tournament.min_rating})
    if tournament.min_rated_games:
        out.append(gettext("at least %(n)d rated games of this game") % {"n": tournament.min_rated_games})
    if tournament.min_reliability:
        out.append(requirement(tournament.min_reliability))
    return out


def current_round(tournament: Tournament) -> Round | None:
    """The round under way (its deadline drives the page's countdown), None before the start or after the end."""
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        return None
    return Round.objects.filter(tournament=tournament, number=tournament.current_round, finished_at=None).first()


def podium(tournament: Tournament) -> list[Row]:
    """The first three places of a finished event (shared places included)."""
    if tournament.status != Tournament.Status.FINISHED:
        return []
    return [row for row in standing_rows(tournament) if row.place <= 3]


def bracket(tournament: Tournament) -> list[dict[str, Any]]:
    """A knockout's rounds as columns: each table's players by their points there, who went on and who went out."""
    if tournament.format != Tournament.Format.KNOCKOUT or tournament.current_round == 0:
        return []
    out_in = dict(Registration.objects.filter(tournament=tournament).values_list("user_id", "eliminated_in"))
    names = {
        user_id: display or username
        for user_id, display, username in Registration.objects.filter(tournament=tournament).values_list(
            "user_id", "user__display_name", "user__username"
        )
    }
    columns: dict[int, list[dict[str, Any]]] = {}
    boards = Board.objects.filter(round__tournament=tournament).select_related("round").prefetch_related("results")
    for board in boards:
        totals = [0] * len(board.players)
        for result in board.results.all():
            totals = [a + b for a, b in zip(totals, result.points, strict=True)]
        done = board.round.finished_at is not None
        final = tournament.status == Tournament.Status.FINISHED and board.round.number == tournament.current_round
        seats: list[dict[str, Any]] = []
        for index, user_id in enumerate(board.players):
            if user_id is None:
                seats.append({"name": None, "points": to_number(totals[index]), "went_on": False, "out": False})
                continue
            out = out_in.get(user_id) == board.round.number
            seats.append(
                {
                    "name": names.get(user_id),
                    "points": to_number(totals[index]),
                    "went_on": done and not out and not final,
                    "out": done and out,
                }
            )
        seats.sort(key=lambda seat: -seat["points"])
        columns.setdefault(board.round.number, []).append({"number": board.number, "seats": seats})
    return [{"round": n, "boards": columns[n]} for n in sorted(columns)]
