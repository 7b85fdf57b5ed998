"""Turn deadlines in one Redis sorted set, swept about every second by beat's ``sweep_turn_deadlines``.

Member ``"<game id>:<move number>"``, score the deadline (epoch seconds),
written after the move's commit. The set is a schedule, not the truth: the
database's ``Game.deadline`` is. Hence:

- acting is exactly once because the timeout re-checks the turn under the
  game's row lock (``game_apply_timeout``): a member whose turn was played is
  a no-op, and the same turn swept twice moves once;
- claiming is atomic (a Lua script reads the due members and removes them in
  one step), so two sweepers never both take a member and do the work twice;
- a lost member (a write while Redis was down, the last second before a crash,
  a flush) is recovered: the set is re-seeded from the database's playing
  games whenever its marker key is missing (a new or flushed Redis, and every
  ``TURN_RESEED_SECONDS`` as the marker expires), and beat's slower
  ``sweep_overdue_turns`` applies anything overdue in the database.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from redis.commands.core import Script

from core import outbox
from core.redis_client import redis_client, send_together
from tables.models import Game

logger = logging.getLogger(__name__)

KEY = f"{settings.REDIS_PREFIX}:turns:due"
#: present while the set is known to hold every playing game's deadline; expires to re-seed now and then
SEEDED = f"{settings.REDIS_PREFIX}:turns:seeded"

# KEYS[1] the set; ARGV[1] now, ARGV[2] how many at most. Returns the due members, already removed.
CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return due
"""


@lru_cache(maxsize=1)
def _claim_script(url: str) -> Script:
    return redis_client().register_script(CLAIM)


def member(game_id: int, move_number: int) -> str:
    return f"{game_id}:{move_number}"


def parse(raw: bytes | str) -> tuple[int, int]:
    text = raw.decode() if isinstance(raw, bytes) else raw
    game_id, move_number = text.split(":")
    return int(game_id), int(move_number)


def deadline_set(game_id: int, move_number: int, deadline: datetime) -> None:
    """The turn ``move_number`` of the game is due at ``deadline``; the turn before it no longer is."""
    commands: list[tuple[Any, ...]] = [
        ("ZREM", KEY, member(game_id, move_number - 1)),  # played: spare the sweeper a no-op
        ("ZADD", KEY, deadline.timestamp(), member(game_id, move_number)),
    ]

    def failed(exc: BaseException) -> None:
        # the move is committed and its deadline is in the database: the slow sweep or the next re-seed acts on it
        logger.warning("turn deadline of game %s move %s not queued (%s)", game_id, move_number, exc)

    # a socket's move: written with its events, in their round trip from the event loop, so that its thread need not
    # wait for Redis (a round trip of its own there cost the move's thread 50-70 us of CPU, timed in a shell)
    if outbox.redis_send(settings.REDIS_URL, commands, failed):
        return
    try:
        send_together(redis_client(), commands)  # (the client's pipeline cost more)
    except redis.RedisError as exc:
        failed(exc)


def deadlines_drop(turns: list[tuple[int, int]]) -> None:
    """Forget these turns (the game ended on them)."""
    if not turns:
        return
    try:
        redis_client().zrem(KEY, *(member(g, m) for g, m in turns))
    except redis.RedisError as exc:
        logger.warning("turn deadlines not dropped (%s): they come due as no-ops", exc)


def deadlines_reseed(chunk: int = 2000) -> int:
    """Write every playing game's deadline from the database into the set. Returns how many."""
    rows = (
        Game.objects.filter(status=Game.Status.PLAYING, deadline__isnull=False, table__paused_at__isnull=True)
        .values_list("pk", "move_number", "deadline")
        .iterator(chunk_size=chunk)
    )
    pipe, batch, count = redis_client().pipeline(transaction=False), {}, 0
    for game_id, move_number, deadline in rows:
        assert deadline is not None  # filtered above
        batch[member(game_id, move_number)] = deadline.timestamp()
        if len(batch) >= chunk:
            pipe.zadd(KEY, batch)
            count, batch = count + len(batch), {}
    if batch:
        pipe.zadd(KEY, batch)
        count += len(batch)
    pipe.execute()
    return count


def deadlines_claim(now: float | None = None, limit: int = 200) -> list[tuple[int, int]]:
    """Take the turns due by ``now`` out of the set: each member goes to one caller only."""
    due = _claim_script(settings.REDIS_URL)(keys=[KEY], args=[time.time() if now is None else now, limit])
    return [parse(raw) for raw in due]


def deadlines_sweep(limit: int = 200) -> int:
    """Re-seed the set if its marker is gone, then act on every due turn. Returns how many timeouts acted."""
    from tables.services import game_apply_timeout

    client = redis_client()
    if client.set(SEEDED, "1", nx=True, ex=int(settings.TURN_RESEED_SECONDS)):
        seeded = deadlines_reseed()
        logger.info("turn deadlines re-seeded from the database: %s playing games", seeded)
    now = time.time()
    claimed = deadlines_claim(now, limit)
    if not claimed:
        return 0
    # one query tells the stale members (the turn was played, the game is over) from the live ones
    current = {
        pk: (move, deadline)
        for pk, move, deadline in Game.objects.filter(
            pk__in={g for g, _ in claimed}, status=Game.Status.PLAYING
        ).values_list("pk", "move_number", "deadline")
    }
    acted, again = 0, {}
    for game_id, move_number in claimed:
        move, deadline = current.get(game_id, (None, None))
        if move != move_number or deadline is None:
            continue
        if deadline.timestamp() > now:
            # the turn's deadline moved later (a handover) after this member was written: keep the later one
            again[member(game_id, move_number)] = deadline.timestamp()
            continue
        try:
            acted += game_apply_timeout(game_id, move_number)
        except Exception:
            # claimed but not applied: put it back so the next sweep tries again
            logger.exception("turn timeout of game %s move %s failed; retried next sweep", game_id, move_number)
            again[member(game_id, move_number)] = now
    if again:
        client.zadd(KEY, again)
    return acted
