"""Writes for fair play: the bots' grading of a suspected pair's finished games (``games.grading``).

The detector itself only reads the tables' public records (``fairplay.selectors``). Grading is slow
(the strong bot thinks at every decision), so it runs in Celery (``fairplay.tasks``), never on the move
path, and each (game, player, partner) is graded once: a task fired twice finds the rows of the first
and grades nothing again, and two running at once store one row (the unique constraint).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import KombuError

from core.cache import lock_add
from core.outage import REDIS_DOWN
from fairplay.models import GameGrade, PairScan
from fairplay.pairs import baseline_to_json, pair_to_json
from fairplay.selectors import SCAN_QUEUED, SCAN_RUNNING, pair_games, pair_scan, pair_scores_and_baseline
from games import get_game
from games.grading import grade_game
from tables.models import Game, Move

log = logging.getLogger(__name__)

#: a move its player chose himself (a timer's default move or a bot standing in is not his decision)
OWN_MOVE = "player"


def _budget() -> float:
    return float(getattr(settings, "FAIRPLAY_GRADE_SECONDS", 20.0))


def game_grade(game: Game, user: int, partner: int, seat: int, partner_seat: int, *, budget: float) -> GameGrade:
    """Grade ``user``'s decisions in ``game`` against ``partner`` and store it (once: an existing row is kept)."""
    found = GameGrade.objects.filter(game=game, user_id=user, partner_id=partner).first()
    if found is not None:
        return found
    moves = list(Move.objects.filter(game=game).order_by("number").values_list("number", "seat", "action", "by"))
    start = time.perf_counter()
    graded = grade_game(
        game.table.game,
        game.options,
        game.table.seats_count,
        game.dealer,
        game.deck,
        [(seat_, action) for _n, seat_, action, _by in moves],
        seat,
        partner_seat,
        budget_seconds=budget,
        seed=game.pk,  # graded again from scratch, a game gives the same bot draws
        skip={n for n, s, _a, by in moves if s == seat and by != OWN_MOVE},
    )
    data = graded.to_json()
    row = GameGrade(
        game=game,
        user_id=user,
        partner_id=partner,
        seat=seat,
        partner_seat=partner_seat,
        decisions=data["decisions"],
        graded=data["graded"],
        agreed=data["agreed"],
        cost=data["cost"],
        gift=data["gift"],
        harm=data["harm"],
        decisive=data["decisive"],
        complete=data["complete"],
        seconds=round(time.perf_counter() - start, 2),
    )
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:  # another worker graded it meanwhile: its row stands
        return GameGrade.objects.get(game=game, user_id=user, partner_id=partner)
    return row


#: a pair's games graded at most, newest first (older ones add little once these are graded)
MAX_GAMES = 30


def pair_grade(a: int, b: int, *, limit: int = MAX_GAMES, budget: float | None = None) -> int:
    """Grade both players of a pair in up to ``limit`` of their latest shared games not graded yet; returns the
    games graded.

    Each game costs at most ``budget`` seconds per player (``FAIRPLAY_GRADE_SECONDS``); a game whose
    rules have no bot world model (nothing to grade it with) is skipped; annulled games are not graded.
    """
    budget = _budget() if budget is None else budget
    done = {
        (g, u)
        for g, u in GameGrade.objects.filter(Q(user_id=a, partner_id=b) | Q(user_id=b, partner_id=a)).values_list(
            "game_id", "user_id"
        )
    }
    made = 0
    for game, seat_a, seat_b in pair_games(a, b)[:MAX_GAMES]:
        if made >= limit:
            break
        if not get_game(game.table.game).bots.get("worlds"):
            continue
        todo = [
            (user, partner, seat, partner_seat)
            for user, partner, seat, partner_seat in ((a, b, seat_a, seat_b), (b, a, seat_b, seat_a))
            if (game.pk, user) not in done
        ]
        for user, partner, seat, partner_seat in todo:
            game_grade(game, user, partner, seat, partner_seat, budget=budget)
        made += bool(todo)
    log.info("fairplay: graded %d game(s) of pair %d-%d", made, a, b)
    return made


def pair_grade_step(a: int, b: int) -> int:
    """One task's share: one game graded (at most twice ``FAIRPLAY_GRADE_SECONDS``, so a worker that also
    plays bots' moves is never held for long), then the next game queued as a task of its own."""
    made = pair_grade(a, b, limit=1)
    if made:
        pair_grade_queue(a, b)
    return made


def flagged_pairs_queue() -> int:
    """Send one grading task per flagged pair of a recent scan (the stored one, or one made now); returns how many
    were sent."""
    from fairplay import tasks  # tasks import services inside their bodies: no cycle at import time

    scan = pair_scan()
    if scan is None or scan.finished_at < timezone.now() - timedelta(seconds=2 * scan_every()):
        scan = pair_scan_store() or pair_scan()
    if scan is None:  # another worker is making the first scan: the next hour grades
        return 0
    pairs = [(d["a"], d["b"]) for d in scan.pairs if d["flagged"]]
    for a, b in pairs:
        transaction.on_commit(partial(tasks.grade_pair.delay, a, b))
    return len(pairs)


def pair_grade_queue(a: int, b: int) -> None:
    """A moderator asked for a pair's games to be graded now: one task, after commit."""
    from fairplay import tasks

    transaction.on_commit(lambda: tasks.grade_pair.delay(a, b))


#: pairs a stored scan keeps beside every flagged or reported one, the strongest first (the queue's "every pair")
SCAN_KEEPS = 200
#: a scan that finished this recently answers a scheduled one (a task delivered twice scans once)
SCAN_FRESH_SECONDS = 60
#: the locks' lifetimes: a scan longer than this, or a queued one lost with its worker, is tried again after it
SCAN_RUNNING_SECONDS = 30 * 60
SCAN_QUEUED_SECONDS = 15 * 60


def scan_every() -> float:
    return float(getattr(settings, "FAIRPLAY_SCAN_SECONDS", 600.0))


def pair_scan_store(requested_at: datetime | None = None) -> PairScan | None:
    """Score every pair over every finished game and store it as the latest scan (the older one deleted).

    A scan started after ``requested_at`` (a moderator's click), or without it one finished in the last
    ``SCAN_FRESH_SECONDS``, already answers: it is returned as it is. While another scan runs this returns None
    without scanning (a lock in the cache for ``SCAN_RUNNING_SECONDS``).
    """
    latest = pair_scan()
    if latest is not None and (
        latest.started_at >= requested_at
        if requested_at is not None
        else latest.finished_at >= timezone.now() - timedelta(seconds=SCAN_FRESH_SECONDS)
    ):
        cache.delete(SCAN_QUEUED)
        return latest
    try:
        if not lock_add(SCAN_RUNNING, 1, SCAN_RUNNING_SECONDS):
            return None
    except REDIS_DOWN as exc:  # whether another scan runs is unknown: the next scheduled one scans
        log.warning("fairplay: scan skipped, its lock cannot be taken (%s)", exc)
        return None
    try:
        started = timezone.now()
        found, baseline = pair_scores_and_baseline()
        kept = [p for p in found if p.flagged or p.reports]
        kept += [p for p in found if not (p.flagged or p.reports)][:SCAN_KEEPS]
        kept.sort(key=lambda p: (-p.rank, -p.games, p.a, p.b))
        with transaction.atomic():
            scan = PairScan.objects.create(
                started_at=started,
                finished_at=timezone.now(),
                total=len(found),
                pairs=[pair_to_json(p) for p in kept],
                baseline=baseline_to_json(baseline),
            )
            PairScan.objects.exclude(pk=scan.pk).delete()
    finally:
        # a scan that failed answers the click too: the page offers the button again, rather than waiting on a
        # scan nobody makes until the notice expires
        cache.delete_many([SCAN_RUNNING, SCAN_QUEUED])
    seconds = (scan.finished_at - started).total_seconds()
    log.info("fairplay: scanned %d pair(s) in %.1f s, kept %d", len(found), seconds, len(kept))
    return scan


#: what sending a task raises while Celery's broker (Redis) cannot be reached
SEND_FAILED: tuple[type[Exception], ...] = (KombuError, *REDIS_DOWN)


class ScanUnavailable(Exception):
    """A scan cannot be queued now: Redis (the scan's locks and Celery's broker) cannot be reached."""


def pair_scan_queue() -> bool:
    """A moderator asked for a scan now: one task unless one is queued or running already; returns whether it was
    queued. Raises ``ScanUnavailable`` while Redis is gone: without the lock every click would queue a scan."""
    from fairplay import tasks

    try:
        if cache.get(SCAN_RUNNING) or not lock_add(SCAN_QUEUED, 1, SCAN_QUEUED_SECONDS):
            return False
    except REDIS_DOWN as exc:
        raise ScanUnavailable from exc
    asked = timezone.now().isoformat()
    try:
        # sent now, not after a commit: the click wrote nothing the scan must see, and a send that fails is told
        tasks.scan_pairs.delay(asked)
    except SEND_FAILED as exc:
        cache.delete(SCAN_QUEUED)
        raise ScanUnavailable from exc
    return True
