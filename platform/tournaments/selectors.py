"""Tournament reads: lists of events, standings from stored results, a player's table, the CSV export."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import gettext

from core.csvcells import csv_row
from tables.models import Game
from tournaments.models import Board, Registration, Result, Round, Tournament
from tournaments.standings import GameRecord, Standing, standings, to_number


def events(viewer) -> dict[str, list[Tournament]]:
    """Upcoming, running and finished events the viewer may see (invite-only ones only to their people)."""
    rows = Tournament.objects.select_related("organizer").annotate(
        players=Count("registrations", filter=Q(registrations__dropped=False))
    )
    if not (viewer.is_authenticated and viewer.is_staff):
        mine = Q(organizer=viewer) | Q(registrations__user=viewer) if viewer.is_authenticated else Q(pk__in=[])
        rows = rows.filter(Q(private=False) | mine).distinct()
    S = Tournament.Status
    return {
        "upcoming": list(rows.filter(status=S.REGISTRATION).order_by("starts_at")[:50]),
        "running": list(rows.filter(status__in=[S.RUNNING, S.PAUSED]).order_by("-started_at")[:50]),
        "finished": list(rows.filter(status__in=[S.FINISHED, S.CANCELLED]).order_by("-finished_at")[:50]),
    }


def visible_to(tournament: Tournament, user, token: str = "") -> bool:
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
    by_round: dict[int, dict[str, Any]] = {}
    for board in boards:
        rnd = by_round.setdefault(board.round.number, {"round": board.round, "boards": []})
        rnd["boards"].append(
            {
                "board": board,
                "url": reverse("table", args=[board.table_id]),
                "players": [names.get(p) if p is not None else None for p in board.players],
                "replays": [
                    (number, reverse("replay", args=[game_id]))
                    for game_id, number in sorted(games.get(board.table_id, []), key=lambda g: g[1])
                ],
            }
        )
    for rnd in Round.objects.filter(tournament=tournament):
        by_round.setdefault(rnd.number, {"round": rnd, "boards": []})["byes"] = [names.get(int(u)) for u in rnd.byes]
    return [by_round[n] for n in sorted(by_round, reverse=True)]


def my_table(tournament: Tournament, user) -> str | None:
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
        rows.append((gettext(option.label), value))
    return rows


def boards_to_settle(tournament: Tournament) -> list[dict[str, Any]]:
    """The current round's boards stopped at the deadline that wait for the organizer's result: seats and names."""
    boards = list(
        Board.objects.filter(
            round__tournament=tournament, round__number=tournament.current_round, finished=False, settled="organizer"
        ).select_related("table")
    )
    ids = {p for b in boards for p in b.players if p is not None}
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    return [
        {"board": b, "seats": [(i, names.get(p) if p is not None else None) for i, p in enumerate(b.players)]}
        for b in boards
    ]
