"""Counting a player's matches with other people, inside the transaction of what happened at the table.

Only a match with at least one other human counts (walking out on bots harms nobody, as for playbans). A bot taking
his seat counts against him at once, while the match goes on, unless it was not his doing (a tournament round's
clock) or his resignation ended the game by its rules (nobody had to play on against a bot). At the match's end
every human seat is settled: one still at his seat (back after a timeout, say) finished it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from games import get_game
from reliability.models import Sitting, Tally
from reliability.selectors import COUNTED_GAMES
from tables.models import Move, Seat, Table

#: a bot took the seat, but not by the player's doing
EXCUSED = frozenset({"deadline"})


def _humans(table_id: int) -> list[Seat]:
    return list(Seat.objects.filter(table_id=table_id, user__isnull=False, user__is_bot=False, bot_level=""))


def _excused(table: Table, reason: str) -> bool:
    return reason in EXCUSED or (reason == "resigned" and get_game(table.game).resign_ends)


def sitting_taken_over(table: Table, seat: Seat, reason: str) -> None:
    """A bot took ``seat`` (``tables.signals.seat_taken_over``): count the match as not finished, unless excused."""
    humans = _humans(table.pk)
    if seat.user_id is None or len(humans) < 2 or seat.user_id not in {s.user_id for s in humans}:
        return
    finished = _excused(table, reason)
    sitting, created = Sitting.objects.get_or_create(
        user_id=seat.user_id,
        table=table,
        defaults={"finished": finished, "timed_out": reason == "timeouts", "reason": reason},
    )
    if not created:
        sitting.finished = finished
        sitting.timed_out = sitting.timed_out or reason == "timeouts"
        sitting.reason = reason
        sitting.save(update_fields=["finished", "timed_out", "reason"])
    tally_update([seat.user_id])


def sittings_settle(table: Table) -> None:
    """The match at ``table`` ended (``tables.signals.match_finished``): settle every human seat of it."""
    humans = _humans(table.pk)
    if len(humans) < 2:
        return
    timed_out = set(Move.objects.filter(game__table_id=table.pk, by="timeout").values_list("seat", flat=True))
    known = {s.user_id: s for s in Sitting.objects.filter(table_id=table.pk)}
    now = timezone.now()
    for seat in humans:
        if seat.user_id is None:
            continue
        before = known.get(seat.user_id)
        # still at his seat: he finished, whatever happened on the way; away: as counted when the bot took over
        finished = not seat.away or (before is not None and before.finished)
        ran_out = seat.index in timed_out or (before is not None and before.timed_out)
        if before is None:
            Sitting.objects.create(user_id=seat.user_id, table=table, at=now, finished=finished, timed_out=ran_out)
        elif (before.finished, before.timed_out) != (finished, ran_out):
            before.finished, before.timed_out = finished, ran_out
            before.save(update_fields=["finished", "timed_out"])
    tally_update(s.user_id for s in humans if s.user_id is not None)


def tally_update(user_ids: Iterable[int]) -> None:
    """Sum each player's last ``COUNTED_GAMES`` sittings into his tally (what the seats read)."""
    now = timezone.now()
    for user_id in user_ids:
        rows = list(
            Sitting.objects.filter(user_id=user_id)
            .order_by("-at", "-pk")
            .values_list("finished", "timed_out")[:COUNTED_GAMES]
        )
        Tally.objects.update_or_create(
            user_id=user_id,
            defaults={
                "games": len(rows),
                "finished": sum(f for f, _ in rows),
                "timed_out": sum(t for _, t in rows),
                "updated_at": now,
            },
        )


@transaction.atomic
def reliability_rebuild() -> tuple[int, int]:
    """Count every finished or stopped table with two humans or more from what its rows kept (who was away at the
    end, who resigned, which seats' clocks ran out); why a bot took a seat was not kept, so an away seat counts as
    left. A stopped table counts only its away seats. Returns (tables counted, players)."""
    Sitting.objects.all().delete()
    ended = (Table.Status.FINISHED, Table.Status.ABORTED)
    seats = Seat.objects.filter(
        table__status__in=ended, user__isnull=False, user__is_bot=False, bot_level=""
    ).select_related("table")
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    by_table = {t: s for t, s in by_table.items() if len(s) >= 2}
    timed_out = set(
        Move.objects.filter(game__table_id__in=list(by_table), by="timeout").values_list("game__table_id", "seat")
    )
    rows = []
    for table_id, humans in by_table.items():
        table = humans[0].table
        for seat in humans:
            if seat.user_id is None:
                continue
            finished = not seat.away or (seat.resigned and get_game(table.game).resign_ends)
            if table.status == Table.Status.ABORTED and finished:
                continue  # stopped before its end: only a walk-out counts
            rows.append(
                Sitting(
                    user_id=seat.user_id,
                    table_id=table_id,
                    at=table.finished_at or table.created_at,
                    finished=finished,
                    timed_out=(table_id, seat.index) in timed_out,
                    reason="" if finished else ("resigned" if seat.resigned else "left"),
                )
            )
    Sitting.objects.bulk_create(rows, batch_size=1000)
    players = {row.user_id for row in rows}
    Tally.objects.all().delete()
    tally_update(players)
    return len(by_table), len(players)
