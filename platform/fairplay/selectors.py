"""Reads for fair play: which pairs of players spare each other unlike anyone else (``pair_scores``).

Everything comes from what the tables already store: finished games, who sat
where, and each move's public record (``Move.public``: what every seat saw, never
a hidden card). The game module turns a record into interactions
(``GameSpec.interactions``); ``fairplay.pairs`` scores the pairs. So the scan judges
games it did not see being played, and needs no model of its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterator
from datetime import datetime

from django.core.cache import cache
from django.db.models import Q

from accounts.models import User
from fairplay.models import GameGrade, PairScan
from fairplay.pairs import (
    Baseline,
    GameFacts,
    PairScore,
    baseline_from_json,
    pair_from_json,
    scan_pairs,
    score_pair,
)
from games import get_game
from moderation.models import Report
from tables.models import Game, Move, Seat

#: moves a user made himself; a timer's default move or a bot standing in chose nothing for him
OWN_MOVES = frozenset(("player",))


def finished_games(
    since: datetime | None = None, game: str | None = None, users: Collection[int] | None = None
) -> Iterator[GameFacts]:
    """The finished games (from ``since``, of one game, that one of ``users`` sat in) as the detector reads them,
    oldest first."""
    games = Game.objects.filter(status=Game.Status.FINISHED)
    if users is not None:
        games = games.filter(table_id__in=Seat.objects.filter(user_id__in=users).values("table_id"))
    if since is not None:
        games = games.filter(finished_at__gte=since)
    if game is not None:
        games = games.filter(table__game=game)
    rows = list(
        games.order_by("finished_at", "pk").values_list(
            "pk", "table_id", "table__game", "table__seats_count", "options"
        )
    )
    if not rows:
        return
    seats: dict[int, dict[int, int | None]] = defaultdict(dict)
    table_ids = {r[1] for r in rows}
    for table_id, index, user_id in Seat.objects.filter(table_id__in=table_ids).values_list(
        "table_id", "index", "user_id"
    ):
        seats[table_id][index] = user_id
    records: dict[int, list[tuple[int, dict, str, int]]] = defaultdict(list)
    moves = Move.objects.filter(game__in=games).order_by("game_id", "number")
    for game_id, seat, public, by, number in moves.values_list("game_id", "seat", "public", "by", "number").iterator(
        2000
    ):
        records[game_id].append((seat, public or {}, by, number))
    for game_id, table_id, name, count, options in rows:
        record = records.get(game_id, [])
        spec = get_game(name)
        found = spec.interactions([(s, p) for s, p, _by, _n in record], count, options or {})
        own = [x for x in found if record[x.move][2] in OWN_MOVES]
        players = [seats[table_id].get(i) for i in range(count)]
        yield GameFacts(game_id, name, players, own, [n for _s, _p, _by, n in record])


def cheating_reports(users: Collection[int] | None = None) -> dict[tuple[int, int], int]:
    """(user a, user b) with a < b -> "cheating or collusion" reports against either made at a table both sat at
    (only those against one of ``users``, if given)."""
    out: dict[tuple[int, int], int] = defaultdict(int)
    found = Report.objects.filter(reason=Report.Reason.CHEATING, table__isnull=False)
    if users is not None:
        found = found.filter(reported_id__in=users)
    for reported, table_id in found.values_list("reported_id", "table_id"):
        for other in (
            Seat.objects.filter(table_id=table_id, user__isnull=False)
            .exclude(user_id=reported)
            .values_list("user_id", flat=True)
        ):
            out[(min(reported, other), max(reported, other))] += 1
    return dict(out)


def pair_scores(since: datetime | None = None, game: str | None = None) -> list[PairScore]:
    """Every pair of users who shared a finished game, highest rank first (flagged pairs lead)."""
    return pair_scores_and_baseline(since, game)[0]


def pair_scores_and_baseline(
    since: datetime | None = None, game: str | None = None
) -> tuple[list[PairScore], Baseline]:
    """``pair_scores`` and what they were judged against (a stored scan keeps it, ``pair_score_in_scan``)."""
    games = list(finished_games(since, game))
    users = {u for g in games for u in g.players if u is not None}
    names = dict(User.objects.filter(pk__in=users).values_list("pk", "username"))
    return scan_pairs(games, names, cheating_reports())


#: cache keys: a scan a moderator asked for and not started yet, a scan under way (``services.pair_scan_store``)
SCAN_QUEUED = "fairplay:scan:queued"
SCAN_RUNNING = "fairplay:scan:running"


def pair_scan() -> PairScan | None:
    """The latest stored scan (``services.pair_scan_store``), or None before the first."""
    return PairScan.objects.order_by("-started_at", "-pk").first()


def scanned_pairs(scan: PairScan) -> list[PairScore]:
    return [pair_from_json(d) for d in scan.pairs]


def pair_scan_pending() -> bool:
    """A scan is queued or under way (its page says so rather than offering another)."""
    return bool(cache.get_many([SCAN_QUEUED, SCAN_RUNNING]))


def stored_pair_score(a: int, b: int) -> PairScore | None:
    """One pair's score from the latest scan, or None before a scan that can judge them (none yet, or one stored
    without its baseline). A pair the scan did not keep (one just reported, one below the scan's strongest, one
    that first met since) is scored from its players' own games against the scan's baseline: never every game."""
    key = (min(a, b), max(a, b))
    scan = pair_scan()
    if scan is None:
        return None
    found = next((d for d in scan.pairs if (d["a"], d["b"]) == key), None)
    if found is not None:
        return pair_from_json(found)
    return pair_score_in_scan(*key, scan=scan)


def pair_score_in_scan(a: int, b: int, *, scan: PairScan) -> PairScore | None:
    """One pair scored from the games either of them sat in, judged against ``scan``'s baseline (everyone's rates,
    each kind's dispersion): the score the scan would have given them, plus what they played since. None if the
    scan kept no baseline or they shared no finished game."""
    baseline = baseline_from_json(scan.baseline)
    if baseline is None:
        return None
    users = (min(a, b), max(a, b))
    names = dict(User.objects.filter(pk__in=users).values_list("pk", "username"))
    return score_pair(finished_games(users=users), a, b, baseline, names, cheating_reports(users))


def pair_grades(a: int, b: int) -> dict[int, list[GameGrade]]:
    """The bots' stored gradings of a pair (``fairplay.services.pair_grade``), per game id, both directions."""
    out: dict[int, list[GameGrade]] = {}
    rows = GameGrade.objects.filter(Q(user_id=a, partner_id=b) | Q(user_id=b, partner_id=a)).select_related("user")
    for row in rows.order_by("game_id", "user_id"):
        out.setdefault(row.game_id, []).append(row)
    return out


def pair_games(a: int, b: int, *, annulled: bool = False) -> list[tuple[Game, int, int]]:
    """The finished games both sat at (annulled ones too if asked), newest first: (game, seat of a, seat of b)."""
    seats: dict[int, dict[int, int]] = {}
    for table_id, user_id, index in Seat.objects.filter(user_id__in=(a, b)).values_list("table_id", "user_id", "index"):
        seats.setdefault(table_id, {})[user_id] = index
    shared = {t: s for t, s in seats.items() if len(s) == 2}
    games = Game.objects.filter(table_id__in=shared, status=Game.Status.FINISHED)
    if not annulled:
        games = games.filter(annulled=False)
    ordered = games.select_related("table").order_by("-finished_at", "-pk")
    return [(g, shared[g.table_id][a], shared[g.table_id][b]) for g in ordered]


def graded_pairs() -> dict[tuple[int, int], dict[str, float]]:
    """(user a, user b) with a < b -> the bots' grading summed over their graded games (both directions):
    games graded, what their moves cost themselves and gave the other, and how many moves were decisive."""
    out: dict[tuple[int, int], dict[str, float]] = {}
    games: dict[tuple[int, int], set[int]] = defaultdict(set)
    for user, partner, game_id, cost, gift, decisive in GameGrade.objects.values_list(
        "user_id", "partner_id", "game_id", "cost", "gift", "decisive"
    ):
        key = (min(user, partner), max(user, partner))
        row = out.setdefault(key, {"games": 0, "cost": 0.0, "gift": 0.0, "decisive": 0})
        games[key].add(game_id)
        row["games"] = len(games[key])
        row["cost"] += cost
        row["gift"] += gift
        row["decisive"] += len(decisive)
    return out
